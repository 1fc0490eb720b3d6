// DOM RAG: the part of a page that matters for a task, within a token budget, and an account of
// what was left out. The page's nodes (controls, row items, headings, content) are chunked by
// region, container and spatial proximity (a product card or a form stays whole), each chunk is
// scored against the task (BM25 over names, values, nearby text and structure names, with stemming
// and UI synonyms, times a prior from the task's verb), and the best chunks are kept until the
// budget, measured on the whole payload, is spent. Pure: the browser side reads, this decides.
import { z } from 'zod';
import type { ContentItem } from '../pagemodel/content.js';
import { PagelensError } from '../contracts/errors.js';
import { parseIntent, type Intent } from '../tasks/intent.js';
import { AMOUNT, Bag, bm25, corpusOf, isAmount, queryTerms, splitIdentifier, terms, type Corpus } from './lexical.js';
import { globalId, type PageModel } from '../pagemodel/page.js';
import { truncate } from '../renderers/render.js';
import { minifyRole } from '../pagemodel/roles.js';
import type { Box, ScrollInfo, StructKind } from '../contracts/schema.js';

// ---- the payload ----

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

// ---- the nodes ----

export interface StructRef { gid: string; kind: StructKind; role: string; name: string }

export type RagKind = 'control' | 'item' | 'heading' | 'content';

export interface RagNode {
  gid: string;
  /** ARIA role for controls, `item` for rows, `heading`, or the content kind (`text`, `value`, `cell`). */
  role: string;
  name: string;
  value?: string;
  states: string[];
  box: Box;
  frame: number;
  kind: RagKind;
  level?: number;
  placeholder?: string;
  type?: string;
  href?: string;
  attrs?: Record<string, string>;
  scr?: ScrollInfo;
  occ?: boolean;
  /** The structure around the node, outermost first. */
  path: StructRef[];
  /** Position in reading order. */
  order: number;
}

/** Content read by the content pass of one frame, boxes already in top-level coordinates. */
export interface PlacedContent { frame: number; items: ContentItem[] }

/**
 * The page model's controls, row items and headings, plus content items, as one list in reading
 * order, each with the structure around it.
 */
export function toRagNodes(model: PageModel, content: PlacedContent[] = []): RagNode[] {
  const structIndex = new Map(model.structure.map((s, i) => [s.gid, i]));
  const paths = new Map<number, StructRef[]>();
  const pathOf = (ctx: number | undefined): StructRef[] => {
    if (ctx === undefined || ctx < 0 || !model.structure[ctx]) return [];
    let p = paths.get(ctx);
    if (!p) {
      const s = model.structure[ctx];
      p = [...pathOf(s.parent), { gid: s.gid, kind: s.kind, role: s.role, name: s.name }];
      paths.set(ctx, p);
    }
    return p;
  };
  const out: RagNode[] = [];
  const seen = new Set<string>();
  // A content block that repeats the text of a row's item or a heading next to it adds nothing.
  const named = new Set<string>();
  for (const n of model.nodes) {
    seen.add(n.gid);
    const node: RagNode = { gid: n.gid, role: n.role, name: n.name, states: n.states, box: n.box, frame: n.frame, kind: n.role === 'item' ? 'item' : 'control', path: pathOf(n.ctx), order: 0 };
    if (n.value !== undefined) node.value = n.value;
    if (n.placeholder) node.placeholder = n.placeholder;
    if (n.type) node.type = n.type;
    if (n.href) node.href = n.href;
    if (n.attrs) node.attrs = n.attrs;
    if (n.scr) node.scr = n.scr;
    if (n.occ) node.occ = true;
    if (node.kind === 'item') { named.add(`${n.ctx}|${n.name}`); if (n.value) named.add(`${n.ctx}|=${n.value}`); }
    out.push(node);
  }
  for (const h of model.headings) {
    if (seen.has(h.gid)) continue;
    seen.add(h.gid);
    named.add(`${h.ctx}|${h.text}`);
    out.push({ gid: h.gid, role: 'heading', level: h.level, name: h.text, states: [], box: h.box, frame: h.frame, kind: 'heading', path: pathOf(h.ctx), order: 0 });
  }
  for (const { frame, items } of content) {
    for (const c of items) {
      const gid = globalId(frame, c.id);
      if (seen.has(gid)) continue;
      seen.add(gid);
      const up = c.up.map((u) => structIndex.get(globalId(frame, u))).find((i) => i !== undefined);
      if (c.kind === 'text' && named.has(`${up ?? -1}|${c.name}`)) continue;
      // A card's price is already its item's value.
      if (c.kind === 'value' && c.value !== undefined && named.has(`${up ?? -1}|=${c.value}`)) continue;
      const node: RagNode = { gid, role: c.kind, name: c.name, states: [], box: c.box, frame, kind: 'content', path: pathOf(up), order: 0 };
      if (c.value !== undefined) node.value = c.value;
      out.push(node);
    }
  }
  // Reading order: top to bottom, then left to right (rows of a few pixels read as one line).
  out.sort((a, b) => Math.round(a.box[1] / 4) - Math.round(b.box[1] / 4) || a.box[0] - b.box[0]);
  out.forEach((n, i) => { n.order = i; });
  return out;
}

