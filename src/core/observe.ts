// observe / act / extract (Stagehand's faces) over the budgeted tree: an instruction is read for
// its intent, the page is filtered for it within a token budget, and a chooser (the offline
// heuristic, or an LLM plugged in from outside) picks among the kept nodes. actOn acts by ID
// through the host's act pipeline, with verification, and refuses when the best candidates are too close
// to call; extract fills a schema from the page's content nodes. Written once above the port: each
// host passes its task reading (RagHost), its act pipeline and the document's title (ObserveHost).
import { z } from 'zod';
import type { Action } from '../model/contracts/actions.js';
import { actionFor, AMBIGUITY_MARGIN, Candidate, ChooseAnswer, heuristicChooser, MIN_CANDIDATE_SCORE, rankCandidates, type Chooser, type Ranked } from '../model/retrieval/chooser.js';
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import { toJsonSchema, type FillResult } from '../model/retrieval/extract.js';
import { parseIntent, type Intent } from '../model/tasks/intent.js';
import type { ActionResult, ExpectedOutcome } from '../model/contracts/outcome.js';
import type { Filtered } from '../model/retrieval/rag.js';
import { parseInput } from '../model/contracts/validate.js';
import { filterPage, handOut, type RagHost } from './rag.js';
import { productFacts, type ProductFacts } from '../model/retrieval/productFacts.js';

/** What observe/act/extract need of a host: reading for a task, acting by ID with verification, the document's title. */
export interface ObserveHost extends RagHost {
  act(action: Action, opts: { expect?: ExpectedOutcome | string }): Promise<ActionResult>;
  title(): Promise<string>;
}

const Instruction = z.string().trim().min(1, 'a non-empty instruction');
const DEFAULT_TOKENS = { observe: 2000, extract: 4000 };

export interface ObserveOptions {
  /** The budget of the tree the candidates are chosen from (default 2000 o200k tokens). */
  maxTokens?: number;
  /** How many candidates to return (default 5). */
  limit?: number;
  /** Who chooses: the offline heuristic (default) or an LLM (src/agent/llm.ts). */
  chooser?: Chooser;
}

export interface ObserveResult {
  instruction: string;
  intent: Intent;
  /** Best first. */
  candidates: Candidate[];
  /** The best ones are too close to call: actOn would refuse. */
  ambiguous: boolean;
  /** Which chooser ranked them ("heuristic", "llm:gpt-4o-mini"). */
  chooser: string;
  /** Tokens of the budgeted tree they were chosen from. */
  tokens: number;
  warnings?: string[];
}

export interface ActOnOptions extends Omit<ObserveOptions, 'limit'> {
  /** The outcome to verify (as lens.act takes it); default: what the action should change (a value, a state, anything). */
  expect?: ExpectedOutcome | string;
}

export type ActOnResult = ActionResult & {
  instruction: string;
  /** The candidate acted on. */
  chosen?: Candidate;
  /** The best candidates (on a refusal: the ones to choose from). */
  candidates: Candidate[];
  chooser: string;
};

export interface ExtractOptions {
  maxTokens?: number;
  chooser?: Chooser;
}

export interface ExtractResult<T = unknown> {
  instruction: string;
  /** The data matched the schema (or, without a schema, an answer was found). */
  ok: boolean;
  /** The data, checked against the schema; absent when it does not match (see `partial` and `issues`). */
  data?: T;
  /** What could be filled when the whole did not match the schema. */
  partial?: unknown;
  issues?: string[];
  /** Field path → the ID of the node its value came from. */
  sources: Record<string, string>;
  /** Fields nothing on the page fitted. */
  missing: string[];
  /** Why each missing field is missing. */
  reasons?: Record<string, string>;
  /** Field path → why its value may be misread: digits that read two ways ("1,234") and nothing on the page settles which. */
  uncertain?: Record<string, string>;
  chooser: string;
  tokens: number;
  warnings?: string[];
}

const ObserveOptionsShape = z.strictObject({ maxTokens: z.number().int().positive().optional(), limit: z.number().int().positive().optional(), chooser: z.custom<Chooser>(isChooser, 'a Chooser').optional() });
const ActOnOptionsShape = z.strictObject({ maxTokens: z.number().int().positive().optional(), expect: z.unknown().optional(), chooser: z.custom<Chooser>(isChooser, 'a Chooser').optional() });
const ExtractOptionsShape = z.strictObject({ maxTokens: z.number().int().positive().optional(), chooser: z.custom<Chooser>(isChooser, 'a Chooser').optional() });

