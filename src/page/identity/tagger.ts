// Stable element IDs. An ID is bound to an element object in a WeakMap the page cannot see;
// the `data-llm-id` attribute only mirrors it. So an attribute the page forged, or one that
// came along with cloneNode, is never believed: it is replaced or removed.
import { watchForChanges } from '../changes/changes.js';
import { DOC } from './document.js';
import { isInteractiveByMarkup, isScrollingOverflow, listensAsTarget, looksClickable, scrollOverflow } from '../semantics/interactive.js';
import { onShadowRootAdopted, shadowRootOf } from './shadow.js';
import { styleOf } from '../walk/styleOf.js';
import type { Box } from '../../model/contracts/schema.js';
import { ROOT_CONTEXT, SteppedWalk, walkElements, type WalkContext } from '../walk/walker.js';
import { clipBox } from '../walk/visibility.js';

export { ID_ATTR } from '../../model/pagemodel/page.js';
import { ID_ATTR } from '../../model/pagemodel/page.js';

let counter = 0;
/**
 * IDs up to here were issued by earlier documents of the session (the host says where this
 * document's numbering starts): an ID is never reused, so one held from an earlier page can
 * never name an element of this one.
 */
let base = 0;
let numbered = false;
const idOf = new WeakMap<Element, string>();
let byId = new Map<string, WeakRef<Element>>();

export function idFor(el: Element): string | undefined {
  return idOf.get(el);
}

/**
 * Binds an ID to the element. The attribute is written later, by flushStamps(): writing it in
 * the middle of a walk that reads computed styles makes Chrome recompute style again and again
 * (quadratic on large pages); written all at once it costs one recalculation.
 */
export function stamp(el: Element): string {
  let id = idOf.get(el);
  if (id === undefined) {
    id = String(++counter);
    idOf.set(el, id);
    byId.set(id, new WeakRef(el));
    // Written by flushStamps, which looks at the attribute first (a page can copy one onto any element).
    pendingWrites.push([el, id]);
  } else if (el.getAttribute(ID_ATTR) !== id) pendingWrites.push([el, id]);
  return id;
}

const pendingWrites: Array<[Element, string]> = [];

/** Mirrors the IDs bound since the last flush into `data-llm-id` attributes. */
export function flushStamps(): void {
  for (const [el, id] of pendingWrites) if (idOf.get(el) === id && el.getAttribute(ID_ATTR) !== id) el.setAttribute(ID_ATTR, id);
  pendingWrites.length = 0;
}

/** The live element behind an ID, or null once it was removed from the document. */
export function lookup(id: string): Element | null {
  const el = byId.get(id)?.deref();
  return el && el.isConnected ? el : null;
}

/**
 * lookup() for an ID issued in document `doc`: this document's token (a string) when `doc` is
 * another document, so that the caller can refuse instead of naming a stranger.
 */
export function lookupIn(doc: string | null, id: string): Element | null | string {
  if (doc !== null && doc !== DOC) return DOC;
  // Numbered before this document began: an earlier document's ID, whatever the caller believes.
  if (/^\d+$/.test(id) && Number(id) <= base) return DOC;
  return lookup(id);
}

/** The IDs of the stamped elements still in the document that pass `test`. */
export function stampedWhere(test: (el: Element) => boolean): string[] {
  const out: string[] = [];
  for (const [id, ref] of byId) {
    const el = ref.deref();
    if (el?.isConnected && test(el)) out.push(id);
  }
  return out;
}

export function lastIssuedId(): number {
  return counter;
}

/** The last ID of earlier documents: this document's IDs are above it. */
export function idBase(): number {
  return base;
}

/**
 * The host's first call into this document says where its numbering starts (above every ID the
 * session has issued). The auto-tagger may have numbered elements from 1 before that call; nobody
 * has seen those IDs yet, so they move up. Later calls change nothing: IDs once read never change.
 */
export function numberFrom(start: number): { base: number; last: number } {
  if (!numbered && Number.isSafeInteger(start) && start > 0) {
    const moved = new Map<string, WeakRef<Element>>();
    pendingWrites.length = 0;
    for (const [id, ref] of byId) {
      const el = ref.deref();
      if (!el) continue;
      const now = String(start + Number(id));
      idOf.set(el, now);
      moved.set(now, ref);
      pendingWrites.push([el, now]);
    }
    byId = moved;
    base = start;
    counter += start;
    flushStamps();
  }
  numbered = true;
  return { base, last: counter };
}

export interface Inspection {
  interactive: boolean;
  scroll: { v: boolean; h: boolean } | null;
  /** What the element's children inherit. */
  children: WalkContext;
}

