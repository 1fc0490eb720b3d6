// What a viewport read needs to know about the targets it does not look at (issue 21): how many
// the frame has, which of them a clip cuts off and which container says so, which elements are
// controls (rows are found by them), and which containers clip or scroll. A walk of the whole
// frame takes this census. A viewport read after a change takes it again only in the subtrees the
// change tracking marks dirty (changes.ts), so it costs what changed and the viewport, not the page.
//
// Outside those subtrees a change can only move things (content pushed up or down, a container
// grown or shrunk). Of the census, geometry decides:
// - which targets are near the viewport: the intersection observer says, once it has caught up
//   with the change (viewportMembers.ts; until then the read walks the whole frame);
// - which targets a clip cuts off: every target under a clip is measured again;
// - whether a container's content overflows it, and whether a target has any size at all: a
//   container made to overflow, or a target squeezed to nothing, by a change outside both of them
//   is seen by the next walk of the whole frame (a full-page read, or a viewport read after a
//   resize, a load, a new style sheet or a container's scroll), not by this one.
import type { Box } from '../../model/contracts/schema.js';
import type { Freshness } from '../changes/changes.js';
import { composedContains, composedParent } from '../identity/shadow.js';
import { inspect, type Inspection } from '../identity/tagger.js';
import { ROOT_CONTEXT, SKIP, walkSubtree, type Clipper, type WalkContext } from './walker.js';

/** A target a clip cuts off: the container that counts it, and where the target lies from it. */
export type Hidden = [container: Element, direction: string];
export type ClipCounts = Map<Element, { n: number; dirs: Map<string, number> }>;

export class Census {
  /** Targets the frame's `total` counts: visible and not cut off by a clip. */
  readonly counted = new Set<Element>();
  readonly hidden = new Map<Element, Hidden>();
  readonly controls = new Set<Element>();
  /** Every element that clips or scrolls what it holds, with its scroll offsets when it was walked. */
  readonly containers = new Map<Element, [number, number]>();
  /** Targets under a clip: whether it cuts them off is geometry, measured again after any change. */
  readonly underClip = new Set<Element>();

  /** `at`: performance.now() of the walk (changes of geometry after it make the census stale). */
  constructor(readonly at: number) {}

  get total(): number {
    return this.counted.size;
  }

  /** Drops what the census knew about `el` (it is walked again). */
  forget(el: Element): void {
    this.counted.delete(el);
    this.hidden.delete(el);
    this.controls.delete(el);
    this.containers.delete(el);
    this.underClip.delete(el);
  }

  /** A target candidate with its visible box (null: none); returns whether it counts. */
  target(el: Element, seen: Inspection, box: Box | null, ctx: WalkContext): boolean {
    if (seen.interactive) this.controls.add(el);
    if (!box) return false;
    if (!ctx.hardClip) { this.counted.add(el); return true; }
    this.underClip.add(el);
    if (overlaps(box, ctx.hardClip)) { this.counted.add(el); return true; }
    if (seen.interactive && ctx.clipper) this.hidden.set(el, clippedBy(ctx.clipper, box));
    return false;
  }

  container(el: Element): void {
    this.containers.set(el, [el.scrollLeft, el.scrollTop]);
  }

  /** How many targets each container cuts off, and in which directions. */
  counts(): ClipCounts {
    const out: ClipCounts = new Map();
    for (const [container, dir] of this.hidden.values()) {
      let c = out.get(container);
      if (!c) out.set(container, c = { n: 0, dirs: new Map() });
      c.n++;
      c.dirs.set(dir, (c.dirs.get(dir) ?? 0) + 1);
    }
    return out;
  }

  /** Forgets what left the document. */
  sweep(): void {
    for (const set of [this.counted, this.controls, this.underClip]) for (const el of set) if (!el.isConnected) set.delete(el);
    for (const map of [this.hidden, this.containers]) for (const el of map.keys()) if (!el.isConnected) map.delete(el);
  }
}

/** The container that counts `box` as cut off: the innermost one it lies wholly outside of, else (cut off only by several together) the innermost. */
function clippedBy(chain: Clipper, box: Box): Hidden {
  let by = chain;
  for (let c: Clipper | null = chain; c; c = c.outer) if (!overlaps(box, c.box)) { by = c; break; }
  const clip = by.box;
  const dir = box[0] >= clip[0] + clip[2] ? 'right' : box[0] + box[2] <= clip[0] ? 'left' : box[1] >= clip[1] + clip[3] ? 'below' : box[1] + box[3] <= clip[1] ? 'above' : 'outside';
  return [by.el, dir];
}

