// The contract between the Node side and the in-page engine: every call the engine offers, with
// the schema of its answer. The page is untrusted (it can break or bend the engine's built-ins),
// so the Node side checks each answer against these schemas before believing it, and the engine's
// own API is type-checked against them at build time (src/page/main.ts).
import { z } from 'zod';
import { Box, FrameSnapshot, HeadingNode, RawNode, StructNode } from './schema.js';
import { DescribeAnswer, HiddenControls, NativeOptions, PageLayout, RawElementContext, SelectorMatch, SerializedDocument, StructuredRead, TextBlocks } from './engineAnswers.js';
import { ContentRead } from './content.js';
import { unpackNode } from './packedNode.js';

export const MutationEventSchema = z.object({
  timestamp: z.number(),
  type: z.enum(['added', 'removed', 'changed']),
  category: z.enum(['text', 'element', 'error', 'success', 'warning', 'loading', 'form']),
  description: z.string(),
  seq: z.number(),
  frame: z.number().optional(),
});

export const DomActivity = z.object({
  /** Changes to this document since the engine started (its own ID attributes excluded). */
  count: z.number(),
  /** Milliseconds since the last change (1e9: none yet). */
  quietMs: z.number(),
  /** The document's engine instance (see FrameSnapshot.doc). */
  doc: z.string(),
  seq: z.number(),
  readyState: z.enum(['loading', 'interactive', 'complete']),
});
export type DomActivity = z.infer<typeof DomActivity>;

export const MutationsSince = z.object({ doc: z.string(), events: z.array(MutationEventSchema) });

/** What a parent frame's engine reports about one of its iframe elements. */
export const OwnerInfo = z.object({
  /** The iframe's content box (inside border and padding) in the parent's viewport. */
  content: Box,
  sandboxed: z.boolean(),
  visible: z.boolean(),
  /** Rank in document order among the owners asked about. */
  order: z.number(),
});
export type OwnerInfo = z.infer<typeof OwnerInfo>;

export const Cover = z.object({
  /** "div.cookie-banner" */
  selector: z.string(),
  /** What the cover says or offers, shortest useful form. */
  text: z.string(),
  /** A button or link inside the cover, with its local ID: often the way to dismiss it. */
  control: z.object({ id: z.string(), role: z.string(), name: z.string() }).optional(),
});
export type Cover = z.infer<typeof Cover>;

/** A control inside the target that takes every press aimed at it and does something else; local ID. */
const InnerControl = z.object({ id: z.string(), role: z.string(), name: z.string() });

export const PrepareResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), point: z.tuple([z.number(), z.number()]), box: Box, viewport: z.tuple([z.number(), z.number()]) }),
  z.object({ ok: z.literal(false), code: z.enum(['NOT_ACTIONABLE', 'COVERED']), reason: z.string(), cover: Cover.optional(), inner: InnerControl.optional(), box: Box.optional() }),
]);
export type PrepareResult = z.infer<typeof PrepareResult>;

const Checked = z.union([z.boolean(), z.literal('mixed')]).nullable();

export const ElementState = z.object({
  connected: z.boolean(),
  visible: z.boolean(),
  tag: z.string(),
  type: z.string().nullable(),
  role: z.string(),
  name: z.string(),
  /** The name with its row's identity (`Toggle Todo · feed the cat`), as a snapshot lists a control whose name every row shares. */
  inRow: z.string().optional(),
  /** Shown value (secrets redacted) and a fingerprint of the real one, for change detection. */
  value: z.string().nullable(),
  valueKey: z.string().nullable(),
  checked: Checked,
  states: z.array(z.string()),
  focused: z.boolean(),
  scrollContainer: z.boolean(),
  /** In a shadow root the page closed: no selector engine outside pagelens reaches it. */
  inClosedShadow: z.boolean(),
});
export type ElementState = z.infer<typeof ElementState>;

export const OkReason = z.object({ ok: z.boolean(), reason: z.string().optional() });
export type OkReason = z.infer<typeof OkReason>;

export const SetValueResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.string() }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type SetValueResult = z.infer<typeof SetValueResult>;

/** How a field takes text: typed (trusted keyboard input), set (a picker such as date or range), or not at all. */
export const TextEntry = z.discriminatedUnion('kind', [
  /** `secret`: a password or card field, whose value is never echoed back. */
  z.object({ kind: z.literal('type'), secret: z.boolean() }),
  z.object({ kind: z.literal('set'), secret: z.boolean() }),
  /** `secret`: a refused field may still be a secret one, whose value is never echoed either. */
  z.object({ kind: z.literal('refuse'), reason: z.string(), secret: z.boolean().optional() }),
]);
export type TextEntry = z.infer<typeof TextEntry>;

