// Schemas are the types: every payload that crosses a boundary (page → Node, Node → user)
// is described once here with zod, and its TypeScript type is inferred from that.
import { z } from 'zod';
import { exactList } from './exactCopy.js';

/** [x, y, width, height] in CSS pixels. */
export const Box = z.tuple([z.number(), z.number(), z.number(), z.number()]);
export type Box = z.infer<typeof Box>;

export const ScrollInfo = z.object({
  /** How far the container is scrolled, "0%" at the top, "100%" at the bottom. */
  depth: z.string(),
  /** More content below (or to the right) of what is shown. */
  h: z.boolean(),
});
export type ScrollInfo = z.infer<typeof ScrollInfo>;

/** One element as the in-page engine sees it, in its own frame's coordinates. */
export const RawNode = z.object({
  id: z.string(),
  /** An ARIA role; `item` for the identifying text of a repeated row (a to-do, a product card, a table row). */
  role: z.string(),
  name: z.string(),
  /** Lower-case tag name. */
  tag: z.string(),
  value: z.string().optional(),
  states: z.array(z.string()),
  type: z.string().optional(),
  placeholder: z.string().optional(),
  href: z.string().optional(),
  shadow: z.boolean().optional(),
  box: Box,
  /** true when hit-testing found another element on top; absent when it was not tested (off screen). */
  occ: z.boolean().optional(),
  scr: ScrollInfo.optional(),
  /** Index in the frame's `structure` of the nearest enclosing structure (when structure was asked for). */
  ctx: z.number().optional(),
  /** Targets inside this element that its overflow hides (a carousel, a collapsed menu): how many and where. */
  hidden: z.object({ n: z.number(), why: z.string() }).optional(),
  /** Local ID of the listed control this one sits inside (a button in a tab header, a link in a clickable card). */
  in: z.string().optional(),
  /** Attributes that identify the element (id, name, type, …; when asked for). */
  attrs: z.record(z.string(), z.string()).optional(),
  /** Set when pagelens's label hunt gave the name (the W3C computation, as in Chrome, gave none); never rendered. */
  nameFrom: z.literal('hunt').optional(),
});
export type RawNode = z.infer<typeof RawNode>;

/**
 * The structure around the controls: landmarks, forms, fieldsets, dialogs, tables, headed
 * sections, and repeated rows (the list item, table row or card that holds a group of controls).
 */
export const StructKind = z.enum(['landmark', 'form', 'fieldset', 'group', 'dialog', 'table', 'section', 'row']);
export type StructKind = z.infer<typeof StructKind>;

export const StructNode = z.object({
  /** Local element ID, from the same numbering as the controls. */
  id: z.string(),
  kind: StructKind,
  /** ARIA role (banner, navigation, main, complementary, contentinfo, search, region, form, group, dialog, table, article, …). */
  role: z.string(),
  tag: z.string(),
  /** Accessible name, legend, caption, or the first heading inside. */
  name: z.string(),
  box: Box,
  /** Index of the enclosing structure node in the same list, -1 at the top. */
  parent: z.number(),
  /** Tables: rows in the body. */
  rows: z.number().optional(),
  /** Attributes that identify the element (when asked for). */
  attrs: z.record(z.string(), z.string()).optional(),
});
export type StructNode = z.infer<typeof StructNode>;

export const HeadingNode = z.object({
  id: z.string(),
  level: z.number(),
  text: z.string(),
  box: Box,
  /** Index in `structure` of the nearest enclosing structure node (-1: none). */
  ctx: z.number(),
});
export type HeadingNode = z.infer<typeof HeadingNode>;

export const ScrollableContainer = z.object({
  id: z.string(),
  depth: z.string(),
  hasMore: z.boolean(),
});
export type ScrollableContainer = z.infer<typeof ScrollableContainer>;

/** What one frame's engine returns for one snapshot. */
export const FrameSnapshot = z.object({
  /**
   * The engine instance that read the frame, one per document: IDs are numbered per document,
   * so an ID is only ever meaningful together with the document that issued it.
   */
  doc: z.string().min(8),
  url: z.string(),
  /** The document's base URL, against which node hrefs (as written) resolve. */
  base: z.string(),
  title: z.string(),
  viewport: z.object({ width: z.number(), height: z.number() }),
  scroll: z.object({ x: z.number(), y: z.number(), position: z.string() }),
  /** Checked, like `structure` and `headings`, by an exact copy where it can vouch for them (exactCopy.ts): a read of a big page is mostly entries. */
  nodes: exactList(RawNode),
  /** Visible interactive elements in the frame, before viewport pruning. */
  total: z.number(),
  timeMs: z.number(),
  /** Names answered from earlier reads because nothing they depend on changed since (0 on a cold read). */
  reused: z.number().int().nonnegative().optional(),
  /** Elements the read looked at: the whole frame for a walk, the targets near the viewport (and their ancestors) for a viewport read that reused the last walk. */
  visited: z.number().int().nonnegative().optional(),
  /** What the engine could not do for some elements (a name computation that threw), with the reason. */
  warnings: z.array(z.string()).optional(),
  /** The frame's structure, in document order (when asked for; never pruned to the viewport). */
  structure: exactList(StructNode).optional(),
  /** Visible headings in document order (with the structure). */
  headings: exactList(HeadingNode).optional(),
});
export type FrameSnapshot = z.infer<typeof FrameSnapshot>;

export const FrameInfo = z.object({
  id: z.number(),
  url: z.string(),
  origin: z.string(),
  parentId: z.number().nullable(),
  crossOrigin: z.boolean(),
  sandboxed: z.boolean(),
  /** Set when the frame could not be read; the rest of the page is still returned. */
  error: z.string().optional(),
});
export type FrameInfo = z.infer<typeof FrameInfo>;

