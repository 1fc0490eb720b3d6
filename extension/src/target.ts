// An element ID of a snapshot ("12", "f1_5") → the frame that issued it and the document it is
// bound to; element operations go to that frame's content script.
import { coveredReason } from '../../src/model/acting/cover.js';
import type { ElementState } from '../../src/model/contracts/engine.js';
import { parseGlobalId } from '../../src/model/pagemodel/page.js';
import type { ElementOp } from './messages.js';
import { describe, ownersOf } from './layout.js';
import { ask, ExtensionError, ordinalOf, tabState } from './tab.js';

export interface Resolved { gid: string; ordinal: number; frameId: number; doc: string; local: string }

export async function resolveId(tabId: number, gid: string): Promise<Resolved> {
  const parsed = parseGlobalId(gid);
  if (!parsed) throw new ExtensionError('BAD_INPUT', `"${gid}" is not an element ID (expected "12" or "f1_5")`);
  const state = tabState(tabId);
  const frameId = state.frameOf.get(parsed.frame);
  // An ID is only ever used in the document that issued it: with no snapshot to say which, it is refused.
  const doc = state.docs.get(parsed.frame);
  if (frameId === undefined || doc === undefined) throw new ExtensionError('UNKNOWN_ID', `no snapshot of this tab has handed out ${gid}; take a snapshot first`);
  // A frame that was reloaded, navigated or replaced since the snapshot shows another document
  // (Chrome gives it another documentId, an iframe put back another frameId): its IDs are void.
  const now = ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []).find((f) => f.frameId === frameId);
  const then = state.documents.get(parsed.frame);
  if (!now || (then && now.documentId && now.documentId !== then)) {
    throw new ExtensionError('NAVIGATED', `${gid} was handed out in ${parsed.frame ? `frame ${parsed.frame}` : 'the page'} as it was at the snapshot; it has shown another document since (${now ? now.url : 'the frame is gone'}). Take a new snapshot.`);
  }
  return { gid, ordinal: parsed.frame, frameId, doc, local: parsed.local };
}

export function elementOp<T>(tabId: number, r: Resolved, action: ElementOp): Promise<T> {
  return ask(tabId, r.frameId, { kind: 'element', key: { doc: r.doc, local: r.local }, action }) as Promise<T>;
}

export async function readElement(tabId: number, gid: string): Promise<ElementState> {
  return elementOp<ElementState>(tabId, await resolveId(tabId, gid), { op: 'state' });
}

/** The ancestors of a frame, outermost first (extension frameIds, the frame itself last). */
async function chain(tabId: number, frameId: number): Promise<number[]> {
  const all = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const parentOf = new Map(all.map((f) => [f.frameId, f.parentFrameId]));
  const out = [frameId];
  for (let f = frameId; f !== 0;) {
    const p = parentOf.get(f);
    if (p === undefined || p < 0) throw new ExtensionError('FRAME_DETACHED', `frame ${frameId} is no longer in the tab`);
    out.unshift(p);
    f = p;
  }
  return out;
}

/** Scrolls every iframe on the way to a frame fully into view, outermost first (before acting inside it). */
export async function revealFrame(tabId: number, frameId: number): Promise<void> {
  const path = await chain(tabId, frameId);
  for (let i = 1; i < path.length; i++) {
    await ownersOf(tabId, path[i - 1], [path[i]]);
    await ask(tabId, path[i - 1], { kind: 'revealOwner', child: path[i] });
  }
}

/**
 * A point in a frame's viewport, carried up to the top-level viewport through each ancestor, and
 * hit-tested there: a modal in a parent over the iframe covers what is inside it (COVERED). A check
 * that cannot be made refuses the click: "could not tell" is never read as "not covered".
 */
export async function pointInTab(tabId: number, frameId: number, point: [number, number], gid: string): Promise<[number, number]> {
  const path = await chain(tabId, frameId);
  const state = tabState(tabId);
  let [x, y] = point;
  for (let i = path.length - 1; i >= 1; i--) {
    const parent = path[i - 1];
    const child = path[i];
    const { owners, silent } = await ownersOf(tabId, parent, [child]);
    const own = owners.get(child);
    if (!own && silent.has(child)) throw new ExtensionError('ENGINE_ERROR', `the iframe of frame ${child} could not be matched: the frame did not answer (${silent.get(child)})`);
    if (!own) throw new ExtensionError('FRAME_DETACHED', `the iframe of frame ${child} is gone`);
    x += own.content[0];
    y += own.content[1];
    const where = parent === 0 ? 'the page' : `frame ${ordinalOf(state, parent)}`;
    let cover;
    try {
      cover = await ask(tabId, parent, { kind: 'coverAt', child, point: [x, y] });
    } catch (e) {
      throw new ExtensionError('NOT_ACTIONABLE', `${gid}: could not check whether anything in ${where} covers its frame there (${describe(e)}), so it was not clicked`);
    }
    if (cover) throw new ExtensionError('COVERED', coveredReason(gid, cover, ordinalOf(state, parent)));
  }
  return [x, y];
}