// ---- statistics ----

export interface DomStats {
  total: number;
  controls: number;
  items: number;
  headings: number;
  content: number;
  regions: number;
  /** Roughly the tokens of the whole tree as a filtered payload would write it (4 characters a token). */
  estimatedTokens: number;
  needsFiltering: boolean;
}

/** Past this many nodes or tokens a page is worth filtering (the seed's "massive pages"). */
export const FILTER_THRESHOLD = { nodes: 150, tokens: 3000 };

export function getDomStats(nodes: RagNode[]): DomStats {
  const count = (k: RagKind) => nodes.filter((n) => n.kind === k).length;
  const chars = nodes.reduce((s, n) => s + JSON.stringify(toFilteredNode(n)).length + 1, 0);
  const stats: DomStats = {
    total: nodes.length,
    controls: count('control'),
    items: count('item'),
    headings: count('heading'),
    content: count('content'),
    regions: new Set(nodes.map((n) => regionOf(n)?.gid ?? '')).size,
    estimatedTokens: Math.ceil(chars / 4),
    needsFiltering: false,
  };
  stats.needsFiltering = stats.total > FILTER_THRESHOLD.nodes || stats.estimatedTokens > FILTER_THRESHOLD.tokens;
  return stats;
}

/** Whether the nodes exceed what the caller can take (`maxTokens`, `maxNodes`), or the default thresholds. */
export function needsFiltering(nodes: RagNode[], opts: { maxTokens?: number; maxNodes?: number } = {}): boolean {
  const stats = getDomStats(nodes);
  if (opts.maxNodes !== undefined && stats.total > opts.maxNodes) return true;
  if (opts.maxTokens !== undefined) return stats.estimatedTokens > opts.maxTokens;
  return stats.needsFiltering;
}

// ---- chunks ----

export interface Chunk {
  /** "C7" */
  id: string;
  /** "R2" */
  region: string;
  /** "MAIN \"Projects\"" */
  regionLabel: string;
  /** The container that makes the chunk (a card, a form, a section); absent for loose nodes grouped by proximity. */
  container?: StructRef;
  /** "R2 MAIN \"Projects\" › form \"Sign in\"" */
  label: string;
  nodes: RagNode[];
  /** Words around the chunk: its containers' names and the heading above it. */
  context: string;
}

