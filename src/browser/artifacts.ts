// skeleton / full / hybrid snapshots and lens.capture() (issue 10). PLACEHOLDER: replaced by the
// issue-10 work; the facade (lens.ts) and the snapshot dispatcher (snapshot.ts) already call these.
import type { FullResult, HybridResult, SkeletonResult } from '../model/artifacts.js';
import { PagelensError } from '../model/errors.js';
import type { SnapshotOptions } from '../model/schema.js';
import type { LensCore } from './core.js';

export async function artifactSnapshot(_core: LensCore, opts: SnapshotOptions): Promise<SkeletonResult | FullResult | HybridResult> {
  throw new PagelensError('INTERNAL', `the ${opts.mode} mode is not built yet`);
}
