// The hierarchical index (L0 page, L1 regions, L2 a region's elements, L3 one element) and the
// exploration toolkit (dom_overview, dom_diff, dom_search), written once above the Host port for
// every host. Each answer comes from the host's current snapshot; the page is asked only about
// what the answer shows (engine calls: the current state, options and selector hints of those
// elements, one element in depth). When a shown element is no longer what the snapshot says, the
// page is read again and the answer made from the new read. The lens (src/core/lens.ts) binds it
// to a host's snapshot store and ID ledger, the same way for both hosts.
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import type { EngineAnswer } from '../model/contracts/engine.js';
import type { HostEngine, HostFrame } from '../model/contracts/host.js';
import {
  DomOverviewParams, ExpandRegionOptions, ExploreOptions, RefreshOptions, SearchOptions,
  type DomDiff, type DomOverviewResponse, type ElementContext, type ExpandedRegion, type ExpandRegionOptionsInput,
  type ExploreOptionsInput, type PageOverview, type RefreshOptionsInput, type RegionsResult, type SearchOptionsInput, type SearchResult,
} from '../model/explore/explore.js';
import type { DescribedElement, PageLayout, SelectorHint } from '../model/contracts/engineAnswers.js';
import { diffSnapshots } from '../model/explore/diff.js';
import { sameName } from '../model/acting/ghost.js';
import { planOverview, renderOverview, type OverviewParams, type OverviewSource, type PlacedHidden, type PlacedText } from '../model/explore/overview.js';
import { regionAt, searchPage } from '../model/explore/search.js';
import { globalId, parseGlobalId, type PageModel } from '../model/pagemodel/page.js';
import type { RegionNode, RegionTree } from '../model/explore/regions.js';
import { pageOverview as overviewOf } from '../model/explore/pageOverview.js';
import { regionsResult } from '../model/explore/regionList.js';
import { expandRegion as expand } from '../model/explore/expandRegion.js';
import { elementContext as contextOf } from '../model/explore/elementContext.js';
import { parseInput } from '../model/contracts/validate.js';

/** What exploration reads of a snapshot (each host's snapshot has at least this). */
export interface ExploreSnapshot {
  /** 8 hex digits. */
  id: string;
  takenAt: number;
  model: PageModel;
  /** The main frame's geometry and blocks. */
  layout: PageLayout;
  tree: RegionTree;
  /** Selector hints found for elements of this snapshot, by ID (and for groups, by "group:" and their IDs). */
  hints: Map<string, SelectorHint[]>;
  /** Long paragraphs of every frame (read on first use). */
  paragraphs?: PlacedText[];
}

/** An ID an answer shows that is not one of the model's nodes (a heading, block or text), with the words it shows. */
export interface ShownId { gid: string; name?: string }

/** What exploration needs of a host: the engine side of the port, its snapshots and its ID ledger. */
export interface ExploreHost<S extends ExploreSnapshot = ExploreSnapshot> {
  engine: HostEngine;
  /** The latest snapshot when it may still answer (`reused`), else a new one. */
  current(opts: { refresh?: boolean }): Promise<{ snap: S; reused: boolean }>;
  /** A new snapshot, whatever the store holds. */
  fresh(): Promise<S>;
  /** A kept snapshot by its ID (dom_diff). */
  get(id: string): S | undefined;
  /** Marks a snapshot as out of date (an element it shows is not what it was). */
  invalidate(snap: S): void;
  /** The snapshot's IDs, and the extra ones an answer shows, are handed out (acting on them is then checked against what was shown). */
  handOut(snap: S, extra: ShownId[]): void;
}

// ---- shared ----

/** How a selector hint is written: `[frame f1] [shadow #host] button.pay`. */
export function hintText(h: SelectorHint): string {
  const frame = h.frame ? `[frame ${h.frame}] ` : '';
  const shadow = (h.shadow ?? []).map((s) => `[${s.closed ? 'closed ' : ''}shadow ${s.host}] `).join('');
  return frame + shadow + h.selector;
}

/** The frame with this ordinal as the host knows it now. */
async function frameOf(host: ExploreHost, ordinal: number): Promise<HostFrame | undefined> {
  return (await host.engine.frames()).find((f) => f.ordinal === ordinal);
}

