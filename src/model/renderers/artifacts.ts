// The heavier artifacts a backend asks for when semantic_v3 is not enough (seed 000 §8, §10, §11;
// 001 §2.2): the skeleton (minimal HTML of the controls), the full annotated DOM (templatized), the
// hybrid payload (tree with boxes, skeleton and a screenshot). The in-page answers these are built
// from are the engine contract's (src/model/contracts/engineAnswers.ts); what lens.capture()
// answers, a mode chosen for a task with its payload, is the negotiation's (src/model/negotiation/modes.ts).
import { z } from 'zod';
import { APPROXIMATE_TOKENS, SemanticNodeV3, Viewport } from '../contracts/schema.js';
import type { SerializedDocument } from '../contracts/engineAnswers.js';
import { cutDocument, INPUT_BOUNDS } from '../safety/inputBounds.js';

// ---- joining the in-page copies ----

/** Every frame's copy joined into one document: each child inlined at its marker. */
export interface JoinedDocuments {
  raw: string;
  elements: number;
  tagged: number;
  /** A frame whose copy is of another document than the page model's read: the whole must be made again. */
  stale?: string;
  /** Frames whose marker was not found in their parent's copy: their documents are left out. */
  orphans: number[];
}

/**
 * Joins the per-frame copies (by frame ordinal, 0 the page) that `serializeDocument` wrote with
 * `nonce` markers, checking each was made of the document the model read (`modelDocs`). Both hosts
 * (CDP and the extension) join the same way. The whole is cut at INPUT_BOUNDS.fullDocument.
 */
export function joinFrameDocuments(docs: Map<number, SerializedDocument>, modelDocs: Record<number, string>, nonce: string): JoinedDocuments {
  for (const [ordinal, d] of docs) {
    if (ordinal in modelDocs && d.doc !== modelDocs[ordinal]) return { raw: '', elements: 0, tagged: 0, stale: `frame ${ordinal}`, orphans: [] };
  }
  const marker = new RegExp(`<!--${nonce}:(\\d+)-->`, 'g');
  const inlined = new Set<number>();
  const inline = (ordinal: number): string => {
    inlined.add(ordinal);
    return (docs.get(ordinal)?.html ?? '').replace(marker, (_, o: string) => {
      const child = Number(o);
      return docs.has(child) && !inlined.has(child) ? inline(child) : '';
    });
  };
  // Each frame's copy is bounded in the page; a page of many frames is bounded here, whole.
  const raw = cutDocument(inline(0), INPUT_BOUNDS.fullDocument);
  let elements = 0;
  let tagged = 0;
  const orphans: number[] = [];
  for (const [ordinal, d] of docs) {
    if (inlined.has(ordinal)) { elements += d.elements; tagged += d.tagged; } else orphans.push(ordinal);
  }
  return { raw, elements, tagged, orphans };
}

// ---- payloads ----

const common = {
  url: z.string(),
  title: z.string(),
  /** What the payload may be missing, and why (frames that could not be read among it). Absent when nothing is in doubt. */
  warnings: z.array(z.string()).optional(),
};

export const SkeletonMeta = z.object({
  /** Elements written with their ID. */
  elements: z.number(),
  totalElements: z.number(),
  extractionTimeMs: z.number(),
  estimatedTokens: z.number(),
  ...APPROXIMATE_TOKENS,
});

export const SkeletonResult = z.object({
  mode: z.literal('skeleton'),
  ...common,
  viewport: Viewport,
  /** Minimal HTML of the controls, each with its `data-llm-id`, inside the landmarks, forms, rows and headings that tell look-alikes apart. */
  skeletonDom: z.string(),
  meta: SkeletonMeta,
});
export type SkeletonResult = z.infer<typeof SkeletonResult>;

export const FullMeta = z.object({
  /** Characters and o200k tokens of the annotated, stripped document before templatizing. */
  rawChars: z.number(),
  rawTokens: z.number(),
  /** The same after templatizing (what `dom` is). */
  templatizedChars: z.number(),
  estimatedTokens: z.number(),
  ...APPROXIMATE_TOKENS,
  templates: z.number(),
  /** Elements written as template instances. */
  instances: z.number(),
  elements: z.number(),
  /** Elements carrying their pagelens ID (data-id). */
  taggedElements: z.number(),
  extractionTimeMs: z.number(),
});

export const FullResult = z.object({
  mode: z.literal('full'),
  ...common,
  /** The document with every frame inlined in its iframe, annotated and templatized (see untemplatize()). */
  dom: z.string(),
  meta: FullMeta,
});
export type FullResult = z.infer<typeof FullResult>;

export const HybridMeta = z.object({
  totalElements: z.number(),
  viewportElements: z.number(),
  /** Elements labelled on the screenshot. */
  marks: z.number(),
  screenshotBytes: z.number(),
  screenshotMs: z.number(),
  extractionTimeMs: z.number(),
  /** o200k tokens of the payload without the screenshot. */
  estimatedTokens: z.number(),
  ...APPROXIMATE_TOKENS,
});

export const HybridResult = z.object({
  mode: z.literal('hybrid'),
  ...common,
  viewport: Viewport,
  scroll_position: z.string(),
  /** semantic_v3 nodes of the viewport, each with its box. */
  interactive_tree: z.array(SemanticNodeV3),
  skeletonDom: z.string(),
  /** JPEG of the viewport, base64. */
  screenshot: z.string(),
  /** Perceptual hash of the screenshot (256-bit dHash, hex): equal hash = visually the same. */
  screenshotHash: z.string(),
  /** Whether the element IDs are drawn on the screenshot. */
  setOfMark: z.boolean(),
  meta: HybridMeta,
});
export type HybridResult = z.infer<typeof HybridResult>;
