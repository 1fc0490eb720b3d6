// The semantic_v3 payload of a tab, read through the content scripts: every frame's engine
// snapshot, placed with the layout (layout.ts), composed and rendered by the same model code the
// CDP host uses (src/model/page.ts composePage, src/model/render.ts renderV3).
import { formatMutation, type MutationEvent } from '../../src/model/mutations.js';
import { composePage, type PageModel, type PlacedFrame } from '../../src/model/page.js';
import { renderV3 } from '../../src/model/render.js';
import type { FrameSnapshot, SemanticV3Result } from '../../src/model/schema.js';
import { countTokens } from '../../src/model/tokens.js';
import type { SkeletonResult } from '../../src/model/artifacts.js';
import { renderSkeleton, type SelectOptions } from '../../src/model/skeleton.js';
import { describe, frameInfo, layoutFrames, type ExtFrame } from './layout.js';
import { ask, ExtensionError, restoreTab, saveTab, tabState } from './tab.js';

export interface SnapshotOptions {
  /** semantic_v3 (default) or skeleton; full and hybrid are not produced by the extension yet. */
  mode?: 'semantic_v3' | 'skeleton';
  /** Every element of the page, not only those in the viewport. */
  fullPage?: boolean;
  /** Boxes on every node (`box`). */
  boxes?: boolean;
}

/** The page model of a tab; the IDs in it are bound to the documents that issued them. */
export async function readModel(tabId: number, opts: SnapshotOptions & { structure?: boolean } = {}): Promise<PageModel> {
  const t0 = performance.now();
  const viewportOnly = !opts.fullPage;
  const engine = { viewportOnly, ...(opts.structure && { structure: true, attributes: true }) };
  const state = await restoreTab(tabId);
  const mainRead = await ask(tabId, 0, { kind: 'snapshot', options: engine });
  const { frames, warnings } = await layoutFrames(tabId, state, mainRead.snapshot.viewport);
  const reads = await Promise.all(frames.map(async (f): Promise<FrameSnapshot | null> => {
    if (f.ordinal === 0) { f.origin = mainRead.origin; return mainRead.snapshot; }
    if (f.error) return null;
    try {
      const r = await ask(tabId, f.frameId, { kind: 'snapshot', options: engine });
      f.origin = r.origin;
      return r.snapshot;
    } catch (e) {
      f.error = describe(e);
      return null;
    }
  }));
  const placed: PlacedFrame[] = [];
  frames.forEach((f, i) => { const s = reads[i]; if (s) placed.push({ ordinal: f.ordinal, snapshot: s, offset: f.offset, clip: f.clip }); });
  warnings.push(...await markOccludedByParents(tabId, frames, placed));
  const model = composePage(mainRead.snapshot, placed, frames.map(frameInfo), viewportOnly, 0, warnings);
  model.timeMs = Math.round((performance.now() - t0) * 10) / 10;
  state.docs = new Map(Object.entries(model.docs).map(([k, v]) => [Number(k), v]));
  const read = frames.filter((_, i) => reads[i]);
  state.frameOf = new Map(read.map((f) => [f.ordinal, f.frameId]));
  state.documents = new Map(read.flatMap((f) => (f.documentId ? [[f.ordinal, f.documentId] as [number, string]] : [])));
  await saveTab(tabId);
  return model;
}

/**
 * A node inside an iframe counts as covered when something in an ancestor frame lies over the
 * iframe at its centre (a modal over an embedded widget): each ancestor is asked in turn.
 */