export const SemanticNodeV3 = z.object({
  i: z.string(),
  r: z.string(),
  n: z.string(),
  v: z.string().optional(),
  s: z.string().optional(),
  xy: z.tuple([z.number(), z.number()]),
  f: z.number().optional(),
  box: Box.optional(),
  scr: ScrollInfo.optional(),
  occ: z.literal(true).optional(),
  /** n more targets inside it are hidden by its overflow, and why ("clipped right"). */
  hid: z.object({ n: z.number(), why: z.string() }).optional(),
  /** The ID of the listed control this one sits inside (a button in a tab header): a target of its own. */
  in: z.string().optional(),
});
export type SemanticNodeV3 = z.infer<typeof SemanticNodeV3>;

export const SemanticNode = z.object({
  id: z.string(),
  role: z.string(),
  name: z.string(),
  value: z.string().optional(),
  state: z.string().optional(),
  type: z.string().optional(),
  placeholder: z.string().optional(),
  href: z.string().optional(),
  isInShadow: z.boolean().optional(),
  frameId: z.number().optional(),
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).optional(),
  occluded: z.boolean().optional(),
  scroll: ScrollInfo.optional(),
  hidden: z.object({ count: z.number(), reason: z.string() }).optional(),
  /** The ID of the listed control this one sits inside. */
  container: z.string().optional(),
  /** EncodedId of the same element in the accessibility-tree path (axtree mode only). */
  axId: z.string().optional(),
});
export type SemanticNode = z.infer<typeof SemanticNode>;

export const Viewport = z.object({ width: z.number(), height: z.number() });

/**
 * In a result's meta: a token count there is an estimate (a run of over 1,000 characters without
 * a break was counted in chunks, to bound the work: src/model/renderers/tokens.ts). Absent: exact o200k counts.
 */
export const APPROXIMATE_TOKENS = { approximateTokens: z.literal(true).optional() };

export const SnapshotMeta = z.object({
  totalElements: z.number(),
  viewportElements: z.number(),
  prunedElements: z.number(),
  occludedElements: z.number(),
  extractionTimeMs: z.number(),
  estimatedTokens: z.number(),
  ...APPROXIMATE_TOKENS,
});
export type SnapshotMeta = z.infer<typeof SnapshotMeta>;

const resultBase = {
  url: z.string(),
  title: z.string(),
  viewport: Viewport,
  scroll_position: z.string(),
  scrollable_containers: z.array(ScrollableContainer),
  frames: z.array(FrameInfo).optional(),
  meta: SnapshotMeta,
  /** Meaningful changes seen lately ("[2s ago] Added: 'Saved'"), including ones already gone again. */
  recent_events: z.array(z.string()).optional(),
  /**
   * What this snapshot may be missing or have wrong, and why (a frame whose occlusion could not be
   * checked, a closed shadow root that could not be read). Absent when nothing is in doubt.
   */
  warnings: z.array(z.string()).optional(),
};

export const SemanticV3Result = z.object({
  mode: z.literal('semantic_v3'),
  ...resultBase,
  interactive_tree: z.array(SemanticNodeV3),
});
export type SemanticV3Result = z.infer<typeof SemanticV3Result>;

export const SemanticResult = z.object({
  mode: z.literal('semantic'),
  ...resultBase,
  nodes: z.array(SemanticNode),
});
export type SemanticResult = z.infer<typeof SemanticResult>;

// The snapshot request (modes, formats, which option applies to which mode) lives in snapshotRequest.ts.
export { SnapshotMode, ScreenshotOptions, SnapshotOptions, type ScreenshotOptionsInput, type SnapshotOptionsInput } from './snapshotRequest.js';

/** Options the Node side passes to each frame's engine. */
export const EngineSnapshotOptions = z.object({
  viewportOnly: z.boolean(),
  /** Also read the structure (landmarks, forms, rows, headings) and tie every node to it. */
  structure: z.boolean().optional(),
  /** Also read identifying attributes of every node and structure element. */
  attributes: z.boolean().optional(),
  /** Derive everything again, reusing nothing from earlier reads (a cold read; it refills what later reads reuse). */
  fresh: z.boolean().optional(),
  /** Walk the whole frame even for a viewport read: the host saw a change the engine cannot (a shadow root attached). */
  walk: z.boolean().optional(),
  /** A viewport read of an iframe: the part of the frame's viewport the page shows, in the frame's coordinates (what else it holds is only counted). */
  view: Box.optional(),
});

/** Options of lens.text(). */
export const TextOptions = z.strictObject({
  fullPage: z.boolean().default(false),
});
export type TextOptionsInput = z.input<typeof TextOptions>;

/** Options of lens.model(): the page model every renderer works from. */
export const ModelOptions = z.strictObject({
  fullPage: z.boolean().default(false),
  /** Landmarks, forms, fieldsets, dialogs, tables, headed sections, rows and headings, with every node tied to them. */
  structure: z.boolean().default(false),
  /** Identifying attributes (id, name, type, data-testid, …) of nodes and structure. */
  attributes: z.boolean().default(false),
  /**
   * Derive every name and style fact again instead of reusing those of earlier reads where nothing
   * changed (the result is the same; this is the cold read that the reuse is tested against).
   */
  fresh: z.boolean().default(false),
});
export type ModelOptionsInput = z.input<typeof ModelOptions>;
export type EngineSnapshotOptions = z.infer<typeof EngineSnapshotOptions>;
