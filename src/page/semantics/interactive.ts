// Whether an element can be operated: by its markup (native controls, ARIA widget roles, handlers,
// tabindex), by listening for a press, or by looking clickable (a pointer cursor the parent lacks).
import { INTERACTIVE_ROLES } from '../../model/pagemodel/roles.js';
import { roleFor } from './accname.js';
import { hasGestureListener, takesDrops } from './gestures.js';
import { controlOfLabel } from './labels.js';

const NATIVE_CONTROLS = new Set(['BUTTON', 'SELECT', 'TEXTAREA', 'SUMMARY']);
const REAL_CONTROLS = 'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[onclick]';

/** Explicit signals that an element can be operated, cheapest first; cursor is a separate, styled signal. */
export function isInteractiveByMarkup(el: Element): boolean {
  const tag = el.tagName;
  if (NATIVE_CONTROLS.has(tag)) return true;
  if (tag === 'INPUT') return (el as HTMLInputElement).type !== 'hidden';
  // A link without href is inert by itself, but onclick, a role or a tabindex below still make it a target.
  if ((tag === 'A' || tag === 'AREA') && el.hasAttribute('href')) return true;
  if (el.hasAttribute('role') && INTERACTIVE_ROLES.has(roleFor(el))) return true;
  if (el.hasAttribute('onclick')) return true;
  if (reactsByAttribute(el)) return true;
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0 && tag !== 'IFRAME') return true;
  if ((el as HTMLElement).isContentEditable) {
    // Only the editing host, not every paragraph inside it.
    const parent = el.parentElement as HTMLElement | null;
    return !parent || !parent.isContentEditable;
  }
  return false;
}

/**
 * Handlers in markup for the other gestures an agent may have to perform (double click, right
 * click, hover, drag and drop), and drag sources: without them such an element has no ID.
 */
const GESTURE_HANDLERS = ['ondblclick', 'oncontextmenu', 'onmouseover', 'onmouseenter', 'ondragover', 'ondrop'];

function reactsByAttribute(el: Element): boolean {
  if (el.getAttribute('draggable') === 'true' || listensAsTarget(el)) return true;
  for (const a of GESTURE_HANDLERS) if (el.hasAttribute(a)) return true;
  return false;
}

/**
 * An element found listening for a gesture (gestures.ts) is a target of its own unless it holds
 * controls: then it is where a framework delegates its rows' events (Svelte's app root listens for
 * every click and double click), and the controls and row texts inside are the targets. A drop
 * zone stays a target whatever it holds: it is where a drag ends.
 */
export function listensAsTarget(el: Element): boolean {
  return hasGestureListener(el) && (takesDrops(el) || !el.querySelector(REAL_CONTROLS));
}

/**
 * Elements that only look clickable: the pointer cursor starts at them rather than being
 * inherited from a parent that already has it (a link's inner <span> is not a second target).
 */
export function looksClickable(el: Element, cursor: string, parentCursor: string): boolean {
  const tag = el.tagName;
  if (cursor !== 'pointer' || (parentCursor === 'pointer' && !nestedItem(el))) return false;
  // A label forwards clicks to its control (or stands in for it), which is tagged itself.
  if (tag === 'LABEL' && controlOfLabel(el as HTMLLabelElement)) return false;
  if (tag === 'BODY' || tag === 'HTML') return false;
  // A styled wrapper around a real control (a card around its link) is not a second target.
  return !el.querySelector(REAL_CONTROLS);
}

/**
 * A list item in a list inside another list item (a tree's file in its folder) is a target of its
 * own even when the pointer cursor comes down from the folder: it is not the folder's inner text.
 */
function nestedItem(el: Element): boolean {
  return el.tagName === 'LI' && el.parentElement?.parentElement?.tagName === 'LI';
}

const SCROLLS = /^(auto|scroll|overlay)$/;

export function isScrollingOverflow(overflow: string): boolean {
  return SCROLLS.test(overflow);
}

/**
 * Containers whose own content overflows them and that the user can scroll. Takes the overflow
 * values already read: scrollHeight is costly, so it is read only where scrolling is possible.
 */
export function scrollOverflow(el: Element, overflowX: string, overflowY: string): { v: boolean; h: boolean } | null {
  const canV = SCROLLS.test(overflowY);
  const canH = SCROLLS.test(overflowX);
  if (!canV && !canH) return null;
  const v = canV && el.scrollHeight > el.clientHeight + 50;
  const h = canH && el.scrollWidth > el.clientWidth + 50;
  return v || h ? { v, h } : null;
}
