// lens.snapshot(): one entry, many payloads. The semantic payloads (semantic.ts) are rendered from
// the page model; the heavier artifacts (artifacts.ts) and the task-filtered tree (rag.ts) are their
// own features. Every payload's IDs are handed out (bound to the documents they came from).
import type { FullResult, HybridResult, SkeletonResult } from '../model/artifacts.js';
import type { FilteredResult } from '../model/rag.js';
import type { SemanticResult, SemanticV3Result, SnapshotOptions } from '../model/schema.js';
import { artifactSnapshot } from './artifacts.js';
import type { LensCore } from './core.js';
import { filteredSnapshot } from './rag.js';
import { semanticSnapshot } from './semantic.js';

export type SnapshotPayload = SemanticV3Result | SemanticResult | SkeletonResult | FullResult | HybridResult | FilteredResult;

export async function snapshotPayload(core: LensCore, opts: SnapshotOptions): Promise<SnapshotPayload> {
  if (opts.query !== undefined) return filteredSnapshot(core, opts);
  switch (opts.mode) {
    case 'skeleton': case 'full': case 'hybrid': return artifactSnapshot(core, opts);
    case 'semantic': case 'semantic_v3': return semanticSnapshot(core, opts);
  }
}
