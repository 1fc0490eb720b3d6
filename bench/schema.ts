// The benchmark's persisted shapes (results.json, baseline.json). They are read back by
// --compare, so they are schemas first and types second.
import { z } from 'zod';

/** Every extraction the benchmark times and counts, in table order. */
export const METHODS = ['v3Viewport', 'v3Full', 'textFull', 'semanticFull', 'axtree', 'html', 'playwrightAi', 'chromeAx'] as const;
export type Method = (typeof METHODS)[number];

export const METHOD_LABELS: Record<Method | 'floor' | 'modelFull', string> = {
  v3Viewport: 'v3 viewport',
  v3Full: 'v3 full',
  textFull: 'text full',
  semanticFull: 'semantic full',
  axtree: 'axtree',
  html: 'raw HTML',
  playwrightAi: 'PW AI snap',
  chromeAx: 'Chrome AX',
  modelFull: 'model only',
  floor: 'floor',
};

/** A figure that may be missing: NaN in memory, null in JSON (which has no NaN), NaN again when read back. */
const Num = z.number().nullable().transform((v) => v ?? NaN);
const Counts = z.record(z.string(), Num);

export const Missed = z.object({
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  /** Why Chrome counts it: an interactive role, or only the focusable property. */
  via: z.enum(['role', 'focusable']),
  box: z.array(z.number()),
  /** A quick diagnosis made in the page (tiny, transparent, nested in a listed element…). */
  hint: z.string(),
});
export type Missed = z.infer<typeof Missed>;

/** from: 'hunt' when pagelens's label hunt gave the name (the W3C computation gave none). */
export const NameDiff = z.object({ id: z.string(), role: z.string(), tag: z.string(), ours: z.string(), chrome: z.string(), from: z.literal('hunt').optional() });
export type NameDiff = z.infer<typeof NameDiff>;

export const FormField = z.object({ name: z.string(), tag: z.string(), type: z.string(), listed: z.boolean(), ours: z.string(), chrome: z.string() });
export type FormField = z.infer<typeof FormField>;

export const PageResult = z.object({
  set: z.string(),
  page: z.string(),
  url: z.string(),
  error: z.string().optional(),
  elements: z.object({ dom: z.number(), axNodes: z.number(), listedFull: z.number(), listedViewport: z.number() }).optional(),
  tokens: Counts.optional(),
  /** Warm medians in ms, measured from Node. */
  timeMs: Counts.optional(),
  coverage: z.object({
    candidates: z.number(),
    covered: z.number(),
    /** Misses a person could not see either: clipped away, transparent, 2px or less. */
    unseen: z.number(),
    /** Misses clipped by a container that is listed saying how many targets it hides, or focusable by script only (no target); absent in older results. */
    accounted: z.number().optional(),
    share: z.number().nullable(),
    byHint: Counts,
    missed: z.array(Missed),
  }).optional(),
  /** accname*: the elements whose name came from the W3C computation only (not from pagelens's label hunt); absent in older results. */
  names: z.object({
    compared: z.number(), agree: z.number(), oursOnly: z.number(), share: z.number().nullable(), disagreements: z.array(NameDiff),
    accnameCompared: z.number().optional(), accnameAgree: z.number().optional(),
  }).optional(),
  forms: z.object({ fields: z.number(), listed: z.number(), named: z.number(), chromeNamed: z.number(), share: z.number().nullable(), fieldList: z.array(FormField) }).optional(),
  /**
   * Full-page page model after one element's text changed: read reusing what nothing changed
   * (warm) against a read that reuses nothing (cold), from Node and inside the page (engine).
   */
  incremental: z.object({
    coldMs: z.number(), warmMs: z.number(), coldEngineMs: z.number(), warmEngineMs: z.number(),
    /** Bytes the engines' answers took over CDP: the re-read (a delta) and the cold read (whole). */
    warmBytes: z.number().optional(), coldBytes: z.number().optional(),
    /** A warm read with nothing changed since the last (absent in older results): the floor of any re-read. */
    unchangedMs: z.number().optional(), unchangedEngineMs: z.number().optional(),
  }).optional(),
});
export type PageResult = z.infer<typeof PageResult>;

export const ConformanceCase = z.object({
  suite: z.string(),
  file: z.string(),
  test: z.string(),
  kind: z.enum(['name', 'role']),
  expected: z.string(),
  listed: z.boolean(),
  ours: z.string().nullable(),
  chrome: z.string().nullable(),
  pass: z.boolean().nullable(),
  chromePass: z.boolean(),
});
export type ConformanceCase = z.infer<typeof ConformanceCase>;

