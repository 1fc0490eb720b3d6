// When a backend asks for more than semantic_v3 (seed 001 §4.2): duplicated labels among the
// candidates → skeleton (the structure around them tells them apart); a visual or spatial query,
// or many look-alike candidates → hybrid (the screenshot and the boxes); verification that needs
// raw HTML → full. Never for what the request already carries, never twice in a row for the
// same artifact. Pure.
import type { InteractRequest, NeedsContext, RequestedDomMode } from './interact.js';
import { visualReference, type VisualKeywordClass } from './modes.js';

export interface Candidate { id: string; role: string; name: string; score: number }

export interface NegotiationInput {
  request: InteractRequest;
  /** The planner's candidates for the current step, best first. */
  candidates: Candidate[];
  /** The artifact the previous answer of this session asked for. */
  lastRequested?: RequestedDomMode;
  /** Set when checking the step needs something only the raw HTML has; the reason. */
  needsRawHtml?: string;
}

/** Candidates scoring within this fraction of the best are "too close to call". */
export const CLOSE = 0.1;
/** This many close look-alikes (same role and name) need the layout to be told apart. */
export const MANY_SIMILAR = 3;
// The query classes that only pixels and boxes answer (a question about "the price" does not).
const VISUAL_CLASSES: ReadonlySet<VisualKeywordClass> = new Set(['element', 'appearance', 'spatial', 'ordinal']);

/** What the request already carries, by artifact (an empty skeleton is the skeleton of a page with no controls). */
export function carries(r: InteractRequest, mode: RequestedDomMode): boolean {
  if (mode === 'skeleton') return r.skeletonDom !== undefined;
  if (mode === 'hybrid') return !!r.screenshot && r.skeletonDom !== undefined;
  return r.dom !== undefined;
}

export function negotiate(input: NegotiationInput): NeedsContext | null {
  const { request: r } = input;
  const may = (mode: RequestedDomMode) => mode !== input.lastRequested && !carries(r, mode);
  if (input.needsRawHtml && may('full')) {
    return { status: 'needs_context', requestedDomMode: 'full', reason: input.needsRawHtml };
  }
  const visual = visualReference(r.query);
  if (visual && VISUAL_CLASSES.has(visual.kind) && may('hybrid')) {
    return { status: 'needs_context', requestedDomMode: 'hybrid', needsScreenshot: true, needsSkeletonDom: true,
      reason: `the task refers to ${visual.kind === 'appearance' ? 'how something looks' : visual.kind === 'spatial' ? 'where something is' : visual.kind === 'ordinal' ? 'a position in a sequence' : 'a visual element'} ("${visual.word}"), which the semantic tree does not encode` };
  }
  const close = closeCandidates(input.candidates);
  if (close.length < 2) return null;
  const key = (c: Candidate) => `${c.role}|${c.name.replace(/\s+/g, ' ').trim().toLowerCase()}`;
  const groups = new Map<string, Candidate[]>();
  for (const c of close) groups.set(key(c), [...groups.get(key(c)) ?? [], c]);
  const largest = Math.max(...[...groups.values()].map((g) => g.length));
  const sameName = (a: Candidate, b: Candidate) => a.name.trim().toLowerCase() === b.name.trim().toLowerCase();
  if (largest >= MANY_SIMILAR && may('hybrid')) {
    return { status: 'needs_context', requestedDomMode: 'hybrid', needsScreenshot: true, needsSkeletonDom: true,
      reason: `${largest} candidates look alike (${describe(close)}): the layout tells them apart` };
  }
  if (close.some((a, i) => close.slice(i + 1).some((b) => sameName(a, b))) && may('skeleton')) {
    return { status: 'needs_context', requestedDomMode: 'skeleton', needsSkeletonDom: true,
      reason: `several candidates carry the same label (${describe(close)}): the structure around them tells them apart` };
  }
  return null;
}

/** The candidates within CLOSE of the best score. */
export function closeCandidates(candidates: Candidate[]): Candidate[] {
  const best = candidates[0];
  if (!best || best.score <= 0) return [];
  return candidates.filter((c) => c.score >= best.score * (1 - CLOSE));
}

function describe(cs: Candidate[]): string {
  return cs.slice(0, 4).map((c) => `${c.id} ${c.role} "${c.name}"`).join(', ') + (cs.length > 4 ? ', …' : '');
}