/**
 * Runs `answer` on the current snapshot. When it finds the snapshot out of date (an element it
 * shows changed or went), the page is read again and the answer made once more from that read.
 */
async function fromSnapshot<S extends ExploreSnapshot, T>(host: ExploreHost<S>, refresh: boolean, answer: (snap: S, last: boolean, reused: boolean) => Promise<T | 'stale'>): Promise<T> {
  const { snap, reused } = await host.current({ refresh });
  let first: T | 'stale';
  try {
    first = await answer(snap, !reused, reused);
  } catch (e) {
    // A frame of an older snapshot went away or moved on: that snapshot is out of date, not the answer an error.
    if (!reused || !isPagelensError(e, 'FRAME_DETACHED', 'NAVIGATED', 'UNKNOWN_ID')) throw e;
    first = 'stale';
  }
  if (first !== 'stale') return first;
  host.invalidate(snap);
  const again = await answer(await host.fresh(), true, false);
  if (again === 'stale') throw new PagelensError('NAVIGATED', 'The page kept showing new documents while it was read; wait for it to settle and ask again.');
  return again;
}

interface Described {
  byGid: Map<string, DescribedElement>;
  groupHints: Map<string, SelectorHint[]>;
  /** A shown element is gone or not what the snapshot says. */
  stale: boolean;
}

/**
 * The page's word on the elements an answer shows, frame by frame, in the documents that issued
 * their IDs. Selector hints are asked for once per snapshot and element.
 */
async function describe(host: ExploreHost, snap: ExploreSnapshot, gids: string[], req: { hints?: string[]; options?: boolean; groups?: string[][] }): Promise<Described> {
  const out: Described = { byGid: new Map(), groupHints: new Map(), stale: false };
  const frames = new Map<number, { ids: string[]; hints: string[]; groups: string[][] }>();
  const slot = (f: number) => { let s = frames.get(f); if (!s) { s = { ids: [], hints: [], groups: [] }; frames.set(f, s); } return s; };
  const needHints = new Set((req.hints ?? []).filter((g) => !snap.hints.has(g)));
  for (const gid of new Set(gids)) {
    const p = parseGlobalId(gid);
    if (!p) continue;
    const s = slot(p.frame);
    s.ids.push(p.local);
    if (needHints.has(gid)) s.hints.push(p.local);
  }
  const groupKey = (g: string[]) => `group:${g.join(',')}`;
  for (const g of req.groups ?? []) {
    const cached = snap.hints.get(groupKey(g));
    if (cached) { out.groupHints.set(g[0], cached); continue; }
    const p = parseGlobalId(g[0]);
    if (p) slot(p.frame).groups.push(g.map((x) => parseGlobalId(x)!.local));
  }
  const known = frames.size ? await host.engine.frames() : [];
  await Promise.all([...frames].map(async ([ord, s]) => {
    const frame = known.find((f) => f.ordinal === ord);
    const doc = snap.model.docs[ord];
    if (!frame || frame.error || !doc) { out.stale = true; return; }
    const answer = await host.engine.engine(frame, 'describeElements', [doc, s.ids, { hints: s.hints, options: req.options ?? false, groups: s.groups }]);
    if (answer.doc !== doc) { out.stale = true; return; }
    for (const e of answer.elements) {
      const gid = globalId(ord, e.id);
      if (e.hints) snap.hints.set(gid, e.hints);
      out.byGid.set(gid, { ...e, ...(snap.hints.has(gid) && { hints: snap.hints.get(gid) }) });
    }
    s.groups.forEach((g, i) => {
      const gids = g.map((x) => globalId(ord, x));
      out.groupHints.set(gids[0], answer.groups[i] ?? []);
      snap.hints.set(groupKey(gids), answer.groups[i] ?? []);
    });
  }));
  out.stale ||= changedSince(snap.model, out.byGid);
  return out;
}

