// The semantic payloads (semantic_v3, semantic): the page model rendered, with the page's recent
// events. Its own module so that the artifacts (which carry a semantic_v3 rendering) and the
// snapshot entry both use it without importing each other.
import { renderSemantic, renderV3 } from '../model/renderers/render.js';
import type { SemanticResult, SemanticV3Result, SnapshotOptions } from '../model/contracts/schema.js';
import { preloadTokenizer, tokenCounts } from '../model/renderers/tokens.js';
import type { LensCore } from './core.js';
import { recentEvents, renderEvents } from './events.js';
import { readPageModel } from './read.js';

/** semantic_v3 (or semantic): the page model rendered, with the recent events and the real token count. */
export async function semanticSnapshot(core: LensCore, opts: SnapshotOptions): Promise<SemanticV3Result | SemanticResult> {
  // The answer's token count needs the tokenizer (about a second to load, once): it loads in
  // Node while the page is being read, instead of after.
  preloadTokenizer();
  const model = await readPageModel(core, { fullPage: opts.fullPage });
  core.ids.handOut(model);
  const result = opts.mode === 'semantic' ? renderSemantic(model) : renderV3(model, { boxes: opts.boxes });
  const { events, unread } = await recentEvents(core);
  if (events.length) result.recent_events = renderEvents(events);
  if (unread.length) result.warnings = [...result.warnings ?? [], ...unread];
  Object.assign(result.meta, await tokenCounts({ estimatedTokens: JSON.stringify(result) }));
  return result;
}
