// Talking to the content scripts of one tab, and what the service worker remembers about it:
// each frame's stable ordinal (the "1" of "f1_5"), and which document issued the IDs of the last
// snapshot, so that an ID is refused in any other document, as the CDP host refuses it.
import { HeldReads } from '../../src/core/heldReads.js';
import type { LostElement } from '../../src/model/acting/recover.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { ERROR_CODES, PagelensError, type ErrorCode } from '../../src/model/contracts/errors.js';
import { answerSchema } from './answers.js';
import { CHANNEL, type Answers, type Reply, type RequestBody } from './messages.js';

/**
 * A failure with the code the CDP host would give for it (NAVIGATED, UNKNOWN_ID, FRAME_DETACHED, …):
 * a PagelensError, so that the shared core (src/core) reads it as it reads the CDP host's. A code
 * from a frame that is none of ours is ENGINE_ERROR (the page may have bent the answer).
 */
export class ExtensionError extends PagelensError {
  constructor(code: string, message: string) {
    super((ERROR_CODES as readonly string[]).includes(code) ? code as ErrorCode : 'ENGINE_ERROR', message);
  }
}

/** Tabs the content scripts were injected into by hand (once per tab and service-worker life). */
const injected = new Set<number>();

/** One message to the content script of one frame; its answer, or an ExtensionError with the frame's reason. */
export async function ask<K extends RequestBody['kind']>(tabId: number, frameId: number, body: RequestBody & { kind: K }): Promise<Answers[K]> {
  let reply: Reply<Answers[K]> | undefined;
  const message = { channel: CHANNEL, ...body };
  try {
    reply = await chrome.tabs.sendMessage<Reply<Answers[K]>>(tabId, message, { frameId });
  } catch (e) {
    const reason = (e as Error).message;
    // A tab opened before the extension was installed has no content script: put it in once, then ask again.
    if (/Receiving end does not exist/i.test(reason) && !injected.has(tabId)) {
      injected.add(tabId);
      try {
        await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['engine.js', 'content.js'] });
        // The hook counts the closed roots made from now on (those made before are found by the first search).
        await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['shadowHook.js'], world: 'MAIN' }).catch(() => {});
        reply = await chrome.tabs.sendMessage<Reply<Answers[K]>>(tabId, message, { frameId });
      } catch (again) {
        throw new ExtensionError('FRAME_DETACHED', `frame ${frameId} did not answer: ${(again as Error).message}`);
      }
    } else {
      // No content script there (a frame still loading, a page extensions may not enter) or the frame went away.
      throw new ExtensionError('FRAME_DETACHED', `frame ${frameId} did not answer: ${reason}`);
    }
  }
  if (!reply) throw new ExtensionError('ENGINE_ERROR', `frame ${frameId} answered nothing`);
  if (!reply.ok) throw new ExtensionError(reply.code ?? 'ENGINE_ERROR', reply.error);
  // Believed only once it fits the engine contract (the CDP host checks the same schemas).
  const checked = answerSchema(body).safeParse(reply.value);
  if (!checked.success) {
    const what = 'action' in body ? `element ${body.action.op}` : body.kind;
    throw new ExtensionError('ENGINE_ERROR', `frame ${frameId} answered ${what} with something the engine contract does not allow (${checked.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ')}); the page may have tampered with it.`);
  }
  return checked.data as Answers[K];
}

export interface TabState {
  /** Extension frameId → ordinal; ordinals are given in document order the first time a frame is seen, never reused. */
  ordinals: Map<number, number>;
  nextOrdinal: number;
  /** Ordinal → extension frameId of the frames the last snapshot read (a frame that failed is not in it). */
  frameOf: Map<number, number>;
  /** Ordinal → the document token that issued the last snapshot's IDs in that frame. */
  docs: Map<number, string>;
  /** Ordinal → Chrome's documentId of that document: a reloaded or replaced frame has another one. */
  documents: Map<number, string>;
  /** The highest ID any document of the tab issued: a new document numbers above it. */
  idHighWater: number;
  /** ID → what the element was when a snapshot handed it out (role, name, where, in which document), for the stale check and recovery. */
  seen: Map<string, LostElement>;
  /** Each frame's last read, which the next read of its kind asks changes against: memory only (after a restart, the next read crosses whole). */
  held: HeldReads;
}

