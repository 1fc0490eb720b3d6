// The filtered payload: what the DOM RAG hands a model (the seed's `filtered` mode): the kept nodes,
// where they sit, and an account of what was left out; and how one page node is written in it.
import { z } from 'zod';
import { truncate } from '../renderers/render.js';
import { minifyRole } from '../pagemodel/roles.js';
import type { RagNode } from './ragNodes.js';

export const FilteredNode = z.object({
  i: z.string(),
  /** Role as in semantic_v3; content: `h1`…`h6` headings, `text` blocks, `val` labelled values, `cell` table cells. */
  r: z.string(),
  n: z.string(),
  v: z.string().optional(),
  s: z.string().optional(),
  f: z.number().optional(),
});
export type FilteredNode = z.infer<typeof FilteredNode>;

export const FilteredGroup = z.object({
  /** Where the group sits: region and container ("R2 MAIN › form \"Sign in\""). */
  in: z.string(),
  ids: z.array(z.string()),
  /** Relevance to the query, 0–1. */
  rel: z.number(),
});
export type FilteredGroup = z.infer<typeof FilteredGroup>;

export const OmittedRegion = z.object({
  /** "R3 NAV \"Main\"" */
  region: z.string(),
  omitted: z.number(),
  /** "118 links, 2 buttons (Main menu, Footer links)" */
  what: z.string(),
});
export type OmittedRegion = z.infer<typeof OmittedRegion>;

/** The seed's `filtered` payload, plus where each kept node sits and what was left out. */
export const FilteredResult = z.object({
  mode: z.literal('filtered'),
  reason: z.string(),
  url: z.string(),
  title: z.string(),
  originalCount: z.number(),
  filteredCount: z.number(),
  /** Percent of the unfiltered tree's tokens saved. */
  tokenReduction: z.number(),
  tree: z.array(FilteredNode),
  groups: z.array(FilteredGroup),
  /** Per region, the nodes left out: with `filteredCount` they add up to `originalCount`. */
  omitted: z.array(OmittedRegion),
  /** o200k tokens of this payload as compact JSON, and the ceiling it was held under. */
  tokens: z.number(),
  maxTokens: z.number(),
  warnings: z.array(z.string()).optional(),
});
export type FilteredResult = z.infer<typeof FilteredResult>;

export const FILTERED_LEGEND = `LEGEND for the filtered tree (a task-filtered semantic_v3):
- tree: the nodes kept for the task, in reading order; i/r/n/v/s/f as in semantic_v3
- r also names content: h1…h6 headings, text (a paragraph), val (n: label, v: value), cell (n: column header, v: text), item (a row's or card's name, v: its price)
- groups: where kept nodes sit (region › container) and how relevant (rel 0–1)
- omitted: per region, what was left out; ask again with another query, or a larger maxTokens, to see it`;

const NAME_MAX = 80;
const TEXT_MAX = 160;

/** The role as the filtered tree writes it; headings as one kind (the account counts them together). */
export function shortRole(n: RagNode): string {
  return n.kind === 'heading' ? 'heading' : n.kind === 'content' ? (n.role === 'value' ? 'val' : n.role) : minifyRole(n.role);
}

export function toFilteredNode(n: RagNode): FilteredNode {
  const r = n.kind === 'heading' ? `h${n.level ?? 2}` : shortRole(n);
  const out: FilteredNode = { i: n.gid, r, n: truncate(n.name, n.role === 'text' ? TEXT_MAX : NAME_MAX) };
  if (n.value !== undefined) out.v = truncate(n.value, NAME_MAX);
  if (n.states.length) out.s = n.states.join(',');
  if (n.frame) out.f = n.frame;
  return out;
}
