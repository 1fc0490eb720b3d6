// The Host port over chrome.* (src/model/contracts/host.ts): frames from webNavigation and the
// owners handshake (layout.ts), engine and element calls through the content scripts (tab.ts ask,
// answers checked against the engine contract by answers.ts), IDs bound to their documents
// (target.ts resolveId), and for the page side acting needs: input through chrome.debugger
// (input.ts), the tab's address, navigation and a settle wait. The act pipeline and verification
// above it are src/core's, shared with the CDP host.
import type { HostElement, HostEngine, HostFrame } from '../../src/model/contracts/host.js';
import type { ActHost, Navigation, SettleRequest, Settled } from '../../src/core/port.js';
import { insertText, mouseMove, mousePress, pressKeys, selectAll } from './input.js';
import { describe, layoutFrames, type ExtFrame } from './layout.js';
import { recoverInLedger } from '../../src/core/recover.js';
import { globalId } from '../../src/model/pagemodel/page.js';
import { readModel } from './snapshot.js';
import { ask, ExtensionError, ordinalOf, saveTab, tabState } from './tab.js';
import { resolveId } from './target.js';

/** The host's own handle on a frame: Chrome's frameId and its parent's. */
interface FrameRef { frameId: number; parentFrameId: number }
/** The host's own handle on an element: the frame, the document that issued its ID, its local ID. */
interface ElementRef { frameId: number; doc: string; local: string }

const frameRef = (f: HostFrame) => f.handle as FrameRef;
/** Chrome's frameId behind a port frame of this host. */
export const frameIdOf = (f: HostFrame) => frameRef(f).frameId;
const elementRef = (el: HostElement) => el.handle as ElementRef;

/** Room enough when the tab does not say its size: each frame's own visible part still clips. */
const UNKNOWN_VIEWPORT = { width: 100_000, height: 100_000 };

function fromLayout(f: ExtFrame): HostFrame {
  return {
    ordinal: f.ordinal, url: f.url, offset: f.offset, handle: { frameId: f.frameId, parentFrameId: f.parent?.frameId ?? -1 } satisfies FrameRef,
    ...(f.parent && { parent: f.parent.ordinal }),
    ...(f.clip && { clip: f.clip }),
    ...(f.error && { error: f.error }),
  };
}

export function extensionEngine(tabId: number): HostEngine {
  // Read at each call: the tab's state is the one restoreTab read back (every entry point awaits it).
  const state = () => tabState(tabId);
  return {
    async frames() {
      // Listed afresh: a navigation or a new iframe changes them. Not laid out (offsets are not needed to read).
      const all = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
      const byId = new Map(all.map((f) => [f.frameId, f]));
      return all.sort((a, b) => (a.frameId === 0 ? -1 : b.frameId === 0 ? 1 : 0)).map((f): HostFrame => ({
        ordinal: ordinalOf(state(), f.frameId), url: f.url, offset: [0, 0], handle: { frameId: f.frameId, parentFrameId: f.parentFrameId } satisfies FrameRef,
        ...(f.parentFrameId >= 0 && byId.has(f.parentFrameId) && { parent: ordinalOf(state(), f.parentFrameId) }),
        ...(f.errorOccurred && { error: 'failed to load (blocked or unreachable)' }),
      }));
    },
    async layout(use) {
      const tab = await chrome.tabs.get(tabId) as chrome.tabs.Tab & { width?: number; height?: number };
      const viewport = tab.width && tab.height ? { width: tab.width, height: tab.height } : UNKNOWN_VIEWPORT;
      const { frames, warnings } = await layoutFrames(tabId, state(), viewport);
      return use(frames.map(fromLayout), warnings);
    },
    engine: (frame, call, args = []) => ask(tabId, frameRef(frame).frameId, { kind: 'engine', call, args }) as never,
    owner(frame, call, args = []) {
      const { frameId, parentFrameId } = frameRef(frame);
      if (parentFrameId < 0) throw new ExtensionError('FRAME_DETACHED', `frame ${frame.ordinal} has no iframe element in a parent`);
      if (call === 'reveal') return ask(tabId, parentFrameId, { kind: 'revealOwner', child: frameId }) as never;
      if (call === 'xpathOf') return ask(tabId, parentFrameId, { kind: 'ownerXpath', child: frameId }) as never;
      return ask(tabId, parentFrameId, { kind: 'coverAt', child: frameId, point: args as [number, number] }) as never;
    },
    async resolve(gid, opts = {}) {
      const r = await resolveId(tabId, gid);
      const doc = opts.doc ?? r.doc;
      const all = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
      const parentFrameId = all.find((f) => f.frameId === r.frameId)?.parentFrameId ?? -1;
      const frame: HostFrame = { ordinal: r.ordinal, url: '', offset: [0, 0], handle: { frameId: r.frameId, parentFrameId } satisfies FrameRef, ...(r.ordinal && { parent: ordinalOf(state(), parentFrameId) }) };
      return { frame, gid, doc, handle: { frameId: r.frameId, doc, local: r.local } satisfies ElementRef };
    },
    element(el, call, args = []) {
      const { frameId, doc, local } = elementRef(el);
      return ask(tabId, frameId, { kind: 'element', key: { doc, local }, action: { op: call, args } }) as never;
    },
    release: async () => {},
    sighting: (gid) => state().ledger.sighting(gid),
    noteControl(frame, doc, control) {
      const ledger = state().ledger;
      const issued = doc ?? ledger.expectedDoc('', frame.ordinal);
      if (issued) ledger.note(globalId(frame.ordinal, control.id), { doc: issued, frame: frame.ordinal, role: control.role, name: control.name, centre: [0, 0] });
    },
    async recover(gid) {
      const r = await recoverInLedger(state().ledger, gid, () => readModel(tabId, { fullPage: true }));
      if (r.ok) await saveTab(tabId);
      return r;
    },
    describe,
    typeByScript(el, value) {
      const { frameId, doc, local } = elementRef(el);
      return ask(tabId, frameId, { kind: 'element', key: { doc, local }, action: { op: 'typeJs', value } }) as never;
    },
  };
}