/** Whether an element shown from the snapshot is gone or shows another role, name, value or state now. */
function changedSince(model: PageModel, live: Map<string, DescribedElement>): boolean {
  const nodes = new Map(model.nodes.map((n) => [n.gid, n]));
  for (const [gid, d] of live) {
    if (!d.found) return true;
    const n = nodes.get(gid);
    if (!n || n.role === 'item') continue;
    if (!n.scr && (d.role !== n.role || !sameName(d.name ?? '', n.name))) return true;
    if ((d.value ?? '') !== (n.value ?? '')) return true;
    const was = n.states.filter((s) => s !== 'focused');
    if ((d.states ?? []).join() !== was.join()) return true;
  }
  return false;
}

// ---- L0, L1, L2 ----

export async function pageOverview(host: ExploreHost, options: RefreshOptionsInput = {}): Promise<PageOverview> {
  const opts = parseInput(RefreshOptions, options, 'pageOverview options');
  const { snap } = await host.current(opts);
  return overviewOf(snap.model, { snapshotId: snap.id, status: snap.layout.readyState, regions: snap.tree.regions.length });
}

export async function regions(host: ExploreHost, options: RefreshOptionsInput = {}): Promise<RegionsResult> {
  const opts = parseInput(RefreshOptions, options, 'regions options');
  const { snap } = await host.current(opts);
  host.handOut(snap, [...snap.tree.byId.values()].filter((r) => r.ref).map((r) => ({ gid: r.ref! })));
  return regionsResult(snap.model, snap.tree, snap.id);
}

function findRegion(snap: ExploreSnapshot, id: string): RegionNode {
  const wanted = id.trim().replace(/^r/, 'R');
  const r = snap.tree.byId.get(wanted) ?? [...snap.tree.byId.values()].find((x) => x.id.toLowerCase() === wanted.toLowerCase());
  if (r) return r;
  const known = snap.tree.regions.map((x) => x.id).join(', ') || 'none';
  throw new PagelensError('BAD_INPUT', `${JSON.stringify(id)} is not a region of the page (regions: ${known}; subsections are named like "R2.Filters" in regions()).`);
}

export async function expandRegion(host: ExploreHost, region: string, options: ExpandRegionOptionsInput = {}): Promise<ExpandedRegion> {
  if (typeof region !== 'string' || !region.trim()) throw new PagelensError('BAD_INPUT', 'expandRegion(region): expected a region ID such as "R2" or "R2.Filters".');
  const opts = parseInput(ExpandRegionOptions, options, 'expandRegion options');
  return fromSnapshot(host, opts.refresh, async (snap, last) => {
    const r = findRegion(snap, region);
    const draft = expand(snap.model, r, new Map(), snap.id, opts);
    const shown = draft.elements.flatMap((e) => ('refs' in e ? [] : [e.ref]));
    const live = await describe(host, snap, shown, { options: true });
    if (live.stale && !last) return 'stale';
    const result = expand(snap.model, r, live.byGid, snap.id, opts);
    host.handOut(snap, []);
    return result;
  });
}

// ---- L3 ----

const REF = /^(?:@ref:|\[)?((?:f\d+_)?\d+)\]?$/;
const PREFIX = /^\[(frame f(\d+)|(closed )?shadow ([^\]]+))\]\s*/;

/** `[frame f1] [shadow #host] button.pay` → the frame, the shadow hosts and the selector. */
function parseTarget(target: string): { gid: string } | { frame: number; hosts: string[]; selector: string } {
  const t = target.trim();
  const ref = REF.exec(t);
  if (ref) return { gid: ref[1] };
  let rest = t;
  let frame = 0;
  const hosts: string[] = [];
  for (let m = PREFIX.exec(rest); m; m = PREFIX.exec(rest)) {
    if (m[2]) frame = Number(m[2]);
    else hosts.push(m[4].trim());
    rest = rest.slice(m[0].length);
  }
  if (!rest) throw new PagelensError('BAD_INPUT', `${JSON.stringify(target)}: expected an element ID ("12", "f1_12", "@ref:12") or a CSS selector.`);
  return { frame, hosts, selector: rest };
}

