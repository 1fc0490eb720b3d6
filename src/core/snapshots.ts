// Taking and keeping the snapshot behind the index and the exploration toolkit, for every host:
// one read of the page (model with its structure and attributes, the main frame's blocks, the
// regions) serves every call for 30 s, so that L1 → L2 → L3 and dom_overview → dom_search agree on
// IDs and cost one read. A snapshot is not reused after a navigation, after more than 300 DOM
// changes in any of its documents, after a change a person would notice (an element or message
// appeared or went; ticking text does not count), after 30 s, or when the caller asks for a fresh
// one. Older snapshots are kept a while longer for dom_diff. Each host passes in how it reads the
// page model and its own snapshot store.
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import type { HostEngine } from '../model/contracts/host.js';
import type { PageModel } from '../model/pagemodel/page.js';
import { buildRegions, planRegions, RegionMemory } from '../model/explore/regions.js';
import type { ExploreSnapshot } from './explore.js';

/** How long a snapshot answers calls. */
export const SNAPSHOT_TTL_MS = 30_000;
/** DOM changes (mutation batches) in one document after which a snapshot is not reused. */
export const MUTATION_LIMIT = 300;
/** Snapshots kept for dom_diff, and for how long. */
const KEEP = 8;
const KEEP_MS = 10 * 60_000;

/** A snapshot as the store keeps it: what exploration reads, and what tells whether it is still fresh. */
export interface KeptSnapshot extends ExploreSnapshot {
  /** Main-frame navigations the host had seen when it was taken. */
  navigations: number;
  /** Per frame ordinal: the document and its change counters when it was taken. */
  activity: Map<number, { doc: string; count: number; seq: number }>;
  /** Known to be out of date already (a frame moved on during the read). */
  stale: boolean;
}

/** The snapshots a host keeps. */
export interface SnapshotStore<S extends KeptSnapshot = KeptSnapshot> {
  /** Region IDs per landmark, across snapshots of the same document. */
  readonly regionIds: RegionMemory;
  get(id: string): S | undefined;
  latest(): S | undefined;
  add(snap: S): void;
  invalidate(snap: S): void;
}

/** The 8 latest snapshots of 10 minutes: storage only. */
export class KeptSnapshots<S extends KeptSnapshot = KeptSnapshot> implements SnapshotStore<S> {
  private entries: S[] = [];
  readonly regionIds = new RegionMemory();

  get(id: string): S | undefined {
    this.prune();
    return this.entries.find((s) => s.id === id);
  }

  latest(): S | undefined {
    return this.entries[this.entries.length - 1];
  }

  add(snap: S): void {
    this.entries.push(snap);
    this.prune();
  }

  invalidate(snap: S): void {
    snap.stale = true;
  }

  private prune(): void {
    const now = Date.now();
    this.entries = this.entries.filter((s) => now - s.takenAt < KEEP_MS).slice(-KEEP);
  }
}

/** What taking a snapshot needs of a host. */
export interface SnapshotSource {
  engine: HostEngine;
  store: SnapshotStore;
  /** The whole page's model with structure and attributes, its IDs handed out as the host does for a snapshot. */
  read(): Promise<PageModel>;
  /** Main-frame navigations the host has seen (0 when it does not count them: the documents' checks still see a new page). */
  navigations(): number;
}

/** The latest snapshot when it may still answer (`reused`), else a new one. */
export async function currentSnapshot(src: SnapshotSource, opts: { refresh?: boolean } = {}): Promise<{ snap: KeptSnapshot; reused: boolean }> {
  const last = src.store.latest();
  if (!opts.refresh && last && await stillFresh(src, last)) return { snap: last, reused: true };
  return { snap: await newSnapshot(src), reused: false };
}

/** A new snapshot, whatever the store holds. */
export async function newSnapshot(src: SnapshotSource): Promise<KeptSnapshot> {
  let snap: KeptSnapshot | undefined;
  for (let attempt = 0; attempt < 2 && !snap; attempt++) {
    try {
      snap = await takeSnapshot(src);
    } catch (e) {
      // The page moved on between the read and the look at its blocks: read it again, once.
      if (attempt === 1 || !isPagelensError(e, 'NAVIGATED')) throw e;
    }
  }
  src.store.add(snap!);
  return snap!;
}

/** 8 hex digits, from the platform's random source (Node and the service worker both have it). */
function newId(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function takeSnapshot(src: SnapshotSource): Promise<KeptSnapshot> {
  const navigations = src.navigations();
  const model = await src.read();
  const takenAt = Date.now();
  const main = (await src.engine.frames()).find((f) => f.ordinal === 0);
  if (!main) throw new PagelensError('FRAME_DETACHED', 'The page has no main frame (closed or crashed).');
  const plan = planRegions(model);
  const [layout, activity] = await Promise.all([src.engine.engine(main, 'pageLayout', [plan.ids]), activityOf(src.engine, model)]);
  if (layout.doc !== model.docs[0]) throw new PagelensError('NAVIGATED', `The page navigated while it was read (${model.url}).`);
  const tree = buildRegions(model, layout, plan, src.store.regionIds);
  const stale = [...activity].some(([ord, a]) => a.doc !== model.docs[ord]);
  return { id: newId(), takenAt, model, layout, tree, navigations, activity, stale, hints: new Map() };
}

/** Each read frame's change counters, right after the read. */
async function activityOf(engine: HostEngine, model: PageModel): Promise<Map<number, { doc: string; count: number; seq: number }>> {
  const out = new Map<number, { doc: string; count: number; seq: number }>();
  const known = await engine.frames();
  await Promise.all(Object.keys(model.docs).map(Number).map(async (ord) => {
    const frame = known.find((f) => f.ordinal === ord);
    if (!frame || frame.error) return;
    try {
      const a = await engine.engine(frame, 'domActivity');
      out.set(ord, { doc: a.doc, count: a.count, seq: a.seq });
    } catch (e) {
      // Without counters the snapshot cannot tell when its frame changed: it is never reused.
      out.set(ord, { doc: `unknown: ${engine.describe(e)}`, count: 0, seq: 0 });
    }
  }));
  return out;
}

/** Whether a snapshot still describes the page (see the module comment). A check that fails says no. */
async function stillFresh(src: SnapshotSource, s: KeptSnapshot): Promise<boolean> {
  if (s.stale || Date.now() - s.takenAt >= SNAPSHOT_TTL_MS || src.navigations() !== s.navigations) return false;
  const known = await src.engine.frames().catch(() => []);
  const verdicts = await Promise.all([...s.activity].map(async ([ord, was]) => {
    const frame = known.find((f) => f.ordinal === ord);
    if (!frame || frame.error) return false;
    try {
      const now = await src.engine.engine(frame, 'domActivity');
      if (now.doc !== was.doc || now.count - was.count > MUTATION_LIMIT) return false;
      if (now.seq === was.seq) return true;
      const since = await src.engine.engine(frame, 'mutationsSince', [was.doc, was.seq]);
      return since.doc === was.doc && since.events.every((e) => e.type === 'changed' && e.category === 'text');
    } catch {
      return false; // could not tell: read the page again rather than answer from an old read
    }
  }));
  return verdicts.every(Boolean);
}
