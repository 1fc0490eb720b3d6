import type { Box, EngineSnapshotOptions, FrameSnapshot, RawNode, ScrollInfo } from '../model/schema.js';
import { DOC } from './document.js';
import { nameOf } from './names.js';
import { roleOf } from './roles.js';
import { deepActiveElement } from './shadow.js';
import { statesOf, valueOf } from './state.js';
import { flushStamps, inspect, stamp, type Inspection } from './tagger.js';
import { intersectsViewport, isOccluded, visibleBox } from './visibility.js';
import { walkElements, type WalkContext } from './walker.js';
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
  let total = 0;
  walkElements(doc, (el, ctx) => {
    const seen = inspect(el, ctx);
    if (!seen.interactive && !seen.scroll) return seen.children;
    const id = stamp(el);
    const box = visibleBox(el);
    // Cut off by an overflow: hidden ancestor: nobody can see or reach it.
    if (!box || ctx.hardClip && !overlaps(box, ctx.hardClip)) return seen.children;
    total++;
    if (opts.viewportOnly && (!intersectsViewport(box, width, height) || ctx.viewClip && !overlaps(box, ctx.viewClip))) return seen.children;
    nodes.push(describe(el, id, box, seen, ctx, focused, width, height));
    return seen.children;
  });
  flushStamps();
  const warnings = takeWarnings();
  return {
    doc: DOC,
    url: location.href,
    base: doc.baseURI,
    title: clip(doc.title, 200),
    viewport: { width, height },
    scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY), position: pageScrollPosition(doc, height) },
    nodes,
    total,
    timeMs: Math.round((performance.now() - t0) * 10) / 10,
    ...(warnings.length > 0 && { warnings }),
  };
}

function describe(
  el: Element, id: string, box: Box, seen: Inspection, ctx: WalkContext,
  focused: Element | null, width: number, height: number,
): RawNode {
  const role = roleOf(el, !!seen.scroll && !seen.interactive);
  const node: RawNode = { id, role, name: nameOf(el, role), states: statesOf(el, focused), box };
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