async function targetId(host: ExploreHost, target: string): Promise<{ gid: string; doc?: string }> {
  const parsed = parseTarget(target);
  if ('gid' in parsed) return { gid: parsed.gid };
  const frame = await frameOf(host, parsed.frame);
  if (!frame || frame.error) throw new PagelensError('BAD_INPUT', `There is no readable frame f${parsed.frame} on the page${frame?.error ? ` (${frame.error})` : ''}.`);
  const m = await host.engine.engine(frame, 'findSelector', [parsed.selector, parsed.hosts]);
  if (!m.ok) throw new PagelensError('BAD_INPUT', `${m.reason}.`);
  if (m.count === 0) throw new PagelensError('UNKNOWN_ID', `No element matches ${JSON.stringify(target)}.`);
  if (m.count > 1) {
    const ids = m.ids.map((id) => globalId(parsed.frame, id)).join(', ');
    throw new PagelensError('AMBIGUOUS', `${JSON.stringify(target)} matches ${m.count} elements (${ids}, …): give an ID or a selector that matches one.`);
  }
  return { gid: globalId(parsed.frame, m.ids[0]), doc: m.doc };
}

export async function elementContext(host: ExploreHost, target: string, options: RefreshOptionsInput = {}): Promise<ElementContext> {
  if (typeof target !== 'string' || !target.trim()) throw new PagelensError('BAD_INPUT', 'elementContext(target): expected an element ID ("12", "f1_12") or a CSS selector.');
  const opts = parseInput(RefreshOptions, options, 'elementContext options');
  const { snap } = await host.current(opts);
  const { gid, doc } = await targetId(host, target);
  const el = await host.engine.resolve(gid, doc ? { doc } : {});
  try {
    const raw = await host.engine.element(el, 'elementContext', []);
    const ordinal = el.frame.ordinal;
    let place = { offset: [0, 0] as [number, number], clip: [0, 0, snap.model.viewport.width, snap.model.viewport.height] as [number, number, number, number] | null, framePath: [] as string[] };
    if (ordinal !== 0) place = await framePlace(host, ordinal);
    const region = snap.tree.regionOf.get(gid)?.id ?? regionOfChain(snap, ordinal, raw.chain.map((c) => c.id))
      ?? (raw.box ? regionAt(snap.tree, [raw.box[0] + place.offset[0], raw.box[1] + place.offset[1], raw.box[2], raw.box[3]])?.id : undefined);
    const frameUrl = ordinal ? (await frameOf(host, ordinal))?.url || el.frame.url : undefined;
    const out = contextOf(snap.model, raw, {
      snapshotId: snap.id, ref: gid, frame: ordinal, ...(frameUrl && { frameUrl }),
      framePath: place.framePath, offset: place.offset, clip: place.clip, viewport: snap.model.viewport, ...(region && { region }),
    }, hintText);
    host.handOut(snap, [...out.parents.map((p) => ({ gid: p.ref })), { gid, name: raw.role === 'heading' ? raw.name : '' }]);
    return out;
  } finally {
    await host.engine.release(el).catch(() => {});
  }
}

/** Where a frame lies in the top-level viewport, and the XPath of each iframe on the way down. */
async function framePlace(host: ExploreHost, ordinal: number): Promise<{ offset: [number, number]; clip: [number, number, number, number] | null; framePath: string[] }> {
  return host.engine.layout(async (frames) => {
    const f = frames.find((x) => x.ordinal === ordinal);
    if (!f || f.error) throw new PagelensError('FRAME_DETACHED', `The element's frame is no longer on the page${f?.error ? ` (${f.error})` : ''}. Take a new snapshot.`);
    const framePath: string[] = [];
    for (let c: HostFrame | undefined = f; c && c.parent !== undefined; c = frames.find((x) => x.ordinal === c!.parent)) {
      framePath.unshift(await host.engine.owner(c, 'xpathOf'));
    }
    return { offset: f.offset, clip: f.clip ?? null, framePath };
  });
}

/** The innermost region or subsection that one of an element's enclosing structures stands for. */
function regionOfChain(snap: ExploreSnapshot, frame: number, chain: string[]): string | undefined {
  const byRef = new Map<string, RegionNode>();
  for (const r of snap.tree.byId.values()) if (r.ref) byRef.set(r.ref, r);
  for (let i = chain.length - 1; i >= 0; i--) {
    const r = byRef.get(globalId(frame, chain[i]));
    if (r) return r.id;
  }
  return undefined;
}

// ---- dom_overview ----