async function markOccludedByParents(tabId: number, frames: ExtFrame[], placed: PlacedFrame[]): Promise<string[]> {
  const warnings: string[] = [];
  await Promise.all(placed.filter((p) => p.ordinal !== 0).map(async (p) => {
    let frame = frames.find((f) => f.ordinal === p.ordinal);
    let candidates = p.snapshot.nodes.filter((n) => n.occ === false);
    let points = candidates.map((n): [number, number] => [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2]);
    while (frame?.parent && frame.owned && candidates.length) {
      const [ox, oy] = frame.originInParent;
      points = points.map(([x, y]) => [x + ox, y + oy]);
      let hits: boolean[];
      try {
        hits = await ask(tabId, frame.parent.frameId, { kind: 'ownerHits', child: frame.frameId, points });
        if (hits.length !== points.length) throw new ExtensionError('ENGINE_ERROR', `asked about ${points.length} points, answered ${hits.length}`);
      } catch (e) {
        warnings.push(`frame ${p.ordinal}: whether anything in frame ${frame.parent.ordinal} covers it could not be checked (${describe(e)}); its elements may be covered without being marked occ`);
        return;
      }
      const keep: number[] = [];
      hits.forEach((hit, i) => { if (hit) keep.push(i); else candidates[i].occ = true; });
      candidates = keep.map((i) => candidates[i]);
      points = keep.map((i) => points[i]);
      frame = frame.parent;
    }
  }));
  return warnings;
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

export function renderEvents(events: MutationEvent[], now = Date.now()): string[] {
  return events.map((e) => formatMutation(e, now) + (e.frame ? ` (frame ${e.frame})` : ''));
}

/** Options listed per select in the skeleton (the selected ones always), as the CDP host lists them. */
const MAX_OPTIONS = 25;

/** The skeleton artifact as the CDP host renders it (src/browser/artifacts.ts): structure, attributes, select options. */
export async function skeleton(tabId: number, opts: SnapshotOptions = {}): Promise<SkeletonResult> {
  const t0 = performance.now();
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
  const byCause = new Map<string, number[]>();
  for (const f of model.frames) if (f.error) byCause.set(f.error, [...byCause.get(f.error) ?? [], f.id]);
  const unread = [...byCause].map(([cause, ids]) => `${ids.length === 1 ? `frame ${ids[0]} is` : `frames ${ids.join(', ')} are`} not included: ${cause}`);
  const warnings = [...new Set([...model.warnings, ...unread])];
  const result: SkeletonResult = {
    mode: 'skeleton', url: model.url, title: model.title, ...(warnings.length > 0 && { warnings }),
    viewport: model.viewport,
    skeletonDom: renderSkeleton(model, { selects }),
    meta: { elements: model.nodes.length, totalElements: model.total, extractionTimeMs: Math.round((performance.now() - t0) * 10) / 10, estimatedTokens: 0 },
  };
  result.meta.estimatedTokens = await countTokens(JSON.stringify(result));
  return result;
}

export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'skeleton' }): Promise<SkeletonResult>;
export function snapshot(tabId: number, opts?: SnapshotOptions & { mode?: 'semantic_v3' }): Promise<SemanticV3Result>;
export function snapshot(tabId: number, opts?: SnapshotOptions): Promise<SemanticV3Result | SkeletonResult>;
export function snapshot(tabId: number, opts: SnapshotOptions = {}): Promise<SemanticV3Result | SkeletonResult> {
  const mode = opts.mode ?? 'semantic_v3';
  if (mode === 'skeleton') return skeleton(tabId, opts);
  if (mode !== 'semantic_v3') return Promise.reject(new ExtensionError('BAD_INPUT', `mode "${String(mode)}" is not produced by the extension yet (semantic_v3, skeleton)`));
  return semantic(tabId, opts);
}

/** semantic_v3 as `lens.snapshot()` gives it: the model rendered, recent events, the real o200k token count. */
async function semantic(tabId: number, opts: SnapshotOptions): Promise<SemanticV3Result> {
  const model = await readModel(tabId, opts);
  const result = renderV3(model, { boxes: opts.boxes });
  const { events, unread } = await recentEvents(tabId);
  if (events.length) result.recent_events = renderEvents(events);
  if (unread.length) result.warnings = [...result.warnings ?? [], ...unread];
  result.meta.estimatedTokens = await countTokens(JSON.stringify(result));
  return result;
}
