// The snapshot request: every mode, every format, and which option applies to which mode, declared
// once for every face (the library's lens.snapshot, the CLI's flags, the MCP tool, the backend's
// dom modes, the extension). An option that does not apply is refused, never ignored: a caller
// (often a model) must not get output that silently differs from what it asked for. A new format
// is one row in FORMATS and one renderer where payloads are printed; a new option is one row in
// OPTIONS.
import { z } from 'zod';

/**
 * The payloads a snapshot can take: `semantic_v3` (primary), `semantic`, `axtree` (Chrome's
 * accessibility tree), and the heavier artifacts a backend asks for: `skeleton` (minimal HTML of
 * the controls), `full` (the annotated, templatized document), `hybrid` (the tree with boxes, the
 * skeleton and a screenshot).
 */
export const SNAPSHOT_MODES = ['semantic_v3', 'semantic', 'axtree', 'skeleton', 'full', 'hybrid'] as const;
export const SnapshotMode = z.enum(SNAPSHOT_MODES);
export type SnapshotMode = z.infer<typeof SnapshotMode>;

/**
 * The modes a page is sent to a backend in, and the capture chain picks from: every mode but
 * axtree (the backend contract carries the engine's payloads).
 */
export const DomMode = SnapshotMode.exclude(['axtree']);
export type DomMode = z.infer<typeof DomMode>;

/** The artifacts a backend can ask for (never semantic_v3: that one is always sent). */
export const RequestedDomMode = DomMode.extract(['skeleton', 'hybrid', 'full']);
export type RequestedDomMode = z.infer<typeof RequestedDomMode>;

/** What each mode is, in a line (tool descriptions and help). */
export const MODE_HELP: Record<SnapshotMode, string> = {
  semantic_v3: 'compact interactive tree (default)',
  semantic: 'verbose nodes',
  axtree: 'accessibility tree',
  skeleton: 'HTML of the controls',
  full: 'the whole DOM',
  hybrid: 'with a marked screenshot',
};

/** How a payload is printed, and the modes each form exists for. */
export const FORMATS = {
  json: { modes: SNAPSHOT_MODES, help: 'the JSON payload' },
  text: {
    modes: ['semantic_v3', 'axtree'],
    help: 'a compact text form',
    why: {
      semantic: 'the text form is one fixed form; use the text format alone, or with mode axtree for its outline',
      skeleton: 'skeleton, full and hybrid are JSON payloads', full: 'skeleton, full and hybrid are JSON payloads', hybrid: 'skeleton, full and hybrid are JSON payloads',
      query: 'the filtered snapshot is JSON',
    },
  },
} as const satisfies Record<string, { modes: readonly SnapshotMode[]; help: string; why?: Partial<Record<SnapshotMode | 'query', string>> }>;
export type SnapshotFormat = keyof typeof FORMATS;
export const SNAPSHOT_FORMATS = Object.keys(FORMATS) as [SnapshotFormat, ...SnapshotFormat[]];
export const SnapshotFormat = z.enum(SNAPSHOT_FORMATS);

export const ScreenshotOptions = z.strictObject({
  /** JPEG quality, 1–100. */
  quality: z.number().int().min(1).max(100).default(60),
  /** Draw each visible element's ID at its box (set-of-mark). */
  setOfMark: z.boolean().default(true),
  /**
   * The image's format: JPEG keeps the hybrid payload small; PNG is lossless (text stays sharp),
   * what browser_take_screenshot gives by default.
   */
  type: z.enum(['jpeg', 'png']).default('jpeg'),
});
export type ScreenshotOptionsInput = z.input<typeof ScreenshotOptions>;

export const SnapshotRequest = z.strictObject({
  mode: SnapshotMode.default('semantic_v3'),
  format: SnapshotFormat.default('json'),
  /** Keep elements outside the viewport too. */
  fullPage: z.boolean().default(false),
  /** Include [x,y,w,h] boxes in semantic_v3 (centre points are always there). */
  boxes: z.boolean().default(false),
  /**
   * The task: with it the tree is filtered to what is relevant (DOM RAG, the `filtered`
   * payload), within `maxTokens` when given.
   */
  query: z.string().min(1).optional(),
  /** A hard ceiling on the payload's o200k tokens (with `query`). */
  maxTokens: z.number().int().positive().optional(),
  /** hybrid: the screenshot. */
  screenshot: ScreenshotOptions.optional(),
});
export type SnapshotRequestInput = z.input<typeof SnapshotRequest>;
export type SnapshotRequest = z.infer<typeof SnapshotRequest>;

