// An element's name as an agent reads it: the W3C accessible name where it gives one, else the
// label hunt (nearby text, placeholders, titles), cleaned and bounded; and where each name came from.
import type { RawNode } from '../../model/contracts/schema.js';
import { accessibleNameWithReach, isRendered, type Reach } from './accname.js';
import type { Freshness } from '../changes/changes.js';
import { mayHavePseudoRule } from './pseudoRules.js';
import { generatedContent, mayHavePseudo, transformText } from './pseudo.js';
import { shadowRootOf } from '../identity/shadow.js';
import { styleOf } from '../walk/styleOf.js';
import { noteWarning } from '../walk/warnings.js';

export const MAX_NAME = 160;
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'checkbox', 'radio', 'slider', 'spinbutton', 'switch']);
const CONTROLS = 'input,select,textarea,button,[contenteditable=""],[contenteditable="true"]';

export function clean(text: string | null | undefined, max = MAX_NAME): string {
  if (!text) return '';
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}

/** Where a name came from: the W3C computation (what Chrome shows), or pagelens's label hunt. */
export type NameSource = 'accname' | 'hunt';

/**
 * The W3C accessible name as Chrome computes it; where that is empty, the label hunt that real
 * forms need (labels without `for`, text in the previous cell, placeholders, data attributes).
 */
export function nameOf(el: Element, role: string): string {
  return describeName(el, role).name;
}

export function describeName(el: Element, role: string): { name: string; from: NameSource } {
  const { name, from } = computeName(el, role);
  return remember(el, name, from);
}

/** `once`: the name must be derived again at every read (its computation failed, or it holds a control's live value). */
interface Named { name: string; from: NameSource; reach: Reach; once?: boolean }

function computeName(el: Element, role: string): Named {
  const fast = fastName(el, role);
  // A labelable element's name can come from a <label> added anywhere.
  if (fast !== null) return { name: fast, from: 'accname', reach: isLabelableTag(el) ? 'labels' : 'own' };
  const full = fullNameWithReach(el, role);
  if (full.name) return { name: full.name, from: 'accname', reach: full.reach, once: full.once };
  const field = FIELD_ROLES.has(role) || el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA';
  // The hunt reads siblings, cells and headers (and labels): it depends on more than the element's subtree.
  return { name: field ? huntFieldLabel(el) : fallbackName(el), from: 'hunt', reach: field ? 'anywhere' : full.reach, once: full.once };
}

function isLabelableTag(el: Element): boolean {
  return /^(INPUT|SELECT|TEXTAREA|BUTTON|METER|OUTPUT|PROGRESS)$/.test(el.tagName);
}

interface CachedName extends Named { role: string; read: number }
const cache = new WeakMap<Element, CachedName>();

/**
 * describeName() that reuses the name derived at an earlier read when nothing it depends on has
 * changed since: `clean` says so for the element's own subtree, `fresh.changedSince` for the rest
 * of the document (names that reached outside the subtree). Says whether the cache answered.
 */
export function describeNameSince(
  el: Element, role: string, clean: boolean, fresh: Pick<Freshness, 'read' | 'store' | 'changedSince'>,
): { name: string; from: NameSource; reused: boolean } {
  const hit = clean ? cache.get(el) : undefined;
  if (hit && hit.role === role && !fresh.changedSince(hit.read, hit.reach)) {
    return { ...remember(el, hit.name, hit.from), reused: true };
  }
  const named = computeName(el, role);
  // A failed computation is tried again (and its warning reported again) at every read.
  if (fresh.store) { if (named.once) cache.delete(el); else cache.set(el, { ...named, role, read: fresh.read }); }
  return { ...remember(el, named.name, named.from), reused: false };
}

/**
 * Drops the name an earlier read derived for an element that changed since. A read that passes
 * a changed element without naming it (off screen in a viewport read) takes the change with it:
 * a later read would find the element clean and reuse the old name.
 */
export function forgetName(el: Element): void {
  cache.delete(el);
}

/** The full computation alone (no hunt), cleaned as every name is. */
export function fullName(el: Element, role: string): string {
  return fullNameWithReach(el, role).name;
}

function fullNameWithReach(el: Element, role: string): { name: string; reach: Reach; once?: boolean } {
  try {
    const { name, reach, live } = accessibleNameWithReach(el, role);
    return { name: clean(name), reach, once: live };
  } catch (e) {
    // An exotic node must not cost the whole snapshot; it is reported with it, and the element is
    // named by the label hunt.
    noteWarning('the accessible name could not be computed (named by nearby text instead)', e);
    return { name: '', reach: 'anywhere', once: true };
  }
}

// The names the hunt gave, by element: a snapshot marks those nodes `nameFrom: 'hunt'`, so that
// agreement with Chrome can be measured on the W3C part alone.
const hunted = new WeakMap<Element, string>();