function isChooser(v: unknown): boolean {
  return !!v && typeof v === 'object' && typeof (v as Chooser).choose === 'function' && typeof (v as Chooser).fill === 'function' && typeof (v as Chooser).name === 'string';
}

interface Observation extends ObserveResult { filtered: Filtered; ranked: Ranked[] }

async function observeWithin(host: ObserveHost, instruction: string, opts: ObserveOptions): Promise<Observation> {
  const intent = parseIntent(instruction);
  const filtered = await filterPage(host, { query: instruction, maxTokens: opts.maxTokens ?? DEFAULT_TOKENS.observe, content: intent.verb === 'extract' });
  const limit = opts.limit ?? 5;
  const ranked = rankCandidates(filtered, Math.max(limit, 10));
  const warnings = [...filtered.payload.warnings ?? []];
  const heuristic = ranked.map((r) => r.candidate);
  let candidates = heuristic;
  let ambiguous = isClose(ranked.map((r) => r.score));
  const chooser = opts.chooser ?? heuristicChooser;
  let used = chooser.name;
  if (chooser !== heuristicChooser) {
    try {
      const answer = parseInput(ChooseAnswer, await chooser.choose({ instruction, intent, payload: filtered.payload, candidates: heuristic }), `answer of the chooser ${chooser.name}`);
      const byId = new Map(filtered.kept.map((k) => [k.node.gid, k]));
      const chosen = answer.choices.filter((c) => byId.has(c.id));
      if (!chosen.length) throw new PagelensError('ENGINE_ERROR', `chose none of the ${byId.size} IDs it was shown`);
      const fromHeuristic = new Map(ranked.map((r) => [r.node.gid, r.candidate]));
      candidates = chosen.map((c) => {
        const k = byId.get(c.id)!;
        const base = fromHeuristic.get(c.id) ?? rankCandidatesFor(filtered, c.id);
        return { ...base, id: k.node.gid, confidence: Math.round(c.confidence * 100) / 100 };
      });
      ambiguous = !!answer.ambiguous || isClose(chosen.map((c) => c.confidence));
    } catch (e) {
      used = heuristicChooser.name;
      if (isPagelensError(e, 'BAD_INPUT')) warnings.push(`the chooser ${chooser.name} answered out of contract (${e.message}); the offline ranking is used`);
      else warnings.push(`the chooser ${chooser.name} failed (${host.engine.describe(e)}); the offline ranking is used`);
    }
  }
  return {
    instruction, intent, candidates: candidates.slice(0, limit), ambiguous, chooser: used,
    tokens: filtered.payload.tokens, ...(warnings.length && { warnings }), filtered, ranked,
  };
}

/** A candidate for a node the heuristic did not rank (the LLM saw it in the tree). */
function rankCandidatesFor(filtered: Filtered, id: string): Candidate {
  const all = rankCandidates({ ...filtered, kept: filtered.kept.filter((k) => k.node.gid === id) }, 1);
  const k = filtered.kept.find((x) => x.node.gid === id)!;
  return all[0]?.candidate ?? { id, role: k.node.role, name: k.node.name, description: `${k.node.role} "${k.node.name}" in ${k.chunk.label}`, suggestedAction: `click(${id})`, confidence: 0 };
}

function isClose(scores: number[]): boolean {
  return scores.length > 1 && scores[0] > 0 && scores[1] >= scores[0] * (1 - AMBIGUITY_MARGIN);
}

/** Ranked candidates for an instruction, from the budgeted tree. */
export async function observe(host: ObserveHost, instruction: string, options: ObserveOptions = {}): Promise<ObserveResult> {
  const text = parseInput(Instruction, instruction, 'instruction');
  const opts = parseInput(ObserveOptionsShape, options, 'observe options') as ObserveOptions;
  const { filtered: _f, ranked: _r, ...result } = await observeWithin(host, text, opts);
  return result;
}

/**
 * Observe, pick, act by ID with verification. Refuses (AMBIGUOUS, with the candidates) when the
 * best candidates are too close to call, and (NOT_ACTIONABLE) when nothing fits.
 */