const REGION_KINDS = new Set<StructKind>(['landmark', 'form', 'dialog']);
const REGION_NAMES: Record<string, string> = {
  banner: 'HEADER', navigation: 'NAV', main: 'MAIN', complementary: 'ASIDE', contentinfo: 'FOOTER', search: 'SEARCH',
  region: 'REGION', form: 'FORM', dialog: 'DIALOG', alertdialog: 'DIALOG',
};
/** A form or dialog up to this size is one chunk, whatever is inside it. */
const MAX_WHOLE = 80;
/** Loose nodes (and oversized containers) are cut into runs of at most this many… */
const MAX_RUN = 25;
/** …and wherever the page leaves a vertical gap this large (CSS px). */
const GAP = 160;

function regionOf(n: RagNode): StructRef | undefined {
  return n.path.find((s) => REGION_KINDS.has(s.kind));
}

function describeStruct(s: StructRef): string {
  const word = s.kind === 'row' ? (s.role === 'row' ? 'row' : 'card') : s.kind === 'landmark' ? (REGION_NAMES[s.role] ?? s.role).toLowerCase() : s.kind;
  return s.name ? `${word} "${truncate(s.name, 40)}"` : word;
}

function regionLabel(s: StructRef | undefined): string {
  if (!s) return 'PAGE (outside landmarks)';
  const word = REGION_NAMES[s.role] ?? s.kind.toUpperCase();
  return s.name ? `${word} "${truncate(s.name, 40)}"` : word;
}

/** The container a node is chunked with: a whole form or dialog, else its card or row, else its innermost section. */
function containerOf(n: RagNode, sizes: Map<string, number>): StructRef | undefined {
  const whole = n.path.find((s) => (s.kind === 'form' || s.kind === 'dialog') && (sizes.get(s.gid) ?? 0) <= MAX_WHOLE);
  if (whole) return whole;
  for (let i = n.path.length - 1; i >= 0; i--) if (n.path[i].kind === 'row' && (sizes.get(n.path[i].gid) ?? 0) <= MAX_WHOLE) return n.path[i];
  return n.path[n.path.length - 1];
}

/**
 * Chunks in reading order: by region (top-level landmark, form or dialog; numbered as `regionIdOf`
 * says when given, else in reading order), then container (a form
 * or dialog whole, a card or table row whole, else the innermost section, fieldset or table),
 * then spatial proximity: loose nodes and oversized containers are cut at vertical gaps, at
 * headings and every MAX_RUN nodes.
 */
export function chunkDomNodes(nodes: RagNode[], regionIdOf?: (n: RagNode) => string | undefined): Chunk[] {
  const sizes = new Map<string, number>();
  for (const n of nodes) for (const s of n.path) sizes.set(s.gid, (sizes.get(s.gid) ?? 0) + 1);
  const regionIds = new Map<string, string>();
  const groups = new Map<string, { region: StructRef | undefined; container: StructRef | undefined; nodes: RagNode[] }>();
  const sorted = [...nodes].sort((a, b) => a.order - b.order);
  for (const n of sorted) {
    const region = regionOf(n);
    const rkey = region?.gid ?? '';
    if (!regionIds.has(rkey)) regionIds.set(rkey, `R${regionIds.size}`);
    const container = containerOf(n, sizes);
    const key = `${rkey}|${container?.gid ?? ''}`;
    let g = groups.get(key);
    if (!g) { g = { region, container, nodes: [] }; groups.set(key, g); }
    g.nodes.push(n);
  }
  const chunks: Chunk[] = [];
  const lastHeading = new Map<string, string>();
  const ordered = [...groups.values()].sort((a, b) => a.nodes[0].order - b.nodes[0].order);
  for (const g of ordered) {
    // The page's region numbering (lens.regions) when the caller has it, so that "R2" means one region everywhere.
    const rid = (regionIdOf && g.nodes.map(regionIdOf).find((id) => id !== undefined)) || regionIds.get(g.region?.gid ?? '')!;
    const rlabel = regionLabel(g.region);
    const keepWhole = g.container && (g.container.kind === 'form' || g.container.kind === 'dialog' || g.container.kind === 'row') && g.nodes.length <= MAX_WHOLE;
    const runs = keepWhole ? [g.nodes] : splitByProximity(g.nodes);
    runs.forEach((run, part) => {
      const containerWords = g.container ? g.container === g.region ? '' : ` › ${describeStruct(g.container)}` : '';
      // The region's name is said once, in the account of what was left out; groups name its kind.
      const label = `${rid} ${g.region ? REGION_NAMES[g.region.role] ?? g.region.kind.toUpperCase() : 'PAGE'}${containerWords}${runs.length > 1 ? ` (part ${part + 1})` : ''}`;
      const names = run[0].path.map((s) => s.name).filter(Boolean);
      const heading = run.find((n) => n.kind === 'heading')?.name ?? lastHeading.get(rid) ?? '';
      for (const n of run) if (n.kind === 'heading') lastHeading.set(rid, n.name);
      chunks.push({
        id: `C${chunks.length + 1}`,
        region: rid,
        regionLabel: rlabel,
        ...(g.container && { container: g.container }),
        label,
        nodes: run,
        context: [...new Set([...names, heading])].join(' · '),
      });
    });
  }
  return chunks;
}

