// One frame's snapshot: the walk over the visible interactive elements (tagged, named, boxed),
// the structure around them and the scroll state, reusing what the last read saw unchanged.
import type { Box, EngineSnapshotOptions, FrameSnapshot, HeadingNode, RawNode, ScrollInfo, StructNode } from '../../model/contracts/schema.js';
import { INTERACTIVE_ROLES } from '../../model/pagemodel/roles.js';
import { DOC } from '../identity/document.js';
import { isInteractiveByMarkup } from '../semantics/interactive.js';
import { nameInRow, RowFinder, type Row, type RowMemory } from '../structure/rows.js';
import { headingLevel, structName, structureOf, tableRows } from '../structure/structure.js';
import { clean, describeNameSince, forgetName, markNameSources } from '../semantics/names.js';
import { beginRead, type Freshness } from '../changes/changes.js';
import { roleOf } from '../semantics/roles.js';
import { composedParent, deepActiveElement, shadowRootOf } from '../identity/shadow.js';
import { isSecretField, statesOf, valueOf } from '../semantics/state.js';
import { flushStamps, inspect, lookup, readCoveredAll, stamp, type Inspection } from '../identity/tagger.js';
import { clipBox, intersectsViewport, isOccluded, visibleBox } from './visibility.js';
import { checkGeometry, heldSize, replayable, sameBox, VisitList, type FixedFacts, type LiveWalk, type Visit } from './liveWalk.js';
import { walkElements, type WalkContext } from './walker.js';
import { Census, Contexts, overlaps, retakeCensus, type ClipCounts } from './census.js';
import { currentMembers, geometryChangedSince, watchTarget } from './viewportMembers.js';
import { onlyWraps } from '../semantics/wrapped.js';
import { sceneQuiet } from './stillScene.js';
import { releaseStyle } from './styleOf.js';
import { answerHolds, editedRegions, regionsHold, type Region } from '../changes/editedRegions.js';
import { takeWarnings } from './warnings.js';

