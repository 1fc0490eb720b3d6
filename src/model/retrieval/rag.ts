// DOM RAG: the part of a page that matters for a task, within a token budget, and an account of
// what was left out. This module keeps the best chunks until the budget, measured on the whole
// payload, is spent, and writes what it left out per region. Its parts, one job each: the nodes in
// reading order (ragNodes.ts), chunks by region, container and proximity (chunks.ts), relevance to
// the task (relevance.ts), the payload's shape (filteredPayload.ts), the page's size (domStats.ts).
// Pure: the browser side reads, this decides.
import { PagelensError } from '../contracts/errors.js';
import { truncate } from '../renderers/render.js';
import { FilteredResult, shortRole, toFilteredNode, type FilteredGroup, type OmittedRegion } from './filteredPayload.js';
import { chunkDomNodes, type Chunk } from './chunks.js';
import { indexChunks, ownMatch, roleFit, scoreChunkRelevance, scoreNode, toQuery, type Query } from './relevance.js';
import type { Corpus } from './bm25.js';
import type { RagNode } from './ragNodes.js';

// The DOM RAG's parts, for the modules that use it as one.
export * from './filteredPayload.js';
export * from './ragNodes.js';
export * from './domStats.js';
export * from './chunks.js';
export * from './relevance.js';

export interface FilterOptions {
  query: string;
  /** At most this many nodes (default 150). */
  maxNodes?: number;
  /** Hard ceiling on the payload's tokens, as `countTokens` counts them (default 2000). */
  maxTokens?: number;
  /** Chunks below this relevance are left out (default 0.1). */
  minRelevance?: number;
  /** The tokenizer; the default counts UTF-8 bytes, an upper bound of any BPE count. */
  countTokens?: (text: string) => number;
  page?: { url: string; title: string };
  /** Chunk relevance by chunk ID from a re-ranker, 0–1: replaces the lexical score of the chunks it names. */
  relevance?: Map<string, number>;
  warnings?: string[];
}

export interface KeptNode { node: RagNode; chunk: Chunk; score: number }

export interface Filtered {
  payload: FilteredResult;
  /** The nodes in the payload with their chunk and score, best first. */
  kept: KeptNode[];
  chunks: Chunk[];
  /** Chunks by relevance, best first. */
  ranked: Array<{ chunk: Chunk; relevance: number }>;
  query: Query;
  corpus: Corpus;
}

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

export const FILTER_DEFAULTS = { maxNodes: 150, maxTokens: 2000, minRelevance: 0.1 };
/** Chunks far below the best one are noise, even above minRelevance. */
const RELATIVE_CUT = 0.2;
/** The seed's filterDomForQuery: the filtered payload for a query within the budget. */
export function filterDomForQuery(nodes: RagNode[], opts: FilterOptions): FilteredResult {
  return filterDom(nodes, opts).payload;
}

