// An element's role as the snapshot lists it: the ARIA role (explicit, else implicit), else
// 'clickable' for something that takes a press, or 'region' for a scrolling container.
import { getRole } from 'dom-accessibility-api';
import { roleFor } from './accname.js';

const INPUT_FALLBACK: Record<string, string> = {
  password: 'textbox', date: 'textbox', 'datetime-local': 'textbox', month: 'textbox', week: 'textbox',
  time: 'textbox', color: 'button', file: 'button',
};

/** ARIA role (explicit, else implicit); elements with no widget role are 'clickable' or, for containers, 'region'. */
export function roleOf(el: Element, scrollContainer: boolean): string {
  // A role attribute names fallbacks ("foo button"): the first token ARIA knows counts, and
  // with none known the element keeps its native role (dom-accessibility-api takes the first token as it is).
  const role = el.hasAttribute('role') ? roleFor(el) : getRole(el);
  if (role && role !== 'generic' && role !== 'presentation' && role !== 'none') return role;
  const tag = el.tagName;
  if (tag === 'INPUT') return INPUT_FALLBACK[(el as HTMLInputElement).type] ?? 'textbox';
  if (tag === 'SUMMARY') return 'button';
  if (tag === 'TEXTAREA') return 'textbox';
  if ((el as HTMLElement).isContentEditable) return 'textbox';
  if (scrollContainer && !el.hasAttribute('onclick')) return 'region';
  return 'clickable';
}
