// The snapshots a lens keeps (issue 12): storage only, so that the core can hold them without
// knowing how a snapshot is read (snapshots.ts reads them, and takes the core).
import type { PageLayout, SelectorHint } from '../model/explore/explore.js';
import type { PlacedText } from '../model/explore/overview.js';
import type { PageModel } from '../model/pagemodel/page.js';
import type { EngineSnapshotOptions, FrameSnapshot } from '../model/contracts/schema.js';
import { readKind } from '../model/pagemodel/frameRead.js';
import { RegionMemory, type RegionTree } from '../model/explore/regions.js';

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

/** A frame's last read of one kind, as the engine answered it (never handed out: readers get copies). */
export interface HeldRead { seq: number; snapshot: FrameSnapshot }

/**
 * The last read of each frame, per kind of read, that the next read of that kind asks the
 * engine for changes against (issue 21: the page sends deltas, the Node side patches its copy).
 */
export class HeldReads {
  private readonly reads = new Map<string, HeldRead>();

  private static key(frameId: string, opts: EngineSnapshotOptions): string {
    return `${frameId} ${readKind(opts)}`;
  }

  get(frameId: string, opts: EngineSnapshotOptions): HeldRead | undefined {
    return this.reads.get(HeldReads.key(frameId, opts));
  }

  set(frameId: string, opts: EngineSnapshotOptions, read: HeldRead): void {
    this.reads.set(HeldReads.key(frameId, opts), read);
  }

  /** Forgets the frames that are gone (their reads can never be a base again). */
  keepOnly(frameIds: Set<string>): void {
    for (const key of this.reads.keys()) if (!frameIds.has(key.slice(0, key.indexOf(' ')))) this.reads.delete(key);
  }
}

export class SnapshotCache {
  private entries: Snapshot[] = [];
  /** Each frame's last read, which the next read of the same kind is a delta against. */
  readonly held = new HeldReads();
  /** Region IDs per landmark, across snapshots of the same document. */
  readonly regionIds = new RegionMemory();

  /** The snapshot with this ID, if it is still kept. */
  get(id: string): Snapshot | undefined {
    this.prune();
    return this.entries.find((s) => s.id === id);
  }

  /** The latest snapshot kept. */
  latest(): Snapshot | undefined {
    return this.entries[this.entries.length - 1];
  }

  add(snap: Snapshot): void {
    this.entries.push(snap);
    this.prune();
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