/**
 * What an element's computed style says, as far as tagging cares. Reads are lazy: position and
 * display matter only under a clip or for an overflowing box, and each computed-style read costs.
 */
class StyleFacts {
  readonly cursor: string;
  readonly overflowX: string;
  readonly overflowY: string;
  /** Interactive by its markup (tag, role, handlers, tabindex, contenteditable). */
  readonly markup: boolean;
  private pos?: string;
  private disp?: string;

  constructor(private readonly el: Element) {
    const style = styleOf(el);
    this.cursor = style.cursor;
    this.overflowX = style.overflowX;
    // CSS turns a lone `visible` into `auto` when the other axis is not visible, so a visible x
    // axis means a visible y axis, except for the rare `clip` pairing, which we accept to miss.
    this.overflowY = this.overflowX === 'visible' ? 'visible' : style.overflowY;
    this.markup = isInteractiveByMarkup(el);
  }

  get position(): string { return this.pos ??= styleOf(this.el).position; }
  get display(): string { return this.disp ??= styleOf(this.el).display; }
}

// Facts of earlier reads, reused by a snapshot for elements that nothing has changed since (see changes.ts).
const factsCache = new WeakMap<Element, StyleFacts>();

/** How a look uses what earlier looks found: reuse it (nothing changed since), and keep what it finds. */
export interface CacheUse { reuse: boolean; store: boolean }
const REFRESH: CacheUse = { reuse: false, store: true };

function styleFacts(el: Element, cache: CacheUse): StyleFacts {
  const known = cache.reuse ? factsCache.get(el) : undefined;
  if (known) return known;
  const facts = new StyleFacts(el);
  if (cache.store) factsCache.set(el, facts);
  return facts;
}

/**
 * One look at an element, shared by the tagger and the snapshot so they never disagree. This
 * runs for every element of the page: each computed-style read costs, so each is read once and
 * only when its answer can matter. With `cache.reuse`, nothing changed since the element was
 * last looked at, so what its style said then still holds (geometry is read again whatever it says).
 */
export function inspect(el: Element, ctx: WalkContext, cache: CacheUse = REFRESH, dirtyBelow = false, staleBelow = false): Inspection {
  const facts = styleFacts(el, cache);
  const cursor = facts.cursor;
  // Gesture marks come after the facts were cached (the host adds them before a read): asked each time.
  const interactive = facts.markup || listensAsTarget(el) || looksClickable(el, cursor, ctx.parentCursor);
  const isRoot = el.tagName === 'BODY' || el.tagName === 'HTML';
  const scroll = isRoot ? null : scrollOverflow(el, facts.overflowX, facts.overflowY);
  if (el.hasAttribute(ID_ATTR) && !idOf.has(el) && !interactive && !scroll) el.removeAttribute(ID_ATTR);
  const root = shadowRootOf(el);
  if (root) observeRoot(root);
  return { interactive, scroll, children: childContext(el, facts, ctx, isRoot, dirtyBelow, staleBelow) };
}

function childContext(el: Element, facts: StyleFacts, ctx: WalkContext, isRoot: boolean, dirty: boolean, stale: boolean): WalkContext {
  const { cursor, overflowX: ox, overflowY: oy } = facts;
  let { hardClip, viewClip, clipper } = ctx;
  // A fixed element escapes every ancestor's clip (position is only worth reading under a clip).
  if ((hardClip || viewClip) && facts.position === 'fixed') { hardClip = viewClip = null; clipper = null; }
  // Overflow does nothing on inline boxes, whatever the computed value says. A clip matters only to
  // what the element holds: a text field's or an image's own box (overflow: clip in Chrome's UA
  // sheet) is not read for children it cannot have. A <select> keeps it (its options are walked,
  // and its size says whether it holds targets even without them).
  if (!isRoot && (ox !== 'visible' || oy !== 'visible') && holdsElements(el) && !/^(inline|contents)$/.test(facts.display)) {
    const own = clipBox(el);
    const scrolls = isScrollingOverflow(ox) || isScrollingOverflow(oy);
    viewClip = viewClip ? intersectBox(viewClip, own) : own;
    if (!scrolls) { hardClip = hardClip ? intersectBox(hardClip, own) : own; clipper = { el, box: own, outer: clipper }; }
  }
  if (cursor === ctx.parentCursor && hardClip === ctx.hardClip && viewClip === ctx.viewClip && dirty === ctx.dirty && stale === !!ctx.stale) return ctx;
  return { inShadow: ctx.inShadow, parentCursor: cursor, hardClip, clipper, viewClip, struct: ctx.struct, dirty, ...(stale && { stale }) };
}

