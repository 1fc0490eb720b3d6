// lens.snapshot({ query, maxTokens }) → the `filtered` payload: the page model with its structure
// and attributes, plus the content pass (labelled values, cells, prices, text) when the task asks
// for it, chunked and scored by the pure DOM RAG (src/model/retrieval/rag.ts) and held under the token
// ceiling by the real tokenizer. Every ID in the payload is handed out like a snapshot's. Written
// once above the port: each host passes its exploration snapshot and its ID ledger (RagHost).
import { PagelensError } from '../model/contracts/errors.js';
import type { PageModel, PageNode } from '../model/pagemodel/page.js';
import { chunkDomNodes, filterDom, scoreChunkRelevance, indexChunks, rerankInput, toQuery, toRagNodes, FILTER_DEFAULTS, type Filtered, type FilteredResult, type PlacedContent, type RagNode, type Reranker } from '../model/retrieval/rag.js';
import type { SnapshotOptions } from '../model/contracts/schema.js';
import { loadTokenizer } from '../model/renderers/tokens.js';
import type { HostEngine, HostFrame } from '../model/contracts/host.js';
import type { RegionNode, RegionTree } from '../model/explore/regions.js';
import type { ExploreSnapshot } from './explore.js';

/** What reading a page for a task needs of a host: the engine side of the port, its exploration snapshot, its ID ledger. */
export interface RagHost {
  engine: HostEngine;
  /** The exploration snapshot (reused while the page has not changed). */
  current(opts: { refresh?: boolean }): Promise<{ snap: ExploreSnapshot; reused: boolean }>;
  /** Records these nodes as shown to the agent (role and name as given), bound to the documents of `model`. */
  record(model: PageModel): void;
}

/** Every frame the host knows, child frames laid out afresh (their offsets place what is read now). */
export async function placedFrames(engine: HostEngine, model: Pick<PageModel, 'docs'>): Promise<HostFrame[]> {
  return Object.keys(model.docs).some((k) => k !== '0') ? engine.layout(async (frames) => frames) : engine.frames();
}

/** Content items per frame at most: enough for a long article, bounded for a page built to be endless. */
const CONTENT_MAX = 8000;
/** The re-ranker sees this many of the lexically best chunks. */
const RERANK_TOP = 40;

export interface TaskNodes {
  model: PageModel;
  nodes: RagNode[];
  warnings: string[];
  /** The ID of the top-level region (as lens.regions() numbers them) a node lies in. */
  regionIdOf: (n: RagNode) => string | undefined;
}

/**
 * The whole page as RAG nodes: controls, row items and headings from the page model (with
 * structure and attributes), and with `content` the content pass of every readable frame.
 */
export async function readTaskNodes(host: RagHost, opts: { content: boolean }): Promise<TaskNodes> {
  // The exploration snapshot's read (reused while the page has not changed): its regions number
  // the chunks, so that observe's "R2" is the R2 of lens.regions().
  const { snap } = await host.current({});
  const model = snap.model;
  const warnings = [...model.warnings];
  const placed: PlacedContent[] = [];
  if (opts.content) {
    const known = await placedFrames(host.engine, model);
    await Promise.all(model.frames.filter((f) => !f.error && model.docs[f.id]).map(async (f) => {
      const frame = known.find((x) => x.ordinal === f.id);
      if (!frame || frame.error) { warnings.push(`frame ${f.id}: its text could not be read (the frame is gone)`); return; }
      try {
        const read = await host.engine.engine(frame, 'content', [{ max: CONTENT_MAX }]);
        // Another document than the one the model came from: its IDs would point at strangers.
        if (read.doc !== model.docs[f.id]) { warnings.push(`frame ${f.id}: the page changed between reads; its text is left out`); return; }
        const [ox, oy] = f.id === 0 ? [0, 0] : frame.offset;
        placed.push({ frame: f.id, items: read.items.map((i) => ({ ...i, box: [i.box[0] + ox, i.box[1] + oy, i.box[2], i.box[3]] })) });
        if (read.truncated) warnings.push(`frame ${f.id}: more than ${CONTENT_MAX} text items; the rest of its text is left out`);
      } catch (e) {
        if (f.id === 0) throw e;
        warnings.push(`frame ${f.id}: its text could not be read (${host.engine.describe(e)})`);
      }
    }));
  }
  return { model, nodes: toRagNodes(model, placed), warnings, regionIdOf: regionNumbering(snap.tree) };
}

