// When the only change since the last read is new text inside targets, which occlusion answers of
// that read still hold (issue 21: a warm re-read re-ran every hit test of a cold one).
//
// A hit test at a point P answers with the topmost element painted at P. Re-testing only targets
// that moved is unsound: only targets and clips have kept boxes, and an element that is neither (an
// absolute badge, a sticky or fixed bar) can move over a still target after a reflow. So the rule
// here proves, for each edited text, that nothing outside an element around it can paint
// differently, and re-tests only what that proof leaves open:
// - every change since the last read is new data for a text node that held text and still does
//   (changes.ts `edits`: no attribute, node, style sheet, state, label or font change, and no
//   `:empty` flip, so no selector matches differently anywhere);
// - no kept box moved, the viewport did not scroll or resize, nothing animates (stillScene.ts);
// - each edited text lies inside a kept target R (its region) whose border box, unrounded, is what it
//   was at the last read. Layout outside R sees R only through its box, so it is unchanged;
// - nothing in R paints outside R's box now: every element's box and every text fragment in R lies
//   inside it; R holds no shadow root (unseen content), no generated content (::before/::after boxes
//   are in no rect an element reports), no anchor an element elsewhere is placed by;
// - the text is in no `dir=auto` element or <bdi> (its direction, and :dir(), would follow the text)
//   and in no form control's content (<textarea>, <option>: values and :invalid follow the text).
// Then at a point outside every region only what R paints could differ, and R paints nothing there
// now: a target whose box lies outside every region keeps its answer, unless a point of it hit
// something inside a region last time (R's old text may have overflowed onto it).
// Left open, knowingly: R's baseline and intrinsic size are read by its container too (a line
// aligned on R's last baseline, a shrink-to-fit or grid track sized by R's content). Text that keeps
// R's box exactly yet changes those (a fixed-height inline-block whose text wraps to another line)
// can move neighbours that are not targets. So can a style rule edited in place through the CSSOM,
// which nothing notes: the still-scene reuse (stillScene.ts) has that gap too.
import type { Box } from '../../model/contracts/schema.js';
import type { LiveWalk, Visit } from '../walk/liveWalk.js';
import { composedContains, composedParent, shadowRootOf } from '../identity/shadow.js';

/** A kept target an edit lies in, with its border box at the last read. */
export interface Region { el: Element; rect: DOMRect }

/** Past this many elements in one region, proving it paints only inside its box costs more than hit tests. */
const MAX_REGION = 200;
/** Text whose content is a value or decides direction: what it changes reaches beyond its box. */
const VALUE_TEXT = new Set(['TEXTAREA', 'OPTION', 'OPTGROUP', 'SELECT', 'DATALIST', 'TITLE', 'SCRIPT', 'STYLE', 'BDI']);

/**
 * Before the kept boxes are read again: the region of each edit, with its box from the last read,
 * or null when an edit lies in no kept target or where its text reaches beyond its box.
 */
export function editedRegions(walk: LiveWalk, edits: Text[], read: number): Region[] | null {
  if (walk.read !== read - 1) return null;
  const regions: Region[] = [];
  for (const text of edits) {
    let region: Visit | null = null;
    for (let a = composedParent(text); a && a.nodeType === Node.ELEMENT_NODE; a = composedParent(a)) {
      const el = a as Element;
      if (VALUE_TEXT.has(el.tagName) || el.getAttribute('dir')?.toLowerCase() === 'auto') return null;
      if (!region) {
        const first = walk.spans.get(el)?.first;
        if (first && first.el === el && first.seen && first.box) region = first;
      }
    }
    if (!region || !region.rect || region.checked !== read - 1) return null;
    if (!regions.some((r) => r.el === region!.el)) regions.push({ el: region.el, rect: region.rect });
  }
  return regions.length > 0 ? regions : null;
}

/** After the kept boxes held still: the regions, when each has its old box and paints only inside it; else null. */
export function regionsHold(regions: Region[]): Region[] | null {
  for (const { el, rect } of regions) {
    if (!el.isConnected) return null;
    const now = el.getBoundingClientRect();
    if (now.x !== rect.x || now.y !== rect.y || now.width !== rect.width || now.height !== rect.height) return null;
    if (!paintsInside(el, now)) return null;
  }
  return regions;
}

function paintsInside(root: Element, box: DOMRect): boolean {
  const all = [root, ...Array.from(root.querySelectorAll('*'))];
  if (all.length > MAX_REGION) return false;
  for (const el of all) {
    // Content no walk can see (a shadow root, or a custom element's that may be closed) may lie anywhere.
    if (shadowRootOf(el) || el.tagName.includes('-')) return false;
    if (el.hasAttribute('popovertarget') || el.hasAttribute('interestfor') || el.hasAttribute('commandfor')) return false;
    const style = getComputedStyle(el) as CSSStyleDeclaration & { anchorName?: string };
    if (style.anchorName && style.anchorName !== 'none') return false;
    if (style.display === 'list-item' || generates(el, '::before') || generates(el, '::after')) return false;
    if (el !== root && !inside(el.getBoundingClientRect(), box)) return false;
  }
  // Text paints where its fragments are (and overflows its element's box when it does not fit).
  const range = document.createRange();
  range.selectNodeContents(root);
  for (const r of Array.from(range.getClientRects())) if (!inside(r, box)) return false;
  return true;
}

function generates(el: Element, pseudo: string): boolean {
  const s = getComputedStyle(el, pseudo);
  return s.content !== 'none' && s.content !== 'normal' && s.display !== 'none';
}

/** An empty box paints and hits nothing; any other must lie within `box`. */
function inside(r: DOMRect, box: DOMRect): boolean {
  if (r.width === 0 && r.height === 0) return true;
  return r.left >= box.left && r.top >= box.top && r.right <= box.right && r.bottom <= box.bottom;
}

/**
 * Whether an occlusion answer tested at `box`, whose points hit `hits`, holds: the box lies outside
 * every region (edges count as inside) and no point hit anything in one.
 */
export function answerHolds(regions: Region[], box: Box, hits: Element[]): boolean {
  for (const { el, rect } of regions) {
    if (box[0] <= rect.right && box[0] + box[2] >= rect.left && box[1] <= rect.bottom && box[1] + box[3] >= rect.top) return false;
    for (const hit of hits) if (!hit.isConnected || composedContains(el, hit)) return false;
  }
  return true;
}
