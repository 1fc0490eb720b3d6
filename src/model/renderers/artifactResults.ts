// The artifacts as both hosts answer them (the CDP lens in src/browser/artifacts.ts and the
// extension in extension/src/snapshot.ts): each host reads the page its own way, then hands what
// it read here, so that a skeleton, a full copy or a hybrid payload looks the same whoever made it.
import type { FullResult, HybridResult, SkeletonResult } from './artifacts.js';
import type { PageModel } from '../pagemodel/page.js';
import type { SemanticNodeV3 } from '../contracts/schema.js';
import { renderSkeleton, type SelectOptions } from './skeleton.js';
import { templatize } from './templatize.js';
import { tokenCounts } from './tokens.js';

/** Milliseconds since `t0` (performance.now()), to a tenth. */
export function elapsedMs(t0: number): number {
  return Math.round((performance.now() - t0) * 10) / 10;
}

/**
 * URL, title and what is in doubt. The frames are not listed: each one read is in the artifact
 * itself (data-frame-id), and the ones that could not be read are named in one warning per cause
 * (pages embed dozens of blocked ad frames with very long addresses).
 */
export function artifactCommon(model: PageModel, extra: string[] = []): { url: string; title: string; warnings?: string[] } {
  const warnings = [...model.warnings, ...extra, ...unreadFrames(model)];
  return { url: model.url, title: model.title, ...(warnings.length > 0 && { warnings: [...new Set(warnings)] }) };
}

function unreadFrames(model: PageModel): string[] {
  const byCause = new Map<string, number[]>();
  for (const f of model.frames) if (f.error) byCause.set(f.error, [...byCause.get(f.error) ?? [], f.id]);
  return [...byCause].map(([cause, ids]) => `${ids.length === 1 ? `frame ${ids[0]} is` : `frames ${ids.join(', ')} are`} not included: ${cause}`);
}

/** The model with structure and attributes, and its native selects' options, as a skeleton. */
export async function skeletonResult(model: PageModel, selects: Map<string, SelectOptions>, t0: number): Promise<SkeletonResult> {
  const result: SkeletonResult = {
    mode: 'skeleton',
    ...artifactCommon(model),
    viewport: model.viewport,
    skeletonDom: renderSkeleton(model, { selects }),
    meta: { elements: model.nodes.length, totalElements: model.total, extractionTimeMs: elapsedMs(t0), estimatedTokens: 0 },
  };
  Object.assign(result.meta, await tokenCounts({ estimatedTokens: JSON.stringify(result) }));
  return result;
}

/** A whole-page copy, every frame's document inlined at its iframe (see joinFrameDocuments). */
export interface SerializedPage {
  model: PageModel;
  raw: string;
  warnings: string[];
  elements: number;
  tagged: number;
  /** Set when a frame showed another document than the model's: the copy is worthless. */
  stale?: string;
}

/** The copy templatized, sized before and after. */
export async function fullResult(page: SerializedPage, t0: number): Promise<FullResult> {
  const { model, raw, warnings, elements, tagged } = page;
  const packed = templatize(raw);
  return {
    mode: 'full',
    ...artifactCommon(model, warnings),
    dom: packed.html,
    meta: {
      rawChars: raw.length,
      templatizedChars: packed.html.length,
      ...await tokenCounts({ rawTokens: raw, estimatedTokens: packed.html }),
      templates: packed.templates,
      instances: packed.instances,
      elements,
      taggedElements: tagged,
      extractionTimeMs: elapsedMs(t0),
    },
  };
}

/** The screenshot as a host composed it. */
export interface HybridPicture { base64: string; hash: string; bytes: number; marks: number; ms: number; setOfMark: boolean }

/** Tree with boxes, skeleton and screenshot; the token estimate leaves the picture out. */
export async function hybridResult(
  model: PageModel, selects: Map<string, SelectOptions>, tree: SemanticNodeV3[], picture: HybridPicture, t0: number, extra: string[] = [],
): Promise<HybridResult> {
  const result: HybridResult = {
    mode: 'hybrid',
    ...artifactCommon(model, extra),
    viewport: model.viewport,
    scroll_position: model.scrollPosition,
    interactive_tree: tree,
    skeletonDom: renderSkeleton(model, { selects }),
    screenshot: picture.base64,
    screenshotHash: picture.hash,
    setOfMark: picture.setOfMark,
    meta: {
      totalElements: model.total,
      viewportElements: model.nodes.length,
      marks: picture.marks,
      screenshotBytes: picture.bytes,
      screenshotMs: picture.ms,
      extractionTimeMs: elapsedMs(t0),
      estimatedTokens: 0,
    },
  };
  Object.assign(result.meta, await tokenCounts({ estimatedTokens: JSON.stringify({ ...result, screenshot: '' }) }));
  return result;
}