export async function actOn(host: ObserveHost, instruction: string, options: ActOnOptions = {}): Promise<ActOnResult> {
  const text = parseInput(Instruction, instruction, 'instruction');
  const opts = parseInput(ActOnOptionsShape, options, 'actOn options') as ActOnOptions;
  const intent = parseIntent(text);
  if (intent.verb === 'extract') throw new PagelensError('BAD_INPUT', `"${text}" asks for data, not an action: use extract().`);
  if (intent.verb === 'done') throw new PagelensError('BAD_INPUT', `"${text}" says the task is done: there is nothing to act on.`);
  const page = pageAction(intent);
  if (page) {
    const r = await host.act(page, { expect: opts.expect ?? defaultExpect(page) });
    return { ...r, instruction: text, candidates: [], chooser: 'none' };
  }
  const obs = await observeWithin(host, text, { ...(opts.maxTokens !== undefined && { maxTokens: opts.maxTokens }), ...(opts.chooser && { chooser: opts.chooser }), limit: 5 });
  const base = { instruction: text, candidates: obs.candidates, chooser: obs.chooser, ...(obs.warnings && { warnings: obs.warnings }) };
  const refuse = (code: 'AMBIGUOUS' | 'NOT_ACTIONABLE', message: string): ActOnResult => ({ action: `actOn(${JSON.stringify(text)})`, ok: false, method: 'none', error: { code, message }, ...base });
  const top = obs.candidates[0];
  const topScore = obs.chooser === heuristicChooser.name ? obs.ranked[0]?.score ?? 0 : top?.confidence ?? 0;
  if (!top || topScore < MIN_CANDIDATE_SCORE) {
    return refuse('NOT_ACTIONABLE', `Nothing on the page fits "${text}"${top ? ` (the closest, ${top.description}, scores ${topScore.toFixed(2)})` : ''}. Look at the page (snapshot) and name the element as it is labelled.`);
  }
  if (obs.ambiguous) {
    const close = obs.candidates.slice(0, 4).map((c) => `${c.id}: ${c.description}`).join('; ');
    return refuse('AMBIGUOUS', `"${text}" fits several elements too closely to choose: ${close}. Say which one (its row or card, "the second …", "the top-right …"), or act by ID.`);
  }
  const node = obs.filtered.kept.find((k) => k.node.gid === top.id)!.node;
  const planned = actionFor(node, intent);
  if (!planned.action) throw new PagelensError('BAD_INPUT', `"${text}" does not say what to type: quote it, e.g. type "hello" into ${node.name || 'the field'}.`);
  const r = await host.act(planned.action, { expect: opts.expect ?? defaultExpect(planned.action) });
  const result: ActOnResult = { ...r, ...base, chosen: top, ...(r.warnings || base.warnings ? { warnings: [...base.warnings ?? [], ...r.warnings ?? []] } : {}) };
  // The field was a secret (the act pipeline wrote "***"): the instruction that carried it is redacted too.
  if (intent.value && 'value' in planned.action && r.action.includes('"***"')) result.instruction = redact(text, intent.value);
  return result;
}

function redact(text: string, secret: string): string {
  return text.split(secret).join('***');
}