function splitByProximity(nodes: RagNode[]): RagNode[][] {
  const runs: RagNode[][] = [];
  let run: RagNode[] = [];
  let bottom = -Infinity;
  for (const n of nodes) {
    const gap = n.box[1] - bottom;
    // A heading starts a new part, unless it is no title at all (a price set in an <h3>).
    const headingBreak = n.kind === 'heading' && !isAmount(n.name) && run.some((m) => m.kind !== 'heading');
    if (run.length && (run.length >= MAX_RUN || gap > GAP || headingBreak)) { runs.push(run); run = []; bottom = -Infinity; }
    run.push(n);
    bottom = Math.max(bottom, n.box[1] + n.box[3]);
  }
  if (run.length) runs.push(run);
  return runs;
}

// ---- relevance ----

/** The task as the scorer reads it: terms with weights, and the intent behind the words. */
export interface Query {
  text: string;
  intent: Intent;
  /** Everything the task says: what the target is called and where it is (chunks are scored on these). */
  terms: Map<string, number>;
  /** What the target itself is called (a node is scored on these). */
  own: Map<string, number>;
  /** Where the target is ("the Dell" of "add the Dell to the cart"): its chunk must say so. */
  within: Map<string, number>;
  /** The target's terms, sorted: a node named exactly this is what the task names. */
  exactName: string;
}

export function toQuery(query: string | Query): Query {
  if (typeof query !== 'string') return query;
  const intent = parseIntent(query);
  const own = queryTerms(intent.target, 1);
  // A bare query of role words ("the search box") still has its words.
  if (!own.size && !intent.within.length) queryTerms([query], 1, own);
  const within = queryTerms(intent.within, 1);
  const all = new Map(own);
  for (const [t, w] of within) all.set(t, Math.max(all.get(t) ?? 0, w));
  // The text typed says nothing about which field (a placeholder's "you@example.com" would match
  // any address); an option to select may name its list's region, faintly.
  if (intent.value && intent.verb === 'select') for (const [t] of queryTerms([intent.value])) if (!all.has(t)) all.set(t, 0.15);
  return { text: query, intent, terms: all, own: own.size ? own : all, within, exactName: terms(intent.target.join(' ')).sort().join(' ') };
}

const nodeBags = new WeakMap<RagNode, Bag>();
const chunkBags = new WeakMap<Chunk, Bag>();

const ATTR_WEIGHTS: Record<string, number> = { name: 0.6, id: 0.5, 'aria-label': 0.8, title: 0.6, alt: 0.6, placeholder: 0.9, autocomplete: 0.6, 'data-testid': 0.5, class: 0.2 };