/** The seed's parameters, resolved: filters absent (or all null) mean every section. */
function overviewParams(value: unknown, group: boolean): OverviewParams {
  const p = parseInput(DomOverviewParams, value ?? {}, 'dom_overview parameters');
  if (p.tabName !== undefined && p.tabName !== null) {
    throw new PagelensError('BAD_INPUT', `dom_overview: tabName ${JSON.stringify(p.tabName)} cannot be honoured here: a lens reads the one page it is attached to. A face that holds several tabs picks the tab by tabName and passes the other parameters on.`);
  }
  const f = p.filters;
  const given = !!f && [f.outline, f.interactives, f.headings].some((x) => x !== undefined && x !== null);
  const sections = given ? { outline: !!f!.outline, interactives: !!f!.interactives, headings: !!f!.headings } : { outline: true, interactives: true, headings: true };
  if (!sections.outline && !sections.interactives && !sections.headings) {
    throw new PagelensError('BAD_INPUT', 'dom_overview: filters turn every section off; set at least one of outline, interactives, headings to true (or leave filters out for all three).');
  }
  return { ...sections, visible: p.visible ?? true, viewport: p.viewport ?? true, maxRows: p.max_rows ?? 30, group };
}

export async function domOverview(host: ExploreHost, params: unknown = {}, options: ExploreOptionsInput = {}): Promise<DomOverviewResponse> {
  const opts = parseInput(ExploreOptions, options, 'overview options');
  const p = overviewParams(params, opts.group);
  return fromSnapshot(host, opts.refresh, async (snap, last, reused) => {
    const warnings = [...snap.model.warnings];
    const src: OverviewSource = { model: snap.model, tree: snap.tree, layout: snap.layout, paragraphs: [] };
    if (p.headings) {
      const paragraphs = await paragraphsOf(host, snap);
      if (paragraphs === 'stale') return 'stale';
      src.paragraphs = paragraphs;
    }
    if (!p.visible) {
      const hidden = await hiddenOf(host, snap, p.maxRows);
      if (hidden === 'stale') return 'stale';
      src.hidden = hidden;
    }
    const plan = planOverview(src, p);
    const singles = plan.interactives?.rows.flatMap((r) => (r.kind === 'one' ? [r.node.gid] : r.kind === 'hidden' ? [r.control.gid] : [])) ?? [];
    const live = await describe(host, snap, plan.describe, { hints: singles, options: true, groups: plan.groups });
    if (live.stale && !last) return 'stale';
    if (live.stale) warnings.push('the page changed while it was read; what is shown is as it was read');
    const lengths = new Map(src.paragraphs.map((x) => [x.gid, x.length]));
    const response = renderOverview(src, plan, {
      snapshotId: snap.id, ageMs: Date.now() - snap.takenAt, reused, described: live.byGid, groupHints: live.groupHints, hintText, lengths, warnings,
    });
    host.handOut(snap, [
      ...(plan.outline?.rows ?? []).map((r) => ({ gid: r.ref })),
      ...(plan.headings?.rows ?? []).map((r) => ({ gid: r.ref, name: r.tag.startsWith('h') ? r.text : '' })),
      ...(src.hidden?.controls ?? []).map((c) => ({ gid: c.gid })),
      ...(snap.layout.body ? [{ gid: snap.layout.body.id }] : []),
    ]);
    return response;
  });
}

/** Text blocks of one engine answer, in top-level coordinates. */
function placeBlocks(found: Array<[number, [number, number], EngineAnswer<'textBlocks'>]>): PlacedText[] {
  return found.flatMap(([ord, offset, a]) => a.blocks.map((b) => ({ ...b, gid: globalId(ord, b.id), frame: ord, box: [b.box[0] + offset[0], b.box[1] + offset[1], b.box[2], b.box[3]] as [number, number, number, number] })));
}

/** Long paragraphs of every frame that was read, in top-level coordinates (read once per snapshot). */
async function paragraphsOf(host: ExploreHost, snap: ExploreSnapshot): Promise<PlacedText[] | 'stale'> {
  if (snap.paragraphs) return snap.paragraphs;
  const found = await perFrame(host, snap, (frame) => host.engine.engine(frame, 'textBlocks', [{ minLength: 50, limit: 300 }]));
  if (found === 'stale') return 'stale';
  snap.paragraphs = placeBlocks(found);
  return snap.paragraphs;
}

