// Answers of the in-page engine's calls (src/model/contracts/engine.ts names each) that features
// read: the elements and layout the exploration toolkit shows, the structured data extract() weighs,
// the native options of the skeleton and the serialized documents of the full DOM. The engine
// contract names them, so they stand with it at the bottom of the model, below every feature
// that reads them (the in-page engine, src/page, builds them; the Node side validates them).
import { z } from 'zod';
import { Box, StructKind } from './schema.js';

// ---- elements and layout (the exploration toolkit: src/model/explore) ----
/** A shadow root between a document and an element: its host, by the host's own hint in its root. */
export const HintRoot = z.object({ host: z.string(), closed: z.boolean() });
export type HintRoot = z.infer<typeof HintRoot>;

/**
 * A CSS selector that matched exactly its element, and nothing else, in the element's own root
 * (its document or shadow root) when it was made. `text` hints use Playwright's `:has-text()`.
 */
export const SelectorHint = z.object({
  selector: z.string(),
  by: z.enum(['id', 'attribute', 'text', 'class', 'path']),
  /** Shadow roots from the document down to the element, outermost first (absent: the document itself). */
  shadow: z.array(HintRoot).optional(),
  /** The frame the document is in ("f1"; set on the Node side, absent for the main frame). */
  frame: z.string().optional(),
});
export type SelectorHint = z.infer<typeof SelectorHint>;

export const OptionInfo = z.object({
  index: z.number(),
  label: z.string(),
  value: z.string().optional(),
  selected: z.boolean(),
  disabled: z.boolean().optional(),
});
export type OptionInfo = z.infer<typeof OptionInfo>;

/** One element as it is now, for the elements an answer shows (engine call `describeElements`). */
export const DescribedElement = z.object({
  id: z.string(),
  /** false: no element has this ID in the document any more. */
  found: z.boolean(),
  role: z.string().optional(),
  name: z.string().optional(),
  value: z.string().optional(),
  states: z.array(z.string()).optional(),
  childCount: z.number().optional(),
  options: z.object({ count: z.number(), items: z.array(OptionInfo) }).optional(),
  hints: z.array(SelectorHint).optional(),
});
export type DescribedElement = z.infer<typeof DescribedElement>;

export const DescribeRequest = z.object({
  /** IDs that need selector hints. */
  hints: z.array(z.string()).optional(),
  /** Give the options of selects. */
  options: z.boolean().optional(),
  /** Groups of IDs that need one selector matching exactly them. */
  groups: z.array(z.array(z.string())).optional(),
});
export type DescribeRequest = z.infer<typeof DescribeRequest>;

/** The answer of `describeElements`: nothing was looked up when `doc` is not the document asked about. */
export const DescribeAnswer = z.object({ doc: z.string(), elements: z.array(DescribedElement), groups: z.array(z.array(SelectorHint)) });
export type DescribeAnswer = z.infer<typeof DescribeAnswer>;

/** A large visual block of a page (a child of <body>, below wrappers that hold everything). */
export const VisualBlock = z.object({
  id: z.string(),
  tag: z.string(),
  /** "/body/div#app/div.box[2]": the wrappers down to the block. */
  path: z.string(),
  box: Box,
  /** aria-label, else the first heading inside. */
  name: z.string(),
  childCount: z.number(),
  attrs: z.record(z.string(), z.string()),
});
export type VisualBlock = z.infer<typeof VisualBlock>;

/** A frame's page geometry and blocks (engine call `pageLayout`). */
export const PageLayout = z.object({
  doc: z.string(),
  readyState: z.enum(['loading', 'interactive', 'complete']),
  scroll: z.object({ x: z.number(), y: z.number() }),
  content: z.object({ width: z.number(), height: z.number() }),
  elementCount: z.number(),
  body: z.object({ id: z.string(), childCount: z.number() }).nullable(),
  blocks: z.array(VisualBlock),
  /** For each ID asked about: the index of the block it lies in (-1: none). */
  member: z.array(z.number()),
});
export type PageLayout = z.infer<typeof PageLayout>;