function remember(el: Element, name: string, from: NameSource): { name: string; from: NameSource } {
  if (from === 'hunt' && name) hunted.set(el, name); else hunted.delete(el);
  return { name, from };
}

/** Marks the nodes of a read whose name the label hunt gave; `elements[i]` is the element of `nodes[i]`. */
export function markNameSources(nodes: RawNode[], elements: Element[]): void {
  nodes.forEach((node, i) => {
    if (node.role !== 'item' && node.name && hunted.get(elements[i]) === node.name) node.nameFrom = 'hunt';
  });
}

const NAME_FROM_TEXT_ROLES = new Set(['link', 'button', 'menuitem', 'tab', 'option', 'treeitem']);

/**
 * The full computation's answer for the most common case, without its cost: a link or button that
 * holds one text node and nothing else is named by that text. null whenever anything else could
 * take part: other child nodes, ARIA naming or owning attributes, a shadow root, a <label>, an
 * option's label, generated content (::before/::after), or no text at all (the title would name it).
 */
export function fastName(el: Element, role: string): string | null {
  if (role === 'checkbox' || role === 'radio') return wrappingLabelName(el);
  // One text node and nothing else (a comment beside whitespace changes how Chrome spaces it).
  const only = el.firstChild;
  if (!NAME_FROM_TEXT_ROLES.has(role) || !only || only !== el.lastChild || only.nodeType !== Node.TEXT_NODE) return null;
  if (!mayHavePseudo(el) || shadowRootOf(el)) return null;
  if (namedByAria(el)) return null;
  if (el.tagName === 'BUTTON' && (el as HTMLButtonElement).labels?.length) return null;
  if (el.tagName === 'OPTION' && el.hasAttribute('label')) return null;
  const text = only.nodeValue ?? '';
  if (!/\S/.test(text)) return null;
  if (generatedContent(el, '::before') || generatedContent(el, '::after')) return null;
  const style = styleOf(el);
  return clean(firstLetter(el, transformText(text, style.textTransform), style.display));
}

/**
 * The full computation's answer for a box to tick inside its only <label>, beside one text and
 * nothing else (`<label><input type="checkbox"> Remember me</label>`): that text, as the label
 * shows it. null whenever anything else could take part: ARIA naming on either, a second label,
 * the label hidden or given a role, a shadow root, generated content, a ::first-letter rule on the
 * label or a block around it (the full computation applies those), or any other child.
 */
function wrappingLabelName(el: Element): string | null {
  if (el.tagName !== 'INPUT' || namedByAria(el)) return null;
  const label = el.parentElement;
  if (label?.tagName !== 'LABEL' || namedByAria(label) || label.hasAttribute('role') || shadowRootOf(label)) return null;
  const labels = (el as HTMLInputElement).labels;
  if (labels?.length !== 1 || labels[0] !== label) return null;
  const first = label.firstChild;
  const last = label.lastChild;
  if (!first || first === last || first.nextSibling !== last) return null;
  const text = first === el ? last : last === el ? first : null;
  const data = text?.nodeType === Node.TEXT_NODE ? text.nodeValue ?? '' : '';
  if (!/\S/.test(data) || !isRendered(label)) return null;
  if (generatedContent(label, '::before') || generatedContent(label, '::after')) return null;
  for (let a: Element | null = label; a; a = a.parentElement) if (mayHavePseudoRule(a, 'first-letter')) return null;
  return clean(transformText(data, styleOf(label).textTransform));
}

function namedByAria(el: Element): boolean {
  return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('aria-labeledby') || el.hasAttribute('aria-owns');
}

/** ::first-letter { text-transform } of the element itself, as the full computation applies it. */
function firstLetter(el: Element, text: string, display: string): string {
  const m = /^([\s\p{P}]*)([\p{L}\p{N}])/u.exec(text);
  if (!m || display === 'inline' || !/\p{Ll}/u.test(m[2])) return text;
  const transform = mayHavePseudoRule(el, 'first-letter') ? getComputedStyle(el, '::first-letter').textTransform : 'none';
  return transform === 'none' ? text : m[1] + transformText(m[2], transform) + text.slice(m[0].length);
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
  // An unlabelled file input is named by its button's caption, as Chrome (and Playwright's
  // snapshot) name it: better than a field name made up from its name or id attribute.
  const caption = type === 'file' ? 'Choose File' : '';
  return adjacentText(el, 'previous') || cellLabel(el) || attr('data-label') || attr('title') || caption || humanize(el.getAttribute('name')) || humanize(el.id);
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
    // Text outside a box of several controls speaks for the group (an instruction above three
    // fields), not for whichever member happens to come first.
    if (holdsAnotherControl(parent, el)) return '';
    node = parent;
  }
  return '';
}

function holdsAnotherControl(box: Element, el: Element): boolean {
  for (const c of Array.from(box.querySelectorAll(CONTROLS))) if (c !== el && !el.contains(c)) return true;
  return false;
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
