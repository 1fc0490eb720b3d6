// Relevance of chunks and nodes to a task: BM25 over their words (names, values, nearby text,
// structure names, with stemming and UI synonyms), times a prior from the task's verb.
import { parseIntent, type Intent } from '../tasks/intent.js';
import { splitIdentifier, terms } from '../tasks/lexical.js';
import { Bag, bm25, corpusOf, queryTerms, type Corpus } from './bm25.js';
import { AMOUNT, isAmount } from './money.js';
import { truncate } from '../renderers/render.js';
import type { Chunk } from './chunks.js';
import type { RagNode } from './ragNodes.js';

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
export function ownMatch(n: RagNode, q: Query, corpus?: Corpus): number {
  const own = bm25(nodeBag(n), q.own, corpus);
  return own > 0 && sameTerms(n, q.exactName) ? 1 : own / (1 + EXACT);
}

const EXACT = 0.3;

/**
 * A node's own relevance: its words, its chunk's relevance, and its role's fit to the verb; when
 * the task says where the target is ("… of the Dell"), a node whose chunk does not say so weighs less.
 */
export function scoreNode(n: RagNode, chunkRelevance: number, query: Query, corpus?: Corpus, chunk?: Chunk): number {
  // The name says exactly what the task says ("Sign in", not "Sign in with Google"); a target named
  // only by its kind ("into the text field") is any element of that kind, whatever its name.
  const own = Math.max(ownMatch(n, query, corpus), kindOnlyMatch(n, query));
  const where = chunk && query.within.size ? 0.4 + 0.6 * bm25(chunkBag(chunk), query.within, corpus) : 1;
  return Math.min(1, roleFit(n, query.intent) * (0.75 * own + 0.25 * chunkRelevance) * where);
}

/** Half a match for an element of the kind a target is named by, when it is named by nothing else. */
function kindOnlyMatch(n: RagNode, query: Query): number {
  const { target, roles } = query.intent;
  return !target.length && roles.length && roleFit(n, query.intent) >= 0.8 ? 0.5 : 0;
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
