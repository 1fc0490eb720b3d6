import type { Box, EngineSnapshotOptions, FrameSnapshot, HeadingNode, RawNode, ScrollInfo, StructNode } from '../model/schema.js';
import { DOC } from './document.js';
import { isInteractiveByMarkup } from './interactive.js';
import { nameInRow, RowFinder, type Row } from './rows.js';
import { headingLevel, structName, structureOf, tableRows } from './structure.js';
import { describeNameSince } from './names.js';
import { beginRead, type Freshness } from './changes.js';
import { roleOf } from './roles.js';
import { composedParent, deepActiveElement } from './shadow.js';
import { isSecretField, statesOf, valueOf } from './state.js';
import { flushStamps, inspect, lookup, stamp, type Inspection } from './tagger.js';
import { intersectsViewport, isOccluded, visibleBox } from './visibility.js';
import { walkElements, type Clipper, type WalkContext } from './walker.js';
import { onlyWraps } from './wrapped.js';
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
  const controls = new Set<Element>();
  const structure: StructNode[] = [];
  const structEls = new Map<Element, number>();
  const headings: HeadingNode[] = [];
  const clipped = new ClipAccount();
  const fresh = beginRead(doc, opts.fresh === true);
  const reuse = { fresh, names: 0 };
  let total = 0;
  walkElements(doc, (el, ctx) => {
    // Whether what earlier reads derived for this element still holds: asked once, used for its style facts and its name.
    const clean = fresh.clean(el, ctx.dirty);
    const seen = inspect(el, ctx, { reuse: clean, store: fresh.store }, fresh.subtreeDirty(el, ctx.dirty));
    let children = seen.children;
    if (children.clipper?.el === el) clipped.opened(el, nodes.length);
    if (opts.structure) children = readStructure(el, ctx, children, structure, structEls, headings);
    if (!seen.interactive && !seen.scroll) return children;
    if (seen.interactive) controls.add(el);
    const id = stamp(el);
    const box = visibleBox(el);
    if (!box) return children;
    // Cut off by an overflow: hidden ancestor: nobody can see or reach it, but its container says so.
    if (ctx.hardClip && !overlaps(box, ctx.hardClip)) {
      if (seen.interactive && ctx.clipper) clipped.add(ctx.clipper, box);
      return children;
    }
    total++;
    if (opts.viewportOnly && (!intersectsViewport(box, width, height) || ctx.viewClip && !overlaps(box, ctx.viewClip))) return children;
    const node = describe(el, id, box, seen, ctx, focused, width, height, clean, reuse);
    if (opts.structure) node.ctx = ctx.struct;
    nodes.push(node);
    elements.push(el);
    return children;
  });
  clipped.report(nodes, elements, opts.viewportOnly ? [width, height] : null, focused);
  dropWrapped(nodes, elements);
  const out = addRows(nodes, elements, controls, opts, structure, structEls, width, height);
  total += out.length - nodes.length;
  if (opts.attributes) {
    out.forEach((n) => { const el = lookup(n.id); if (el) n.attrs = keyAttributes(el); });
    for (const st of structure) { const el = lookup(st.id); if (el) st.attrs = keyAttributes(el); }
  }
  flushStamps();
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
    ...(warnings.length > 0 && { warnings }),
    ...(opts.structure && { structure, headings }),
  };
}

/**
 * Targets that an `overflow: hidden` container cuts off (a carousel's next slides, a collapsed
 * menu) are not listed, but they are not silently gone either: the container is listed (as a
 * `region` when it is nothing else) with how many it hides and in which direction.
 */
class ClipAccount {
  private readonly counts = new Map<Element, { n: number; dirs: Map<string, number> }>();
  private readonly at = new Map<Element, number>();

  opened(el: Element, index: number): void {
    this.at.set(el, index);
  }

  /** Counts `box` for the container that cuts it off: the innermost one it lies wholly outside of, else (cut off only by several together) the innermost. */
  add(chain: Clipper, box: Box): void {
    let by = chain;
    for (let c: Clipper | null = chain; c; c = c.outer) if (!overlaps(box, c.box)) { by = c; break; }
    const clip = by.box;
    let c = this.counts.get(by.el);
    if (!c) { c = { n: 0, dirs: new Map() }; this.counts.set(by.el, c); }
    c.n++;
    const dir = box[0] >= clip[0] + clip[2] ? 'right' : box[0] + box[2] <= clip[0] ? 'left' : box[1] >= clip[1] + clip[3] ? 'below' : box[1] + box[3] <= clip[1] ? 'above' : 'outside';
    c.dirs.set(dir, (c.dirs.get(dir) ?? 0) + 1);
  }

