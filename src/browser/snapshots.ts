// The snapshot cache behind the index and the toolkit: one read of the page (model with its
// structure and attributes, the main frame's blocks, the regions) serves every call for 30 s, so
// that L1 → L2 → L3 and dom_overview → dom_search agree on IDs and cost one read. A snapshot is
// not reused after a navigation, after more than 300 DOM changes in any of its documents, after a
// change a person would notice (an element or message appeared or went; ticking text does not
// count), after 30 s, or when the caller asks for a fresh one. Older snapshots are kept a while
// longer for dom_diff.
import { randomBytes } from 'node:crypto';
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import type { PageModel } from '../model/pagemodel/page.js';
import { buildRegions, planRegions, type RegionMemory } from '../model/explore/regions.js';
import type { LensCore } from './core.js';
import { engineCall } from './engine.js';
import { readPageModel } from './read.js';
import type { Snapshot } from './snapshotCache.js';

export type { Snapshot } from './snapshotCache.js';

/** How long a snapshot answers calls. */
export const SNAPSHOT_TTL_MS = 30_000;
/** DOM changes (mutation batches) in one document after which a snapshot is not reused. */
export const MUTATION_LIMIT = 300;

/** The latest snapshot when it may still answer (`reused`), else a new one. */
export async function currentSnapshot(core: LensCore, opts: { refresh?: boolean } = {}): Promise<{ snap: Snapshot; reused: boolean }> {
  const last = core.snapshots.latest();
  if (!opts.refresh && last && await stillFresh(core, last)) return { snap: last, reused: true };
  return { snap: await newSnapshot(core), reused: false };
}

/** A new snapshot, whatever the cache holds. */
export async function newSnapshot(core: LensCore): Promise<Snapshot> {
  let snap: Snapshot | undefined;
  for (let attempt = 0; attempt < 2 && !snap; attempt++) {
    try {
      snap = await takeSnapshot(core, core.snapshots.regionIds);
    } catch (e) {
      // The page moved on between the read and the look at its blocks: read it again, once.
      if (attempt === 1 || !isPagelensError(e, 'NAVIGATED')) throw e;
    }
  }
  core.snapshots.add(snap!);
  return snap!;
}

function newId(): string {
  return randomBytes(4).toString('hex');
}

async function takeSnapshot(core: LensCore, memory: RegionMemory): Promise<Snapshot> {
  const navigations = core.navigations;
  const model = await readPageModel(core, { fullPage: true, structure: true, attributes: true });
  const takenAt = Date.now();
  const main = core.frames.lastByOrdinal(0);
  if (!main) throw new PagelensError('FRAME_DETACHED', 'The page has no main frame (closed or crashed).');
  const plan = planRegions(model);
  const [layout, activity] = await Promise.all([engineCall(main, 'pageLayout', [plan.ids]), activityOf(core, model)]);
  if (layout.doc !== model.docs[0]) throw new PagelensError('NAVIGATED', `The page navigated while it was read (${model.url}).`);
  const tree = buildRegions(model, layout, plan, memory);
  const stale = [...activity].some(([ord, a]) => a.doc !== model.docs[ord]);
  return { id: newId(), takenAt, model, layout, tree, navigations, activity, stale, hints: new Map() };
}

/** Each read frame's change counters, right after the read. */
async function activityOf(core: LensCore, model: PageModel): Promise<Map<number, { doc: string; count: number; seq: number }>> {
  const out = new Map<number, { doc: string; count: number; seq: number }>();
  await Promise.all(Object.keys(model.docs).map(Number).map(async (ord) => {
    const frame = core.frames.lastByOrdinal(ord);
    if (!frame || frame.error) return;
    try {
      const a = await engineCall(frame, 'domActivity');
      out.set(ord, { doc: a.doc, count: a.count, seq: a.seq });
    } catch (e) {
      // Without counters the snapshot cannot tell when its frame changed: it is never reused.
      out.set(ord, { doc: `unknown: ${(e as Error).message}`, count: 0, seq: 0 });
    }
  }));
  return out;
}

/** Whether a snapshot still describes the page (see the module comment). A check that fails says no. */
async function stillFresh(core: LensCore, s: Snapshot): Promise<boolean> {
  if (s.stale || Date.now() - s.takenAt >= SNAPSHOT_TTL_MS || core.navigations !== s.navigations) return false;
  const verdicts = await Promise.all([...s.activity].map(async ([ord, was]) => {
    const frame = core.frames.lastByOrdinal(ord);
    if (!frame || frame.error || frame.target.closed) return false;
    try {
      const now = await engineCall(frame, 'domActivity');
      if (now.doc !== was.doc || now.count - was.count > MUTATION_LIMIT) return false;
      if (now.seq === was.seq) return true;
      const since = await engineCall(frame, 'mutationsSince', [was.doc, was.seq]);
      return since.doc === was.doc && since.events.every((e) => e.type === 'changed' && e.category === 'text');
    } catch {
      return false; // could not tell: read the page again rather than answer from an old read
    }
  }));
  return verdicts.every(Boolean);
}

