// lens.snapshot(): one entry, many payloads. The semantic payloads (semantic.ts) are rendered from
// the page model; the heavier artifacts (artifacts.ts) and the task-filtered tree (rag.ts) are their
// own features. Every payload's IDs are handed out (bound to the documents they came from).
import type { FullResult, HybridResult, SkeletonResult } from '../model/renderers/artifacts.js';
import type { AxTreeResult } from '../model/renderers/axtree.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { FilteredResult } from '../model/retrieval/rag.js';
import type { SemanticResult, SemanticV3Result, SnapshotOptions } from '../model/contracts/schema.js';
import { snapshotRequestConflict, type SnapshotOption } from '../model/contracts/snapshotRequest.js';
import { artifactSnapshot } from './artifacts.js';
import { readAxTree } from './axtree.js';
import type { LensCore } from './core.js';
import { filteredSnapshot } from './rag.js';
import { semanticSnapshot } from './semantic.js';

export type SnapshotPayload = SemanticV3Result | SemanticResult | AxTreeResult | SkeletonResult | FullResult | HybridResult | FilteredResult;

/** The payload `opts` asks for; an option that does not apply to its mode is BAD_INPUT (model/contracts/snapshotRequest.ts). */
export async function snapshotPayload(core: LensCore, opts: SnapshotOptions, given: ReadonlySet<SnapshotOption>): Promise<SnapshotPayload> {
  const conflict = snapshotRequestConflict({ mode: opts.mode, query: opts.query, given });
  if (conflict) throw new PagelensError('BAD_INPUT', conflict);
  if (opts.query !== undefined) return filteredSnapshot(core, opts);
  switch (opts.mode) {
    case 'skeleton': case 'full': case 'hybrid': return artifactSnapshot(core, opts);
    case 'semantic': case 'semantic_v3': return semanticSnapshot(core, opts);
    case 'axtree': return readAxTree(core);
  }
}
