// The semantic_v3 payload of a tab, read through the content scripts: every frame's engine
// snapshot, placed with the layout (layout.ts), composed and rendered by the same model code the
// CDP host uses (src/model/pagemodel/page.ts composePage, src/model/renderers/render.ts renderV3); and the heavier
// artifacts as the CDP host gives them (src/browser/artifacts.ts): skeleton, full (every frame's
// serializeDocument copy inlined, templatized) and hybrid (screenshot with set-of-mark, image.ts).
import { renderEvents, type MutationEvent } from '../../src/model/pagemodel/mutations.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { checkReadText, readAgainstHeld, ReadTally } from '../../src/core/heldReads.js';
import { readFrames } from '../../src/core/read.js';
import { renderV3 } from '../../src/model/renderers/render.js';
import type { Box, SemanticV3Result } from '../../src/model/contracts/schema.js';
import { tokenCounts } from '../../src/model/renderers/tokens.js';
import { joinFrameDocuments, type FullResult, type HybridResult, type SkeletonResult } from '../../src/model/renderers/artifacts.js';
import type { SerializedDocument } from '../../src/model/contracts/engineAnswers.js';
import { elapsedMs, fullResult, hybridResult, skeletonResult, type SerializedPage } from '../../src/model/renderers/artifactResults.js';
import type { SelectOptions } from '../../src/model/renderers/skeleton.js';
import { givenOptions, snapshotRequestConflict, type SnapshotMode } from '../../src/model/contracts/snapshotRequest.js';
import { describe, frameInfo, layoutFrames, type ExtFrame } from './layout.js';
import { base64, captureTab, composeJpeg } from './image.js';
import { ask, ExtensionError, noteSeen, restoreTab, saveTab, tabState } from './tab.js';

export interface SnapshotOptions {
  /** semantic_v3 (default), skeleton, full (the templatized annotated DOM) or hybrid (tree with boxes, skeleton, screenshot); the shared mode list (semantic and axtree are not produced here). */
  mode?: SnapshotMode;
  /** Every element of the page, not only those in the viewport. */
  fullPage?: boolean;
  /** Boxes on every node (`box`). */
  boxes?: boolean;
  /** hybrid: JPEG quality, 1–100 (60 by default, as the CDP host). */
  quality?: number;
  /** hybrid: draw each visible element's ID on the screenshot (set-of-mark; true by default). */
  marks?: boolean;
  /** hybrid: the CDP host's spelling of the two above (`lens.snapshot({ mode: 'hybrid', screenshot })`). */
  screenshot?: { quality?: number; setOfMark?: boolean };
}

