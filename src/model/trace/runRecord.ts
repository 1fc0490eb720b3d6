// The run record: what a trace archive holds, versioned. An archive (a zip) is a few JSON entries
// and one JPEG a step:
//   meta.json              TraceMeta, written first
//   steps/0001.json        TraceStep, one a step, in order (each written as the step ends)
//   steps/0001.jpg         the screenshot of that step, when there is one
//   end.json               TraceEnd, written when the run closes (absent: the run ended by a crash)
// Read together they are a TraceRecord. A reader refuses a schema or version it does not know
// rather than guessing. Secret values are never in any field (see ./mask.ts): `masked` says what
// was hidden, never the value.
import { z } from 'zod';

export const TRACE_SCHEMA = 'pagelens.trace';
/**
 * The newest version. 2 added the serve face (a negotiation session, one step a round, no
 * screenshots); 3 added the extension face (the side panel's last run, exported); everything of
 * the versions before is as it was. A writer writes the lowest version its archive needs (an
 * agent or MCP archive is still version 1, so an older pagelens reads it); a reader reads every
 * version up to this one.
 */
export const TRACE_VERSION = 3;
export const TRACE_VERSIONS = [1, 2, 3] as const;
/** The version an archive of `face` is written in: the version that face came with. */
export const traceVersionOf = (face: TraceMeta['face']): 1 | 2 | 3 => (face === 'extension' ? 3 : face === 'serve' ? 2 : 1);

/** [x, y, width, height] in CSS pixels of the screenshot's viewport. */
const Rect = z.tuple([z.number(), z.number(), z.number(), z.number()]);

export const TraceMeta = z.object({
  schema: z.literal(TRACE_SCHEMA),
  version: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  /** Which face wrote it (serve: version 2; extension, the side panel's exported run: version 3). */
  face: z.enum(['agent', 'mcp', 'library', 'serve', 'extension']),
  startedAt: z.string(),
  /** The agent's task (secret values masked). */
  task: z.string().optional(),
  /** The tokenizer every token count of the record uses. */
  tokenizer: z.literal('o200k_base'),
  /** Most bytes the archive takes; past it, steps keep no screenshot and no observation (TraceEnd.ceiling). */
  ceilingBytes: z.number().int().positive(),
  pagelens: z.string().optional(),
});
export type TraceMeta = z.infer<typeof TraceMeta>;

/** An ID the model was shown, where it was on the screenshot. */
export const TraceBox = z.object({
  id: z.string(),
  box: Rect,
  role: z.string().optional(),
  name: z.string().optional(),
  /** No box of its own was found on the page at the screenshot: a small box around the centre the observation gave. */
  approx: z.literal(true).optional(),
  /** A secret field: its pixels are painted over on the screenshot. */
  secret: z.literal(true).optional(),
});
export type TraceBox = z.infer<typeof TraceBox>;

export const TraceObservation = z.object({
  /** semantic_v3, hybrid, skeleton, full (agent), or the answer form of a tool (text, json). */
  mode: z.string(),
  format: z.enum(['text', 'json']),
  /** Exactly what the model received (masked). For the agent, the last request of the step, screenshot aside. */
  text: z.string(),
  /** o200k tokens of everything the step sent (every round of the agent's negotiation), as the face printed it. */
  tokens: z.number().int().nonnegative(),
  /** The agent's rounds within the step (context asked for), each with its own count. */
  rounds: z.array(z.object({ mode: z.string(), tokens: z.number().int().nonnegative() })).optional(),
  /** Bytes of JPEG sent to the model in the step (not in the token count: a model bills images its own way). */
  imageBytes: z.number().int().nonnegative().optional(),
  /** What the read left out of what was on the page, and why. */
  pruned: z.object({ total: z.number(), shown: z.number(), pruned: z.number(), occluded: z.number(), why: z.string() }).optional(),
  /** What the record left out of the observation ("screenshot sent to the model: 54 KB, kept as the step's screenshot"). */
  omitted: z.array(z.string()).optional(),
});
export type TraceObservation = z.infer<typeof TraceObservation>;

export const TraceVerdict = z.object({
  /** done: the run's end; ok: ran, nothing to verify; answered: a read that acts on nothing. */
  outcome: z.enum(['verified', 'not_verified', 'ok', 'refused', 'error', 'done', 'answered']),
  /** The verdict's own words (the verification's actual outcome, the tool's verdict line). */
  detail: z.string().optional(),
  verification: z.object({ success: z.boolean(), actualOutcome: z.string(), confidence: z.number().optional(), feedback: z.string().optional() }).optional(),
  refusal: z.object({ code: z.string(), reason: z.string() }).optional(),
  /** What changed on the page, as the model was told (the MCP answer's delta, the agent's next report). */
  delta: z.string().optional(),
});
export type TraceVerdict = z.infer<typeof TraceVerdict>;

export const TraceStep = z.object({
  step: z.number().int().positive(),
  at: z.string(),
  url: z.string(),
  title: z.string().optional(),
  /** Frames of the page at the screenshot (the main frame counts). */
  frames: z.number().int().nonnegative(),
  /** The MCP tool called (MCP traces). */
  tool: z.string().optional(),
  /** The negotiation session and the round within it (serve traces, version 2). */
  round: z.object({ session: z.string(), n: z.number().int().positive() }).optional(),
  observation: TraceObservation.optional(),
  /** Archive entry of the JPEG, with its size in pixels and the viewport it shows (CSS pixels). */
  screenshot: z.object({ file: z.string(), width: z.number(), height: z.number(), bytes: z.number().int(), viewport: z.object({ width: z.number(), height: z.number() }) }).optional(),
  boxes: z.array(TraceBox),
  thought: z.string().optional(),
  action: z.object({ text: z.string(), id: z.string().optional(), args: z.record(z.string(), z.unknown()).optional() }).optional(),
  verdict: TraceVerdict,
  warnings: z.array(z.string()),
  /** What was masked in this step (never the value): "the value typed into 5 (a secret field)". */
  masked: z.array(z.string()),
  /** Wall time in ms: read (the page read the observation came from), ask (the planner), act (action and its verification), capture (this record's screenshot). */
  timings: z.object({ readMs: z.number().optional(), askMs: z.number().optional(), actMs: z.number().optional(), captureMs: z.number().optional(), totalMs: z.number().optional() }),
  /** Set when the archive's ceiling was reached: the step keeps no screenshot and no observation. */
  omitted: z.literal('ceiling').optional(),
});
export type TraceStep = z.infer<typeof TraceStep>;

export const TraceEnd = z.object({
  endedAt: z.string(),
  status: z.string(),
  message: z.string().optional(),
  success: z.boolean().optional(),
  steps: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  /** Everything masked in the run (descriptions, never values). */
  masked: z.array(z.string()),
  /** The ceiling was reached: from this step on, steps are light (or dropped past twice the ceiling). */
  ceiling: z.object({ reachedAtStep: z.number().int(), droppedSteps: z.number().int().nonnegative() }).optional(),
});
export type TraceEnd = z.infer<typeof TraceEnd>;

export const TraceRecord = z.object({
  meta: TraceMeta,
  steps: z.array(TraceStep),
  /** Absent: the run did not close (a crash, a kill): the steps are those written before it. */
  end: TraceEnd.optional(),
});
export type TraceRecord = z.infer<typeof TraceRecord>;

/** Archive entry names. */
export const stepEntry = (n: number, ext: 'json' | 'jpg') => `steps/${String(n).padStart(4, '0')}.${ext}`;
