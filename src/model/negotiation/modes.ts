// Which payload to send for a task (seed 000 §14–§15, 001 §3.2). semantic_v3 is the primary
// payload; a visual or spatial task gets the screenshot with the skeleton (hybrid); the full DOM
// goes out only when a backend asks for it. When a mode fails or comes back empty, the next one in
// the chain is tried, and the answer says which ones were skipped and why. lens.capture() answers
// with the mode chosen and its payload (the schemas at the end).
import { z } from 'zod';
import { SemanticResult, SemanticV3Result } from '../contracts/schema.js';
import { DomMode, RequestedDomMode } from '../contracts/snapshotRequest.js';
import { parseInput } from '../contracts/validate.js';
import { FullResult, HybridResult, SkeletonResult } from '../renderers/artifacts.js';

/** Words that point at how the page looks or where things are: the semantic tree cannot answer them. */
export const VISUAL_KEYWORDS = {
  /** Visual elements. */
  element: ['icon', 'image', 'logo', 'picture', 'photo', 'avatar'],
  /** Appearance. */
  appearance: ['looks like', 'appears', 'color', 'shape', 'blue', 'red', 'green'],
  /** Spatial references. */
  spatial: ['top', 'bottom', 'left', 'right', 'corner', 'side', 'edge', 'next to', 'above', 'below', 'beside', 'near', 'between'],
  /** Position in a sequence (which only the layout shows). */
  ordinal: ['first', 'second', 'third', 'last', 'middle'],
  /** Questions about what is shown. */
  query: ['what is', 'what does', 'how much', 'price', 'see', 'show', 'chart', 'graph', 'table', 'grid', 'card', 'thumbnail'],
} as const;
export type VisualKeywordClass = keyof typeof VISUAL_KEYWORDS;

/** Plain actions on a named control: the semantic tree is all they need. */
export const SIMPLE_ACTIONS = [
  'click', 'type', 'fill', 'select', 'enter', 'press', 'submit', 'check', 'uncheck', 'toggle',
  'expand', 'collapse', 'open', 'close', 'scroll', 'navigate', 'go to', 'search', 'find',
] as const;

/** The order modes are tried in when the chosen one fails or is empty (after the chosen one itself). */
export const FALLBACK_CHAIN = ['semantic_v3', 'semantic', 'skeleton'] as const satisfies readonly DomMode[];

/**
 * What a backend may say about the context it needs (001 §3.2); any other fields of its answer
 * are ignored. `failed` lists modes already tried that failed or came back empty.
 */
export const DomModeContext = z.object({
  requestedDomMode: RequestedDomMode.optional(),
  needs_full_dom: z.boolean().optional(),
  /** Backward compatibility: `status: "needs_full_dom"`. */
  status: z.string().optional(),
  needsSkeletonDom: z.boolean().optional(),
  needsScreenshot: z.boolean().optional(),
  failed: z.array(DomMode).optional(),
});
export type DomModeContextInput = z.input<typeof DomModeContext>;
export type DomModeContext = z.infer<typeof DomModeContext>;

export const DomModeSelection = z.object({
  /** The mode to extract; null when every mode of the chain has failed or come back empty. */
  mode: DomMode.nullable(),
  reason: z.string(),
  /** Modes of the chain skipped because they failed or came back empty, in order. */
  fellBackFrom: z.array(DomMode).optional(),
});
export type DomModeSelection = z.infer<typeof DomModeSelection>;

// Word boundaries on both sides, an optional plural: "icons" is "icon", "topic" is not "top".
const patterns = new Map<string, RegExp>();
function mentions(text: string, word: string): boolean {
  let re = patterns.get(word);
  if (!re) {
    re = new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '\\s+')}(?:s|es)?\\b`, 'i');
    patterns.set(word, re);
  }
  return re.test(text);
}

/** The first visual or spatial word of the query, with its class. */
export function visualReference(query: string): { word: string; kind: VisualKeywordClass } | null {
  let best: { word: string; kind: VisualKeywordClass; at: number } | null = null;
  for (const [kind, words] of Object.entries(VISUAL_KEYWORDS) as Array<[VisualKeywordClass, readonly string[]]>) {
    for (const word of words) {
      if (!mentions(query, word)) continue;
      const at = query.toLowerCase().search(patterns.get(word)!);
      if (!best || at < best.at) best = { word, kind, at };
    }
  }
  return best && { word: best.word, kind: best.kind };
}

export function simpleAction(query: string): string | null {
  return SIMPLE_ACTIONS.find((w) => mentions(query, w)) ?? null;
}

const KIND_WORDS: Record<VisualKeywordClass, string> = {
  element: 'a visual element', appearance: 'how something looks', spatial: 'where something is', ordinal: 'a position in a sequence', query: 'what is shown',
};

/** The mode the query and the backend's context call for, before any failure. */
function firstChoice(query: string, ctx: DomModeContext): { mode: DomMode; reason: string } {
  if (ctx.requestedDomMode === 'full' || ctx.needs_full_dom || ctx.status === 'needs_full_dom') {
    return { mode: 'full', reason: 'the backend asked for the full DOM (needs_full_dom); it is never sent unasked' };
  }
  if (ctx.requestedDomMode === 'hybrid' || ctx.needsScreenshot) return { mode: 'hybrid', reason: 'the backend asked for a screenshot (hybrid)' };
  if (ctx.requestedDomMode === 'skeleton' || ctx.needsSkeletonDom) return { mode: 'skeleton', reason: 'the backend asked for the skeleton DOM' };
  const visual = visualReference(query);
  if (visual) return { mode: 'hybrid', reason: `the query refers to ${KIND_WORDS[visual.kind]} ("${visual.word}"): the screenshot with set-of-mark shows what the semantic tree cannot` };
  const action = simpleAction(query);
  if (action) return { mode: 'semantic_v3', reason: `a simple action ("${action}"): the semantic tree is enough` };
  return { mode: 'semantic_v3', reason: 'the default: semantic_v3 is the primary payload' };
}

/** The chain that follows a first choice: the choice, then the fallback chain without it. */
export function modeChain(first: DomMode): DomMode[] {
  return [first, ...FALLBACK_CHAIN.filter((m) => m !== first)];
}

/**
 * The DOM mode for a task: `full` only when the backend asks; `hybrid` for visual or spatial
 * words (or when asked); `skeleton` when asked; otherwise `semantic_v3`. Modes listed in
 * `context.failed` are skipped down the chain (semantic_v3 → semantic → skeleton). Pure.
 */
export function selectDomMode(query: string, context: DomModeContextInput = {}): DomModeSelection {
  const q = parseInput(z.string(), query, 'query (a string)');
  const ctx = parseInput(DomModeContext, context, 'mode-selection context');
  const first = firstChoice(q, ctx);
  const failed = new Set(ctx.failed ?? []);
  const chain = modeChain(first.mode);
  const next = chain.find((m) => !failed.has(m));
  const skipped = chain.slice(0, next ? chain.indexOf(next) : chain.length);
  if (!next) return { mode: null, reason: `every mode of the chain failed or came back empty (${chain.join(' → ')})`, fellBackFrom: skipped };
  if (!skipped.length) return { mode: next, reason: first.reason };
  return { mode: next, reason: `${skipped.join(', then ')} failed or came back empty: falling back to ${next} (first choice ${first.mode}: ${first.reason})`, fellBackFrom: skipped };
}

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
