// The hierarchical index (L0 page overview, L1 regions, L2 one region's elements, L3 one element
// in depth) and the exploration toolkit (dom_overview, dom_diff, dom_search): the schemas of
// every answer and of dom_overview's parameters, plus dom_overview's tool definition for
// OpenAI-style function calling. What the in-page engine reports for them is the engine
// contract's (src/model/contracts/engineAnswers.ts).
import { z } from 'zod';
import { OptionInfo, SelectorHint } from '../contracts/engineAnswers.js';

// ---- L0 – L3 ----

export const BoundingBox = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
export type BoundingBox = z.infer<typeof BoundingBox>;

export const PageOverview = z.object({
  snapshotId: z.string(),
  url: z.string(),
  title: z.string(),
  viewport: z.object({ width: z.number(), height: z.number() }),
  /** The main document's readyState. */
  status: z.enum(['loading', 'interactive', 'complete']),
  /** Page-level landmarks (those inside no other landmark), by kind in reading order. */
  landmarks: z.object({ count: z.number(), kinds: z.array(z.string()) }),
  /** Visible interactive elements, whole page, every frame. */
  interactive: z.number(),
  forms: z.number(),
  frames: z.number(),
  regions: z.number(),
  warnings: z.array(z.string()).optional(),
  text: z.string(),
});
export type PageOverview = z.infer<typeof PageOverview>;

export const InteractiveCounts = z.object({
  buttons: z.number(),
  links: z.number(),
  inputs: z.number(),
  other: z.number(),
});

export const SubsectionRef = z.object({
  /** "R2.Filters" */
  id: z.string(),
  name: z.string(),
  /** "SEARCH", "FIELDSET", "TABLE", "SECTION", … */
  kind: z.string(),
  interactive: z.number(),
  /** The element that bounds it (a heading for a headed group). */
  ref: z.string().optional(),
});
export type SubsectionRef = z.infer<typeof SubsectionRef>;

export const Region = z.object({
  /** "R0"; stable while the landmark (or block) it stands for stays on the page. */
  id: z.string(),
  /** header, nav, main, aside, footer, search, form, region, dialog, section, article, block, page */
  landmark: z.string(),
  /** Semantic path: "/body/main#content/section.filters". */
  xpath: z.string(),
  name: z.string(),
  summary: z.string(),
  purposes: z.array(z.string()),
  /** Short names of the subsections ("Filters"); expand "R2.Filters". */
  subsections: z.array(z.string()),
  sections: z.array(SubsectionRef),
  interactive: z.number(),
  interactiveCounts: InteractiveCounts,
  /** Finer counts for the text form: { buttons: 3, links: 4, menus: 1 }. */
  byKind: z.record(z.string(), z.number()),
  boundingBox: BoundingBox,
  /** The landmark's (or block's) element ID. */
  ref: z.string().optional(),
});
export type Region = z.infer<typeof Region>;

export const RegionsResult = z.object({
  snapshotId: z.string(),
  url: z.string(),
  title: z.string(),
  regions: z.array(Region),
  text: z.string(),
});
export type RegionsResult = z.infer<typeof RegionsResult>;

/** One element line of L2: `SEARCHBOX "Search projects..." @ref:12 [placeholder]`. */
export const RegionElement = z.object({
  ref: z.string(),
  role: z.string(),
  /** SEARCHBOX, BUTTON, COMBOBOX, DATEPICKER, … */
  kind: z.string(),
  name: z.string(),
  value: z.string().optional(),
  states: z.array(z.string()),
  /** Bracketed notes: placeholder (the name is the placeholder), type=submit, primary, href=… */
  notes: z.array(z.string()),
  options: z.array(z.string()).optional(),
  optionCount: z.number().optional(),
  /** Subsection the element belongs to ("R2.Filters"), when not the expanded one itself. */
  section: z.string().optional(),
});
export type RegionElement = z.infer<typeof RegionElement>;

/** Several similar elements on one line: `[19,21,…,33] 8 similar: BUTTON "Edit"`. */
export const ElementGroup = z.object({
  refs: z.array(z.string()),
  count: z.number(),
  kind: z.string(),
  /** The shape they share: "button.row-action". */
  shape: z.string(),
  names: z.array(z.string()),
  section: z.string().optional(),
});
export type ElementGroup = z.infer<typeof ElementGroup>;

export const ExpandedRegion = z.object({
  snapshotId: z.string(),
  id: z.string(),
  landmark: z.string(),
  xpath: z.string(),
  name: z.string(),
  summary: z.string(),
  elements: z.array(z.union([RegionElement, ElementGroup])),
  /** Subsections shown as one summary line each (expand them for their elements). */
  collapsed: z.array(SubsectionRef),
  subsections: z.array(SubsectionRef),
  /** Elements in the region in all. */
  total: z.number(),
  text: z.string(),
});
export type ExpandedRegion = z.infer<typeof ExpandedRegion>;

export const Neighbor = z.object({ ref: z.string(), kind: z.string(), name: z.string(), distance: z.number() });
export type Neighbor = z.infer<typeof Neighbor>;

