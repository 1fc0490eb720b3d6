// The `filtered` payload and the task reading behind observe/act/extract on the CDP host:
// src/core/rag.ts (written once for every host) bound to this host's engine side of the port, its
// exploration snapshot (snapshots.ts) and its ID ledger.
import type { RagHost, FilterRequest, TaskNodes } from '../core/rag.js';
import { filteredSnapshot as filteredOn, filterPage as filterOn, readTaskNodes as readOn } from '../core/rag.js';
import type { SnapshotOptions } from '../model/contracts/schema.js';
import type { PageModel } from '../model/pagemodel/page.js';
import type { Filtered, FilteredResult, RagNode, Reranker } from '../model/retrieval/rag.js';
import type { LensCore } from './core.js';
import { cdpEngine } from './hostEngine.js';
import { currentSnapshot } from './snapshots.js';

export type { FilterRequest, TaskNodes } from '../core/rag.js';

/** Task reading's host over a lens core. */
export function ragHost(core: LensCore): RagHost {
  return {
    engine: cdpEngine(core, 'pagelens-rag'),
    current: (opts) => currentSnapshot(core, opts),
    record: (model) => core.ids.handOut(model),
  };
}

export const readTaskNodes = (core: LensCore, opts: { content: boolean }): Promise<TaskNodes> => readOn(ragHost(core), opts);
export const filterPage = (core: LensCore, req: FilterRequest): Promise<Filtered & { model: PageModel; nodes: RagNode[] }> => filterOn(ragHost(core), req);
export const filteredSnapshot = (core: LensCore, opts: SnapshotOptions, extra: { reranker?: Reranker } = {}): Promise<FilteredResult> => filteredOn(ragHost(core), opts, extra);