/** A node's own words: name, placeholder and value first, identifying attributes after. */
export function nodeBag(n: RagNode): Bag {
  let bag = nodeBags.get(n);
  if (bag) return bag;
  bag = new Bag().add(n.name, 1).add(n.placeholder, 0.9);
  if (n.value && n.value !== '***') bag.add(n.value, n.kind === 'control' ? 0.4 : 0.8);
  // A row's value is its price or amount (that is how the engine finds it); a text that is only an
  // amount ("€ 16,90" in a heading, a price tag) is a price whatever the page's language.
  if ((n.kind === 'item' && n.value) || (n.kind !== 'control' && (isAmount(n.name) || (n.value !== undefined && isAmount(n.value))))) bag.add('price', 0.8);
  // A heading or text that carries an amount among its words ("Washing machine - £50 (Salford)") says a price too.
  else if (n.kind !== 'control' && AMOUNT.test(n.name)) bag.add('price', 0.5);
  // A search field says "search" by its role or its form's, in any language.
  if (n.role === 'searchbox' || (FIELDS.has(n.role) && n.path.some((p) => p.role === 'search'))) bag.add('search', 0.8);
  if (n.type && /^(email|password|search|tel|url|number|date)$/.test(n.type)) bag.add(n.type, 0.7);
  for (const [k, v] of Object.entries(n.attrs ?? {})) {
    const w = ATTR_WEIGHTS[k];
    if (w) bag.add(splitIdentifier(v), w);
  }
  // An icon link says what it does in its address: /cart, /login.
  if (n.href && n.role === 'link') {
    const path = n.href.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0];
    bag.add(splitIdentifier(path.split('/').filter(Boolean).slice(-2).join(' ')), 0.3);
  }
  nodeBags.set(n, bag);
  return bag;
}

function chunkBag(c: Chunk): Bag {
  let bag = chunkBags.get(c);
  if (bag) return bag;
  bag = new Bag();
  for (const n of c.nodes) for (const [t, w] of nodeBag(n).tf) bag.addTerm(t, w);
  bag.add(c.context, 0.5);
  bag.add(c.regionLabel.replace(/^[A-Z]+/, (w) => w.toLowerCase()), 0.2);
  chunkBags.set(c, bag);
  return bag;
}

/** BM25 statistics over a page's chunks (idf: words every chunk has say little). */
export function indexChunks(chunks: Chunk[]): Corpus {
  return corpusOf(chunks.map(chunkBag));
}

/** How well a node's role can carry out the task's verb, 0–1 (1 when the task names no verb). */
export function roleFit(n: RagNode, intent: Intent): number {
  let fit = verbFit(n, intent);
  if (intent.roles.length) {
    const role = n.kind === 'control' ? n.role : n.kind === 'heading' ? 'heading' : 'item';
    fit *= intent.roles.includes(role) || (role === 'searchbox' && intent.roles.includes('textbox')) ? 1 : 0.6;
  }
  return fit;
}

const CLICKABLE = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem', 'switch', 'clickable', 'gridcell', 'img']);
const FIELDS = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

function verbFit(n: RagNode, intent: Intent): number {
  if (!intent.explicitVerb) return 1;
  const content = n.kind !== 'control';
  switch (intent.verb) {
    case 'extract': return content ? 1 : 0.4;
    case 'done': return 1;
    case 'type': return content ? 0.1 : FIELDS.has(n.role) || n.states.includes('editable') ? 1 : 0.15;
    case 'select': return content ? 0.1 : n.role === 'combobox' || n.role === 'listbox' ? 1 : n.role === 'radio' || n.role === 'option' ? 0.8 : 0.2;
    case 'check': case 'uncheck': return content ? 0.1 : ['checkbox', 'switch', 'radio', 'menuitemcheckbox'].includes(n.role) ? 1 : 0.25;
    case 'scroll': return n.scr ? 1 : 0.3;
    case 'navigate': return n.role === 'link' ? 1 : content ? 0.2 : 0.5;
    case 'hover': return content ? (n.kind === 'item' ? 0.8 : 0.3) : 1;
    case 'click':
      if (n.kind === 'item') return 0.8;
      if (content) return 0.25;
      if (CLICKABLE.has(n.role)) return 1;
      return n.role === 'checkbox' || n.role === 'radio' ? 0.8 : FIELDS.has(n.role) ? 0.4 : 0.7;
  }
}