/** Instructions that need no element: open a URL, scroll the page. */
function pageAction(intent: Intent): Action | null {
  if (intent.verb === 'navigate' && intent.value) return { type: 'navigate', url: /^[a-z]+:\/\//i.test(intent.value) ? intent.value : `https://${intent.value}` };
  if (intent.verb === 'scroll' && !intent.target.length) return { type: 'scroll', ...(intent.direction && { direction: intent.direction }) };
  return null;
}

/** What an action should visibly change, when the caller did not say. */
function defaultExpect(a: Action): ExpectedOutcome | undefined {
  switch (a.type) {
    case 'setValue': case 'type': case 'select': return { type: 'value_changes', id: a.id };
    case 'check': case 'uncheck': return { type: 'state_changes', id: a.id };
    case 'click': case 'dblclick': return { type: 'any_change' };
    case 'navigate': return { type: 'navigation' };
    default: return undefined;
  }
}

/**
 * Structured data from the page's content: with a zod schema, an object of that shape (checked
 * against it); without one, `{ items }` for a list, else `{ extraction }`, the best answer found.
 */
export async function extract<S extends z.ZodType = z.ZodType>(host: ObserveHost, instruction: string, schema?: S, options: ExtractOptions = {}): Promise<ExtractResult<z.infer<S>>> {
  const text = parseInput(Instruction, instruction, 'instruction');
  if (schema !== undefined && !(schema instanceof z.ZodType)) throw new PagelensError('BAD_INPUT', 'extract(instruction, schema): schema must be a zod schema (or left out).');
  const opts = parseInput(ExtractOptionsShape, options, 'extract options') as ExtractOptions;
  let jsonSchema;
  try {
    jsonSchema = schema ? toJsonSchema(schema) : undefined;
  } catch (e) {
    throw new PagelensError('BAD_INPUT', `extract(instruction, schema): the schema cannot be described as JSON Schema (${(e as Error).message}).`);
  }
  // The fields' names are part of what is looked for: "price", "brand", "rating".
  let fields = Object.keys(jsonSchema?.properties ?? jsonSchema?.items?.properties ?? {}).join(' ');
  // A name is asked for without being known; on a product or article page the document's title
  // carries it ("Filzstift FIBRALO MEDIUM kaufen - jumbo.ch"), so its words point at the heading.
  if (!jsonSchema?.items && /\b(?:name|title|product|heading|headline)\b/i.test(`${fields} ${text}`)) fields += ` ${await pageTitle(host)}`;
  const query = /^(?:extract|get|read|find|what|how|which|who|list|show|tell|give|fetch)\b/i.test(text) ? `${text} ${fields}` : `extract ${text} ${fields}`;
  const filtered = await filterPage(host, { query: query.trim(), maxTokens: opts.maxTokens ?? DEFAULT_TOKENS.extract, content: true, minRelevance: 0.05 });
  const warnings = [...filtered.payload.warnings ?? []];
  const facts = await declaredFacts(host, filtered.model.docs[0], warnings);
  const chooser = opts.chooser ?? heuristicChooser;
  let fill: FillResult;
  let used = chooser.name;
  const request = { instruction: text, ...(jsonSchema && { jsonSchema }), ...(schema && { schema }), payload: filtered.payload, kept: filtered.kept, page: { nodes: filtered.nodes, ...(facts && { facts }) } };
  try {
    fill = await chooser.fill(request);
  } catch (e) {
    if (chooser === heuristicChooser) throw e;
    warnings.push(`the chooser ${chooser.name} failed (${host.engine.describe(e)}); the offline extraction is used`);
    fill = await heuristicChooser.fill(request);
    used = heuristicChooser.name;
  }
  // A value read from a node outside the payload (the offline chooser reads the whole page) points at it too: hand its ID out.
  const shown = new Set(filtered.kept.map((k) => k.node.gid));
  const cited = used === heuristicChooser.name ? filtered.nodes.filter((n) => !shown.has(n.gid) && Object.values(fill.sources).includes(n.gid)) : [];
  if (cited.length) { handOut(host, filtered.model, cited); for (const n of cited) shown.add(n.gid); }
  const sources = Object.fromEntries(Object.entries(fill.sources).filter(([, id]) => shown.has(id)));
  const result: ExtractResult<z.infer<S>> = {
    instruction: text, ok: false, sources, missing: fill.missing, ...(fill.reasons && Object.keys(fill.reasons).length && { reasons: fill.reasons }),
    ...(fill.uncertain && Object.keys(fill.uncertain).length && { uncertain: fill.uncertain }),
    chooser: used, tokens: filtered.payload.tokens, ...(warnings.length && { warnings }),
  };
  if (schema) {
    const parsed = schema.safeParse(fill.data);
    if (parsed.success) { result.ok = true; result.data = parsed.data; } else {
      result.partial = fill.data;
      result.issues = parsed.error.issues.map((i) => `${i.path.map(String).join('.') || 'value'}: ${i.message}`);
    }
  } else {
    result.data = fill.data as z.infer<S>;
    result.ok = fill.missing.length === 0;
  }
  return result;
}

/**
 * What the top document declares about its main item (JSON-LD, microdata, meta), or nothing with
 * a warning when it cannot be read or belongs to another document than the one just read.
 */
async function declaredFacts(host: ObserveHost, doc: string | undefined, warnings: string[]): Promise<ProductFacts | undefined> {
  const frame = (await host.engine.frames()).find((f) => f.ordinal === 0);
  if (!frame || frame.error) return undefined;
  try {
    const read = await host.engine.engine(frame, 'structured', []);
    if (doc && read.doc !== doc) { warnings.push('the page changed while it was read: its structured data is left out'); return undefined; }
    return productFacts(read);
  } catch (e) {
    warnings.push(`the page's structured data could not be read (${host.engine.describe(e)})`);
    return undefined;
  }
}

/** The document's title, or nothing when the page cannot say (the extraction goes on without it). */
async function pageTitle(host: ObserveHost): Promise<string> {
  try {
    return await host.title();
  } catch {
    return ''; // only a hint for ranking: its absence costs relevance, never a wrong answer
  }
}