/** filterDomForQuery with what the payload was made from, for rankers built on it (observe, extract). */
export function filterDom(nodes: RagNode[], opts: FilterOptions, chunks: Chunk[] = chunkDomNodes(nodes)): Filtered {
  const maxTokens = opts.maxTokens ?? FILTER_DEFAULTS.maxTokens;
  const maxNodes = opts.maxNodes ?? FILTER_DEFAULTS.maxNodes;
  const minRelevance = opts.minRelevance ?? FILTER_DEFAULTS.minRelevance;
  const count = opts.countTokens ?? utf8Bytes;
  const query = toQuery(opts.query);
  const corpus = indexChunks(chunks);
  const ranked = chunks
    .map((chunk) => ({ chunk, relevance: opts.relevance?.get(chunk.id) ?? scoreChunkRelevance(chunk, query, corpus) }))
    .sort((a, b) => b.relevance - a.relevance || a.chunk.nodes[0].order - b.chunk.nodes[0].order);
  const top = ranked[0]?.relevance ?? 0;
  const matched = top >= minRelevance;
  // Nothing matched: the top of the page is the best guess, and the reason says so.
  let order = matched ? ranked.filter((r) => r.relevance >= minRelevance && r.relevance >= top * RELATIVE_CUT) : [];
  // A weak match may be the wrong one (a search field named "request"), and no match is no guide:
  // what budget is left goes to the parts that can do what the task asks, then to the rest, top of
  // the page first.
  const weak = matched && top < STRONG_MATCH;
  if (weak || !matched) {
    const first = new Set(order.map((r) => r.chunk));
    const canDo = (c: Chunk) => (!query.intent.explicitVerb || c.nodes.some((n) => roleFit(n, query.intent) >= 0.8) ? 1 : 0);
    const rest = ranked.filter((r) => !first.has(r.chunk)).map((r) => ({ r, fit: canDo(r.chunk) }))
      .sort((a, b) => b.fit - a.fit || b.r.relevance - a.r.relevance || a.r.chunk.nodes[0].order - b.r.chunk.nodes[0].order);
    order = [...order, ...rest.map((x) => x.r)];
  }

  const chunkOf = new Map<RagNode, Chunk>();
  for (const c of chunks) for (const n of c.nodes) chunkOf.set(n, c);
  const ctx: Assembly = { nodes, chunkOf, relOf: new Map(ranked.map((r) => [r.chunk, r.relevance])), opts, maxTokens, query, matched, weak, top, count, lean: false };
  // A small ceiling is for nodes, not for the envelope: when the full account of the page would
  // leave too little of it for nodes, the lean envelope (short reason, no URL, groups or per-region
  // account) is sent instead.
  ctx.lean = maxTokens - count(JSON.stringify(skeleton(ctx, []))) < maxTokens * LEAN_BELOW;
  const nodeCost = new Map<RagNode, number>();
  const costOf = (n: RagNode) => {
    let c = nodeCost.get(n);
    // The node, its comma, and its ID again in its group.
    if (c === undefined) { c = count(JSON.stringify(toFilteredNode(n))) + count(`"${n.gid}",`) + 1; nodeCost.set(n, c); }
    return c;
  };
  let budget = maxTokens - count(JSON.stringify(skeleton(ctx, [])));
  const kept: KeptNode[] = [];
  let misses = 0;
  for (const [rank, { chunk, relevance }] of order.entries()) {
    // Nothing more fits, or chunk after chunk is too big for what is left: stop looking.
    if (kept.length >= maxNodes || budget < MIN_NODE_TOKENS || misses >= MAX_MISSES) break;
    const groupCost = ctx.lean ? 0 : count(JSON.stringify({ in: chunk.label, ids: [], rel: 0.99 })) + 1;
    const scored = chunk.nodes.map((node) => ({ node, chunk, score: scoreNode(node, relevance, query, corpus, chunk) })).sort((a, b) => b.score - a.score || a.node.order - b.node.order);
    let whole = groupCost;
    for (const k of scored) { whole += costOf(k.node); if (whole > budget) break; }
    if (whole <= budget && kept.length + scored.length <= maxNodes) {
      kept.push(...scored);
      budget -= whole;
      misses = 0;
      continue;
    }
    // Too big to keep whole: the best chunks give their best nodes, later ones only the nodes that
    // are themselves called what the task says (a price line in a long block).
    const partOf = rank < 3 || !matched ? scored : scored.filter((k) => ownMatch(k.node, query, corpus) > 0);
    if (!partOf.length) { misses++; continue; }
    let spent = groupCost;
    for (const k of partOf) {
      if (kept.length >= maxNodes || spent + costOf(k.node) > budget) break;
      if (matched && k.score <= 0 && spent > groupCost) break;
      kept.push(k);
      spent += costOf(k.node);
    }
    if (spent > groupCost) budget -= spent; else misses++;
  }
  // The estimate adds parts; the ceiling is on the whole: measure it, and drop the weakest nodes until it holds.
  let payload = assemble(ctx, kept);
  let tokens = measure(payload, count);
  while (tokens > maxTokens && kept.length) {
    kept.sort((a, b) => b.score - a.score || a.node.order - b.node.order);
    const avg = kept.reduce((s, k) => s + costOf(k.node), 0) / kept.length;
    const drop = Math.max(1, Math.min(kept.length, Math.ceil((tokens - maxTokens) / Math.max(1, avg))));
    kept.splice(kept.length - drop, drop);
    payload = assemble(ctx, kept);
    tokens = measure(payload, count);
  }
  if (tokens > maxTokens) {
    throw new PagelensError('BAD_INPUT', `maxTokens ${maxTokens} is below the smallest payload this page allows (${tokens} tokens with no node kept, the account of what was left out included); ask for more.`);
  }
  kept.sort((a, b) => b.score - a.score || a.node.order - b.node.order);
  return { payload, kept, chunks, ranked, query, corpus };
}

