// lens.snapshot(): one entry, many payloads. The semantic payloads are rendered here from the
// page model; the heavier artifacts (artifacts.ts) and the task-filtered tree (rag.ts) are their
// own features. Every payload's IDs are handed out (bound to the documents they came from).
import type { FullResult, HybridResult, SkeletonResult } from '../model/artifacts.js';
import type { FilteredResult } from '../model/rag.js';
import { renderSemantic, renderV3 } from '../model/render.js';
import type { SemanticResult, SemanticV3Result, SnapshotOptions } from '../model/schema.js';
import { tokenCounts } from '../model/tokens.js';
import { artifactSnapshot } from './artifacts.js';
import type { LensCore } from './core.js';
import { recentEvents, renderEvents } from './events.js';
import { filteredSnapshot } from './rag.js';
import { readPageModel } from './read.js';

export type SnapshotPayload = SemanticV3Result | SemanticResult | SkeletonResult | FullResult | HybridResult | FilteredResult;

export async function snapshotPayload(core: LensCore, opts: SnapshotOptions): Promise<SnapshotPayload> {
  if (opts.query !== undefined) return filteredSnapshot(core, opts);
  switch (opts.mode) {
    case 'skeleton': case 'full': case 'hybrid': return artifactSnapshot(core, opts);
    case 'semantic': case 'semantic_v3': return semanticSnapshot(core, opts);
  }
}

/** semantic_v3 (or semantic): the page model rendered, with the recent events and the real token count. */
export async function semanticSnapshot(core: LensCore, opts: SnapshotOptions): Promise<SemanticV3Result | SemanticResult> {
  const model = await readPageModel(core, { fullPage: opts.fullPage });
  core.ids.handOut(model);
  const result = opts.mode === 'semantic' ? renderSemantic(model) : renderV3(model, { boxes: opts.boxes });
  const { events, unread } = await recentEvents(core);
  if (events.length) result.recent_events = renderEvents(events);
  if (unread.length) result.warnings = [...result.warnings ?? [], ...unread];
  Object.assign(result.meta, await tokenCounts({ estimatedTokens: JSON.stringify(result) }));
  return result;
}