/** The page model of a tab; the IDs in it are bound to the documents that issued them. */
/** `handOut: false`: a read for the extension itself (recovery): nothing in it is recorded as handed out, no ID is re-bound. */
export async function readModel(tabId: number, opts: SnapshotOptions & { structure?: boolean; handOut?: boolean; fresh?: boolean } = {}): Promise<PageModel> {
  const t0 = performance.now();
  const viewportOnly = !opts.fullPage;
  const engine = { viewportOnly, ...(opts.structure && { structure: true, attributes: true }), ...(opts.fresh && { fresh: true }) };
  const state = await restoreTab(tabId);
  // A frame's first document is numbered from 1 (as the CDP host numbers it); a later one continues
  // above every ID the tab handed out, so an ID is never reused.
  const idBase = (ordinal: number) => (state.docs.has(ordinal) ? state.idHighWater : 0);
  const tally = new ReadTally();
  // Each frame answers with what changed since the read held for it (src/core/heldReads.ts).
  const readFrame = async (frameId: number, ordinal: number, view?: Box) => {
    let origin = '';
    const snapshot = await readAgainstHeld(state.held, String(frameId), engine, tally, ordinal ? `frame ${ordinal}: ` : '', async (base) => {
      const r = await ask(tabId, frameId, { kind: 'read', options: view ? { ...engine, view } : engine, base, idBase: idBase(ordinal) });
      origin = r.origin;
      if (r.lastId) state.idHighWater = Math.max(state.idHighWater, r.lastId);
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
  if (opts.handOut === false) return model;
  // Frames read before keep their lineage even when this read missed them.
  state.docs = new Map([...state.docs, ...Object.entries(model.docs).map(([k, v]) => [Number(k), v] as [number, string])]);
  state.frameOf = new Map([...read].map((f) => [f.ordinal, f.frameId]));
  state.documents = new Map([...read].flatMap((f) => (f.documentId ? [[f.ordinal, f.documentId] as [number, string]] : [])));
  noteSeen(state, model);
  await saveTab(tabId);
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


/** Options listed per select in the skeleton (the selected ones always), as the CDP host lists them. */
const MAX_OPTIONS = 25;

/** The model with structure and attributes, and the options of its native selects (skeleton and hybrid). */
async function readForSkeleton(tabId: number, opts: SnapshotOptions): Promise<{ model: PageModel; selects: Map<string, SelectOptions> }> {
  const model = await readModel(tabId, { ...opts, structure: true });
  const selects = new Map<string, SelectOptions>();
  const byFrame = new Map<number, string[]>();
  for (const n of model.nodes) if (n.tag === 'select') byFrame.set(n.frame, [...byFrame.get(n.frame) ?? [], n.gid.replace(/^f\d+_/, '')]);
  const state = tabState(tabId);
  await Promise.all([...byFrame].map(async ([ordinal, ids]) => {
    try {
      const frameId = state.frameOf.get(ordinal);
      if (frameId === undefined) throw new ExtensionError('FRAME_DETACHED', 'the frame is gone');
      const read = await ask(tabId, frameId, { kind: 'nativeOptions', ids, max: MAX_OPTIONS });
      if (read.doc !== model.docs[ordinal]) throw new ExtensionError('NAVIGATED', 'the frame shows another document now');
      for (const s of read.selects) selects.set(ordinal ? `f${ordinal}_${s.id}` : s.id, { options: s.options, total: s.total });
    } catch (e) {
      model.warnings.push(`${ordinal ? `frame ${ordinal}: ` : ''}the options of its selects could not be read (${describe(e)}); they are left out of the skeleton`);
    }
  }));
  return { model, selects };
}

/** The skeleton artifact as the CDP host renders it (src/browser/artifacts.ts): structure, attributes, select options. */
export async function skeleton(tabId: number, opts: SnapshotOptions = {}): Promise<SkeletonResult> {
  const t0 = performance.now();
  const { model, selects } = await readForSkeleton(tabId, opts);
  return skeletonResult(model, selects, t0);
}

// ---- full ----

function randomNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * As the CDP host's serializePage: the whole-page model first (it tags every element and binds the
 * IDs to their documents), then every frame read copies its document through the engine's
 * serializeDocument, marking where each child frame's iframe stands; each child's copy is
 * inlined at its marker, depth first; a frame whose copy failed leaves its iframe empty.
 */
async function serializeTab(tabId: number): Promise<SerializedPage> {
  const model = await readModel(tabId, { fullPage: true });
  const state = tabState(tabId);
  const nonce = randomNonce();
  const warnings: string[] = [];
  const read = model.frames.filter((f) => !f.error && state.frameOf.has(f.id));
  const docs = new Map<number, SerializedDocument>();
  await Promise.all(read.map(async (f) => {
    const children = read.filter((c) => c.parentId === f.id).map((c) => ({ ordinal: c.id, frameId: state.frameOf.get(c.id)! }));
    try {
      docs.set(f.id, await ask(tabId, state.frameOf.get(f.id)!, { kind: 'serialize', frame: f.id, nonce, children }));
    } catch (e) {
      if (f.id === 0) throw e;
      warnings.push(`frame ${f.id}: its document could not be copied (${describe(e)}); its iframe is left empty`);
    }
  }));
  if (!docs.has(0)) throw new ExtensionError('ENGINE_ERROR', 'the page\'s document could not be copied');
  const joined = joinFrameDocuments(docs, model.docs, nonce);
  if (joined.stale) return { model, raw: '', warnings, elements: 0, tagged: 0, stale: joined.stale };
  for (const ordinal of joined.orphans) warnings.push(`frame ${ordinal}: its iframe was not found in its parent's copy; its document is left out`);
  return { model, raw: joined.raw, warnings, elements: joined.elements, tagged: joined.tagged };
}

/** The `full` artifact as the CDP host gives it: every frame's annotated copy inlined, templatized, sized before and after. */
export async function full(tabId: number): Promise<FullResult> {
  const t0 = performance.now();
  let attempt = await serializeTab(tabId);
  // A frame that moved to another document between the read and the copy: once more, from the start.
  if (attempt.stale) attempt = await serializeTab(tabId);
  if (attempt.stale) throw new ExtensionError('NAVIGATED', `The page kept changing documents while it was copied (${attempt.stale}). Take a new snapshot.`);
  return fullResult(attempt, t0);
}

// ---- hybrid ----

/**
 * The hybrid artifact as the CDP host gives it: semantic_v3 nodes of the viewport with boxes, the
 * skeleton, and a JPEG of the viewport (captureVisibleTab) with each visible element's ID drawn at
 * its box, and the image's perceptual hash (image.ts).
 */
export async function hybrid(tabId: number, opts: SnapshotOptions = {}): Promise<HybridResult> {
  const t0 = performance.now();
  const quality = opts.quality ?? 60;
  if (!Number.isInteger(quality) || quality < 1 || quality > 100) throw new ExtensionError('BAD_INPUT', `quality is a whole number from 1 to 100, not ${String(quality)}`);
  const setOfMark = opts.marks ?? true;
  // The picture and the read at once: both are of the viewport as it is now.
  const [{ model, selects }, shot] = await Promise.all([readForSkeleton(tabId, {}), captureTab(tabId)]);
  const v3 = renderV3(model, { boxes: true });
  const t1 = performance.now();
  const picture = await composeJpeg(shot.png, { quality, viewport: model.viewport, ...(setOfMark && { marks: v3.interactive_tree }) });
  const extra = shot.activated ? ['the tab was brought to the front of its window to be photographed'] : [];
  return hybridResult(model, selects, v3.interactive_tree, {
    base64: base64(picture.jpeg), hash: picture.hash, bytes: picture.jpeg.length, marks: picture.marks.length, ms: elapsedMs(t1), setOfMark,
  }, t0, extra);
}

export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'skeleton' }): Promise<SkeletonResult>;
export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'full' }): Promise<FullResult>;
export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'hybrid' }): Promise<HybridResult>;
export function snapshot(tabId: number, opts?: SnapshotOptions & { mode?: 'semantic_v3' }): Promise<SemanticV3Result>;
export function snapshot(tabId: number, opts?: SnapshotOptions): Promise<SemanticV3Result | SkeletonResult | FullResult | HybridResult>;
export async function snapshot(tabId: number, input: SnapshotOptions = {}): Promise<SemanticV3Result | SkeletonResult | FullResult | HybridResult> {
  // One option set for both hosts: the CDP host's `screenshot: { quality, setOfMark }` is taken too.
  const { screenshot, ...rest } = input;
  const opts: SnapshotOptions = screenshot
    ? { ...rest, ...(screenshot.quality !== undefined && { quality: screenshot.quality }), ...(screenshot.setOfMark !== undefined && { marks: screenshot.setOfMark }) }
    : rest;
  const mode = opts.mode ?? 'semantic_v3';
  // Which option applies to which mode: the table every face uses (model/contracts/snapshotRequest.ts).
  const shot = [opts.quality !== undefined && 'quality', opts.marks !== undefined && 'marks'].filter(Boolean);
  const given = givenOptions({ fullPage: opts.fullPage, boxes: opts.boxes, screenshot: shot.length ? true : undefined });
  const conflict = snapshotRequestConflict({ mode, given }, (part) => (part === 'screenshot' ? shot.join(' and ') : part));
  if (conflict) throw new ExtensionError('BAD_INPUT', conflict);
  switch (mode) {
    case 'skeleton': return skeleton(tabId, opts);
    case 'full': return full(tabId);
    case 'hybrid': return hybrid(tabId, opts);
    case 'semantic_v3': return semantic(tabId, opts);
    default: throw new ExtensionError('BAD_INPUT', `mode "${String(mode)}" is not produced by the extension (semantic_v3, skeleton, full, hybrid)`);
  }
}

/** semantic_v3 as `lens.snapshot()` gives it: the model rendered, recent events, the real o200k token count. */
async function semantic(tabId: number, opts: SnapshotOptions): Promise<SemanticV3Result> {
  const model = await readModel(tabId, opts);
  const result = renderV3(model, { boxes: opts.boxes });
  const { events, unread } = await recentEvents(tabId);
  if (events.length) result.recent_events = renderEvents(events);
  if (unread.length) result.warnings = [...result.warnings ?? [], ...unread];
  Object.assign(result.meta, await tokenCounts({ estimatedTokens: JSON.stringify(result) }));
  return result;
}
