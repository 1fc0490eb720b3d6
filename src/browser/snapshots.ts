// The snapshot cache behind the index and the toolkit on the CDP host: src/core/snapshots.ts (when
// a snapshot is reused, how it is taken) over this host's engine side of the port, its page-model
// read and the lens's snapshot cache (snapshotCache.ts).
import { currentSnapshot as currentOn, newSnapshot as newOn, type SnapshotSource } from '../core/snapshots.js';
import type { LensCore } from './core.js';
import { cdpEngine } from './hostEngine.js';
import { readPageModel } from './read.js';
import type { Snapshot } from './snapshotCache.js';

export type { Snapshot } from './snapshotCache.js';
export { SNAPSHOT_TTL_MS, MUTATION_LIMIT } from '../core/snapshots.js';

function source(core: LensCore): SnapshotSource {
  return {
    engine: cdpEngine(core, 'pagelens-snapshots'),
    store: core.snapshots,
    read: () => readPageModel(core, { fullPage: true, structure: true, attributes: true }),
    navigations: () => core.navigations,
  };
}

/** The latest snapshot when it may still answer (`reused`), else a new one. */
export async function currentSnapshot(core: LensCore, opts: { refresh?: boolean } = {}): Promise<{ snap: Snapshot; reused: boolean }> {
  return currentOn(source(core), opts);
}

/** A new snapshot, whatever the cache holds. */
export function newSnapshot(core: LensCore): Promise<Snapshot> {
  return newOn(source(core));
}