export const ScaleResult = z.object({
  variant: z.string(),
  elements: z.number(),
  listedFull: z.number(),
  /** Listed by a warm full-page read (the first may miss what a slow step left for later, e.g. closed shadow roots). */
  listedWarm: z.number().optional(),
  /** The first full-page extraction on the page (cold: the engine tags everything first). */
  firstMs: Num,
  fullMs: Num,
  /** A viewport snapshot of the unchanged page (warm median). */
  viewportMs: Num,
  /** A viewport snapshot after one text in view changed, once the page rendered it (median). */
  viewportChangedMs: z.number().optional(),
  /** The page model alone (no rendering, no token count): what the engine and CDP cost. */
  modelMs: Num,
  /** Playwright's AI snapshot, warm (its second call on the page). */
  playwrightAiMs: z.number().nullable(),
  /** Playwright's first AI snapshot on the page. */
  playwrightAiFirstMs: z.number().optional(),
  /** Bytes the engines' answers took over CDP for one full-page / viewport read (hosts that count them). */
  bytesFull: z.number().optional(),
  bytesViewport: z.number().optional(),
  /** Every CDP answer received while one read ran (counted from outside the host: engine answers, frame layout, closed shadow roots…): the first full-page read, a warm one, a viewport one. */
  cdpBytesFirst: z.number().optional(),
  cdpBytesFull: z.number().optional(),
  cdpBytesViewport: z.number().optional(),
  /** The same, per CDP command, largest first. */
  cdpMethods: z.object({ first: z.record(z.string(), z.number()), full: z.record(z.string(), z.number()), viewport: z.record(z.string(), z.number()) }).optional(),
  /** Full-page model after one element's text changed, and a cold one (fresh) in the same session; their ratio. */
  rereadMs: z.number().optional(),
  coldMs: z.number().optional(),
  rereadRatio: z.number().optional(),
  /** Every CDP answer received during one such re-read (the engine answers with what changed: issue 21). */
  cdpBytesReread: z.number().optional(),
  /** Playwright's snapshot had not finished after this long (it was given more time than pagelens's first snapshot took). */
  playwrightAiOverMs: z.number().optional(),
  tokensFull: Num,
  /** JS heap used right after a full-page extraction, before any GC, minus the heap before it. */
  heapGrowthMb: Num,
  /** Committed JS heap after the extraction: the high-water mark of the isolate. */
  heapTotalMb: Num,
  /** JS heap the page still holds after every pagelens read and a GC, minus the heap before the first read: what the engine keeps. */
  heapRetainedMb: z.number().optional(),
  error: z.string().optional(),
});
export type ScaleResult = z.infer<typeof ScaleResult>;

const Dist = z.object({ median: Num, p90: Num });

export const SetSummary = z.object({
  pages: z.number(),
  failed: z.number(),
  tokens: z.record(z.string(), Dist),
  /** Median over pages of (method tokens / Playwright AI tokens). */
  tokenRatio: Counts,
  timeMs: z.record(z.string(), Dist),
  timeRatio: Counts,
  coverage: z.number().nullable(),
  /** Coverage leaving out what a person could not see either (see PageResult.coverage.unseen). */
  coverageSeen: z.number().nullable(),
  /** Listed, or accounted for: clipped by a listed container that reports it, or no target (absent in older results). */
  coverageAccounted: z.number().nullable().optional(),
  /** Median over pages of warm / cold full-page model time after a one-element change (from Node, and inside the page). */
  incrementalRatio: z.number().nullable().optional(),
  incrementalEngineRatio: z.number().nullable().optional(),
  /** The same for a warm read of an unchanged page: what verifying the kept read costs, whatever changed. */
  unchangedRatio: z.number().nullable().optional(),
  unchangedEngineRatio: z.number().nullable().optional(),
  /** How many pages the re-read was measured on (a page listing nothing with text to change has none). */
  incrementalPages: z.number().optional(),
  nameAgreement: z.number().nullable(),
  /** The same, leaving out elements Chrome gives no name and pagelens does. */
  nameAgreementChromeNamed: z.number().nullable(),
  formsNamed: z.number().nullable(),
  formsChromeNamed: z.number().nullable(),
});
export type SetSummary = z.infer<typeof SetSummary>;

export const Goal = z.object({ goal: z.string(), target: z.string(), measured: z.string(), value: z.number().nullable(), pass: z.boolean().nullable() });
export type Goal = z.infer<typeof Goal>;

export const Summary = z.object({
  sets: z.record(z.string(), SetSummary),
  conformance: z.object({
    names: z.number(), listed: z.number(), passed: z.number(), passRate: z.number().nullable(), chromePassRate: z.number().nullable(),
    roles: z.number(), rolesListed: z.number(), rolesPassed: z.number(),
  }).nullable(),
  scale: z.array(ScaleResult),
  goals: z.array(Goal),
});
export type Summary = z.infer<typeof Summary>;

export const Results = z.object({
  version: z.literal(1),
  startedAt: z.string(),
  durationS: z.number(),
  machine: z.object({ cpus: z.number(), node: z.string(), chromium: z.string(), playwright: z.string() }),
  config: z.object({ sets: z.array(z.string()), limit: z.number().nullable(), runs: z.number() }),
  summary: Summary,
  pages: z.array(PageResult),
  conformance: z.array(ConformanceCase),
});
export type Results = z.infer<typeof Results>;
