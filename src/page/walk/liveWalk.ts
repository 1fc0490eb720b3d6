// The last full-page walk, kept so that the next one reads only what changed (issue 21).
//
// A walk leaves a visit for every element whose walk did something: a target candidate
// (interactive or scrollable: its look and its visible box), or a container that clips what it
// holds (its clip box). Visits form one list in walk order. Every walked element remembers the
// context it was walked with and the first visit at or after it: its subtree's visits are the run
// from there that it contains.
//
// The next full-page walk skips an element's subtree and replays that run when it can prove the
// run is what walking would give again:
// - nothing in the subtree, the element itself or what it inherits changed since the kept walk
//   (change marks from the MutationObserver and the state listeners, by read number: changes.ts);
// - the element gets the same context (clips, cursor, shadow) — its ancestors are walked afresh;
// - no clip in the run moved or changed what it holds: before the walk, every kept clip box is
//   read again, with the size of what it holds (geometry moves without any mutation: an element
//   pushed down by another, a resize, a scroll, an image arriving).
// A target's own box is read again too, but a target that only moved (not a scroller, not a clip)
// does not make its run dirty: its box is the one thing of it that geometry decides, so the kept
// visit takes the new box and is replayed. A page scroll or a block pushed in above then costs one
// box read per target, not a walk. Scrollers and clips that moved are walked again: what they
// hold is in or out of view by their boxes.
// What replaying re-reads anyway, because it changes without a mutation: values, states (checked,
// focus), occlusion, scroll depth, and names that depend on elements elsewhere (see describe()).
import type { Box } from '../../model/contracts/schema.js';
import { composedContains } from '../identity/shadow.js';
import type { Inspection } from '../identity/tagger.js';
import { clipBox, visibleBox } from './visibility.js';
import type { Clipper, WalkContext } from './walker.js';

export interface Visit {
  el: Element;
  /** The context the element was walked with. */
  ctx: WalkContext;
  /** The element clips its children (overflow): its own clip box then (null: it escapes its ancestors' clips, fixed). */
  clip?: Box | null;
  /** It cuts off what overflows it (not a scroller): it counts the targets it hides. */
  opens?: boolean;
  /** It scrolls or clips targets: a viewport read checks that it did not scroll. */
  container?: boolean;
  /** It clips what overflows it: how large what it holds was (scrollWidth, scrollHeight); it scrolls once that outgrows it. */
  sizes?: [number, number];
  /** A target candidate: what inspect() said, and its visible box then. */
  seen?: Inspection;
  box?: Box | null;
  /** Its own border box, unrounded, when `box` was last read (an edit inside it is checked against it: editedRegions.ts). */
  rect?: DOMRect;
  /** What describing it found that only its markup and ancestors decide (role, tag, attributes), and its repeated row. */
  fixed?: FixedFacts;
  row?: Element | null;
  next: Visit | null;
  /** Read at which the pre-pass last looked, and whether the box moved then. */
  checked: number;
  moved: boolean;
}

export interface FixedFacts { role: string; tag: string; type?: string; placeholder?: string; href?: string; shadow?: boolean }

interface Span { ctx: WalkContext; first: Visit | null }

export interface LiveWalk {
  /** The read number of the walk (change marks after it make subtrees dirty). */
  read: number;
  head: Visit | null;
  spans: WeakMap<Element, Span>;
}

/** Builds the visit list of a walk, element by element, in walk order. */
export class VisitList {
  head: Visit | null = null;
  private tail: Visit | null = null;
  /** Elements walked since the last visit was added: their first visit is the next one. */
  private waiting: Array<[Element, WalkContext]> = [];

  constructor(private readonly spans: WeakMap<Element, Span>) {}

  /** An element is walked with `ctx`. */
  walked(el: Element, ctx: WalkContext): void {
    this.waiting.push([el, ctx]);
  }

  /** Appends a visit: a new one, or a kept one as it stands (a replayed subtree). */
  add(v: Visit): void {
    if (this.tail) this.tail.next = v; else this.head = v;
    this.tail = v;
    v.next = null;
    for (const [el, ctx] of this.waiting) this.spans.set(el, { ctx, first: v });
    this.waiting = [];
  }

  /** Pending elements get no run (their subtrees held no visit). */
  finish(): void {
    for (const [el, ctx] of this.waiting) this.spans.set(el, { ctx, first: null });
    this.waiting = [];
  }
}

/**
 * Reads every kept box again and notes which visits moved so that their runs are walked again; a
 * target that only moved takes its new box instead (see the module comment).
 */
export function checkGeometry(walk: LiveWalk, read: number): boolean {
  let changed = false;
  for (let v = walk.head; v; v = v.next) {
    v.checked = read;
    if (!v.el.isConnected) { v.moved = changed = true; continue; }
    let moved = false;
    if (v.clip !== undefined) moved = !sameBox(v.clip, v.clip && clipBox(v.el));
    if (!moved && v.sizes) { const [w, h] = heldSize(v.el); moved = v.sizes[0] !== w || v.sizes[1] !== h; }
    if (!moved && v.seen) {
      const box = visibleBox(v.el, v);
      if (!sameBox(v.box ?? null, box)) {
        changed = true;
        if (v.clip === undefined && !v.sizes && !v.seen.scroll && v.box && box) v.box = box;
        else moved = true;
      }
    }
    v.moved = moved;
    if (moved) changed = true;
  }
  return changed;
}

/** What a clipping element holds, measured: a kept visit of it notes this (see Visit.sizes). */
export function heldSize(el: Element): [number, number] {
  return [el.scrollWidth, el.scrollHeight];
}

/** The run of kept visits an element's subtree holds, if its walk can be skipped (see the module comment); else null. */
export function replayable(walk: LiveWalk, el: Element, ctx: WalkContext, read: number): Visit[] | null {
  const span = walk.spans.get(el);
  if (!span || !sameContext(span.ctx, ctx)) return null;
  const run: Visit[] = [];
  for (let v = span.first; v && (v.el === el || composedContains(el, v.el)); v = v.next) {
    if (v.checked !== read || v.moved) return null;
    run.push(v);
  }
  return run;
}


function sameClipper(a: Clipper | null, b: Clipper | null): boolean {
  for (; a && b; a = a.outer, b = b.outer) if (a.el !== b.el || !sameBox(a.box, b.box)) return false;
  return a === b;
}

function sameContext(a: WalkContext, b: WalkContext): boolean {
  return a.inShadow === b.inShadow && a.parentCursor === b.parentCursor && a.struct === b.struct
    && sameBox(a.hardClip, b.hardClip) && sameBox(a.viewClip, b.viewClip) && sameClipper(a.clipper, b.clipper);
}

/** Two boxes (or no box) alike. */
export function sameBox(a: Box | null, b: Box | null): boolean {
  if (a === b) return true;
  return !!a && !!b && a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
}
