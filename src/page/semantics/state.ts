// An element's live state: its value (secrets replaced in the page, before anything leaves it) and
// its states (checked, disabled, expanded, focused…) in a fixed order.
import { REDACTED } from '../../model/safety/secrets.js';
import { reactsToHover } from './gestures.js';
import { clean } from './names.js';
import { isSecretField } from './secretFields.js';

export { REDACTED, isSecretField };
const MAX_VALUE = 100;
const NO_VALUE_TYPES = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'hidden', 'file', 'color']);

/** The current value of a field, truncated; secrets are replaced before anything leaves the page. */
export function valueOf(el: Element, role: string): string | undefined {
  const tag = el.tagName;
  if (tag === 'INPUT') {
    const input = el as HTMLInputElement;
    if (NO_VALUE_TYPES.has(input.type) || !input.value) return undefined;
    if (isSecretField(el)) return REDACTED;
    return clean(input.value, MAX_VALUE);
  }
  if (tag === 'TEXTAREA') {
    const value = (el as HTMLTextAreaElement).value;
    return value ? (isSecretField(el) ? REDACTED : clean(value, MAX_VALUE)) : undefined;
  }
  if (tag === 'SELECT') {
    const selected = Array.from((el as HTMLSelectElement).selectedOptions, (o) => clean(o.label || o.textContent, 40));
    return selected.join(', ') || undefined;
  }
  if (role === 'slider' || role === 'spinbutton' || role === 'progressbar') {
    return clean(el.getAttribute('aria-valuetext') || el.getAttribute('aria-valuenow')) || undefined;
  }
  if ((el as HTMLElement).isContentEditable) return clean(el.textContent, MAX_VALUE) || undefined;
  return undefined;
}

/** States in a fixed order, so equal elements always serialise the same way. */
export function statesOf(el: Element, focused: Element | null): string[] {
  const s: string[] = [];
  const aria = (name: string) => el.getAttribute(name);
  const input = el as HTMLInputElement;
  if (el.matches(':disabled') || aria('aria-disabled') === 'true') s.push('disabled');
  const checkable = el.tagName === 'INPUT' && (input.type === 'checkbox' || input.type === 'radio');
  if (checkable && input.indeterminate || aria('aria-checked') === 'mixed') s.push('mixed');
  else if (checkable ? input.checked : aria('aria-checked') === 'true') s.push('checked');
  const expanded = aria('aria-expanded');
  if (expanded === 'true') s.push('expanded');
  else if (expanded === 'false') s.push('collapsed');
  else if (el.tagName === 'SUMMARY' && el.parentElement?.tagName === 'DETAILS') {
    s.push((el.parentElement as HTMLDetailsElement).open ? 'expanded' : 'collapsed');
  } else if (holdsHiddenList(el)) s.push('collapsed');
  if (aria('aria-selected') === 'true' || (el.tagName === 'OPTION' && (el as HTMLOptionElement).selected)) s.push('selected');
  if (aria('aria-pressed') === 'true') s.push('pressed');
  if (input.required === true || aria('aria-required') === 'true') s.push('required');
  if (input.readOnly === true || aria('aria-readonly') === 'true') s.push('readonly');
  if (focused === el) s.push('focused');
  if (hoverTarget(el)) s.push('hover');
  return s;
}

/** Elements that are a control by their tag or role: what they do is said by that, not by `hover`. */
const SAYS_ITSELF = new Set(['A', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'SUMMARY', 'LABEL', 'OPTION']);

/**
 * A plain element that reacts to the pointer over it (a listener, a :hover rule, an onmouseover
 * attribute): the `hover` state tells an agent that browser_hover is what it takes.
 */
function hoverTarget(el: Element): boolean {
  if (SAYS_ITSELF.has(el.tagName) || el.hasAttribute('role')) return false;
  return reactsToHover(el) || el.hasAttribute('onmouseover') || el.hasAttribute('onmouseenter');
}

/**
 * A tree's closed folder written without ARIA (jQuery treeview and the like): a list item whose
 * nested list is not rendered. Its content is there, behind a click: a planner looking for
 * something not in view opens it (src/agent/reveal.ts).
 */
function holdsHiddenList(el: Element): boolean {
  if (el.tagName !== 'LI') return false;
  for (const c of Array.from(el.children)) {
    if ((c.tagName === 'UL' || c.tagName === 'OL') && getComputedStyle(c).display === 'none') return true;
  }
  return false;
}