/** When the full envelope leaves less than this share of the ceiling for nodes, the lean one is sent. */
const LEAN_BELOW = 0.25;
/** Below this best relevance a match is weak: the budget left is filled with other likely parts. */
const STRONG_MATCH = 0.5;
/** No node costs fewer tokens than this: with less budget left, nothing else fits. */
const MIN_NODE_TOKENS = 8;
/** Chunks in a row that do not fit before the search for a smaller one stops. */
const MAX_MISSES = 40;

/** What assembling a payload needs, computed once per filtering. */
interface Assembly {
  nodes: RagNode[];
  chunkOf: Map<RagNode, Chunk>;
  relOf: Map<Chunk, number>;
  opts: FilterOptions;
  maxTokens: number;
  query: Query;
  matched: boolean;
  weak: boolean;
  top: number;
  count: (s: string) => number;
  /** The lean envelope (see filterDom): short reason, no URL or title, no groups, one omitted line. */
  lean: boolean;
}

/** Counts the payload and writes the count into it (the count's own digits are tokens too). */
function measure(payload: FilteredResult, count: (s: string) => number): number {
  payload.tokens = 0;
  let t = count(JSON.stringify(payload));
  for (let i = 0; i < 5; i++) {
    payload.tokens = t;
    const again = count(JSON.stringify(payload));
    if (again === t) return t;
    t = again;
  }
  return count(JSON.stringify(payload));
}

/** The payload around the kept nodes: the reason, the counts and the account of what was left out. */
function skeleton(a: Assembly, kept: KeptNode[]): FilteredResult {
  const keptSet = new Set(kept.map((k) => k.node));
  const groupsCount = new Set(kept.map((k) => k.chunk)).size;
  const { nodes, query, opts } = a;
  if (a.lean) {
    const left = nodes.length - kept.length;
    return {
      mode: 'filtered',
      reason: `${JSON.stringify(truncate(query.text, 40))}: ${kept.length} of ${nodes.length} nodes${a.matched ? (a.weak ? ', weak match' : '') : ', no match'}`,
      url: '',
      title: '',
      originalCount: nodes.length,
      filteredCount: kept.length,
      tokenReduction: 0,
      tree: [],
      groups: [],
      omitted: left ? [{ region: 'page', omitted: left, what: 'raise maxTokens' }] : [],
      tokens: 0,
      maxTokens: a.maxTokens,
      ...(opts.warnings?.length && { warnings: opts.warnings }),
    };
  }
  const reason = a.matched
    ? `Filtered for ${JSON.stringify(truncate(query.text, 120))}: ${kept.length} of ${nodes.length} nodes in ${groupsCount} group${groupsCount === 1 ? '' : 's'}${a.weak ? ` (a weak match, best relevance ${a.top.toFixed(2)}: the rest of the budget holds other parts that may be meant)` : ''}`
    : `Nothing on the page matched ${JSON.stringify(truncate(query.text, 120))} (best relevance ${a.top.toFixed(2)}): the parts that can do it, top of the page first, ${kept.length} of ${nodes.length} nodes`;
  return {
    mode: 'filtered',
    reason,
    url: opts.page?.url ?? '',
    title: opts.page?.title ?? '',
    originalCount: nodes.length,
    filteredCount: kept.length,
    tokenReduction: 0,
    tree: [],
    groups: [],
    omitted: omittedAccount(nodes.filter((n) => !keptSet.has(n)), a.chunkOf),
    tokens: 0,
    maxTokens: a.maxTokens,
    ...(opts.warnings?.length && { warnings: opts.warnings }),
  };
}

function assemble(a: Assembly, kept: KeptNode[]): FilteredResult {
  const payload = skeleton(a, kept);
  const inOrder = [...kept].sort((x, y) => x.node.order - y.node.order);
  payload.tree = inOrder.map((k) => toFilteredNode(k.node));
  const groups = new Map<Chunk, FilteredGroup>();
  for (const k of inOrder) {
    const c = a.chunkOf.get(k.node)!;
    let g = groups.get(c);
    if (!g) { g = { in: c.label, ids: [], rel: Math.round((a.relOf.get(c) ?? 0) * 100) / 100 }; groups.set(c, g); }
    g.ids.push(k.node.gid);
  }
  // The lean envelope leaves groups out: the tree alone says what was kept.
  payload.groups = a.lean ? [] : [...groups.values()];
  const original = estimateTreeTokens(a.nodes, a.count);
  const shown = payload.tree.length ? a.count(JSON.stringify(payload.tree)) : 0;
  payload.tokenReduction = original > 0 ? Math.max(0, Math.round(100 * (1 - shown / original))) : 0;
  return payload;
}

