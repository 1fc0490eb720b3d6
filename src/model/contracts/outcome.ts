// What an action was expected to do (sent with it) and the verdicts and results we return.
// Mutation events live in src/model/pagemodel/mutations.ts, which the in-page engine imports without zod.
import { z } from 'zod';
import { ERROR_CODES, PagelensError } from './errors.js';
import { parseInput } from './validate.js';

export const OutcomeType = z.enum(['navigation', 'element_appears', 'element_disappears', 'value_changes', 'state_changes', 'any_change', 'no_change']);
export type OutcomeType = z.infer<typeof OutcomeType>;

const OutcomeBase = z.strictObject({
  type: OutcomeType,
  /** element_appears / element_disappears: visible text to look for. */
  text: z.string().min(1).optional(),
  /** element_appears / element_disappears: a CSS selector, in any frame and open or closed shadow root. */
  selector: z.string().min(1).optional(),
  /** element_disappears / value_changes / state_changes: the element; defaults to the action's target. */
  id: z.string().optional(),
  /** navigation: the new URL must contain this. */
  urlContains: z.string().optional(),
});

export interface ExpectedOutcome extends z.infer<typeof OutcomeBase> {
  orOutcome?: ExpectedOutcome;
  timeout?: number;
}

// The LLM-facing spelling ({"type":"navigation","or_element_appears":"Thank you"}) is accepted too.
const fromWire = (v: unknown): unknown => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = { ...(v as Record<string, unknown>) };
  for (const t of OutcomeType.options) {
    const k = `or_${t}`;
    if (k in o && o.orOutcome === undefined) {
      const val = o[k];
      o.orOutcome = typeof val === 'string' ? { type: t, ...(t.startsWith('element_') && { text: val }) } : { type: t, ...(val as object) };
      delete o[k];
    }
  }
  if ('or_outcome' in o && o.orOutcome === undefined) { o.orOutcome = o.or_outcome; delete o.or_outcome; }
  if ('timeout_ms' in o && o.timeout === undefined) { o.timeout = o.timeout_ms; delete o.timeout_ms; }
  if ('url_contains' in o && o.urlContains === undefined) { o.urlContains = o.url_contains; delete o.url_contains; }
  return o;
};

export const ExpectedOutcome: z.ZodType<ExpectedOutcome> = z.lazy(() => z.preprocess(fromWire, OutcomeBase.extend({
  orOutcome: ExpectedOutcome.optional(),
  timeout: z.number().int().positive().max(60_000).optional(),
}).superRefine((o, ctx) => {
  if ((o.type === 'element_appears') && !o.text && !o.selector) {
    ctx.addIssue({ code: 'custom', message: 'element_appears needs text or selector' });
  }
}))) as z.ZodType<ExpectedOutcome>;

/** Parses the CLI form: "navigation", "element_appears:Thank you", "value_changes", "navigation|element_appears:Thanks". */
export function parseExpectSpec(spec: string): ExpectedOutcome {
  const alternatives = spec.split('|').map((s) => s.trim()).filter(Boolean);
  if (!alternatives.length) throw new PagelensError('BAD_INPUT', 'Empty --expect (expected e.g. navigation or element_appears:Thank you).');
  const one = (s: string): ExpectedOutcome => {
    const i = s.indexOf(':');
    const type = OutcomeType.safeParse(i < 0 ? s : s.slice(0, i));
    if (!type.success) throw new PagelensError('BAD_INPUT', `"${s}" is not an expected outcome (expected one of ${OutcomeType.options.join(', ')}, optionally with :TEXT).`);
    const arg = i < 0 ? undefined : s.slice(i + 1);
    const out: ExpectedOutcome = { type: type.data };
    if (arg) {
      if (type.data === 'navigation') out.urlContains = arg;
      else if (type.data === 'element_appears' || type.data === 'element_disappears') {
        if (/^(css|selector)=/.test(arg)) out.selector = arg.replace(/^(css|selector)=/, ''); else out.text = arg;
      } else out.id = arg;
    }
    return parseInput(ExpectedOutcome, out, `expected outcome "${s}"`);
  };
  const outs = alternatives.map(one);
  for (let i = outs.length - 2; i >= 0; i--) outs[i] = { ...outs[i], orOutcome: outs[i + 1] };
  return outs[0];
}

export const VerificationResult = z.object({
  success: z.boolean(),
  verifiedOutcome: OutcomeType.nullable(),
  actualOutcome: z.string(),
  errorsDetected: z.array(z.string()),
  successMessages: z.array(z.string()),
  pageState: z.object({
    url: z.string(),
    urlChanged: z.boolean(),
    domChanged: z.boolean(),
    recentMutations: z.array(z.string()),
  }),
  confidence: z.number(),
  feedback: z.string(),
  /**
   * Why the verdict may be wrong: a check that could not be made (a frame whose log could not be
   * read, an element that could not be read). Absent when every check was made.
   */
  uncertain: z.array(z.string()).optional(),
});
export type VerificationResult = z.infer<typeof VerificationResult>;

export const ActionMethod = z.enum(['mouse', 'keyboard', 'js', 'navigation', 'none']);
export type ActionMethod = z.infer<typeof ActionMethod>;

export const ActionResult = z.object({
  /** The action in its canonical string form, with the ID it was requested on. */
  action: z.string(),
  ok: z.boolean(),
  /** How it reached the page: real input (mouse, keyboard), a script (js), the browser (navigation). */
  method: ActionMethod,
  /** What happened, in a sentence. */
  detail: z.string().optional(),
  recovered: z.object({ from: z.string(), to: z.string(), confidence: z.number(), message: z.string() }).optional(),
  error: z.object({ code: z.enum(ERROR_CODES), message: z.string() }).optional(),
  /** navigate/back/forward/reload: the HTTP status of the document it reached (4xx and 5xx fail the action). */
  status: z.number().int().optional(),
  verification: VerificationResult.optional(),
  /** What happened around the action that the agent should know (the page did not settle, a choice could not be confirmed). */
  warnings: z.array(z.string()).optional(),
});
export type ActionResult = z.infer<typeof ActionResult>;