/** As many sightings as the CDP host keeps (ids.ts): every target of a 50k-element page. */
const MAX_SEEN = 60_000;

/** Records what a snapshot handed out; the oldest sightings beyond the limit are forgotten. */
export function noteSeen(state: TabState, model: { nodes: Array<Pick<PageModel['nodes'][number], 'gid' | 'role' | 'name' | 'frame' | 'box'>>; docs: PageModel['docs'] }): void {
  for (const n of model.nodes) {
    const doc = model.docs[n.frame];
    if (!doc) continue;
    state.seen.delete(n.gid);
    state.seen.set(n.gid, { role: n.role, name: n.name, doc, frame: n.frame, centre: [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2] });
  }
  for (const k of state.seen.keys()) { if (state.seen.size <= MAX_SEEN) break; state.seen.delete(k); }
}

const tabs = new Map<number, TabState>();
const key = (tabId: number) => `pagelens.tab.${tabId}`;

/**
 * The tab's state, from chrome.storage.session when this service worker is new (Chrome stops an
 * idle service worker; its memory goes, the session store stays): ordinals stay stable and IDs
 * stay bound to their documents across restarts.
 */
export async function restoreTab(tabId: number): Promise<TabState> {
  const known = tabs.get(tabId);
  if (known) return known;
  const saved = (await chrome.storage.session.get([key(tabId)]).catch(() => ({} as Record<string, unknown>)))[key(tabId)] as
    { ordinals: Array<[number, number]>; nextOrdinal: number; frameOf: Array<[number, number]>; docs: Array<[number, string]>; documents: Array<[number, string]>; idHighWater?: number; seen?: string } | undefined;
  if (!saved || tabs.has(tabId)) return tabState(tabId);
  const state: TabState = { ordinals: new Map(saved.ordinals), nextOrdinal: saved.nextOrdinal, frameOf: new Map(saved.frameOf), docs: new Map(saved.docs), documents: new Map(saved.documents), idHighWater: saved.idHighWater ?? 0, seen: sightingsFrom(saved.seen), held: new HeldReads() };
  tabs.set(tabId, state);
  return state;
}

/**
 * The sightings as one JSON text: session storage copies a structured value entry by entry, and a
 * 20k-element page's sightings took it 250 ms at every read; one string takes it 30 ms.
 */
function sightingsText(seen: Map<string, LostElement>): string {
  return JSON.stringify([...seen]);
}

/** The sightings saveTab stored (our own text; anything unreadable is no sighting). */
function sightingsFrom(text: string | undefined): Map<string, LostElement> {
  try {
    const entries: unknown = text ? JSON.parse(text) : [];
    return new Map(Array.isArray(entries) ? entries as Array<[string, LostElement]> : []);
  } catch {
    return new Map();
  }
}

export async function saveTab(tabId: number): Promise<void> {
  const s = tabState(tabId);
  await chrome.storage.session.set({ [key(tabId)]: { ordinals: [...s.ordinals], nextOrdinal: s.nextOrdinal, frameOf: [...s.frameOf], docs: [...s.docs], documents: [...s.documents], idHighWater: s.idHighWater, seen: sightingsText(s.seen) } }).catch(() => {});
}

export function tabState(tabId: number): TabState {
  let s = tabs.get(tabId);
  if (!s) {
    s = { ordinals: new Map([[0, 0]]), nextOrdinal: 1, frameOf: new Map([[0, 0]]), docs: new Map(), documents: new Map(), idHighWater: 0, seen: new Map(), held: new HeldReads() };
    tabs.set(tabId, s);
  }
  return s;
}

export function ordinalOf(state: TabState, frameId: number): number {
  let ord = state.ordinals.get(frameId);
  if (ord === undefined) { ord = state.nextOrdinal++; state.ordinals.set(frameId, ord); }
  return ord;
}