  /** Marks the containers already listed; inserts the others where they stand in document order. */
  report(nodes: RawNode[], elements: Element[], viewport: [number, number] | null, focused: Element | null): void {
    const inserts: Array<[number, RawNode, Element]> = [];
    for (const [el, c] of this.counts) {
      const why = `clipped ${[...c.dirs].sort((a, b) => b[1] - a[1]).map(([d]) => d).join(', ')}`;
      const listed = elements.indexOf(el);
      if (listed >= 0) { nodes[listed].hidden = { n: c.n, why }; continue; }
      const box = visibleBox(el);
      if (!box || (viewport && !intersectsViewport(box, viewport[0], viewport[1]))) continue;
      const role = el.getAttribute('role') || 'region';
      const node: RawNode = { id: stamp(el), role, name: structName(el), tag: el.tagName.toLowerCase(), states: statesOf(el, focused), box, hidden: { n: c.n, why } };
      inserts.push([this.at.get(el) ?? nodes.length, node, el]);
    }
    inserts.sort((a, b) => b[0] - a[0]);
    for (const [i, node, el] of inserts) { nodes.splice(i, 0, node); elements.splice(i, 0, el); }
  }
}

// A wrapper and its control sit this close: a tab's li and its link, an option and its anchor.
const WRAP_DEPTH = 3;

/** Removes, in place, each listed control that only repeats the listed control wrapped around it (see wrapped.ts). */
function dropWrapped(nodes: RawNode[], elements: Element[]): void {
  const listed = new Set(elements);
  for (let i = elements.length - 1; i >= 0; i--) {
    let outer: Element | null = null;
    let p = composedParent(elements[i]);
    for (let d = 0; d < WRAP_DEPTH && p instanceof Element; d++, p = composedParent(p)) if (listed.has(p)) { outer = p; break; }
    if (outer && onlyWraps(outer, elements[i])) { nodes.splice(i, 1); elements.splice(i, 1); }
  }
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
  nodes: RawNode[], elements: Element[], controls: Set<Element>, opts: EngineSnapshotOptions,
  structure: StructNode[], structEls: Map<Element, number>, width: number, height: number,
): RawNode[] {
  const finder = new RowFinder((e) => controls.has(e) || isInteractiveByMarkup(e));
  const rowOf = elements.map((el) => finder.rowOf(el));
  const members = new Map<Element, Element[]>();
  rowOf.forEach((row, i) => { if (row) members.set(row, [...members.get(row) ?? [], elements[i]]); });
  const out: RawNode[] = [];
  const placed = new Set<Element>();
  const rowIndex = new Map<Element, number>();
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
      const item = itemNode(row, nodes, rowOf, opts, width, height);
      if (item) {
        if (opts.structure && rowIndex.has(rowEl)) item.ctx = rowIndex.get(rowEl);
        out.push(item);
      }
    }
    if (row?.name && !node.name && node.role !== 'region') node.name = nameInRow(node.role, row.name);
    if (rowEl && rowIndex.has(rowEl)) {
      const r = rowIndex.get(rowEl)!;
      if (node.ctx === structure[r].parent) node.ctx = r;
    }
    out.push(node);
  });
  return out;
}

/** The row's identifying text as a node; a card whose name is its link gets the link's name. */
function itemNode(row: Row, nodes: RawNode[], rowOf: Array<Element | null>, opts: EngineSnapshotOptions, width: number, height: number): RawNode | null {
  const target = row.title ?? (row.value ? row.el : null);
  if (!target) return null;
  const name = row.name || firstName(nodes, rowOf, row.el);
  if (!name) return null;
  const box = visibleBox(target);
  if (!box || (opts.viewportOnly && !intersectsViewport(box, width, height))) return null;
  const item: RawNode = { id: stamp(target), role: 'item', name, tag: target.tagName.toLowerCase(), states: [], box };
  if (row.value) item.value = row.value;
  return item;
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

function describe(
  el: Element, id: string, box: Box, seen: Inspection, ctx: WalkContext,
  focused: Element | null, width: number, height: number, clean: boolean, reuse: { fresh: Freshness; names: number },
): RawNode {
  const role = roleOf(el, !!seen.scroll && !seen.interactive);
  const named = describeNameSince(el, role, clean, reuse.fresh);
  if (named.reused) reuse.names++;
  const node: RawNode = { id, role, name: named.name, tag: el.tagName.toLowerCase(), states: statesOf(el, focused), box };
  const value = valueOf(el, role);
  if (value !== undefined) node.value = value;
  if (el.tagName === 'INPUT') node.type = (el as HTMLInputElement).type;
  const placeholder = el.getAttribute('placeholder');
  if (placeholder) node.placeholder = clip(placeholder, 100);
  // The attribute as written: resolving thousands of URLs here is costly, the model does it once.
  const href = el.tagName === 'A' ? el.getAttribute('href') : null;
  if (href) node.href = clip(href, 300);
  if (ctx.inShadow) node.shadow = true;
  if (intersectsViewport(box, width, height)) {
    const occ = isOccluded(el, box, el.ownerDocument, width, height);
    if (occ !== undefined) node.occ = occ;
  }
  if (seen.scroll) node.scr = scrollInfo(el, seen.scroll.v);
  return node;
}

function overlaps(box: Box, clip: Box): boolean {
  return clip[2] > 0 && clip[3] > 0 && box[0] < clip[0] + clip[2] && box[0] + box[2] > clip[0] && box[1] < clip[1] + clip[3] && box[1] + box[3] > clip[1];
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