export const SelectResult = z.discriminatedUnion('ok', [
  /** `selected`: every option selected afterwards, by label. */
  z.object({ ok: z.literal(true), selected: z.array(z.string()) }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type SelectResult = z.infer<typeof SelectResult>;

/** An option of a custom (ARIA) listbox, tagged so that it can be clicked by ID. */
export const ListedOption = z.object({ id: z.string(), name: z.string(), selected: z.boolean(), disabled: z.boolean(), visible: z.boolean() });
export type ListedOption = z.infer<typeof ListedOption>;
export const OptionList = z.object({
  /** combobox: the control opens a popup; listbox: the options are always there; none: not a list widget. */
  widget: z.enum(['combobox', 'listbox', 'none']),
  expanded: z.boolean(),
  editable: z.boolean(),
  multiselectable: z.boolean(),
  /** Where the options were found: the list the control names, one inside it, or any list shown on the page. */
  source: z.enum(['self', 'referenced', 'inside', 'page']),
  options: z.array(ListedOption),
  /** What the control shows now (its value or text), to confirm a choice. */
  shown: z.string(),
});
export type OptionList = z.infer<typeof OptionList>;

export const ScrollResult = z.object({ moved: z.boolean(), position: z.string(), hasMore: z.boolean(), scrolledIntoView: z.boolean().optional() });
export type ScrollResult = z.infer<typeof ScrollResult>;

export const FindResult = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), found: z.boolean() }),
  /** The query itself is wrong (an invalid CSS selector): not the same as "not found". */
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type FindResult = z.infer<typeof FindResult>;

/**
 * A list sent as what changed since the copy the Node side holds (src/page/changes/delta.ts): read in
 * order, a number n >= 0 copies the next n entries of the held list, a number -n skips n of them,
 * and an entry stands for itself (new or changed). Only the entries cross, and only they are checked.
 */
export function ListPatch<T extends z.ZodType>(entry: T) {
  return z.array(z.union([z.number().int(), entry]));
}

/** A read answered whole: `seq` names it for the next read's delta (absent: a cold read, not to be held); `whole` says why it is not a delta. */
export const WholeRead = FrameSnapshot.extend({
  kind: z.literal('whole'),
  seq: z.number().int().nonnegative().optional(),
  whole: z.string().optional(),
});
export type WholeRead = z.infer<typeof WholeRead>;

/** A read answered as what changed since the read `since` (same document, same options). */
export const DeltaRead = FrameSnapshot.omit({ nodes: true, structure: true, headings: true }).extend({
  kind: z.literal('delta'),
  seq: z.number().int().nonnegative(),
  since: z.number().int().nonnegative(),
  nodes: ListPatch(RawNode),
  structure: ListPatch(StructNode).optional(),
  headings: ListPatch(HeadingNode).optional(),
});
export type DeltaRead = z.infer<typeof DeltaRead>;

/** A read as it crosses: its nodes packed (packedNode.ts), unpacked here so that each is checked as a RawNode. */
export const FrameRead = z.preprocess(unpackNodes, z.discriminatedUnion('kind', [WholeRead, DeltaRead]));

