// The snapshot cache behind the index and the toolkit: one read of the page (model with its
// structure and attributes, the main frame's blocks, the regions) serves every call for 30 s, so
// that L1 → L2 → L3 and dom_overview → dom_search agree on IDs and cost one read. A snapshot is
// not reused after a navigation, after more than 300 DOM changes in any of its documents, after a
// change a person would notice (an element or message appeared or went; ticking text does not
// count), after 30 s, or when the caller asks for a fresh one. Older snapshots are kept a while
// longer for dom_diff.
import { randomBytes } from 'node:crypto';
import { PagelensError, isPagelensError } from '../model/errors.js';
import type { PageLayout, SelectorHint } from '../model/explore.js';
import type { PlacedText } from '../model/overview.js';
import type { PageModel } from '../model/page.js';
import { buildRegions, planRegions, RegionMemory, type RegionTree } from '../model/regions.js';
import type { LensCore } from './core.js';
import { engineCall } from './engine.js';
import { readPageModel } from './read.js';

/** How long a snapshot answers calls. */
export const SNAPSHOT_TTL_MS = 30_000;
/** DOM changes (mutation batches) in one document after which a snapshot is not reused. */
export const MUTATION_LIMIT = 300;
/** Snapshots kept for dom_diff, and for how long. */
const KEEP = 8;
const KEEP_MS = 10 * 60_000;

export interface Snapshot {
  /** 8 hex digits. */
  id: string;
  takenAt: number;
  model: PageModel;
  /** The main frame's geometry and blocks. */
  layout: PageLayout;
  tree: RegionTree;
  /** Main-frame navigations seen by the lens when it was taken. */
  navigations: number;
  /** Per frame ordinal: the document and its change counters when it was taken. */
  activity: Map<number, { doc: string; count: number; seq: number }>;
  /** Known to be out of date already (a frame moved on during the read). */
  stale: boolean;
  /** Selector hints found for elements of this snapshot, by ID (and for groups, by "group:" and their IDs). */
  hints: Map<string, SelectorHint[]>;
  /** Long paragraphs of every frame (read on first use). */
  paragraphs?: PlacedText[];
}

export class SnapshotCache {
  private entries: Snapshot[] = [];
  /** Region IDs per landmark, across snapshots of the same document. */
  readonly regionIds = new RegionMemory();

  /** The snapshot with this ID, if it is still kept. */
  get(id: string): Snapshot | undefined {
    this.prune();
    return this.entries.find((s) => s.id === id);
  }

  /** The latest snapshot when it may still answer (`reused`), else a new one. */
  async current(core: LensCore, opts: { refresh?: boolean } = {}): Promise<{ snap: Snapshot; reused: boolean }> {
    const last = this.entries[this.entries.length - 1];
    if (!opts.refresh && last && await stillFresh(core, last)) return { snap: last, reused: true };
    return { snap: await this.take(core), reused: false };
  }

  /** A new snapshot, whatever the cache holds. */
  async take(core: LensCore): Promise<Snapshot> {
    let snap: Snapshot | undefined;
    for (let attempt = 0; attempt < 2 && !snap; attempt++) {
      try {
        snap = await takeSnapshot(core, this.regionIds);
      } catch (e) {
        // The page moved on between the read and the look at its blocks: read it again, once.
        if (attempt === 1 || !isPagelensError(e, 'NAVIGATED')) throw e;
      }
    }
    this.entries.push(snap!);
    this.prune();
    return snap!;
  }

  /** Marks a snapshot as out of date (an element it shows is not what it was). */
  invalidate(snap: Snapshot): void {
    snap.stale = true;
  }

  private prune(): void {
    const now = Date.now();
    this.entries = this.entries.filter((s) => now - s.takenAt < KEEP_MS).slice(-KEEP);
  }
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