/** Whether a walk can meet anything below `el` (a child element or a shadow root), or it is a <select>. */
function holdsElements(el: Element): boolean {
  return !!el.firstElementChild || el.tagName === 'SELECT' || !!shadowRootOf(el);
}

/** Intersection, collapsing to an empty box rather than null so that "clipped away" stays a clip. */
export function intersectBox(a: Box, b: Box): Box {
  const x = Math.max(a[0], b[0]);
  const y = Math.max(a[1], b[1]);
  const w = Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - x);
  const h = Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - y);
  return [x, y, w, h];
}

/** Stamps every target below `root`; returns how many elements carry an ID. */
export function tagSubtree(root: ParentNode, start?: WalkContext): number {
  let n = 0;
  walkElements(root, (el, ctx) => {
    const seen = inspect(el, ctx);
    if (seen.interactive || seen.scroll) { stamp(el); n++; }
    return seen.children;
  }, start);
  flushStamps();
  return n;
}

let observer: MutationObserver | null = null;
const observedRoots = new WeakSet<Node>();

/** Watches a document or shadow root for added elements (MutationObserver does not cross shadow boundaries). */
export function observeRoot(root: Node): void {
  if (!observer || observedRoots.has(root)) return;
  observedRoots.add(root);
  observer.observe(root, { childList: true, subtree: true });
  watchForChanges(root);
}

// The auto-tagger's work: elements added and not looked at yet, the walk it is in the middle of,
// and what it looked at in this round (a child walked with its parent is not walked again).
const pending = new Set<Element>();
let walking: SteppedWalk | null = null;
let looked = new WeakSet<Element>();
const taggerCounts = { inspected: 0, slices: 0 };
/**
 * A slice of tagging. A page that loads 20k elements gave the tagger a 450 ms task, which a read
 * asked for right after the load waited behind before it could start (and then walked it all again).
 */
const SLICE_MS = 10;

/**
 * A read walked the whole document: every element added so far was looked at and its targets
 * stamped, with the same inspect() the tagger uses, so the tagger has nothing left to do.
 */
export function readCoveredAll(): void {
  // Additions not handed to the tagger yet (a read in the task that made them) are covered too.
  observer?.takeRecords();
  pending.clear();
  walking = null;
  looked = new WeakSet();
}

/** What the tagger did so far (a debug call for tests): elements inspected, slices run, work left. */
export function taggerStats(): { inspected: number; slices: number; pending: number } {
  return { ...taggerCounts, pending: pending.size + (walking ? 1 : 0) };
}

/** Tags elements as they are added, debounced and in slices, so IDs exist before anyone asks for a snapshot. */
export function startAutoTagger(doc: Document, delayMs = 100): void {
  if (observer) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const look = (el: Element, ctx: WalkContext): WalkContext | null => {
    // Removed since it was queued (the walk goes on across tasks): nothing to tag.
    if (!el.isConnected) return null;
    looked.add(el);
    taggerCounts.inspected++;
    const seen = inspect(el, ctx);
    if (seen.interactive || seen.scroll) stamp(el);
    return seen.children;
  };
  const flush = () => {
    timer = undefined;
    taggerCounts.slices++;
    const deadline = performance.now() + SLICE_MS;
    const stop = () => performance.now() > deadline;
    let done = !walking || walking.run(look, stop);
    for (const el of pending) {
      if (!done || stop()) break;
      pending.delete(el);
      // The parser adds parents before children: a child already walked with its parent is skipped.
      if (!el.isConnected || looked.has(el)) continue;
      const parent = el.parentElement;
      const parentCursor = parent ? getComputedStyle(parent).cursor : 'auto';
      const ctx: WalkContext = { ...ROOT_CONTEXT, inShadow: el.getRootNode() instanceof ShadowRoot, parentCursor };
      const children = look(el, ctx);
      if (!children) continue;
      walking = new SteppedWalk(el, children);
      done = walking.run(look, stop);
    }
    if (done) walking = null;
    flushStamps();
    if (walking || pending.size) timer = setTimeout(flush, 0);
    else looked = new WeakSet();
  };
  observer = new MutationObserver((records) => {
    for (const r of records) for (const n of Array.from(r.addedNodes)) if (n.nodeType === Node.ELEMENT_NODE) pending.add(n as Element);
    if (pending.size && timer === undefined) timer = setTimeout(flush, delayMs);
  });
  observeRoot(doc);
  onShadowRootAdopted(observeRoot);
}