export const ElementContext = z.object({
  snapshotId: z.string(),
  ref: z.string(),
  role: z.string(),
  kind: z.string(),
  name: z.string(),
  tag: z.string(),
  value: z.string().optional(),
  states: z.array(z.string()),
  /** Real XPath; `/#document` steps from an iframe into its document, `/#shadow-root` into a shadow root. */
  xpath: z.string(),
  /** Top-level viewport CSS pixels; null when the element cannot be seen. */
  bbox: BoundingBox.nullable(),
  inViewport: z.boolean(),
  frame: z.number(),
  frameUrl: z.string().optional(),
  attributes: z.record(z.string(), z.string()),
  options: z.array(OptionInfo).optional(),
  optionCount: z.number().optional(),
  parents: z.array(z.object({ ref: z.string(), kind: z.string(), role: z.string(), tag: z.string(), name: z.string() })),
  nearby: z.object({ left: Neighbor.optional(), right: Neighbor.optional(), up: Neighbor.optional(), down: Neighbor.optional() }),
  region: z.string().optional(),
  /** Ranked, each unique in its own root; `[frame f1]` / `[shadow #host]` prefixes say which root. */
  selectorHints: z.array(z.string()),
  hints: z.array(SelectorHint),
  text: z.string(),
});
export type ElementContext = z.infer<typeof ElementContext>;

// ---- dom_overview ----

const nullableBoolean = z.boolean().nullish();

/** The largest max_rows the seed allows. */
export const MAX_ROWS = 100;

/** dom_overview's parameters, as the seed defines them (null stands for "not given", as strict tool calls send it). */
export const DomOverviewParams = z.strictObject({
  tabName: z.string().nullish(),
  filters: z.strictObject({ outline: nullableBoolean, interactives: nullableBoolean, headings: nullableBoolean }).nullish(),
  visible: nullableBoolean,
  viewport: nullableBoolean,
  max_rows: z.number().int().min(1).max(MAX_ROWS).nullish(),
});
export type DomOverviewParamsInput = z.input<typeof DomOverviewParams>;

/** Options of pageOverview(), regions() and elementContext(). */
export const RefreshOptions = z.strictObject({
  /** Take a new snapshot even when the cached one is still fresh. */
  refresh: z.boolean().default(false),
});
export type RefreshOptionsInput = z.input<typeof RefreshOptions>;

/** Options of overview() that are not tool parameters. */
export const ExploreOptions = z.strictObject({
  /** Take a new snapshot even when the cached one is still fresh. */
  refresh: z.boolean().default(false),
  /** Collapse similar siblings ("N similar"). */
  group: z.boolean().default(true),
});
export type ExploreOptionsInput = z.input<typeof ExploreOptions>;

/** Options of lens.expandRegion(). */
export const ExpandRegionOptions = ExploreOptions.extend({
  /** Element lines at most; subsections that do not fit are summarised on one line each. */
  limit: z.number().int().min(1).max(1000).default(25),
});
export type ExpandRegionOptionsInput = z.input<typeof ExpandRegionOptions>;

/** Options of lens.search(). */
export const SearchOptions = z.strictObject({
  refresh: z.boolean().default(false),
  /** Elements at most (text blocks: 10). */
  limit: z.number().int().min(1).max(200).default(20),
});
export type SearchOptionsInput = z.input<typeof SearchOptions>;

export const OutlineElement = z.object({
  /** "[123]" */
  id: z.string(),
  tag: z.string(),
  classes: z.string().optional(),
  id_attr: z.string().optional(),
  depth: z.number(),
  child_count: z.number(),
  /** The element ID without brackets ("123"), or the region it stands for. */
  ref: z.string(),
  region: z.string().optional(),
});
export type OutlineElement = z.infer<typeof OutlineElement>;

export const InteractiveAttributes = z.object({
  name: z.string().optional(),
  placeholder: z.string().optional(),
  href: z.string().optional(),
  type: z.string().optional(),
  role: z.string().optional(),
});

export const InteractiveElement = z.object({
  /** "[456]" */
  id: z.string(),
  type: z.string(),
  tag: z.string(),
  text: z.string().optional(),
  label: z.string().optional(),
  value: z.string().optional(),
  attributes: InteractiveAttributes,
  selector_hints: z.array(z.string()),
  ref: z.string(),
  states: z.array(z.string()).optional(),
  hidden: z.boolean().optional(),
});
export type InteractiveElement = z.infer<typeof InteractiveElement>;

export const GroupedInteractiveElement = z.object({
  /** "[200-205]", or "[19,21,…,33]" when the IDs step by more than one. */
  id: z.string(),
  /** The shape the elements share: "button.row-action". */
  group: z.string(),
  count: z.number(),
  selector_hints: z.array(z.string()),
  refs: z.array(z.string()),
  type: z.string(),
  names: z.array(z.string()),
});
export type GroupedInteractiveElement = z.infer<typeof GroupedInteractiveElement>;