async function hiddenOf(host: ExploreHost, snap: ExploreSnapshot, limit: number): Promise<{ total: number; controls: PlacedHidden[] } | 'stale'> {
  const found = await perFrame(host, snap, (frame) => host.engine.engine(frame, 'hiddenControls', [limit]));
  if (found === 'stale') return 'stale';
  return {
    total: found.reduce((k, [, , a]) => k + a.total, 0),
    controls: found.flatMap(([ord, , a]) => a.controls.map((c) => ({ ...c, gid: globalId(ord, c.id), frame: ord }))),
  };
}

/**
 * One call in every frame the snapshot read, with the frame's offset in the top-level viewport;
 * 'stale' when a frame is gone or shows another document now. Child frames are laid out afresh
 * (their boxes are read now; a host's frame list need not carry offsets); the main frame's is (0,0).
 */
async function perFrame<A extends { doc: string }>(host: ExploreHost, snap: ExploreSnapshot, call: (frame: HostFrame) => Promise<A>): Promise<Array<[number, [number, number], A]> | 'stale'> {
  const ordinals = Object.keys(snap.model.docs).map(Number);
  const run = async (known: HostFrame[]) => {
    const out: Array<[number, [number, number], A]> = [];
    let stale = false;
    await Promise.all(ordinals.map(async (ord) => {
      const frame = known.find((f) => f.ordinal === ord);
      if (!frame || frame.error) { stale = true; return; }
      const answer = await call(frame);
      if (answer.doc !== snap.model.docs[ord]) { stale = true; return; }
      out.push([ord, ord === 0 ? [0, 0] : frame.offset, answer]);
    }));
    return stale ? 'stale' as const : out.sort((a, b) => a[0] - b[0]);
  };
  return ordinals.some((o) => o !== 0) ? host.engine.layout(run) : run(await host.engine.frames());
}

// ---- dom_diff, dom_search ----

export async function domDiff(host: ExploreHost, snapshotA: string, snapshotB: string): Promise<DomDiff> {
  const get = (id: string, which: string) => {
    if (typeof id !== 'string') throw new PagelensError('BAD_INPUT', `diff(${which}): expected a snapshotId from overview(), regions(), …`);
    const s = host.get(id.trim());
    if (!s) throw new PagelensError('BAD_INPUT', `diff: no snapshot ${JSON.stringify(id)} (unknown, or no longer kept: the 8 latest snapshots are kept for 10 minutes).`);
    return s;
  };
  const a = get(snapshotA, 'snapshotA');
  const b = get(snapshotB, 'snapshotB');
  const out = diffSnapshots({ id: a.id, takenAt: a.takenAt, model: a.model, scroll: a.layout.scroll }, { id: b.id, takenAt: b.takenAt, model: b.model, scroll: b.layout.scroll });
  if (!out.navigated) host.handOut(b, b.model.headings.map((h) => ({ gid: h.gid, name: h.text })));
  return out;
}

export async function domSearch(host: ExploreHost, query: string, options: SearchOptionsInput = {}): Promise<SearchResult> {
  if (typeof query !== 'string' || !query.trim()) throw new PagelensError('BAD_INPUT', 'search(query): expected text to look for, e.g. "export", role:button, [name=q], "exact words".');
  const opts = parseInput(SearchOptions, options, 'search options');
  return fromSnapshot(host, opts.refresh, async (snap) => {
    const words = query.replace(/(role|tag):\S+|\[[^\]]*\]/gi, ' ').replace(/^text:|\s+text:/g, ' ').replace(/["]/g, '').trim();
    let blocks: PlacedText[] = [];
    if (words) {
      const found = await perFrame(host, snap, (frame) => host.engine.engine(frame, 'textBlocks', [{ query: words, minLength: 0, limit: 30 }]));
      if (found === 'stale') return 'stale';
      blocks = placeBlocks(found);
    }
    const result = searchPage({ model: snap.model, tree: snap.tree, blocks }, query, snap.id, opts.limit);
    host.handOut(snap, [...result.textBlocks.map((t) => ({ gid: t.ref })), ...snap.model.headings.map((h) => ({ gid: h.gid, name: h.text }))]);
    return result;
  });
}
