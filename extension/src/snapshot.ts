// Reading a tab through the content scripts: every frame's engine snapshot (only what changed since
// the read held for it crosses, src/core/heldReads.ts), laid out with the frames (layout.ts) and
// composed by the same code the CDP host uses (src/core/read.ts); and the frames' recent changes.
// This is the extension's transport for the reads: what is made of them (payloads, artifacts, the
// toolkits) is src/core/lens.ts's, through lens.ts.
import type { MutationEvent } from '../../src/model/pagemodel/mutations.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { checkReadText, readAgainstHeld, ReadTally } from '../../src/core/heldReads.js';
import type { ReadOptions } from '../../src/core/port.js';
import { readFrames } from '../../src/core/read.js';
import type { Box } from '../../src/model/contracts/schema.js';
import { describe, frameInfo, layoutFrames, type ExtFrame } from './layout.js';
import { ask, restoreTab, tabState } from './tab.js';


/**
 * The page model of a tab. Nothing in it is handed out (src/core/handOut.ts does that for what a
 * caller is shown); each frame's document numbers its IDs as the tab's ledger says at its first read.
 */
export async function readModel(tabId: number, opts: ReadOptions): Promise<PageModel> {
  const t0 = performance.now();
  const viewportOnly = !opts.fullPage;
  const engine = { viewportOnly, ...(opts.structure && { structure: true }), ...(opts.attributes && { attributes: true }), ...(opts.fresh && { fresh: true }) };
  const state = await restoreTab(tabId);
  const ledger = state.ledger;
  const tally = new ReadTally();
  // Each frame answers with what changed since the read held for it (src/core/heldReads.ts).
  const readFrame = async (frameId: number, ordinal: number, view?: Box) => {
    let origin = '';
    const snapshot = await readAgainstHeld(state.held, String(frameId), engine, tally, ordinal ? `frame ${ordinal}: ` : '', async (base) => {
      // Where the document numbers from if this is its first read (the ledger's rule, as the CDP
      // host's): a frame lineage is its ordinal, which is never given to another frame.
      const lineage = String(ordinal);
      const r = await ask(tabId, frameId, { kind: 'read', options: view ? { ...engine, view } : engine, base, idBase: ledger.start(lineage, ordinal === 0) });
      origin = r.origin;
      if (r.lastId !== undefined) ledger.claimed(lineage, ordinal === 0, r.lastId);
      return checkReadText(r.text);
    });
    return { snapshot, origin };
  };
  const mainRead = await readFrame(0, 0);
  const { frames, warnings } = await layoutFrames(tabId, state, mainRead.snapshot.viewport);
  const read = new Set<ExtFrame>();
  const model = await readFrames(frames, {
    read: async (f, view) => {
      const r = f.ordinal === 0 ? mainRead : await readFrame(f.frameId, f.ordinal, view);
      f.origin = r.origin;
      read.add(f);
      return r.snapshot;
    },
    ownerHits: (frame, points) => (frame.parent && frame.owned ? ask(tabId, frame.parent.frameId, { kind: 'ownerHits', child: frame.frameId, points }) : null),
    info: frameInfo,
    describe,
  }, viewportOnly, warnings);
  state.held.keepOnly(new Set(frames.map((f) => String(f.frameId))));
  tally.report(model.engine);
  model.timeMs = Math.round((performance.now() - t0) * 10) / 10;
  // Which frames this read reached, and Chrome's documents there: what an ID is resolved against.
  state.frameOf = new Map([...read].map((f) => [f.ordinal, f.frameId]));
  state.documents = new Map([...read].flatMap((f) => (f.documentId ? [[f.ordinal, f.documentId] as [number, string]] : [])));
  return model;
}

/** The last `limit` meaningful changes across the tab's frames, oldest first. */
export async function recentEvents(tabId: number, limit = 10): Promise<{ events: MutationEvent[]; unread: string[] }> {
  const state = tabState(tabId);
  const unread: string[] = [];
  const lists = await Promise.all([...state.frameOf].map(async ([ordinal, frameId]) => {
    try {
      return (await ask(tabId, frameId, { kind: 'recentEvents', limit })).map((e) => ({ ...e, frame: ordinal }));
    } catch (e) {
      unread.push(`recent changes in ${ordinal ? `frame ${ordinal}` : 'the page'} could not be read (${describe(e)})`);
      return [];
    }
  }));
  return { events: lists.flat().sort((a, b) => a.timestamp - b.timestamp).slice(-limit), unread };
}

