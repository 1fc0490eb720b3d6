// The heavier artifacts a backend asks for when semantic_v3 is not enough (seed 000 §8, §10, §11;
// 001 §2.2): the skeleton (minimal HTML of the controls), the full annotated DOM (templatized), the
// hybrid payload (tree with boxes, skeleton and a screenshot), and what lens.capture() answers.
// The in-page answers these are built from are here too (the engine contract imports them).
import { z } from 'zod';
import { DomModeContext } from '../negotiation/modes.js';
import { APPROXIMATE_TOKENS, SemanticResult, SemanticV3Result, SemanticNodeV3, Viewport } from '../contracts/schema.js';
import { DomMode, RequestedDomMode } from '../contracts/snapshotRequest.js';
import { cutDocument, INPUT_BOUNDS } from '../safety/inputBounds.js';

// ---- in-page answers ----

/** The options of a native <select>, read for the skeleton. */
export const NativeOption = z.object({ label: z.string(), value: z.string(), selected: z.boolean(), disabled: z.boolean() });
export type NativeOption = z.infer<typeof NativeOption>;
export const NativeOptions = z.object({
  /** The document the options were read from (see FrameSnapshot.doc). */
  doc: z.string(),
  selects: z.array(z.object({
    /** Local ID of the <select>. */
    id: z.string(),
    options: z.array(NativeOption),
    /** How many options the select has in all (more than listed when it is long). */
    total: z.number(),
  })),
});
export type NativeOptions = z.infer<typeof NativeOptions>;

/** One frame's document, cloned, annotated and stripped in the page (src/page/serialize.ts). */
export const SerializedDocument = z.object({
  doc: z.string(),
  html: z.string(),
  /** Elements written. */
  elements: z.number(),
  /** Elements written with their pagelens ID (data-id). */
  tagged: z.number(),
  /** Child frames whose place was marked (by ordinal). */
  frames: z.array(z.number()),
  timeMs: z.number(),
});
export type SerializedDocument = z.infer<typeof SerializedDocument>;

/** What the Node side asks the serializer for. */
export interface SerializeRequest {
  /** This frame's ordinal: IDs in frames are written frame-prefixed ("f1_5"). */
  frame: number;
  /** Marks a child frame's place as `<!--NONCE:ordinal-->`; a nonce the page cannot guess. */
  nonce: string;
  /** Ordinals of the child frames whose iframe elements follow as arguments, in that order. */
  children: number[];
}

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

// ---- lens.capture() ----

/** What the backend asked for: a mode, or its negotiation answer (001 §3.2). */
export const CaptureRequest = z.union([RequestedDomMode, DomModeContext.omit({ failed: true })]);

export const CaptureOptions = z.strictObject({
  /** The task, as the user put it: visual or spatial words choose the hybrid payload. */
  query: z.string(),
  requested: CaptureRequest.optional(),
});
export type CaptureOptionsInput = z.input<typeof CaptureOptions>;

export const CaptureResult = z.object({
  mode: DomMode,
  payload: z.union([SemanticV3Result, SemanticResult, SkeletonResult, FullResult, HybridResult]),
  /** Why this mode: the choice, and what was skipped on the way. */
  reason: z.string(),
  /** The modes tried before, each with why it was left. */
  fellBackFrom: z.array(z.object({ mode: DomMode, reason: z.string() })).optional(),
});
export type CaptureResult = z.infer<typeof CaptureResult>;