/** The library's lens.snapshot() options: the request without the printed form (it returns the payload). */
export const SnapshotOptions = SnapshotRequest.omit({ format: true });
export type SnapshotOptionsInput = z.input<typeof SnapshotOptions>;
export type SnapshotOptions = z.infer<typeof SnapshotOptions>;

export type SnapshotOption = 'fullPage' | 'boxes' | 'query' | 'maxTokens' | 'screenshot';
interface OptionRow {
  /** The modes it applies to (all when absent). */
  modes?: readonly SnapshotMode[];
  /** The formats it applies to (all when absent). */
  formats?: readonly SnapshotFormat[];
  /** Whether it applies to a filtered snapshot (one with a query); yes when absent. */
  withQuery?: boolean;
  /** Another option it needs. */
  needs?: SnapshotOption;
  /** Why it does not apply, per mode, format or `query`; `other` for the rest. */
  why: Partial<Record<SnapshotMode | SnapshotFormat | 'query' | 'other', string>>;
}

/** Which option applies to which mode: one row per option, in the order conflicts are reported. */
export const OPTIONS: Record<SnapshotOption, OptionRow> = {
  boxes: {
    modes: ['semantic_v3'], formats: ['json'], withQuery: false,
    why: {
      axtree: 'accessibility-tree nodes carry no boxes', semantic: 'its nodes always carry bounds',
      other: 'hybrid nodes always carry boxes, the others have none', text: 'the text form has no coordinates', query: 'the filtered tree has no coordinates',
    },
  },
  fullPage: {
    modes: ['semantic_v3', 'semantic', 'skeleton'], withQuery: false,
    why: {
      axtree: 'the accessibility tree always covers the whole page', full: 'the full DOM is always the whole document',
      hybrid: 'it shows the viewport, as its screenshot does', query: 'a filtered snapshot always searches the whole page',
    },
  },
  screenshot: { modes: ['hybrid'], why: { other: 'no other mode than hybrid takes a screenshot' } },
  maxTokens: { needs: 'query', why: { other: 'it is the budget of a filtered snapshot' } },
  query: { modes: ['semantic_v3'], formats: ['json'], why: { other: 'it filters the semantic tree (leave mode out)', text: 'the filtered snapshot is JSON' } },
};

/** How a face names the request's parts: `--full-page` on the command line, `fullPage` elsewhere. */
export type NameOf = (part: SnapshotOption | 'mode' | 'format') => string;
const plainNames: NameOf = (part) => part;

/**
 * The first part of the request that does not apply to the rest, as a message ("boxes does not
 * apply to mode axtree: …"); null when everything applies. `given` says which options the caller
 * set (defaults never conflict).
 */
export function snapshotRequestConflict(req: { mode: SnapshotMode; format?: SnapshotFormat; query?: string; given: ReadonlySet<SnapshotOption> }, name: NameOf = plainNames): string | null {
  const format = req.format ?? 'json';
  const withQuery = req.query !== undefined;
  const modeIs = `${name('mode')} ${req.mode}`;
  for (const [opt, row] of Object.entries(OPTIONS) as Array<[SnapshotOption, OptionRow]>) {
    if (!req.given.has(opt)) continue;
    const why = (key: SnapshotMode | SnapshotFormat | 'query') => row.why[key] ?? row.why.other ?? '';
    if (row.needs && !req.given.has(row.needs)) return `${name(opt)} only applies with ${name(row.needs)}: ${why('query')}.`;
    if (row.modes && !row.modes.includes(req.mode)) return `${name(opt)} does not apply to ${modeIs}: ${why(req.mode)}.`;
    if (row.formats && !row.formats.includes(format)) return `${name(opt)} does not apply to ${name('format')} ${format}: ${why(format)}.`;
    if (row.withQuery === false && withQuery) return `${name(opt)} does not apply to ${name('query')}: ${why('query')}.`;
  }
  const form = FORMATS[format] as { modes: readonly SnapshotMode[]; why?: Partial<Record<SnapshotMode | 'query', string>> };
  if (!form.modes.includes(req.mode)) return `${name('format')} ${format} does not apply to ${modeIs}: ${form.why?.[req.mode] ?? `it exists for ${form.modes.join(', ')}`}.`;
  if (withQuery && format !== 'json') return `${name('format')} ${format} does not apply to ${name('query')}: ${form.why?.query ?? 'the filtered snapshot is JSON'}.`;
  return null;
}

/** The options a caller's input actually sets (defaults, null and false set nothing, so they never conflict). */
export function givenOptions(input: Partial<Record<SnapshotOption, unknown>>): Set<SnapshotOption> {
  return new Set((Object.keys(OPTIONS) as SnapshotOption[]).filter((o) => input[o] !== undefined && input[o] !== null && input[o] !== false));
}