/** One pass over the frame: tags what is new and describes every visible interactive element. */
export function snapshot(opts: EngineSnapshotOptions): FrameSnapshot {
  const t0 = performance.now();
  takeWarnings(); // only this read's
  const doc = document;
  const width = window.innerWidth;
  const height = window.innerHeight;
  const focused = deepActiveElement(doc);
  const nodes: RawNode[] = [];
  const elements: Element[] = [];
  const structure: StructNode[] = [];
  const structEls = new Map<Element, number>();
  const headings: HeadingNode[] = [];
  // What a viewport read lists: what the frame's viewport shows or, when the host says (`view`), the
  // part of it the page shows (an iframe taller than the page's viewport, or partly scrolled out).
  const view = opts.view;
  const inView = view ? (box: Box) => overlaps(box, view) : (box: Box) => intersectsViewport(box, width, height);
  const fresh = beginRead(doc, opts.fresh === true);
  const reuse: Reuse = { fresh, names: 0, still: false, held: null };
  const walkedAt = performance.now();
  // A viewport read visits only the targets near the viewport when the last census still holds,
  // taken again where something changed (census.ts).
  const contexts = new Contexts(fresh);
  const members = opts.viewportOnly && !opts.structure && !opts.attributes && !opts.walk ? membersOverCensus(view, fresh, contexts, inView) : null;
  const census = members ? lastCensus! : new Census(walkedAt);
  const clipped = new ClipAccount();
  let visited = 0;
  const knownRows = new Map<Element, Element | null>();
  let rowsFound: ((el: Element, row: Element | null) => void) | undefined;
  // What each clip cuts off, by container: a viewport read over the census has it at once, a walk once it is done.
  let counts: ClipCounts | null = null;
  if (members) {
    counts = census.counts();
    const read = readMembers(members.near, counts, contexts, inView);
    visited = members.walked + read.visited;
    // Occlusion answers hold while the whole page is still: nothing changed, and every target near the viewport is where it was.
    reuse.still = sceneQuiet(doc, !sameMembers(read.boxes, fresh.read), fresh.still);
    lastMembers = { read: fresh.read, boxes: read.boxes };
    for (const m of read.listed) {
      if (m instanceof Element) { clipped.opened(m, nodes.length); continue; }
      if (!m.clean) forgetName(m.el);
      nodes.push(describe(m.el, m.id, m.box, m.seen, m.ctx, focused, width, height, m.clean, reuse));
      elements.push(m.el);
    }
  } else {
    if (fresh.store) lastMembers = null;
    // A plain full-page read keeps its walk, and takes the last one's results for every subtree nothing changed in (liveWalk.ts).
    const keeps = !opts.viewportOnly && !opts.structure && !opts.attributes && fresh.store;
    const kept = keeps && !opts.walk && liveWalk ? liveWalk : null;
    if (kept) {
      // Where text was edited, with those targets' boxes from the last read (read before checkGeometry reads them again).
      const regions = fresh.edits && editedRegions(kept, fresh.edits, fresh.read);
      const quiet = sceneQuiet(doc, checkGeometry(kept, fresh.read), fresh.still || !!regions);
      reuse.still = quiet && fresh.still;
      reuse.held = quiet && regions ? regionsHold(regions) : null;
    } else if (fresh.store) sceneQuiet(doc, true, false);
    const spans = kept?.spans ?? new WeakMap();
    const list = keeps ? new VisitList(spans) : null;
    /** What a visited element adds to the read: the same for a walked one and a replayed one. */
    /** Replayed visits' rows (their ancestors did not change), and the visit of every listed element, to keep the rows found now. */
    const visitOf = new Map<Element, Visit>();
    const emit = (v: Visit, clean: boolean) => {
      const el = v.el;
      if (v.opens) clipped.opened(el, nodes.length);
      if (v.container) census.container(el);
      const seen = v.seen;
      if (!seen) return;
      const id = stamp(el);
      const box = v.box ?? null;
      const ctx = v.ctx;
      // Cut off by an overflow: hidden ancestor: nobody can see or reach it, but its container says so (the census counts it).
      if (!census.target(el, seen, box, ctx) || !box) return;
      if (opts.viewportOnly && (!inView(box) || ctx.viewClip && !overlaps(box, ctx.viewClip))) return;
      const node = describe(el, id, box, seen, ctx, focused, width, height, clean, reuse, v);
      if (v.row !== undefined) knownRows.set(el, v.row);
      visitOf.set(el, v);
      if (opts.structure) node.ctx = ctx.struct;
      nodes.push(node);
      elements.push(el);
    };
    walkElements(doc, (el, ctx) => {
      if (kept && fresh.cleanSince(el, kept.read, !!ctx.stale)) {
        const run = replayable(kept, el, ctx, fresh.read);
        if (run) {
          for (const v of run) { list!.add(v); emit(v, true); }
          return null;
        }
      }
      visited++;
      list?.walked(el, ctx);
      // Whether what earlier reads derived for this element still holds: asked once, used for its style facts and its name.
      const clean = fresh.clean(el, ctx.dirty);
      if (!clean && fresh.store) forgetName(el);
      const stale = !kept || fresh.dirtySince(el, kept.read, !!ctx.stale);
      const seen = inspect(el, ctx, { reuse: clean, store: fresh.store }, fresh.subtreeDirty(el, ctx.dirty), stale);
      let children = seen.children;
      const v: Visit = { el, ctx, next: null, checked: fresh.read, moved: false };
      // A clip matters only to what the element holds (a field's own insides hold nothing; a child added later is a change).
      if ((children.viewClip !== ctx.viewClip || children.hardClip !== ctx.hardClip) && holdsTargets(el)) {
        v.clip = children.viewClip && children.viewClip !== ctx.viewClip ? clipBox(el) : null;
      }
      // A scroll container (a clip that is not a hard one): whether it scrolls follows from what it
      // holds, which can grow with no mutation here (an image arriving, a rule).
      if (children.viewClip !== ctx.viewClip && children.viewClip && children.hardClip === ctx.hardClip) v.sizes = heldSize(el);
      if (children.clipper?.el === el) v.opens = true;
      // A container's scroll can move targets in or out of view, or out of its clip; one without children (a field) cannot.
      if (isContainer(el, ctx, children)) v.container = true;
      if (opts.structure) children = readStructure(el, ctx, children, structure, structEls, headings);
      if (seen.interactive || seen.scroll) {
        v.seen = seen;
        watchTarget(el);
        v.box = visibleBox(el, v);
      }
      emit(v, clean);
      if (list && (v.clip !== undefined || v.sizes || v.seen)) list.add(v);
      return children;
    });
    // Every element added so far was walked here (an addition makes its subtree dirty, never replayed): the auto-tagger need not look again.
    readCoveredAll();
    rowsFound = (el, row) => { const v = visitOf.get(el); if (v) v.row = row; };
    if (list) {
      list.finish();
      liveWalk = { read: fresh.read, head: list.head, spans };
    }
  }
  if (!members && fresh.store) lastCensus = census;
  let total = census.total;
  counts ??= census.counts();
  clipped.report(counts, nodes, elements, opts.viewportOnly ? inView : null, focused);
  dropWrapped(nodes, elements);
  const outEls: Element[] = [];
  const out = addRows(nodes, elements, outEls, census.controls, opts, structure, structEls, opts.viewportOnly ? inView : null, knownRows, rowsFound, fresh);
  total += out.length - nodes.length;
  markNameSources(out, outEls);
  if (opts.attributes) {
    out.forEach((n) => { const el = lookup(n.id); if (el) n.attrs = keyAttributes(el); });
    for (const st of structure) { const el = lookup(st.id); if (el) st.attrs = keyAttributes(el); }
  }
  flushStamps();
  releaseStyle();
  const warnings = takeWarnings();
  return {
    doc: DOC,
    url: location.href,
    base: doc.baseURI,
    title: clip(doc.title, 200),
    viewport: { width, height },
    scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY), position: pageScrollPosition(doc, height) },
    nodes: out,
    total,
    timeMs: Math.round((performance.now() - t0) * 10) / 10,
    reused: reuse.names,
    visited,
    ...(warnings.length > 0 && { warnings }),
    ...(opts.structure && { structure, headings }),
  };
}