/** A node's top-level region: the one the tree files it under, else (content the tree does not list) the one its box lies in. */
function regionNumbering(tree: RegionTree): (n: RagNode) => string | undefined {
  const top = (r: RegionNode): RegionNode => { let t = r; while (t.parent) t = t.parent; return t; };
  return (n) => {
    const filed = tree.regionOf.get(n.gid);
    if (filed) return top(filed).id;
    const [cx, cy] = [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2];
    return tree.regions.find((r) => cx >= r.box[0] && cx <= r.box[0] + r.box[2] && cy >= r.box[1] && cy <= r.box[1] + r.box[3])?.id;
  };
}

export interface FilterRequest {
  query: string;
  maxTokens?: number;
  maxNodes?: number;
  minRelevance?: number;
  /** Read the page's content (labelled values, cells, text) too. */
  content: boolean;
  reranker?: Reranker;
}

/** Reads the page and filters it for a query, handing out the IDs the payload shows. */
export async function filterPage(host: RagHost, req: FilterRequest): Promise<Filtered & { model: PageModel; nodes: RagNode[] }> {
  const [count, task] = await Promise.all([loadTokenizer(), readTaskNodes(host, { content: req.content })]);
  const { model, nodes, warnings } = task;
  const chunks = chunkDomNodes(nodes, task.regionIdOf);
  let relevance: Map<string, number> | undefined;
  if (req.reranker) {
    const query = toQuery(req.query);
    const corpus = indexChunks(chunks);
    const top = chunks.map((c) => ({ c, s: scoreChunkRelevance(c, query, corpus) })).sort((a, b) => b.s - a.s).slice(0, RERANK_TOP).map((x) => x.c);
    try {
      const scores = await req.reranker.rerank(req.query, top.map(rerankInput));
      if (scores.length !== top.length || scores.some((s) => typeof s !== 'number' || !Number.isFinite(s))) throw new Error(`answered ${scores.length} scores for ${top.length} chunks`);
      relevance = new Map(top.map((c, i) => [c.id, Math.min(1, Math.max(0, scores[i]))]));
      // Chunks it was not shown keep their lexical score, capped below what it ranked.
      for (const c of chunks) if (!relevance.has(c.id)) relevance.set(c.id, Math.min(scoreChunkRelevance(c, query, corpus), Math.min(...relevance.values())));
    } catch (e) {
      warnings.push(`the re-ranker failed (${host.engine.describe(e)}); chunks are ranked lexically`);
    }
  }
  const filtered = filterDom(nodes, {
    query: req.query,
    maxTokens: req.maxTokens ?? FILTER_DEFAULTS.maxTokens,
    ...(req.maxNodes !== undefined && { maxNodes: req.maxNodes }),
    ...(req.minRelevance !== undefined && { minRelevance: req.minRelevance }),
    countTokens: count,
    page: { url: model.url, title: model.title },
    warnings,
    ...(relevance && { relevance }),
  }, chunks);
  handOut(host, model, filtered.kept.map((k) => k.node));
  return { ...filtered, model, nodes };
}

/**
 * Binds the shown IDs to the documents that issued them. Content and headings are recorded as a
 * row's item is (text the element must still show), since they are no controls: an agent that
 * clicks "the price" must not be refused because a <span> has no role.
 */
export function handOut(host: RagHost, model: PageModel, shown: RagNode[]): void {
  const nodes: PageNode[] = shown.map((n) => {
    const control = n.kind === 'control';
    const text = control || n.kind === 'item' || n.kind === 'heading' || n.role === 'text' ? n.name : n.value ?? n.name;
    return { id: n.gid, gid: n.gid, frame: n.frame, role: control ? n.role : 'item', name: text, tag: '', states: n.states, box: n.box };
  });
  host.record({ ...model, nodes });
}

/** The `filtered` snapshot (lens.snapshot with a query). */
export async function filteredSnapshot(host: RagHost, opts: SnapshotOptions, extra: { reranker?: Reranker } = {}): Promise<FilteredResult> {
  if (opts.query === undefined) throw new PagelensError('BAD_INPUT', 'A filtered snapshot needs a query.');
  const filtered = await filterPage(host, { query: opts.query, ...(opts.maxTokens !== undefined && { maxTokens: opts.maxTokens }), content: true, ...(extra.reranker && { reranker: extra.reranker }) });
  return filtered.payload;
}
