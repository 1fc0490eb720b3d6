// The hierarchical index (L0 page, L1 regions, L2 a region's elements, L3 one element) and the
// exploration toolkit (dom_overview, dom_diff, dom_search). Each answer comes from the cached
// snapshot (snapshots.ts); the page is asked only about what the answer shows: the current state,
// options and selector hints of those elements, one element in depth. When a shown element is no
// longer what the snapshot says, the page is read again and the answer made from the new read.
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import {
  DomOverviewParams, ExpandRegionOptions, ExploreOptions, RefreshOptions, SearchOptions,
  type DescribedElement, type DomDiff, type DomOverviewResponse, type ElementContext, type ExpandedRegion, type ExpandRegionOptionsInput,
  type ExploreOptionsInput, type PageOverview, type RefreshOptionsInput, type RegionsResult, type SearchOptionsInput, type SearchResult, type SelectorHint,
} from '../model/explore/explore.js';
import { diffSnapshots } from '../model/renderers/diff.js';
import { sameName } from '../model/acting/ghost.js';
import { planOverview, renderOverview, type OverviewParams, type OverviewSource, type PlacedHidden, type PlacedText } from '../model/explore/overview.js';
import { regionAt, searchPage } from '../model/explore/search.js';
import { globalId, parseGlobalId, type PageModel } from '../model/pagemodel/page.js';
import type { RegionNode } from '../model/explore/regions.js';
import { pageOverview as overviewOf } from '../model/explore/pageOverview.js';
import { regionsResult } from '../model/explore/regionList.js';
import { expandRegion as expand } from '../model/explore/expandRegion.js';
import { elementContext as contextOf } from '../model/explore/elementContext.js';
import { parseInput } from '../model/contracts/validate.js';
import type { LensCore } from './core.js';
import { elementCall, engineCall, ownerCall } from './engine.js';
import { LAYOUT_GROUP } from './frames.js';
import { currentSnapshot, newSnapshot, type Snapshot } from './snapshots.js';

const GROUP = 'pagelens-explore';

// ---- shared ----

/** How a selector hint is written: `[frame f1] [shadow #host] button.pay`. */
export function hintText(h: SelectorHint): string {
  const frame = h.frame ? `[frame ${h.frame}] ` : '';
  const shadow = (h.shadow ?? []).map((s) => `[${s.closed ? 'closed ' : ''}shadow ${s.host}] `).join('');
  return frame + shadow + h.selector;
}

/**
 * Runs `answer` on the current snapshot. When it finds the snapshot out of date (an element it
 * shows changed or went), the page is read again and the answer made once more from that read.
 */
async function fromSnapshot<T>(core: LensCore, refresh: boolean, answer: (snap: Snapshot, last: boolean, reused: boolean) => Promise<T | 'stale'>): Promise<T> {
  const { snap, reused } = await currentSnapshot(core, { refresh });
  let first: T | 'stale';
  try {
    first = await answer(snap, !reused, reused);
  } catch (e) {
    // A frame of an older snapshot went away or moved on: that snapshot is out of date, not the answer an error.
    if (!reused || !isPagelensError(e, 'FRAME_DETACHED', 'NAVIGATED', 'UNKNOWN_ID')) throw e;
    first = 'stale';
  }
  if (first !== 'stale') return first;
  core.snapshots.invalidate(snap);
  const again = await answer(await newSnapshot(core), true, false);
  if (again === 'stale') throw new PagelensError('NAVIGATED', 'The page kept showing new documents while it was read; wait for it to settle and ask again.');
  return again;
}