/**
 * What the last walk over the whole frame counted (census.ts), kept up to date by the viewport
 * reads after it. It holds while nothing moved but the page's scroll and what changed since (see
 * viewportMembers.ts).
 */
let lastCensus: Census | null = null;
/** The last plain full-page walk, which the next one takes unchanged subtrees from (liveWalk.ts). */
let liveWalk: LiveWalk | null = null;

/** Beyond this many clipping containers, checking that none scrolled costs more than it saves. */
const MAX_CONTAINERS = 2000;

/** Whether what an element holds can be a target that its scroll moves (a field's or a drop-down's insides cannot). */
function holdsTargets(el: Element): boolean {
  if (el.tagName === 'SELECT') return (el as HTMLSelectElement).size > 1 || (el as HTMLSelectElement).multiple;
  return !!(el.firstElementChild || shadowRootOf(el));
}

/** Whether an element scrolls or clips targets it holds: a viewport read checks that it did not scroll. */
function isContainer(el: Element, ctx: WalkContext, children: WalkContext): boolean {
  return children.viewClip !== ctx.viewClip && !!children.viewClip && holdsTargets(el);
}

/**
 * The targets near the viewport, when the last census still holds (taken again where something
 * changed; `walked`: how many elements that looked at) and the observer is current; else null.
 * None when the page shows none of the frame (`view` empty): then the observer need not be
 * current, which it never is in an iframe scrolled out of the page (Chrome stops rendering those).
 */