export function overlaps(box: Box, clip: Box): boolean {
  return clip[2] > 0 && clip[3] > 0 && box[0] < clip[0] + clip[2] && box[0] + box[2] > clip[0] && box[1] < clip[1] + clip[3] && box[1] + box[3] > clip[1];
}

/**
 * The context a walk from the document would give each element, built from its ancestors (shared
 * between the elements asked about). What was derived for an ancestor is reused only where the
 * change tracking says nothing it depends on changed.
 */
export class Contexts {
  /** What the walk finds each element asked about (as an ancestor, or itself) to be; null: it never reaches it. */
  private readonly memo = new Map<Element, Inspection | null>();

  constructor(private readonly fresh: Freshness) {}

  /** How many elements were looked at. */
  get size(): number {
    return this.memo.size;
  }

  /** The context of `el` (null: the walk never reaches it). */
  of(el: Element): WalkContext | null {
    const parent = composedParent(el);
    if (!parent || parent.nodeType !== Node.ELEMENT_NODE) return ROOT_CONTEXT;
    const below = this.seen(parent as Element)?.children;
    if (!below) return null;
    return el.parentNode instanceof ShadowRoot && !below.inShadow ? { ...below, inShadow: true } : below;
  }

  /** What a walk finds `el` to be, asked once (null: the walk never reaches it). */
  seen(el: Element): Inspection | null {
    let seen = this.memo.get(el);
    if (seen === undefined) {
      const ctx = SKIP.has(el.tagName) ? null : this.of(el);
      seen = ctx && this.inspect(el, ctx);
      this.memo.set(el, seen);
    }
    return seen;
  }

  /** Whether nothing that what was derived for `el` depends on changed since. */
  clean(el: Element, ctx: WalkContext): boolean {
    return this.fresh.clean(el, ctx.dirty);
  }

  /** What a walk in `ctx` finds `el` to be, reusing what nothing since changed. */
  inspect(el: Element, ctx: WalkContext): Inspection {
    return inspect(el, ctx, { reuse: this.clean(el, ctx), store: true }, this.fresh.subtreeDirty(el, ctx.dirty));
  }
}

/** Beyond this many changed subtrees, walking them one by one costs more than it saves. */
const MAX_ROOTS = 64;

/**
 * Takes the census again where something changed since the read it holds: the changed subtrees
 * (`fresh.roots`, from the change tracking) and their ancestors are walked again, and every target
 * under a clip is measured again. `visit` takes each element a walk would meet, with its context and
 * what it was found to be, after its entry was forgotten. Returns how many elements it looked at,
 * or null (the census is left as it was) when there are too many subtrees to walk: the caller
 * walks the whole frame then.
 */
export function retakeCensus(
  census: Census, fresh: Pick<Freshness, 'roots' | 'removed'>, contexts: Contexts,
  visit: (el: Element, ctx: WalkContext, seen: Inspection) => void,
): number | null {
  const roots = fresh.roots;
  if (!roots || roots.length > MAX_ROOTS) return null;
  // Only the outermost changed subtrees: an inner one is walked with the one around it.
  const outer = roots.filter((r) => r.isConnected && !roots.some((o) => o !== r && composedContains(o, r)));
  const walked = new Set<Element>();
  const once = (el: Element, ctx: WalkContext, seen = contexts.inspect(el, ctx)): Inspection => {
    walked.add(el);
    census.forget(el);
    visit(el, ctx, seen);
    return seen;
  };
  for (const root of outer) {
    // Its ancestors: what one holds decides whether it overflows (scrolls), and `:has()` can restyle
    // it. Each is inspected once, for its own entry and for the context it gives the root.
    const above: Element[] = [];
    for (let a = composedParent(root); a instanceof Element && !walked.has(a); a = composedParent(a)) above.push(a);
    for (const a of above.reverse()) {
      const seen = contexts.seen(a);
      if (seen) once(a, contexts.of(a)!, seen);
    }
    const ctx = contexts.of(root);
    if (ctx) walkSubtree(root, ctx, (el, c) => once(el, c).children);
  }
  for (const el of [...census.underClip]) {
    if (walked.has(el) || !el.isConnected) continue;
    const ctx = contexts.of(el);
    if (ctx) once(el, ctx); else census.forget(el);
  }
  // Only a removal takes elements out of the document (a sweep looks at every one the census holds;
  // text replaced through textContent removes only a text node).
  if (fresh.removed) census.sweep();
  return walked.size;
}
