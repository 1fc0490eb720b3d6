// The snapshots a lens keeps (issue 12): storage only, so that the core can hold them without
// knowing how a snapshot is read (snapshots.ts reads them, and takes the core). The store and the
// snapshot's shape are src/core/snapshots.ts's, shared with the extension.
import { KeptSnapshots, type KeptSnapshot } from '../core/snapshots.js';

export type Snapshot = KeptSnapshot;

export class SnapshotCache extends KeptSnapshots<Snapshot> {}