/** A visible block of text (a paragraph, a list item, a cell). */
export const TextBlock = z.object({
  id: z.string(),
  tag: z.string(),
  /** Up to 100 characters (around the match, for a search). */
  text: z.string(),
  /** Length of the whole text. */
  length: z.number(),
  box: Box,
});
export type TextBlock = z.infer<typeof TextBlock>;

export const TextBlocks = z.object({ doc: z.string(), blocks: z.array(TextBlock) });
export type TextBlocks = z.infer<typeof TextBlocks>;

export const TextBlockQuery = z.object({
  /** Case-insensitive text to find; without it, paragraphs longer than `minLength`. */
  query: z.string().optional(),
  minLength: z.number(),
  limit: z.number(),
});
export type TextBlockQuery = z.infer<typeof TextBlockQuery>;

/** An interactive element that cannot be seen (for dom_overview with `visible: false`). */
export const HiddenControl = z.object({ id: z.string(), role: z.string(), name: z.string(), tag: z.string(), attrs: z.record(z.string(), z.string()) });
export type HiddenControl = z.infer<typeof HiddenControl>;
export const HiddenControls = z.object({ doc: z.string(), total: z.number(), controls: z.array(HiddenControl) });
export type HiddenControls = z.infer<typeof HiddenControls>;

export const SelectorMatch = z.discriminatedUnion('ok', [
  /** The first two matches (IDs), and how many there are. */
  z.object({ ok: z.literal(true), doc: z.string(), ids: z.array(z.string()), count: z.number() }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type SelectorMatch = z.infer<typeof SelectorMatch>;

export const ContextLink = z.object({ id: z.string(), kind: StructKind, role: z.string(), tag: z.string(), name: z.string() });
export type ContextLink = z.infer<typeof ContextLink>;

/** One element in depth, within its own document (element call `elementContext`). */
export const RawElementContext = z.object({
  tag: z.string(),
  role: z.string(),
  name: z.string(),
  value: z.string().optional(),
  states: z.array(z.string()),
  /** Real XPath within the element's document; `#shadow-root` steps into a shadow root. */
  xpath: z.string(),
  /** In the frame's viewport; null when the element cannot be seen. */
  box: Box.nullable(),
  attributes: z.record(z.string(), z.string()),
  options: z.array(OptionInfo).optional(),
  optionCount: z.number().optional(),
  /** Forms, fieldsets, landmarks, … around the element, outermost first. */
  chain: z.array(ContextLink),
  shadow: z.array(HintRoot),
  hints: z.array(SelectorHint),
});
export type RawElementContext = z.infer<typeof RawElementContext>;

// ---- structured data (extract's main item: src/model/retrieval/productFacts.ts) ----

/** What a page declares about its main item in structured data (JSON-LD `Product`, microdata `itemprop`, product meta tags), raw. */
export const StructuredRead = z.object({
  doc: z.string(),
  /** The text of each `application/ld+json` script (capped). */
  jsonLd: z.array(z.string()),
  /** `itemprop` values; `depth`: how many `itemscope`s hold the element (1: the page's item, 2: its offer). */
  props: z.array(z.object({
    name: z.string(), value: z.string(), depth: z.number(),
    /** Which top-level item (`itemscope` with no item around it) the property is part of, -1 for none. */
    scope: z.number().optional(),
    /** Whether that top-level item holds the page's `<h1>`. */
    holdsTitle: z.boolean().optional(),
  })),
  meta: z.array(z.object({ name: z.string(), value: z.string() })),
  /** The document's language: `<html lang>`, else its Content-Language or og:locale (how it writes numbers). */
  lang: z.string().optional(),
});
export type StructuredRead = z.infer<typeof StructuredRead>;

// ---- native options and serialized documents (the skeleton and the full DOM: src/model/renderers) ----

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

/** One frame's document, cloned, annotated and stripped in the page (src/page/toolkit/serialize.ts). */
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
