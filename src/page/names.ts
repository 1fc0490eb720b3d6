import { computeAccessibleName } from 'dom-accessibility-api';
import { noteWarning } from './warnings.js';

export const MAX_NAME = 160;
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'slider', 'spinbutton', 'switch']);
const CONTROLS = 'input,select,textarea,button,[contenteditable=""],[contenteditable="true"]';

export function clean(text: string | null | undefined, max = MAX_NAME): string {
  if (!text) return '';
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/**
 * The W3C accessible name first; where it is empty, the label hunt that real forms need
 * (labels without `for`, text in the previous cell, placeholders, data attributes).
 */
export function nameOf(el: Element, role: string): string {
  let name = textOnlyName(el, role);
  if (name) return name;
  try {
    // Chrome counts CSS generated content (::before/::after) in names: so do we.
    name = clean(computeAccessibleName(el, { computedStyleSupportsPseudoElements: true }));
  } catch (e) {
    // A malformed aria-labelledby or an exotic node must not cost the whole snapshot; it is
    // reported with it, and the element is named by the label hunt below.
    noteWarning('the accessible name could not be computed (named by nearby text instead)', e);
  }
  if (name) return name;
  if (FIELD_ROLES.has(role) || el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA') {
    return huntFieldLabel(el);
  }
  return fallbackName(el);
}

const NAME_FROM_TEXT_ROLES = new Set(['link', 'button', 'menuitem', 'tab', 'option', 'treeitem']);

/**
 * The spec's answer for the most common case, without its cost: a link or button holding only
 * text, with no ARIA naming attributes, is named by that text. Everything else takes the full way.
 */
function textOnlyName(el: Element, role: string): string {
  if (!NAME_FROM_TEXT_ROLES.has(role) || el.firstElementChild || el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby')) return '';
  return clean(el.textContent);
}

function huntFieldLabel(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const label of Array.from(labels)) { const t = clean(label.textContent); if (t) return t; }
  const attr = (name: string) => clean(el.getAttribute(name));
  const direct = attr('placeholder') || attr('aria-placeholder');
  if (direct) return direct;
  const type = (el as HTMLInputElement).type;
  if (type === 'checkbox' || type === 'radio') {
    const after = adjacentText(el, 'next');
    if (after) return after;
  }
  return adjacentText(el, 'previous') || cellLabel(el) || attr('data-label') || attr('title') || humanize(el.getAttribute('name')) || humanize(el.id);
}

/** Text of the nearest siblings on one side, climbing a few levels while no other control is in the way. */
function adjacentText(el: Element, side: 'previous' | 'next'): string {
  let node: Element | null = el;
  for (let depth = 0; node && depth < 4; depth++) {
    for (let sib = step(node, side); sib; sib = step(sib, side)) {
      if (sib.nodeType === Node.TEXT_NODE) {
        const t = clean(sib.textContent, 80);
        if (t) return t;
        continue;
      }
      if (sib.nodeType !== Node.ELEMENT_NODE) continue;
      const sibEl = sib as Element;
      if (sibEl.matches(CONTROLS)) return '';
      const t = clean((sibEl as HTMLElement).innerText ?? sibEl.textContent, 80);
      if (t) return sibEl.querySelector(CONTROLS) ? '' : t;
    }
    const parent: Element | null = node.parentElement;
    if (!parent || parent.tagName === 'FORM' || parent.tagName === 'BODY' || parent.tagName === 'TD') return '';
    node = parent;
  }
  return '';
}

function step(n: Node, side: 'previous' | 'next'): ChildNode | null {
  return side === 'previous' ? n.previousSibling : n.nextSibling;
}

/** In a form laid out as a table, the label lives in the cell before, or in the column header. */
function cellLabel(el: Element): string {
  const cell = el.closest('td,th') as HTMLTableCellElement | null;
  if (!cell) return '';
  const prev = cell.previousElementSibling;
  if (prev && !prev.querySelector(CONTROLS)) { const t = clean(prev.textContent, 80); if (t) return t; }
  const table = cell.closest('table');
  const headerRow = table?.tHead?.rows[0] ?? table?.rows[0];
  if (headerRow && headerRow !== cell.parentElement) {
    const header = headerRow.cells[cell.cellIndex];
    const t = clean(header?.textContent, 80);
    if (t) return t;
  }
  return '';
}

function humanize(raw: string | null): string {
  if (!raw) return '';
  // `billing_address[zip]` → "billing address zip"; opaque ids such as "f_8823" are no help.
  const t = raw.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-\[\].]+/g, ' ').trim().toLowerCase();
  return /[a-z]{2,}/.test(t) ? clean(t, 60) : '';
}

/** Elements without a name from the spec (clickable divs, icon buttons): their text, title, or an image's alt. */
function fallbackName(el: Element): string {
  // innerText separates blocks ("Pro plan $10", not "Pro plan$10") and leaves out hidden text, but
  // costs a walk of the rendered subtree: for a big container whose name is cut short anyway, skip it.
  const raw = el.textContent ?? '';
  const text = clean(raw.length <= MAX_NAME * 4 ? (el as HTMLElement).innerText ?? raw : raw);
  if (text) return text;
  const attr = el.getAttribute('title') || el.getAttribute('aria-label') || el.getAttribute('data-tooltip');
  if (attr) return clean(attr);
  const img = el.querySelector('img[alt],[title]');
  return clean(img?.getAttribute('alt') || img?.getAttribute('title'));
}
