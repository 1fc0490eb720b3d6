// lens.snapshot({ query, maxTokens }) → the `filtered` payload (issue 13). PLACEHOLDER: replaced
// by the issue-13 work; the snapshot dispatcher (snapshot.ts) already calls it.
import { PagelensError } from '../model/errors.js';
import type { FilteredResult } from '../model/rag.js';
import type { SnapshotOptions } from '../model/schema.js';
import type { LensCore } from './core.js';

export async function filteredSnapshot(_core: LensCore, _opts: SnapshotOptions): Promise<FilteredResult> {
  throw new PagelensError('INTERNAL', 'query snapshots are not built yet');
}
