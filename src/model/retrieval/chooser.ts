// Choosing among the budgeted candidates: the offline ranker (lexical relevance, the verb's role
// prior, ordinals, positions and colours), and the interface something smarter (an LLM) plugs
// into to choose among the same candidates or to fill an extraction schema. observe, actOn and
// extract take a Chooser; the default is the heuristic one here, which works with no model at all.
import { z } from 'zod';
import { formatAction, type Action } from '../contracts/actions.js';
import { heuristicFill, type FillResult, type JsonSchema, type PageFacts } from './extract.js';
import type { Intent } from '../tasks/intent.js';
import { terms } from '../tasks/lexical.js';
import { bm25 } from './bm25.js';
import { nodeBag, roleFit, type Chunk, type Filtered, type FilteredResult, type KeptNode, type RagNode } from './rag.js';
import { truncate } from '../renderers/render.js';
import { isSecretNode, REDACTED } from '../safety/secrets.js';

export const Candidate = z.object({
  id: z.string(),
  role: z.string(),
  name: z.string(),
  /** What and where it is: role, name, value, and the region › container it sits in. */
  description: z.string(),
  /** The action that carries out the instruction on it, in act() syntax ("click(12)", "setValue(7, \"a@b.c\")"). */
  suggestedAction: z.string(),
  confidence: z.number(),
});
export type Candidate = z.infer<typeof Candidate>;

export interface ChooseRequest {
  instruction: string;
  intent: Intent;
  /** The budgeted tree the candidates come from. */
  payload: FilteredResult;
  /** The heuristic ranking, best first. */
  candidates: Candidate[];
}

/** A chooser's answer: IDs from the payload, best first. */
export const ChooseAnswer = z.object({
  choices: z.array(z.object({ id: z.string(), confidence: z.number().min(0).max(1), reason: z.string().optional() })),
  /** The chooser could not tell the best ones apart. */
  ambiguous: z.boolean().optional(),
});
export type ChooseAnswer = z.infer<typeof ChooseAnswer>;

export interface FillRequest {
  instruction: string;
  /** The schema to fill, as JSON Schema; absent: a free answer `{ extraction }`. */
  jsonSchema?: JsonSchema;
  payload: FilteredResult;
  /** The payload's nodes with their scores, best first (what the heuristic reads). */
  kept: KeptNode[];
  /** The caller's schema, to check an answer against before it is believed. */
  schema?: z.ZodType;
  /** Everything read from the page and what it declares in structured data (the main item's facts). */
  page?: PageFacts;
}

/** Something that chooses among candidates and fills schemas: the heuristic below, or an LLM (src/agent/llm.ts). */
export interface Chooser {
  readonly name: string;
  choose(req: ChooseRequest): Promise<ChooseAnswer>;
  fill(req: FillRequest): Promise<FillResult>;
}

export const heuristicChooser: Chooser = {
  name: 'heuristic',
  async choose(req) {
    return { choices: req.candidates.map((c) => ({ id: c.id, confidence: c.confidence })) };
  },
  async fill(req) {
    return heuristicFill(req.kept, req.jsonSchema, req.instruction, req.page);
  },
};

export interface Ranked { node: RagNode; chunk: Chunk; score: number; candidate: Candidate }

/** Two candidates within this share of each other are too close to call. */
export const AMBIGUITY_MARGIN = 0.08;
/** Below this score nothing on the page fits the instruction. */
export const MIN_CANDIDATE_SCORE = 0.15;

const COLOR_HINTS: Record<string, RegExp> = {
  red: /red|danger|error|delete|destructive|alert/i, green: /green|success|confirm|ok\b|positive/i, blue: /blue|primary|info/i,
  yellow: /yellow|warning|warn/i, orange: /orange|warning/i, grey: /gr[ae]y|secondary|muted|neutral/i, black: /black|dark/i, white: /white|light/i,
  purple: /purple|violet/i, pink: /pink/i, brown: /brown/i, teal: /teal|cyan/i,
};