/**
 * A chunk's relevance to the query, 0–1: its BM25 (normalised: the share of the query's
 * information it matches) times a prior from the verb (a chunk with nothing that can "type" is
 * worth less to "type your email"). `corpus` gives idf over the page's chunks (indexChunks).
 */
export function scoreChunkRelevance(chunk: Chunk, query: string | Query, corpus?: Corpus): number {
  const q = toQuery(query);
  const lexical = bm25(chunkBag(chunk), q.terms, corpus);
  if (lexical === 0) return 0;
  // The chunk is as good as its best node: one that is called what the task says and can do
  // what it asks outweighs a chunk that mentions the words here and there.
  let best = 0;
  let can = 0;
  for (const n of chunk.nodes) {
    const fit = roleFit(n, q.intent);
    can = Math.max(can, fit);
    best = Math.max(best, ownMatch(n, q, corpus) * fit);
  }
  // "… of the Dell": the best node counts in the chunk that says so.
  const where = q.within.size ? 0.3 + 0.7 * bm25(chunkBag(chunk), q.within, corpus) : 1;
  // A chunk with nothing that can do what the task asks (no field to type into) is worth less.
  return (0.5 * lexical + 0.5 * best * where) * (0.4 + 0.6 * can);
}

/** How well a node's own words say what the target is called, 0–1; its exact name counts most. */
function ownMatch(n: RagNode, q: Query, corpus?: Corpus): number {
  const own = bm25(nodeBag(n), q.own, corpus);
  return own > 0 && sameTerms(n, q.exactName) ? 1 : own / (1 + EXACT);
}

const EXACT = 0.3;

/**
 * A node's own relevance: its words, its chunk's relevance, and its role's fit to the verb; when
 * the task says where the target is ("… of the Dell"), a node whose chunk does not say so weighs less.
 */
export function scoreNode(n: RagNode, chunkRelevance: number, query: Query, corpus?: Corpus, chunk?: Chunk): number {
  // The name says exactly what the task says ("Sign in", not "Sign in with Google").
  const own = ownMatch(n, query, corpus);
  const where = chunk && query.within.size ? 0.4 + 0.6 * bm25(chunkBag(chunk), query.within, corpus) : 1;
  return Math.min(1, roleFit(n, query.intent) * (0.75 * own + 0.25 * chunkRelevance) * where);
}

const sortedTerms = new WeakMap<RagNode, string>();

function sameTerms(n: RagNode, exactName: string): boolean {
  let a = sortedTerms.get(n);
  if (a === undefined) { a = terms(n.name).sort().join(' '); sortedTerms.set(n, a); }
  return a.length > 0 && a === exactName;
}

/** A re-ranker (embeddings, a cross-encoder) scores chunks 0–1 for a query, in the order given. */
export interface Reranker {
  rerank(query: string, chunks: RerankChunk[]): Promise<number[]>;
}

export interface RerankChunk { id: string; label: string; text: string }

/** What a re-ranker sees of a chunk: where it is and what it says. */
export function rerankInput(c: Chunk): RerankChunk {
  const text = c.nodes.map((n) => (n.value ? `${n.name}: ${n.value}` : n.name)).filter(Boolean).join(' | ');
  return { id: c.id, label: c.label, text: truncate(`${c.context ? c.context + ' | ' : ''}${text}`, 1200) };
}

// ---- filtering ----

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

export const FILTER_DEFAULTS = { maxNodes: 150, maxTokens: 2000, minRelevance: 0.1 };
/** Chunks far below the best one are noise, even above minRelevance. */
const RELATIVE_CUT = 0.2;
const NAME_MAX = 80;
const TEXT_MAX = 160;

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

/** The role as the filtered tree writes it; headings as one kind (the account counts them together). */
function shortRole(n: RagNode): string {
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