/**
 * The whole host the act pipeline uses, in one tab. `trusted`: whether chrome.debugger is attached
 * for input (the caller decides, once, before acting); without it the pipeline uses the engine's
 * DOM calls and says so.
 */
export function extensionActHost(tabId: number, trusted: boolean): ActHost {
  return {
    ...extensionEngine(tabId),
    input: {
      trusted,
      move: (x, y) => mouseMove(tabId, x, y),
      // The pipeline moves the pointer there first (and checks what is under it): the press lands where it is.
      click: (x, y, clicks = 1) => mousePress(tabId, x, y, clicks),
      insertText: (text) => insertText(tabId, text),
      // Key by key: one trusted insertion per character.
      typeText: async (text) => { for (const ch of text) await insertText(tabId, ch); },
      async press(chord) {
        // Select-all as the extension always sent it: with the editing command, whatever the platform's shortcut.
        if (chord.modifiers === 2 && chord.key.key.toLowerCase() === 'a') return selectAll(tabId);
        const keys = [...chord.modifierKeys.map((m) => m.key), chord.key.key === ' ' ? 'Space' : chord.key.key].join('+');
        if (!await pressKeys(tabId, keys)) throw new ExtensionError('BAD_INPUT', `unknown key "${keys}"`);
      },
    },
    url: async () => (await chrome.tabs.get(tabId)).url ?? '',
    navigate: (how) => navigate(tabId, how),
    settle: (req) => settle(tabId, req),
  };
}

async function navigate(tabId: number, how: Navigation): Promise<void> {
  if ('goto' in how) await chrome.tabs.update(tabId, { url: how.goto });
  else if ('history' in how) await (how.history === 'back' ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
  else await chrome.tabs.reload(tabId);
}

/**
 * Until the tab has loaded and every frame a snapshot read has been quiet for `quietMs` (at most
 * `timeoutMs`). A frame that no longer answers at all is gone, not busy. No network watch here:
 * the page's requests are not visible to the extension without the debugger's Network domain.
 */
const where = (tabId: number, frameId: number) => (frameId === 0 ? 'the page' : `frame ${ordinalOf(tabState(tabId), frameId)}`);

async function settle(tabId: number, req: SettleRequest): Promise<Settled> {
  const t0 = Date.now();
  const quietMs = req.quietMs ?? 150;
  let busy = 'the tab was still loading';
  await new Promise((r) => setTimeout(r, 50));
  while (Date.now() - t0 < req.timeoutMs) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (tab?.status === 'complete') {
      const frameIds = [...new Set([0, ...tabState(tabId).frameOf.values()])];
      const quiet = await Promise.all(frameIds.map((f) => ask(tabId, f, { kind: 'activity' }).then(
        (a) => (a.readyState === 'complete' && Math.min(a.quietMs, req.afterAction ? Date.now() - t0 : Infinity) >= quietMs) || `${where(tabId, f)} changed ${Math.round(a.quietMs)} ms ago`,
        (e: unknown) => (e instanceof ExtensionError && e.code === 'FRAME_DETACHED' && f !== 0) || `${where(tabId, f)} did not answer (${describe(e)})`)));
      const still = quiet.find((q) => q !== true);
      if (still === undefined) return { settled: true, waitedMs: Date.now() - t0 };
      busy = String(still);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { settled: false, waitedMs: Date.now() - t0, reason: busy };
}