/**
 * The kept nodes as ranked candidates for the instruction: relevance × role fit, then the
 * instruction's ordinal ("the second …"), position ("top-right") and colour words applied among
 * look-alikes. Best first.
 */
export function rankCandidates(filtered: Filtered, limit = 10): Ranked[] {
  const { query, corpus } = filtered;
  const intent = query.intent;
  let ranked = filtered.kept
    .filter((k) => roleFit(k.node, intent) >= 0.3)
    .map((k) => ({ ...k, own: bm25(nodeBag(k.node), query.own, corpus) }));
  for (const r of ranked) {
    if (intent.colors.length && intent.colors.some((c) => COLOR_HINTS[c]?.test(`${r.node.attrs?.class ?? ''} ${r.node.attrs?.id ?? ''} ${r.node.name}`))) r.score = Math.min(1, r.score + 0.1);
  }
  // Scores that differ in the third decimal are look-alikes: they are listed in reading order.
  ranked.sort((a, b) => Math.round(b.score * 100) - Math.round(a.score * 100) || a.node.order - b.node.order);
  if ((intent.ordinal !== undefined || intent.position) && ranked.length > 1) ranked = pickAmongLookalikes(ranked, intent);
  const out = ranked.slice(0, limit).map((r, i, all) => ({ node: r.node, chunk: r.chunk, score: r.score, candidate: toCandidate(r, i, all, intent) }));
  // A value meant for a password field may be a password: no suggestion repeats it, whichever field it names.
  if (intent.value && out.some((r) => isSecretNode(r.node))) {
    for (const r of out) r.candidate.suggestedAction = r.candidate.suggestedAction.split(JSON.stringify(intent.value)).join(JSON.stringify(REDACTED));
  }
  return out;
}

/**
 * Look-alikes are the candidates that fit the words about as well as the best one (every "Add to
 * cart" button); an ordinal counts them in reading order, a position picks by where they are. The
 * one picked goes first, clearly ahead.
 */
function pickAmongLookalikes<T extends KeptNode & { own: number }>(ranked: T[], intent: Intent): T[] {
  const bestOwn = Math.max(...ranked.map((r) => r.own * roleFit(r.node, intent)));
  const alike = ranked.filter((r) => r.own * roleFit(r.node, intent) >= bestOwn * 0.8 && roleFit(r.node, intent) >= 0.8);
  if (alike.length < 2) return ranked;
  let picked: T | undefined;
  if (intent.ordinal !== undefined) {
    const inOrder = [...alike].sort((a, b) => a.node.order - b.node.order);
    picked = intent.ordinal > 0 ? inOrder[intent.ordinal - 1] : inOrder[inOrder.length + intent.ordinal];
  } else if (intent.position) {
    const { vertical, horizontal } = intent.position;
    const cx = (r: T) => r.node.box[0] + r.node.box[2] / 2;
    const cy = (r: T) => r.node.box[1] + r.node.box[3] / 2;
    const xs = alike.map(cx), ys = alike.map(cy);
    const span = (v: number[]) => Math.max(1, Math.max(...v) - Math.min(...v));
    const place = (r: T) => {
      const x = (cx(r) - Math.min(...xs)) / span(xs);
      const y = (cy(r) - Math.min(...ys)) / span(ys);
      const dy = vertical === 'top' ? y : vertical === 'bottom' ? 1 - y : vertical === 'middle' ? Math.abs(y - 0.5) : 0;
      const dx = horizontal === 'left' ? x : horizontal === 'right' ? 1 - x : horizontal === 'center' ? Math.abs(x - 0.5) : 0;
      return dx + dy;
    };
    picked = [...alike].sort((a, b) => place(a) - place(b))[0];
  }
  if (!picked) return ranked;
  const top = ranked[0].score;
  picked.score = Math.min(1, Math.max(picked.score, top) + 0.15);
  for (const r of alike) if (r !== picked) r.score *= 0.7;
  return [...ranked].sort((a, b) => Math.round(b.score * 100) - Math.round(a.score * 100) || a.node.order - b.node.order);
}

