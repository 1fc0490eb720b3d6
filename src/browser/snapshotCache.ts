// The snapshots a lens keeps (issue 12): storage only, so that the core can hold them without
// knowing how a snapshot is read (snapshots.ts reads them, and takes the core). The store and the
// snapshot's shape are src/core/snapshots.ts's, shared with the extension; the held reads (the
// bases of delta reads) are this host's.
import { KeptSnapshots, type KeptSnapshot } from '../core/snapshots.js';
import type { EngineSnapshotOptions, FrameSnapshot } from '../model/contracts/schema.js';
import { readKind } from '../model/pagemodel/frameRead.js';

export type Snapshot = KeptSnapshot;

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

export class SnapshotCache extends KeptSnapshots<Snapshot> {
  /** Each frame's last read, which the next read of the same kind is a delta against. */
  readonly held = new HeldReads();
}
