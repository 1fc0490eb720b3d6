// Where a frame's secret fields show their value in clear, for the hosts to paint over in every
// image they take of the page (screenshots, set-of-mark, traces). The secret rule is the engine's
// own (secretFields.ts: sticky once a field was secret), so a password field the page turned into a
// text field after it was typed into ("show password") is still covered, as is a card number or a
// one-time code in a plain text field. A native password field draws bullets and needs no cover,
// unless a style unmasks it. Open and adopted closed shadow roots are searched as the walk does.
import type { SecretBoxes } from '../../model/contracts/engine.js';
import { shadowRootOf } from '../identity/shadow.js';
import { isSecretField } from './secretFields.js';

type Rect = [number, number, number, number];

/** Whether the field draws its value as typed: all but a native password field still masked by its style. */
function showsValue(el: Element): boolean {
  if (el.tagName !== 'INPUT' || (el as HTMLInputElement).type !== 'password') return true;
  const style = getComputedStyle(el) as CSSStyleDeclaration & { webkitTextSecurity?: string };
  return style.webkitTextSecurity === 'none';
}

/** Whether anything of the element is drawn (no size, display:none or visibility:hidden draws nothing). */
function drawn(el: Element, r: DOMRect): boolean {
  if (r.width <= 0 || r.height <= 0) return false;
  const check = (el as Element & { checkVisibility?: (o: object) => boolean }).checkVisibility;
  return check ? check.call(el, { visibilityProperty: true }) : true;
}

/**
 * The boxes (frame viewport, CSS px) of the secret fields that show their value. `within`:
 * 'viewport' keeps only what meets the frame's viewport, clipped to it (a frame draws nothing
 * beyond it); 'document' keeps every box, for an image of the whole page.
 */
export function secretBoxes(opts: { within?: 'viewport' | 'document' } = {}): SecretBoxes {
  const width = innerWidth;
  const height = innerHeight;
  const boxes: Rect[] = [];
  const keep = (el: Element) => {
    if (!isSecretField(el) || !showsValue(el)) return;
    const r = el.getBoundingClientRect();
    if (!drawn(el, r)) return;
    if (opts.within === 'document') { boxes.push([r.x, r.y, r.width, r.height]); return; }
    const x0 = Math.max(0, r.left), y0 = Math.max(0, r.top);
    const x1 = Math.min(width, r.right), y1 = Math.min(height, r.bottom);
    if (x1 > x0 && y1 > y0) boxes.push([x0, y0, x1 - x0, y1 - y0]);
  };
  const visit = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') keep(el);
      const shadow = shadowRootOf(el);
      if (shadow) visit(shadow);
    }
  };
  visit(document);
  return { boxes, scroll: [scrollX, scrollY], viewport: [width, height] };
}
