// The walk over a frame's elements, through open and closed shadow roots, carrying down what a
// child inherits (clipping, cursor, structure) and skipping subtrees nothing can be seen in.
import type { Box } from '../../model/contracts/schema.js';
import { shadowRootOf } from '../identity/shadow.js';

// Subtrees that never hold anything an agent can see or operate.
export const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'svg', 'math']);

export interface Clipper { el: Element; box: Box; outer: Clipper | null }

/** What an element passes down to its children. */
export interface WalkContext {
  inShadow: boolean;
  /** `cursor` of the parent element. */
  parentCursor: string;
  /** Region outside of which ancestors with overflow: hidden/clip cut content off (null: none). */
  hardClip: Box | null;
  /**
   * The ancestors whose overflow makes `hardClip`, innermost first, each with its own clip box:
   * the one that cuts a target off says how many it hides.
   */
  clipper: Clipper | null;
  /** The same, also counting scroll containers: what is shown right now. */
  viewClip: Box | null;
  /** Index of the nearest enclosing structure node of the read (-1: none, or not reading structure). */
  struct: number;
  /** Something in this subtree changed since the last read: nothing derived here then may be reused. */
  dirty: boolean;
  /** Something in this subtree changed since the kept full-page walk: no subtree below may take its results (liveWalk.ts). */
  stale?: boolean;
}

export const ROOT_CONTEXT: WalkContext = { inShadow: false, parentCursor: 'auto', hardClip: null, clipper: null, viewClip: null, struct: -1, dirty: false };

/**
 * Visits every element below `root` in document order, shadow content before light children,
 * without recursion (pages nest thousands deep). `visit` returns the context its children get,
 * or null to skip the subtree.
 */
export function walkElements(
  root: ParentNode,
  visit: (el: Element, ctx: WalkContext) => WalkContext | null,
  start: WalkContext = ROOT_CONTEXT,
): void {
  // Two parallel stacks rather than one of pairs: a first read of 50k elements made as many
  // short-lived arrays, which the young-generation collector had to sweep during the walk.
  const els: Element[] = [];
  const ctxs: WalkContext[] = [];
  pushChildren(root, start, els, ctxs);
  drain(els, ctxs, visit);
}

/** walkElements() from `root` itself, which the walk meets with `ctx`. */
export function walkSubtree(root: Element, ctx: WalkContext, visit: (el: Element, ctx: WalkContext) => WalkContext | null): void {
  drain([root], [ctx], visit);
}

/**
 * A walk of `root`'s subtree that can stop and go on later, for work that must not hold the page's
 * thread (the auto-tagger): `run` walks until done (true) or until `stop` says so (false).
 */
export class SteppedWalk {
  private readonly els: Element[] = [];
  private readonly ctxs: WalkContext[] = [];

  constructor(root: ParentNode, ctx: WalkContext) {
    pushChildren(root, ctx, this.els, this.ctxs);
  }

  run(visit: (el: Element, ctx: WalkContext) => WalkContext | null, stop: () => boolean): boolean {
    return drain(this.els, this.ctxs, visit, stop);
  }
}

/** Walks what the stacks hold; `stop`, asked every 64 elements, can end it early (false). */
function drain(els: Element[], ctxs: WalkContext[], visit: (el: Element, ctx: WalkContext) => WalkContext | null, stop?: () => boolean): boolean {
  let n = 0;
  while (els.length) {
    if (stop && (++n & 63) === 0 && stop()) return false;
    const el = els.pop()!;
    const ctx = ctxs.pop()!;
    if (SKIP.has(el.tagName)) continue;
    const childCtx = visit(el, ctx);
    if (childCtx === null) continue;
    pushChildren(el, childCtx, els, ctxs);
    const shadow = shadowRootOf(el);
    if (shadow) pushChildren(shadow, childCtx.inShadow ? childCtx : { ...childCtx, inShadow: true }, els, ctxs);
  }
  return true;
}

function pushChildren(parent: ParentNode, ctx: WalkContext, els: Element[], ctxs: WalkContext[]): void {
  // Pushed in reverse so that pops come out in document order.
  for (let c = parent.lastElementChild; c; c = c.previousElementSibling) { els.push(c); ctxs.push(ctx); }
}