export const HeadingElement = z.object({
  /** "[789]" */
  id: z.string(),
  tag: z.string(),
  text: z.string(),
  length: z.number(),
  ref: z.string(),
});
export type HeadingElement = z.infer<typeof HeadingElement>;

export const DomOverviewResponse = z.object({
  success: z.boolean(),
  snapshotId: z.string(),
  url: z.string(),
  sections: z.object({
    outline: z.array(OutlineElement).optional(),
    interactives: z.array(z.union([InteractiveElement, GroupedInteractiveElement])).optional(),
    headings: z.array(HeadingElement).optional(),
  }),
  summary: z.object({
    /** Rows the requested sections hold on the whole page before the viewport and max_rows cuts (elements, not groups). */
    total_elements: z.number(),
    /** Elements shown (a group counts its members). */
    shown: z.number(),
    truncatedSections: z.array(z.string()),
    viewport_info: z.object({
      width: z.number(),
      height: z.number(),
      scroll_position: z.number(),
      contentHeight: z.number(),
    }),
  }),
  /** How old the snapshot is (a cached one is reused for 30 s). */
  snapshotAgeMs: z.number(),
  warnings: z.array(z.string()).optional(),
  text: z.string(),
});
export type DomOverviewResponse = z.infer<typeof DomOverviewResponse>;

// ---- dom_diff, dom_search ----

export const DiffElement = z.object({ ref: z.string(), kind: z.string(), name: z.string() });
export type DiffElement = z.infer<typeof DiffElement>;

export const DiffChange = z.object({
  ref: z.string(),
  kind: z.string(),
  name: z.string(),
  changes: z.array(z.object({ field: z.enum(['name', 'value', 'states', 'position']), from: z.string(), to: z.string() })),
});
export type DiffChange = z.infer<typeof DiffChange>;

export const DomDiff = z.object({
  snapshotA: z.string(),
  snapshotB: z.string(),
  elapsedMs: z.number(),
  /** The main frame shows another document: IDs of A mean nothing in B, so no element diff is given. */
  navigated: z.boolean(),
  url: z.object({ from: z.string(), to: z.string() }),
  /** Child frames (ordinals) that show another document: their elements are left out. */
  framesNavigated: z.array(z.number()),
  added: z.array(DiffElement),
  removed: z.array(DiffElement),
  changed: z.array(DiffChange),
  /** Removed and added again in the same place with the same role and name: the new ID to use. */
  rerendered: z.array(z.object({ from: z.string(), to: z.string(), kind: z.string(), name: z.string() })),
  text: z.string(),
});
export type DomDiff = z.infer<typeof DomDiff>;

export const SearchHit = z.object({
  ref: z.string(),
  kind: z.string(),
  name: z.string(),
  value: z.string().optional(),
  region: z.string().optional(),
  /** What matched: name, value, placeholder, role, attribute name. */
  matched: z.array(z.string()),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchResult = z.object({
  snapshotId: z.string(),
  query: z.string(),
  elements: z.array(SearchHit),
  textBlocks: z.array(z.object({ ref: z.string(), tag: z.string(), text: z.string(), region: z.string().optional() })),
  /** More matched than shown. */
  truncated: z.boolean(),
  text: z.string(),
});
export type SearchResult = z.infer<typeof SearchResult>;

// ---- the tool definition ----

/**
 * dom_overview for OpenAI-style function calling: the seed's name, descriptions and parameters,
 * made valid for strict mode (every property listed in `required`, optional ones nullable, every
 * object closed). `tabName` is for a face that holds several tabs; a lens serves one page.
 */
export const DOM_OVERVIEW_TOOL = {
  type: 'function',
  function: {
    name: 'dom_overview',
    description: 'Get a filtered overview of the current page showing structure, interactive elements, and key content. Returns element IDs that can be used with other DOM tools. This is your primary reconnaissance tool - use it first when exploring a new page or after navigation.',
    parameters: {
      type: 'object',
      properties: {
        tabName: {
          type: ['string', 'null'],
          description: 'Browser tab to analyze (defaults to active tab)',
        },
        filters: {
          anyOf: [
            {
              type: 'object',
              description: 'Which content types to include',
              properties: {
                outline: { type: ['boolean', 'null'], description: 'Include page structure (depth ≤ 2)' },
                interactives: { type: ['boolean', 'null'], description: 'Include clickable/typeable elements' },
                headings: { type: ['boolean', 'null'], description: 'Include headings and key text blocks' },
              },
              required: ['outline', 'interactives', 'headings'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
        },
        visible: {
          type: ['boolean', 'null'],
          description: 'Only include visible elements (default: true)',
        },
        viewport: {
          type: ['boolean', 'null'],
          description: 'Only include elements in current viewport (default: true)',
        },
        max_rows: {
          type: ['number', 'null'],
          description: 'Maximum elements per category (default: 30, max: 100)',
        },
      },
      required: ['tabName', 'filters', 'visible', 'viewport', 'max_rows'],
      additionalProperties: false,
    },
    strict: true,
  },
} as const;