function toCandidate(r: KeptNode, i: number, all: KeptNode[], intent: Intent): Candidate {
  const s0 = all[0].score;
  const s1 = all[1]?.score ?? 0;
  const margin = s0 > 0 ? (s0 - s1) / s0 : 0;
  const confidence = i === 0 ? Math.sqrt(s0) * Math.min(1, 0.4 + 2 * margin) : Math.sqrt(r.score) * 0.4 * (s0 > 0 ? r.score / s0 : 0);
  return {
    id: r.node.gid,
    role: r.node.kind === 'heading' ? 'heading' : r.node.role,
    name: r.node.name,
    description: describeNode(r.node, r.chunk),
    suggestedAction: suggestAction(r.node, intent),
    confidence: Math.round(confidence * 100) / 100,
  };
}

/** "button \"Add to cart\" in R2 MAIN › card \"Samsung Odyssey G7\"" */
export function describeNode(n: RagNode, chunk?: Chunk): string {
  const role = n.kind === 'heading' ? `h${n.level ?? 2} heading` : n.role;
  let d = `${role} "${truncate(n.name, 60)}"`;
  if (n.value !== undefined) d += ` = "${truncate(n.value, 40)}"`;
  if (n.states.length) d += ` [${n.states.join(', ')}]`;
  if (chunk) d += ` in ${chunk.label}`;
  return d;
}

/** The act() action that carries out the intent on a node; "setValue(id, …)" with no value when the instruction gave none. */
export function suggestAction(n: RagNode, intent: Intent): string {
  return actionFor(n, intent)?.text ?? `click(${n.gid})`;
}

/** The intent as an action on a node; null when the instruction lacks what the action needs (the text to type). */
export function actionFor(n: RagNode, intent: Intent): { action: Action | null; text: string } {
  const id = n.gid;
  const fits = roleFit(n, { ...intent, roles: [] }) >= 0.8;
  const value = intent.value;
  // A password typed into its field is never written back out, not even in a suggestion.
  const secret = isSecretNode(n);
  const make = (a: Action) => ({ action: a, text: formatAction(secret && 'value' in a ? { ...a, value: REDACTED } : a) });
  // No verb in the instruction, or one the node cannot take: what the node is for.
  const verb = intent.explicitVerb && fits ? intent.verb : defaultVerb(n, intent);
  switch (verb) {
    case 'type': return value !== undefined ? make({ type: 'setValue', id, value }) : { action: null, text: `setValue(${id}, "…")` };
    case 'navigate': return make({ type: 'click', id });
    case 'select': return value !== undefined ? make({ type: 'select', id, option: value }) : make({ type: 'click', id });
    case 'check': return make({ type: n.role === 'radio' ? 'click' : 'check', id });
    case 'uncheck': return make({ type: 'uncheck', id });
    case 'hover': return make({ type: 'hover', id });
    case 'scroll': return n.scr ? make({ type: 'scroll', id, direction: intent.direction ?? 'down' }) : make({ type: 'scroll', id, intoView: true });
    case 'extract': return make({ type: 'scroll', id, intoView: true });
    default: return make({ type: intent.double ? 'dblclick' : 'click', id });
  }
}

function defaultVerb(n: RagNode, intent: Intent): Intent['verb'] {
  const value = intent.value;
  if (n.role === 'textbox' || n.role === 'searchbox' || n.role === 'spinbutton') return value !== undefined ? 'type' : 'click';
  if (n.role === 'combobox' || n.role === 'listbox') return value !== undefined ? 'select' : 'click';
  if (n.role === 'checkbox' || n.role === 'switch') return intent.verb === 'uncheck' ? 'uncheck' : intent.verb === 'check' ? 'check' : 'click';
  return intent.verb === 'hover' ? 'hover' : 'click';
}

/** True when two candidates' words say the same thing (both "Add to cart"): telling them apart needs more than words. */
export function sameWords(a: string, b: string): boolean {
  return terms(a).join(' ') === terms(b).join(' ');
}
