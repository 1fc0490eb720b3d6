// The snapshots a lens keeps (issue 12): storage only, so that the core can hold them without
// knowing how a snapshot is read (snapshots.ts reads them, and takes the core). The store and the
// snapshot's shape are src/core/snapshots.ts's, shared with the extension, as are the held reads
// (the bases of delta reads: src/core/heldReads.ts).
import { HeldReads } from '../core/heldReads.js';
import { KeptSnapshots, type KeptSnapshot } from '../core/snapshots.js';

export type Snapshot = KeptSnapshot;

export class SnapshotCache extends KeptSnapshots<Snapshot> {
  /** Each frame's last read, which the next read of the same kind is a delta against. */
  readonly held = new HeldReads();
}