function membersOverCensus(view: Box | undefined, fresh: Freshness, contexts: Contexts, inView: (box: Box) => boolean): { near: Element[]; walked: number } | null {
  const census = lastCensus;
  if (!census || !fresh.roots || geometryChangedSince(census.at) || census.containers.size > MAX_CONTAINERS) return null;
  // A container removed since is no change of scroll: the census forgets it.
  for (const [el, [x, y]] of census.containers) if (el.isConnected && (el.scrollLeft !== x || el.scrollTop !== y)) return null;
  const near = view && (view[2] <= 0 || view[3] <= 0) ? [] : currentMembers();
  if (!near || fresh.roots.length === 0) return near && { near, walked: 0 };
  // Targets in what changed are found by walking it: the observer may not know them yet.
  const found = new Set(near);
  const walked = retakeCensus(census, fresh, contexts, (el, ctx, seen) => {
    // A changed element passed without being named takes its old name with it (see forgetName).
    if (!contexts.clean(el, ctx)) forgetName(el);
    if (isContainer(el, ctx, seen.children)) census.container(el);
    if (!seen.interactive && !seen.scroll) return;
    watchTarget(el);
    stamp(el);
    const box = visibleBox(el);
    if (census.target(el, seen, box, ctx) && box && inView(box)) found.add(el);
  });
  return walked === null ? null : { near: [...found], walked };
}

/** A target near the viewport that a viewport read lists, found as a walk would find it. */
interface Member { el: Element; id: string; box: Box; seen: Inspection; ctx: WalkContext; clean: boolean }

/**
 * The viewport read over the targets near it: each is looked at exactly as the walk would (its
 * context built from its ancestors, shared between members), in the walk's order. Returns what it
 * lists (an element stands for a clipping container met there), every member's box, and how many
 * elements it looked at.
 */
function readMembers(
  members: Element[], counts: ClipCounts, contexts: Contexts, inView: (box: Box) => boolean,
): { listed: Array<Member | Element>; boxes: Map<Element, Box | null>; visited: number } {
  // Containers the census counts hidden targets for: they go in where the walk would have met them.
  const visits: Array<[Element, boolean]> = members.map((el) => [el, true]);
  for (const el of counts.keys()) if (el.isConnected) visits.push([el, false]);
  visits.sort((a, b) => walkOrder(a[0], b[0]));
  const listed: Array<Member | Element> = [];
  const boxes = new Map<Element, Box | null>();
  for (const [el, member] of visits) {
    if (!member) { listed.push(el); continue; }
    const ctx = contexts.of(el);
    if (!ctx) continue;
    const clean = contexts.clean(el, ctx);
    const seen = contexts.inspect(el, ctx);
    if (!seen.interactive && !seen.scroll) continue;
    const id = stamp(el);
    const box = visibleBox(el);
    boxes.set(el, box);
    if (!box) continue;
    if (ctx.hardClip && !overlaps(box, ctx.hardClip)) continue;
    if (!inView(box) || ctx.viewClip && !overlaps(box, ctx.viewClip)) continue;
    listed.push({ el, id, box, seen, ctx, clean });
  }
  return { listed, boxes, visited: members.length + contexts.size };
}

/** The members of the last viewport read, with their boxes (null: none), when the last stored read was one. */
let lastMembers: { read: number; boxes: Map<Element, Box | null> } | null = null;

/** Whether the previous read was a viewport read over the same members, each where it is now. */
function sameMembers(boxes: Map<Element, Box | null>, read: number): boolean {
  const last = lastMembers;
  if (!last || last.read !== read - 1 || last.boxes.size !== boxes.size) return false;
  for (const [el, box] of boxes) {
    const was = last.boxes.get(el);
    if (was === undefined || !sameBox(was, box)) return false;
  }
  return true;
}

