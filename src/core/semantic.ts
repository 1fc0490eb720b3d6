// The semantic payloads (semantic_v3, semantic), for both hosts: the page model rendered, with the
// page's recent events and the real o200k token count. Their own module so that the artifacts'
// fallback chain (capture.ts) and the one mode dispatch (lens.ts) both use them.
import type { SemanticResult, SemanticV3Result, SnapshotOptions } from '../model/contracts/schema.js';
import { renderEvents } from '../model/pagemodel/mutations.js';
import { renderSemantic, renderV3 } from '../model/renderers/render.js';
import { preloadTokenizer, tokenCounts } from '../model/renderers/tokens.js';
import { readHandedOut } from './handOut.js';
import type { ReadHost } from './port.js';

/** How many recent changes a semantic payload carries. */
const RECENT_EVENTS = 10;

export async function semanticSnapshot(host: ReadHost, opts: Pick<SnapshotOptions, 'mode' | 'fullPage' | 'boxes'>): Promise<SemanticV3Result | SemanticResult> {
  // The answer's token count needs the tokenizer (about a second to load, once): it loads while
  // the page is being read, instead of after.
  preloadTokenizer();
  const model = await readHandedOut(host, { fullPage: opts.fullPage });
  const result = opts.mode === 'semantic' ? renderSemantic(model) : renderV3(model, { boxes: opts.boxes });
  const { events, unread } = await host.recentEvents(RECENT_EVENTS);
  if (events.length) result.recent_events = renderEvents(events);
  if (unread.length) result.warnings = [...result.warnings ?? [], ...unread];
  Object.assign(result.meta, await tokenCounts({ estimatedTokens: JSON.stringify(result) }));
  return result;
}