/** IDs an answer shows that are not among the model's nodes (headings, landmarks, blocks, text) are handed out too. */
function handOut(core: LensCore, snap: Snapshot, extra: Array<{ gid: string; name?: string }> = []): void {
  core.ids.handOut(snap.model);
  for (const e of extra) {
    const p = parseGlobalId(e.gid);
    const doc = p && snap.model.docs[p.frame];
    // Recorded as an item: acting on it later checks that it still shows these words.
    if (p && doc && !core.ids.sighting(e.gid)) core.ids.note(e.gid, { doc, frame: p.frame, role: 'item', name: e.name ?? '', centre: [0, 0] });
  }
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
async function describe(core: LensCore, snap: Snapshot, gids: string[], req: { hints?: string[]; options?: boolean; groups?: string[][] }): Promise<Described> {
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
  await Promise.all([...frames].map(async ([ord, s]) => {
    const frame = core.frames.lastByOrdinal(ord);
    const doc = snap.model.docs[ord];
    if (!frame || frame.error || !doc) { out.stale = true; return; }
    const answer = await engineCall(frame, 'describeElements', [doc, s.ids, { hints: s.hints, options: req.options ?? false, groups: s.groups }]);
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

export async function pageOverview(core: LensCore, options: RefreshOptionsInput = {}): Promise<PageOverview> {
  const opts = parseInput(RefreshOptions, options, 'pageOverview options');
  const { snap } = await currentSnapshot(core, opts);
  return overviewOf(snap.model, { snapshotId: snap.id, status: snap.layout.readyState, regions: snap.tree.regions.length });
}

export async function regions(core: LensCore, options: RefreshOptionsInput = {}): Promise<RegionsResult> {
  const opts = parseInput(RefreshOptions, options, 'regions options');
  const { snap } = await currentSnapshot(core, opts);
  handOut(core, snap, [...snap.tree.byId.values()].filter((r) => r.ref).map((r) => ({ gid: r.ref! })));
  return regionsResult(snap.model, snap.tree, snap.id);
}

function findRegion(snap: Snapshot, id: string): RegionNode {
  const wanted = id.trim().replace(/^r/, 'R');
  const r = snap.tree.byId.get(wanted) ?? [...snap.tree.byId.values()].find((x) => x.id.toLowerCase() === wanted.toLowerCase());
  if (r) return r;
  const known = snap.tree.regions.map((x) => x.id).join(', ') || 'none';
  throw new PagelensError('BAD_INPUT', `${JSON.stringify(id)} is not a region of the page (regions: ${known}; subsections are named like "R2.Filters" in regions()).`);
}

export async function expandRegion(core: LensCore, region: string, options: ExpandRegionOptionsInput = {}): Promise<ExpandedRegion> {
  if (typeof region !== 'string' || !region.trim()) throw new PagelensError('BAD_INPUT', 'expandRegion(region): expected a region ID such as "R2" or "R2.Filters".');
  const opts = parseInput(ExpandRegionOptions, options, 'expandRegion options');
  return fromSnapshot(core, opts.refresh, async (snap, last) => {
    const r = findRegion(snap, region);
    const draft = expand(snap.model, r, new Map(), snap.id, opts);
    const shown = draft.elements.flatMap((e) => ('refs' in e ? [] : [e.ref]));
    const live = await describe(core, snap, shown, { options: true });
    if (live.stale && !last) return 'stale';
    const result = expand(snap.model, r, live.byGid, snap.id, opts);
    handOut(core, snap);
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

async function targetId(core: LensCore, target: string): Promise<{ gid: string; doc?: string }> {
  const parsed = parseTarget(target);
  if ('gid' in parsed) return { gid: parsed.gid };
  const frame = core.frames.lastByOrdinal(parsed.frame) ?? (parsed.frame === 0 ? (await core.frames.known())[0] : undefined);
  if (!frame || frame.error) throw new PagelensError('BAD_INPUT', `There is no readable frame f${parsed.frame} on the page${frame?.error ? ` (${frame.error})` : ''}.`);
  const m = await engineCall(frame, 'findSelector', [parsed.selector, parsed.hosts]);
  if (!m.ok) throw new PagelensError('BAD_INPUT', `${m.reason}.`);
  if (m.count === 0) throw new PagelensError('UNKNOWN_ID', `No element matches ${JSON.stringify(target)}.`);
  if (m.count > 1) {
    const ids = m.ids.map((id) => globalId(parsed.frame, id)).join(', ');
    throw new PagelensError('AMBIGUOUS', `${JSON.stringify(target)} matches ${m.count} elements (${ids}, …): give an ID or a selector that matches one.`);
  }
  return { gid: globalId(parsed.frame, m.ids[0]), doc: m.doc };
}

export async function elementContext(core: LensCore, target: string, options: RefreshOptionsInput = {}): Promise<ElementContext> {
  if (typeof target !== 'string' || !target.trim()) throw new PagelensError('BAD_INPUT', 'elementContext(target): expected an element ID ("12", "f1_12") or a CSS selector.');
  const opts = parseInput(RefreshOptions, options, 'elementContext options');
  const { snap } = await currentSnapshot(core, opts);
  const { gid, doc } = await targetId(core, target);
  const el = await core.resolve(gid, GROUP, doc ? { doc } : {});
  try {
    const raw = await elementCall(el, 'elementContext', [], GROUP);
    const frame = el.frame;
    let place = { offset: [0, 0] as [number, number], clip: [0, 0, snap.model.viewport.width, snap.model.viewport.height] as [number, number, number, number] | null, framePath: [] as string[] };
    if (frame.ordinal !== 0) place = await framePlace(core, frame.frameId);
    const region = snap.tree.regionOf.get(gid)?.id ?? regionOfChain(snap, frame.ordinal, raw.chain.map((c) => c.id))
      ?? (raw.box ? regionAt(snap.tree, [raw.box[0] + place.offset[0], raw.box[1] + place.offset[1], raw.box[2], raw.box[3]])?.id : undefined);
    const out = contextOf(snap.model, raw, {
      snapshotId: snap.id, ref: gid, frame: frame.ordinal, ...(frame.ordinal && { frameUrl: frame.url }),
      framePath: place.framePath, offset: place.offset, clip: place.clip, viewport: snap.model.viewport, ...(region && { region }),
    }, hintText);
    handOut(core, snap, [...out.parents.map((p) => ({ gid: p.ref })), { gid, name: raw.role === 'heading' ? raw.name : '' }]);
    return out;
  } finally {
    await el.frame.target.release(GROUP).catch(() => {});
  }
}

/** Where a frame lies in the top-level viewport, and the XPath of each iframe on the way down. */
async function framePlace(core: LensCore, frameId: string): Promise<{ offset: [number, number]; clip: [number, number, number, number] | null; framePath: string[] }> {
  return core.frames.withLayout(async ({ frames }) => {
    const f = frames.find((x) => x.frameId === frameId);
    if (!f || f.error) throw new PagelensError('FRAME_DETACHED', `The element's frame is no longer on the page${f?.error ? ` (${f.error})` : ''}. Take a new snapshot.`);
    const framePath: string[] = [];
    for (let c = f; c.parent && c.ownerObjectId; c = c.parent) framePath.unshift(await ownerCall(c.parent, c.ownerObjectId, 'xpathOf', [], LAYOUT_GROUP));
    return { offset: f.offset, clip: f.clip, framePath };
  });
}

/** The innermost region or subsection that one of an element's enclosing structures stands for. */
function regionOfChain(snap: Snapshot, frame: number, chain: string[]): string | undefined {
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

export async function domOverview(core: LensCore, params: unknown = {}, options: ExploreOptionsInput = {}): Promise<DomOverviewResponse> {
  const opts = parseInput(ExploreOptions, options, 'overview options');
  const p = overviewParams(params, opts.group);
  return fromSnapshot(core, opts.refresh, async (snap, last, reused) => {
    const warnings = [...snap.model.warnings];
    const src: OverviewSource = { model: snap.model, tree: snap.tree, layout: snap.layout, paragraphs: [] };
    if (p.headings) {
      const paragraphs = await paragraphsOf(core, snap);
      if (paragraphs === 'stale') return 'stale';
      src.paragraphs = paragraphs;
    }
    if (!p.visible) {
      const hidden = await hiddenOf(core, snap, p.maxRows);
      if (hidden === 'stale') return 'stale';
      src.hidden = hidden;
    }
    const plan = planOverview(src, p);
    const singles = plan.interactives?.rows.flatMap((r) => (r.kind === 'one' ? [r.node.gid] : r.kind === 'hidden' ? [r.control.gid] : [])) ?? [];
    const live = await describe(core, snap, plan.describe, { hints: singles, options: true, groups: plan.groups });
    if (live.stale && !last) return 'stale';
    if (live.stale) warnings.push('the page changed while it was read; what is shown is as it was read');
    const lengths = new Map(src.paragraphs.map((x) => [x.gid, x.length]));
    const response = renderOverview(src, plan, {
      snapshotId: snap.id, ageMs: Date.now() - snap.takenAt, reused, described: live.byGid, groupHints: live.groupHints, hintText, lengths, warnings,
    });
    handOut(core, snap, [
      ...(plan.outline?.rows ?? []).map((r) => ({ gid: r.ref })),
      ...(plan.headings?.rows ?? []).map((r) => ({ gid: r.ref, name: r.tag.startsWith('h') ? r.text : '' })),
      ...(src.hidden?.controls ?? []).map((c) => ({ gid: c.gid })),
      ...(snap.layout.body ? [{ gid: snap.layout.body.id }] : []),
    ]);
    return response;
  });
}

/** Long paragraphs of every frame that was read, in top-level coordinates (read once per snapshot). */
async function paragraphsOf(core: LensCore, snap: Snapshot): Promise<PlacedText[] | 'stale'> {
  if (snap.paragraphs) return snap.paragraphs;
  const found = await perFrame(core, snap, (frame) => engineCall(frame, 'textBlocks', [{ minLength: 50, limit: 300 }]));
  if (found === 'stale') return 'stale';
  snap.paragraphs = found.flatMap(([ord, offset, a]) => a.blocks.map((b) => ({ ...b, gid: globalId(ord, b.id), frame: ord, box: [b.box[0] + offset[0], b.box[1] + offset[1], b.box[2], b.box[3]] as [number, number, number, number] })));
  return snap.paragraphs;
}

async function hiddenOf(core: LensCore, snap: Snapshot, limit: number): Promise<{ total: number; controls: PlacedHidden[] } | 'stale'> {
  const found = await perFrame(core, snap, (frame) => engineCall(frame, 'hiddenControls', [limit]));
  if (found === 'stale') return 'stale';
  return {
    total: found.reduce((k, [, , a]) => k + a.total, 0),
    controls: found.flatMap(([ord, , a]) => a.controls.map((c) => ({ ...c, gid: globalId(ord, c.id), frame: ord }))),
  };
}

/** One call in every frame the snapshot read; 'stale' when a frame shows another document now. */
async function perFrame<A extends { doc: string }>(core: LensCore, snap: Snapshot, call: (frame: NonNullable<ReturnType<LensCore['frames']['lastByOrdinal']>>) => Promise<A>): Promise<Array<[number, [number, number], A]> | 'stale'> {
  const out: Array<[number, [number, number], A]> = [];
  let stale = false;
  await Promise.all(Object.entries(snap.model.docs).map(async ([key, doc]) => {
    const ord = Number(key);
    const frame = core.frames.lastByOrdinal(ord);
    if (!frame || frame.error) { stale = true; return; }
    const answer = await call(frame);
    if (answer.doc !== doc) { stale = true; return; }
    out.push([ord, frame.offset, answer]);
  }));
  return stale ? 'stale' : out.sort((a, b) => a[0] - b[0]);
}

// ---- dom_diff, dom_search ----

export async function domDiff(core: LensCore, snapshotA: string, snapshotB: string): Promise<DomDiff> {
  const get = (id: string, which: string) => {
    if (typeof id !== 'string') throw new PagelensError('BAD_INPUT', `diff(${which}): expected a snapshotId from overview(), regions(), …`);
    const s = core.snapshots.get(id.trim());
    if (!s) throw new PagelensError('BAD_INPUT', `diff: no snapshot ${JSON.stringify(id)} (unknown, or no longer kept: the 8 latest snapshots are kept for 10 minutes).`);
    return s;
  };
  const a = get(snapshotA, 'snapshotA');
  const b = get(snapshotB, 'snapshotB');
  const out = diffSnapshots({ id: a.id, takenAt: a.takenAt, model: a.model, scroll: a.layout.scroll }, { id: b.id, takenAt: b.takenAt, model: b.model, scroll: b.layout.scroll });
  if (!out.navigated) handOut(core, b, b.model.headings.map((h) => ({ gid: h.gid, name: h.text })));
  return out;
}

export async function domSearch(core: LensCore, query: string, options: SearchOptionsInput = {}): Promise<SearchResult> {
  if (typeof query !== 'string' || !query.trim()) throw new PagelensError('BAD_INPUT', 'search(query): expected text to look for, e.g. "export", role:button, [name=q], "exact words".');
  const opts = parseInput(SearchOptions, options, 'search options');
  return fromSnapshot(core, opts.refresh, async (snap) => {
    const words = query.replace(/(role|tag):\S+|\[[^\]]*\]/gi, ' ').replace(/^text:|\s+text:/g, ' ').replace(/["]/g, '').trim();
    let blocks: PlacedText[] = [];
    if (words) {
      const found = await perFrame(core, snap, (frame) => engineCall(frame, 'textBlocks', [{ query: words, minLength: 0, limit: 30 }]));
      if (found === 'stale') return 'stale';
      blocks = found.flatMap(([ord, offset, a]) => a.blocks.map((b) => ({ ...b, gid: globalId(ord, b.id), frame: ord, box: [b.box[0] + offset[0], b.box[1] + offset[1], b.box[2], b.box[3]] as [number, number, number, number] })));
    }
    const result = searchPage({ model: snap.model, tree: snap.tree, blocks }, query, snap.id, opts.limit);
    handOut(core, snap, [...result.textBlocks.map((t) => ({ gid: t.ref })), ...snap.model.headings.map((h) => ({ gid: h.gid, name: h.text }))]);
    return result;
  });
}