/** The walk's order: document order, a host before its shadow content, shadow content before the host's children. */
function walkOrder(a: Element, b: Element): number {
  if (a === b) return 0;
  const sa = scopes(a);
  const sb = scopes(b);
  let i = 0;
  while (i < sa.length && i < sb.length && sa[i] === sb[i]) i++;
  // One is a host of the other's tree: the host comes first.
  if (i === sa.length) return -1;
  if (i === sb.length) return 1;
  const x = sa[i], y = sb[i];
  // Same tree from here on. An ancestor comes before its light children, and so does anything in its shadow.
  if (x.contains(y)) return -1;
  if (y.contains(x)) return 1;
  return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

/** The element and the shadow hosts it lies in, outermost first. */
function scopes(el: Element): Element[] {
  const out = [el];
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) out.unshift(root.host);
  return out;
}

/**
 * Targets that an `overflow: hidden` container cuts off (a carousel's next slides, a collapsed
 * menu) are not listed, but they are not silently gone either: the container is listed (as a
 * `region` when it is nothing else) with how many it hides and in which direction.
 */
class ClipAccount {
  private readonly at = new Map<Element, number>();

  /** A container that clips is met at `index` of the listed nodes: it goes there if it is listed for what it hides. */
  opened(el: Element, index: number): void {
    this.at.set(el, index);
  }

  /**
   * Marks the containers already listed; inserts the others where they stand in document order
   * (`inView`: a viewport read inserts only those it shows).
   */
  report(counts: ClipCounts, nodes: RawNode[], elements: Element[], inView: ((box: Box) => boolean) | null, focused: Element | null): void {
    const inserts: Array<[number, RawNode, Element]> = [];
    for (const [el, c] of counts) {
      const why = `clipped ${[...c.dirs].sort((a, b) => b[1] - a[1]).map(([d]) => d).join(', ')}`;
      const listed = elements.indexOf(el);
      if (listed >= 0) { nodes[listed].hidden = { n: c.n, why }; continue; }
      const box = visibleBox(el);
      if (!box || (inView && !inView(box))) continue;
      const role = el.getAttribute('role') || 'region';
      const node: RawNode = { id: stamp(el), role, name: structName(el), tag: el.tagName.toLowerCase(), states: statesOf(el, focused), box, hidden: { n: c.n, why } };
      inserts.push([this.at.get(el) ?? nodes.length, node, el]);
    }
    // Last first, so that each splice leaves the places still to fill as they were; containers met at one place go in walk order.
    inserts.sort((a, b) => b[0] - a[0] || walkOrder(b[2], a[2]));
    for (const [i, node, el] of inserts) { nodes.splice(i, 0, node); elements.splice(i, 0, el); }
  }
}

// A wrapper and its control sit this close: a tab's li and its link, an option and its anchor.
const WRAP_DEPTH = 3;

/**
 * Removes, in place, each listed control that only repeats the listed control wrapped around it
 * (see wrapped.ts), and says of every other control inside a listed one which one holds it (a
 * button inside a tab: `in`), so that neither is mistaken for the other.
 */
function dropWrapped(nodes: RawNode[], elements: Element[]): void {
  // The nodes themselves, not their places: the pass below moves them down as it drops others.
  const listed = new Map(elements.map((el, i) => [el, nodes[i]] as const));
  // Compacted in one pass: a splice per dropped control is quadratic on a page that wraps many.
  let kept = 0;
  for (let i = 0; i < elements.length; i++) {
    let outer: Element | null = null;
    let depth = 0;
    for (let p = composedParent(elements[i]); p instanceof Element; p = composedParent(p), depth++) if (listed.has(p)) { outer = p; break; }
    if (outer && depth < WRAP_DEPTH && onlyWraps(outer, elements[i])) continue;
    // Said of a control inside a control only: every row of a listed region would say its region.
    const holder = outer && listed.get(outer);
    if (holder && holdsControls(holder.role)) nodes[i].in = holder.id;
    nodes[kept] = nodes[i];
    elements[kept++] = elements[i];
  }
  nodes.length = elements.length = kept;
}