function unpackNodes(answer: unknown): unknown {
  const nodes = (answer as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return answer;
  return { ...(answer as object), nodes: nodes.map((e) => (typeof e === 'number' ? e : unpackNode(e))) };
}
export type FrameRead = z.infer<typeof FrameRead>;

/**
 * Calls whose answer the engine serializes itself (its JSON text crosses CDP as one string): a
 * read keeps each entry's text to diff the next read against, so it does not serialize twice.
 */
export const ENGINE_TEXT_CALLS = {
  /** A frame's read, whole or as a delta against the read the Node side holds (issue 21). */
  read: FrameRead,
} as const;
export type EngineTextCall = keyof typeof ENGINE_TEXT_CALLS;

const Finite = z.number().finite();
/**
 * A frame's secret fields that render their value in clear (a password field turned to text, a card
 * number in a text field), as boxes in the frame's viewport (CSS px), with the frame's scroll and size.
 */
export const SecretBoxes = z.object({
  boxes: z.array(z.tuple([Finite, Finite, Finite.nonnegative(), Finite.nonnegative()])).max(10000),
  scroll: z.tuple([Finite, Finite]),
  viewport: z.tuple([Finite.nonnegative(), Finite.nonnegative()]),
});
export type SecretBoxes = z.infer<typeof SecretBoxes>;

/** Calls on a frame's engine (`__pagelens.<name>(...)`), by their answer's schema. */
export const ENGINE_CALLS = {
  snapshot: FrameSnapshot,
  domActivity: DomActivity,
  mutationsSince: MutationsSince,
  recentMutationEvents: z.array(MutationEventSchema),
  tagAll: z.number(),
  /**
   * The IDs of the frame's fields that are secret or ever were (a password field turned to text):
   * what the DOM's attributes no longer say, for the hosts that read the page another way (axtree).
   */
  secretIds: z.array(z.string()),
  /** Where this frame's secret fields show their value in clear (src/page/semantics/secretBoxes.ts): painted over in every image. */
  secretBoxes: SecretBoxes,
  /** Where this document's ID numbering starts (set by the host's first call) and the last ID issued. */
  numberFrom: z.object({ base: z.number().int().nonnegative(), last: z.number().int().nonnegative() }),
  /** Writes the document's token on <html> for selector engines outside pagelens; returns it. */
  markDocument: z.string(),
  frameOwners: z.array(OwnerInfo),
  ownerHits: z.array(z.boolean()),
  findOnPage: FindResult,
  scrollPage: ScrollResult,
  /** Page geometry and large visual blocks, with the block of each ID asked about (issue 12: regions). */
  pageLayout: PageLayout,
  /** The elements an answer shows, as they are now: options, selector hints (issue 12). */
  describeElements: DescribeAnswer,
  /** Long paragraphs, or the blocks whose text contains a query (issue 12). */
  textBlocks: TextBlocks,
  /** Interactive elements that cannot be seen (issue 12: dom_overview visible:false). */
  hiddenControls: HiddenControls,
  /** The elements a CSS selector matches, by ID (issue 12: element context by selector). */
  findSelector: SelectorMatch,
  /** Labelled values, table cells, prices and text blocks with IDs (issue 13: DOM RAG, extract). */
  content: ContentRead,
  /** JSON-LD, microdata and product meta tags, raw (issue 23: extract's main item). */
  structured: StructuredRead,
  /** The options of native selects, by ID (issue 10: the skeleton). */
  nativeOptions: NativeOptions,
  /** One frame's document cloned, annotated and stripped (issue 10: the full DOM). */
  serializeDocument: SerializedDocument,
  /** Debug (issue 9: names): every tagged element's text-only name next to the full computation's. */
  namePaths: z.array(z.object({ id: z.string(), role: z.string(), fast: z.string().nullable(), full: z.string() })),
  /** Debug: elements the auto-tagger inspected, slices it ran, work it has left. */
  taggerStats: z.object({ inspected: z.number(), slices: z.number(), pending: z.number() }),
} as const;

/** Calls on one element (`__pagelens.act.<name>(element, ...)`), by their answer's schema. */
export const ELEMENT_CALLS = {
  prepare: PrepareResult,
  reveal: z.boolean(),
  coverAt: Cover.nullable(),
  elementState: ElementState,
  textEntry: TextEntry,
  setValue: SetValueResult,
  focusForTyping: OkReason,
  focus: OkReason,
  valueIs: z.boolean(),
  selectOptions: SelectResult,
  listOptions: OptionList,
  clickJs: OkReason,
  /** Watches the next press in the element's window (src/page/acting/pressWatch.ts). */
  watchPress: OkReason,
  /** Where the watched press went: on the element, or on what (`on`). */
  pressLanded: z.object({ watched: z.boolean(), landed: z.boolean(), on: z.string().optional() }),
  submit: OkReason,
  checkedOf: Checked,
  scrollElement: ScrollResult,
  /** One element in depth: XPath, attributes, options, context chain, selector hints (issue 12). */
  elementContext: RawElementContext,
  /** Real XPath within the element's document (issue 12: frame hops). */
  xpathOf: z.string(),
} as const;

export type EngineCall = keyof typeof ENGINE_CALLS;
export type ElementCall = keyof typeof ELEMENT_CALLS;
export type EngineAnswer<K extends EngineCall> = z.infer<(typeof ENGINE_CALLS)[K]>;
export type ElementAnswer<K extends ElementCall> = z.infer<(typeof ELEMENT_CALLS)[K]>;

/** The shape the in-page API must have: the page's functions are checked against it at build time. */
export type EngineShape = { [K in EngineCall]: (...args: any[]) => EngineAnswer<K> }
  & { [K in EngineTextCall]: (...args: any[]) => string }
  & { act: { [K in ElementCall]: (el: Element, ...args: any[]) => ElementAnswer<K> } };
