// A control that only wraps another one: a jQuery UI tab (`li[role=tab]`) around the link that
// fills it and does the switching, a list option around its link. A press on the inner control
// is a press on the wrapper, and listing both would hand the agent two IDs for one thing.
import { hasGestureListener } from './gestures.js';
import { isInteractiveByMarkup } from './interactive.js';
import { nameOf } from './names.js';
import { roleOf } from './roles.js';

/** Controls the browser itself gives behaviour: never a wrapper's mere label. */
const OWN_BEHAVIOUR = new Set(['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA']);
// A wrapper holds little more than its control; a card or a form is never one.
const MAX_WRAPPER_ELEMENTS = 40;

/**
 * Whether `inner`, a control inside `outer`, does what `outer` does: it is the only control in
 * it and carries the same name. Otherwise (a card's "Remove" button) it does something else.
 */
export function onlyWraps(outer: Element, inner: Element): boolean {
  // A native control, or one found listening for a gesture, has behaviour of its own: a
  // <button> that a widget library's tab header (jQuery UI's accordion) holds keeps its own ID.
  if (OWN_BEHAVIOUR.has(inner.tagName) || hasGestureListener(inner)) return false;
  const below = outer.getElementsByTagName('*');
  if (below.length > MAX_WRAPPER_ELEMENTS) return false;
  for (const el of Array.from(below)) if (el !== inner && isInteractiveByMarkup(el)) return false;
  const name = nameOf(outer, roleOf(outer, false));
  return name !== '' && name === nameOf(inner, roleOf(inner, false));
}