/**
 * A listed element that is itself a control (a tab, a button, a clickable row), by the role it is
 * listed with: not a region around controls, even one listening for them all (React's root).
 */
function holdsControls(role: string): boolean {
  return INTERACTIVE_ROLES.has(role) || role === 'clickable';
}

/** Notes a structure element or a heading; returns the context the element's children get. */
function readStructure(el: Element, ctx: WalkContext, children: WalkContext, structure: StructNode[], structEls: Map<Element, number>, headings: HeadingNode[]): WalkContext {
  const hit = structureOf(el);
  if (hit) {
    const box = visibleBox(el);
    if (!box) return children;
    const index = structure.length;
    const node: StructNode = { id: stamp(el), kind: hit.kind, role: hit.role, tag: el.tagName.toLowerCase(), name: structName(el), box, parent: ctx.struct };
    const rows = hit.kind === 'table' ? tableRows(el) : undefined;
    if (rows !== undefined) node.rows = rows;
    structure.push(node);
    structEls.set(el, index);
    return { ...children, struct: index };
  }
  const level = headingLevel(el);
  if (level !== null) {
    const box = visibleBox(el);
    const text = box ? clip(((el as HTMLElement).innerText ?? el.textContent ?? '').replace(/\s+/g, ' ').trim(), 160) : '';
    if (box && text) headings.push({ id: stamp(el), level, text, box, ctx: ctx.struct });
  }
  return children;
}

/**
 * Groups the listed controls by the repeated row around them (a to-do, a card, a table row) and
 * puts each row's `item` node (its identifying text, with an ID) before the row's first control.
 * With the structure, rows become structure nodes and their controls point to them.
 */
function addRows(
  nodes: RawNode[], elements: Element[], outEls: Element[], controls: Set<Element>, opts: EngineSnapshotOptions,
  structure: StructNode[], structEls: Map<Element, number>, inView: ((box: Box) => boolean) | null,
  known: Map<Element, Element | null>, found: ((el: Element, row: Element | null) => void) | undefined, memory: RowMemory,
): RawNode[] {
  const finder = new RowFinder((e) => controls.has(e) || isInteractiveByMarkup(e), memory);
  const rowOf = elements.map((el) => {
    if (known.has(el)) return known.get(el)!;
    const row = finder.rowOf(el);
    found?.(el, row);
    return row;
  });
  const members = new Map<Element, Element[]>();
  rowOf.forEach((row, i) => {
    if (!row) return;
    const held = members.get(row);
    if (held) held.push(elements[i]); else members.set(row, [elements[i]]);
  });
  const out: RawNode[] = [];
  const placed = new Set<Element>();
  const rowIndex = new Map<Element, number>();
  const shared = sharedNames(nodes, rowOf, finder, members);
  const itemFor = new Set<Element>();
  nodes.forEach((node, i) => {
    const rowEl = rowOf[i];
    const row = rowEl ? finder.describe(rowEl, members.get(rowEl)!) : null;
    if (row && rowEl && !placed.has(rowEl)) {
      placed.add(rowEl);
      if (opts.structure) {
        const box = visibleBox(rowEl);
        if (box) {
          rowIndex.set(rowEl, structure.length);
          structure.push({ id: stamp(rowEl), kind: 'row', role: rowRole(rowEl), tag: rowEl.tagName.toLowerCase(), name: row.name || firstName(nodes, rowOf, rowEl), box, parent: enclosingStruct(rowEl, structEls) });
        }
      }
      const found = itemNode(row, nodes, rowOf, inView);
      if (found) {
        const [item, itemEl] = found;
        if (opts.structure && rowIndex.has(rowEl)) item.ctx = rowIndex.get(rowEl);
        out.push(item);
        outEls.push(itemEl);
        if (row.title) itemFor.add(row.title);
      }
    }
    // Text that is a target of its own is the row's item: listed once, where the row begins.
    if (itemFor.has(elements[i])) return;
    if (row?.name && node.role !== 'region' && (!node.name || (shared.has(sharedKey(node)) && !showsItsName(elements[i], node.name)))) node.name = nameInRow(node.role, row.name, node.name);
    if (rowEl && rowIndex.has(rowEl)) {
      const r = rowIndex.get(rowEl)!;
      if (node.ctx === structure[r].parent) node.ctx = r;
    }
    out.push(node);
    outEls.push(elements[i]);
  });
  return out;
}

