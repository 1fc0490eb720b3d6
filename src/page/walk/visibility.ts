// Whether an element can be seen, and where: its box clipped by every container that clips it,
// what opacity and covering elements hide, and whether a box meets the viewport.
import type { Box } from '../../model/contracts/schema.js';
import { labelsFor } from '../semantics/labels.js';
import { composedContains, deepElementFromPoint } from '../identity/shadow.js';

const VISIBILITY_CHECK = { checkOpacity: true, checkVisibilityCSS: true } as const;

/**
 * The element's box in its frame's viewport, or null when a person could not see it nor aim at
 * it. A transparent element that still takes the pointer is a target, as it is for a person's
 * click, whether its own opacity does it (the custom-checkbox pattern: an opacity-0 input stretched
 * over a styled row) or an ancestor's (a footer faded in on scroll): Chrome and Playwright list it.
 */
/** The box an overflowing element clips its children to: inside its borders, without its scrollbars. */
export function clipBox(el: Element): Box {
  const r = el.getBoundingClientRect();
  return [r.x + el.clientLeft, r.y + el.clientTop, el.clientWidth, el.clientHeight];
}

/** `keep.rect` takes the element's own border box, unrounded, when it was read (what an edit is checked against: editedRegions.ts). */
export function visibleBox(el: Element, keep?: { rect?: DOMRect }): Box | null {
  if (keep) keep.rect = undefined;
  if (!el.checkVisibility(VISIBILITY_CHECK) && !transparentTarget(el)) return proxyBox(el);
  let r = el.getBoundingClientRect();
  if (keep) keep.rect = r;
  // The "visually hidden" idiom shrinks a control to 1px and clips it: nobody can aim at that.
  if (r.width <= 2 || r.height <= 2) {
    const proxy = proxyBox(el);
    if (proxy) return proxy;
  }
  if (r.width < 1 || r.height < 1) {
    // An inline element wrapping block content (a link around a card) has an empty box of its own.
    const inner = unionOfChildren(el);
    if (!inner) return proxyBox(el);
    r = inner;
  }
  return [round(r.x), round(r.y), round(r.width), round(r.height)];
}

/** Rendered and taking the pointer, so only opacity (its own or an ancestor's) hides it. */
function transparentTarget(el: Element): boolean {
  return el.checkVisibility({ checkVisibilityCSS: true }) && getComputedStyle(el).pointerEvents !== 'none';
}

/**
 * Styled checkboxes and radios hide the real input and show its label instead: the label is
 * where a person clicks (and, when it is bound to nothing, the only thing the page listens on),
 * so it lends the input its box.
 */
function proxyBox(el: Element): Box | null {
  if (el.tagName !== 'INPUT') return null;
  const type = (el as HTMLInputElement).type;
  if (type !== 'checkbox' && type !== 'radio' && type !== 'file') return null;
  for (const label of labelsFor(el)) {
    if (!label.checkVisibility(VISIBILITY_CHECK)) continue;
    const r = label.getBoundingClientRect();
    if (r.width >= 1 && r.height >= 1) return [round(r.x), round(r.y), round(r.width), round(r.height)];
  }
  return null;
}

function unionOfChildren(el: Element): DOMRect | null {
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  let n = 0;
  for (let c = el.firstElementChild; c && n < 50; c = c.nextElementSibling, n++) {
    if (!c.checkVisibility(VISIBILITY_CHECK)) continue;
    const r = c.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    left = Math.min(left, r.left); top = Math.min(top, r.top);
    right = Math.max(right, r.right); bottom = Math.max(bottom, r.bottom);
  }
  return right > left && bottom > top ? new DOMRect(left, top, right - left, bottom - top) : null;
}

export function round(v: number): number {
  return Math.round(v);
}

export function intersectsViewport(box: Box, width: number, height: number): boolean {
  const [x, y, w, h] = box;
  return x + w > 0 && y + h > 0 && x < width && y < height;
}

/**
 * Hit-tests the centre, then a few inner points: true when every tested point lands on something
 * that is neither the element, inside it, an ancestor of it, nor a label for it.
 * Undefined when no point is inside the viewport (nothing to test against). `hits` takes what each
 * tested point hit: the answer holds while none of those changes (editedRegions.ts).
 */
export function isOccluded(el: Element, box: Box, doc: Document, width: number, height: number, hits?: Element[]): boolean | undefined {
  const [x, y, w, h] = box;
  const points: Array<[number, number]> = [
    [x + w / 2, y + h / 2], [x + w * 0.25, y + h * 0.25], [x + w * 0.75, y + h * 0.25],
    [x + w * 0.25, y + h * 0.75], [x + w * 0.75, y + h * 0.75],
  ];
  let tested = false;
  for (const [px, py] of points) {
    if (px < 0 || py < 0 || px >= width || py >= height) continue;
    const hit = deepElementFromPoint(doc, px, py);
    if (!hit) continue;
    hits?.push(hit);
    tested = true;
    if (composedContains(el, hit) || composedContains(hit, el)) return false;
    const label = hit.closest('label');
    if (label && labelsFor(el).includes(label)) return false;
  }
  return tested ? true : undefined;
}