const treeTokens = new WeakMap<RagNode[], number>();

/** Tokens of the unfiltered tree: counted when small, else extrapolated from a sample of its nodes. */
function estimateTreeTokens(nodes: RagNode[], count: (s: string) => number): number {
  let t = treeTokens.get(nodes);
  if (t !== undefined) return t;
  const SAMPLE = 400;
  if (nodes.length <= SAMPLE) t = count(JSON.stringify(nodes.map(toFilteredNode)));
  else {
    const step = nodes.length / SAMPLE;
    let sampled = 0;
    for (let i = 0; i < SAMPLE; i++) sampled += count(JSON.stringify(toFilteredNode(nodes[Math.floor(i * step)]))) + 1;
    t = Math.round(sampled * (nodes.length / SAMPLE));
  }
  treeTokens.set(nodes, t);
  return t;
}

const PLURAL: Record<string, [string, string]> = {
  link: ['link', 'links'], btn: ['button', 'buttons'], inp: ['field', 'fields'], sel: ['select', 'selects'], chk: ['checkbox', 'checkboxes'],
  radio: ['radio', 'radios'], item: ['item', 'items'], text: ['text block', 'text blocks'], val: ['value', 'values'], cell: ['cell', 'cells'],
  heading: ['heading', 'headings'], menu: ['menu item', 'menu items'], tab: ['tab', 'tabs'], opt: ['option', 'options'], clickable: ['clickable', 'clickables'],
};
/** Regions beyond this many are summed up in one line, so that the account stays small on any page. */
const MAX_REGIONS_LISTED = 12;

/** Per region: how many nodes were left out, of which kinds, and the containers most of them sit in. */
function omittedAccount(left: RagNode[], chunkOf: Map<RagNode, Chunk>): OmittedRegion[] {
  const byRegion = new Map<string, { label: string; nodes: RagNode[]; first: number }>();
  for (const n of left) {
    const c = chunkOf.get(n);
    const key = c ? `${c.region} ${c.regionLabel}` : 'R? PAGE';
    let r = byRegion.get(key);
    if (!r) { r = { label: key, nodes: [], first: n.order }; byRegion.set(key, r); }
    r.nodes.push(n);
  }
  let regions = [...byRegion.values()].sort((a, b) => a.first - b.first);
  let rest: RagNode[] = [];
  if (regions.length > MAX_REGIONS_LISTED) {
    const big = new Set([...regions].sort((a, b) => b.nodes.length - a.nodes.length).slice(0, MAX_REGIONS_LISTED - 1));
    rest = regions.filter((r) => !big.has(r)).flatMap((r) => r.nodes);
    regions = regions.filter((r) => big.has(r));
  }
  const out = regions.map((r) => ({ region: r.label, omitted: r.nodes.length, what: describeLeftOut(r.nodes, chunkOf) }));
  if (rest.length) out.push({ region: `${byRegion.size - regions.length} other regions`, omitted: rest.length, what: describeLeftOut(rest, chunkOf) });
  return out;
}

function describeLeftOut(nodes: RagNode[], chunkOf: Map<RagNode, Chunk>): string {
  const roles = new Map<string, number>();
  for (const n of nodes) {
    const r = shortRole(n);
    roles.set(r, (roles.get(r) ?? 0) + 1);
  }
  const parts = [...roles.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([r, k]) => {
    const [one, many] = PLURAL[r] ?? [r, `${r}s`];
    return `${k} ${k === 1 ? one : many}`;
  });
  if (roles.size > 3) parts.push('…');
  const containers = new Map<string, number>();
  for (const n of nodes) {
    const c = chunkOf.get(n)?.container;
    if (c?.name) containers.set(c.name, (containers.get(c.name) ?? 0) + 1);
  }
  const named = [...containers.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([name]) => truncate(name, 30));
  return parts.join(', ') + (named.length ? ` (${named.join(', ')}${containers.size > 2 ? ', …' : ''})` : '');
}