const sharedKey = (n: RawNode) => `${n.role}\u0000${n.name}`;

/**
 * The names that controls in two or more rows share ("Toggle Todo" on every to-do): no identity,
 * so such a control takes its row's too, unless it shows that name as its own text (an "Add to
 * cart" button on every card is read with the card it sits in, as a person reads it).
 */
function sharedNames(nodes: RawNode[], rowOf: Array<Element | null>, finder: RowFinder, members: Map<Element, Element[]>): Set<string> {
  // Per name, the one row it was met in so far; a name met in a second row is shared. One entry per
  // name, not a set of rows: on a table of thousands of rows nearly every name is a row's own.
  const firstRow = new Map<string, Element>();
  const shared = new Set<string>();
  nodes.forEach((n, i) => {
    const rowEl = rowOf[i];
    if (!n.name || !rowEl || !finder.describe(rowEl, members.get(rowEl)!)?.name) return;
    const key = sharedKey(n);
    const first = firstRow.get(key);
    if (!first) firstRow.set(key, rowEl); else if (first !== rowEl) shared.add(key);
  });
  return shared;
}

function showsItsName(el: Element, name: string): boolean {
  return clean((el as HTMLElement).innerText ?? el.textContent) === name;
}

/** The row's identifying text as a node, with its element; a card whose name is its link gets the link's name. */
function itemNode(row: Row, nodes: RawNode[], rowOf: Array<Element | null>, inView: ((box: Box) => boolean) | null): [RawNode, Element] | null {
  const target = row.title ?? (row.value ? row.el : null);
  if (!target) return null;
  const name = row.name || firstName(nodes, rowOf, row.el);
  if (!name) return null;
  const box = visibleBox(target);
  if (!box || (inView && !inView(box))) return null;
  const item: RawNode = { id: stamp(target), role: 'item', name, tag: target.tagName.toLowerCase(), states: [], box };
  if (row.value) item.value = row.value;
  return [item, target];
}

function firstName(nodes: RawNode[], rowOf: Array<Element | null>, row: Element): string {
  return nodes.find((n, i) => rowOf[i] === row && n.name)?.name ?? '';
}

function rowRole(el: Element): string {
  const explicit = el.getAttribute('role');
  if (explicit) return explicit;
  return el.tagName === 'TR' ? 'row' : el.tagName === 'LI' ? 'listitem' : el.tagName === 'ARTICLE' ? 'article' : 'group';
}

function enclosingStruct(el: Element, structEls: Map<Element, number>): number {
  for (let p = composedParent(el); p; p = composedParent(p)) {
    const i = structEls.get(p as Element);
    if (i !== undefined) return i;
  }
  return -1;
}

// What identifies an element to a selector or a reader: kept short, secrets never.
const KEEP_ATTRS = ['id', 'name', 'type', 'role', 'href', 'value', 'placeholder', 'aria-label', 'title', 'alt', 'for',
  'data-testid', 'data-test', 'data-qa', 'data-cy', 'data-id', 'class', 'disabled', 'readonly', 'checked', 'selected',
  'required', 'multiple', 'aria-expanded', 'aria-haspopup', 'aria-controls', 'autocomplete'];

function keyAttributes(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEEP_ATTRS) {
    const v = el.getAttribute(name);
    if (v === null) continue;
    if (name === 'value' && (isSecretField(el) || el.tagName === 'TEXTAREA')) continue;
    out[name] = clip(v.replace(/\s+/g, ' ').trim(), name === 'class' ? 60 : 100);
  }
  return out;
}

/** Whether each target was covered (isOccluded) at read `read`, with the box it was tested at and what each tested point hit. */
const occlusion = new WeakMap<Element, { read: number; box: Box; value: boolean | undefined; hits: Element[] }>();

/** What a read may take from the last one: names (counted), and occlusion answers (see describe()). */
interface Reuse { fresh: Freshness; names: number; still: boolean; held: Region[] | null }

function describe(
  el: Element, id: string, box: Box, seen: Inspection, ctx: WalkContext,
  focused: Element | null, width: number, height: number, clean: boolean, reuse: Reuse,
  kept?: Visit,
): RawNode {
  // What only the element's markup and its ancestors decide: kept with its visit while they stay unchanged (liveWalk.ts).
  const fixed = (clean && kept?.fixed) || fixedFacts(el, seen, ctx);
  if (kept) kept.fixed = fixed;
  const { role } = fixed;
  const named = describeNameSince(el, role, clean, reuse.fresh);
  if (named.reused) reuse.names++;
  const node: RawNode = { id, role, name: named.name, tag: fixed.tag, states: statesOf(el, focused), box };
  // Values and states change without a mutation (set by script): read every time.
  const value = valueOf(el, role);
  if (value !== undefined) node.value = value;
  if (fixed.type !== undefined) node.type = fixed.type;
  if (fixed.placeholder) node.placeholder = fixed.placeholder;
  if (fixed.href) node.href = fixed.href;
  if (fixed.shadow) node.shadow = true;
  if (intersectsViewport(box, width, height)) {
    // Hit tests see the whole page: the last read's answer holds only while the whole page is still
    // (stillScene.ts), or when only text changed and the answer provably cannot see it (editedRegions.ts).
    const last = occlusion.get(el);
    const holds = !!last && last.read === reuse.fresh.read - 1 && sameBox(last.box, box)
      && (reuse.still || (!!reuse.held && answerHolds(reuse.held, box, last.hits)));
    const hits: Element[] = [];
    const occ = holds ? last!.value : isOccluded(el, box, el.ownerDocument, width, height, hits);
    if (reuse.fresh.store) occlusion.set(el, { read: reuse.fresh.read, box, value: occ, hits: holds ? last!.hits : hits });
    if (occ !== undefined) node.occ = occ;
  }
  if (seen.scroll) node.scr = scrollInfo(el, seen.scroll.v);
  return node;
}

function fixedFacts(el: Element, seen: Inspection, ctx: WalkContext): FixedFacts {
  const facts: FixedFacts = { role: roleOf(el, !!seen.scroll && !seen.interactive), tag: el.tagName.toLowerCase() };
  if (el.tagName === 'INPUT') facts.type = (el as HTMLInputElement).type;
  const placeholder = el.getAttribute('placeholder');
  if (placeholder) facts.placeholder = clip(placeholder, 100);
  // The attribute as written: resolving thousands of URLs here is costly, the model does it once.
  const href = el.tagName === 'A' ? el.getAttribute('href') : null;
  if (href) facts.href = clip(href, 300);
  if (ctx.inShadow) facts.shadow = true;
  return facts;
}


function scrollInfo(el: Element, vertical: boolean): ScrollInfo {
  const pos = vertical ? el.scrollTop : el.scrollLeft;
  const size = vertical ? el.scrollHeight : el.scrollWidth;
  const view = vertical ? el.clientHeight : el.clientWidth;
  const max = size - view;
  return { depth: percent(max > 0 ? pos / max : 0), h: pos + view < size - 1 };
}

function pageScrollPosition(doc: Document, height: number): string {
  const se = doc.scrollingElement ?? doc.documentElement;
  const max = se.scrollHeight - height;
  return percent(max > 0 ? window.scrollY / max : 0);
}

function percent(fraction: number): string {
  return `${Math.round(Math.min(1, Math.max(0, fraction)) * 100)}%`;
}

function clip(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) : s;
}
