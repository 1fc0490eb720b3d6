// The page's content beside its controls, for a task that asks about it ("what is the price of …"):
// labelled values ("Price: $10", dt/dd, a spec table's rows), data-table cells with their headers,
// prices, and text blocks. Every item gets an ID through the tagger, in the same numbering as the
// controls, so the agent can point at it. One walk, run only when a query or an extraction asks.
import type { ContentItem, ContentKind, ContentOptions, ContentRead } from '../../model/contracts/content.js';
import { DOC } from '../identity/document.js';
import { clean } from '../semantics/names.js';
import { PRICE, ownText } from './rows.js';
import { composedParent } from '../identity/shadow.js';
import { headingLevel } from './structure.js';
import { flushStamps, idFor, stamp } from '../identity/tagger.js';
import { visibleBox } from '../walk/visibility.js';
import { walkElements } from '../walk/walker.js';

// Controls name themselves (their text is their name in the snapshot): their subtrees are not content.
const CONTROL_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON', 'OPTION', 'OPTGROUP', 'LABEL', 'DATALIST', 'IFRAME', 'CANVAS', 'VIDEO', 'AUDIO', 'OBJECT', 'EMBED']);
const CONTROL_ROLES = new Set(['button', 'textbox', 'searchbox', 'combobox', 'listbox', 'option', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'menuitem', 'tab']);
// Phrasing elements: their text belongs to the block around them.
const INLINE = new Set(['SPAN', 'A', 'B', 'STRONG', 'EM', 'I', 'SMALL', 'SUP', 'SUB', 'FONT', 'ABBR', 'CODE', 'MARK', 'TIME', 'S', 'U',
  'BDI', 'BDO', 'CITE', 'Q', 'DFN', 'KBD', 'SAMP', 'VAR', 'DATA', 'INS', 'DEL', 'BR', 'WBR', 'IMG', 'BIG', 'TT', 'STRIKE', 'NOBR']);
const LABEL_MAX = 40;
const VALUE_MAX = 120;
const TEXT_MAX = 200;
const UP_MAX = 5;
const LABELLED = /^([^:：]{1,40}?)\s*[:：]\s+(\S.{0,160})$/u;
const PRICE_HINT = /price|cost|amount|total|sale|offer|msrp|preis|prix|precio/i;

export function readContent(opts: ContentOptions): ContentRead {
  const t0 = performance.now();
  const items: ContentItem[] = [];
  const done = new Set<Element>();
  let truncated = false;
  const emit = (el: Element, kind: ContentKind, name: string, value?: string): void => {
    if (done.has(el)) return;
    done.add(el);
    if (items.length >= opts.max) { truncated = true; return; }
    const box = visibleBox(el);
    if (!box || box[2] < 1 || box[3] < 1) return;
    const item: ContentItem = { id: stamp(el), kind, name, tag: el.tagName.toLowerCase(), box, up: stampedAncestors(el) };
    if (value !== undefined) item.value = value;
    items.push(item);
  };
  walkElements(document, (el, ctx) => {
    if (truncated) return null;
    if (isControl(el)) return null;
    const level = headingLevel(el);
    if (level !== null) {
      if (opts.headings) emit(el, 'heading', clean((el as HTMLElement).innerText ?? el.textContent, TEXT_MAX), String(level));
      return null;
    }
    if (el.tagName === 'DT') return null; // read with its DD
    if (el.tagName === 'DD') { readDefinition(el, emit); return null; }
    if ((el.tagName === 'TD' || el.tagName === 'TH') && readCell(el as HTMLTableCellElement, emit)) return null;
    const own = ownText(el);
    if (own && /[\p{L}\p{N}$€£¥₹]/u.test(own) && !done.has(el)) readOwnText(el, own, emit, done);
    return ctx;
  });
  flushStamps();
  return { doc: DOC, items, truncated, timeMs: Math.round((performance.now() - t0) * 10) / 10 };
}

type Emit = (el: Element, kind: ContentKind, name: string, value?: string) => void;

function isControl(el: Element): boolean {
  if (CONTROL_TAGS.has(el.tagName)) return true;
  const role = el.getAttribute('role')?.trim().split(/\s+/)[0];
  return !!role && CONTROL_ROLES.has(role);
}

/** The text an element shows itself: "Price: $10", "$10", "Brand:" (its value follows), or a sentence. */
function readOwnText(el: Element, own: string, emit: Emit, done: Set<Element>): void {
  const inLink = !!el.closest('a[href]');
  const labelled = LABELLED.exec(own);
  if (labelled && /\p{L}/u.test(labelled[1]) && !/^https?$/i.test(labelled[1])) {
    emit(el, 'value', clean(labelled[1], LABEL_MAX), clean(labelled[2] + inlineRest(el), VALUE_MAX));
    return;
  }
  if (/[:：]$/.test(own) && own.length <= LABEL_MAX + 1) {
    // "Gesamtpreis: <span>24,65 €</span>": the value is inside the label's own element, not after it.
    const inside = clean(inlineRest(el), VALUE_MAX);
    if (inside) { emit(el, 'value', clean(own.slice(0, -1), LABEL_MAX), inside); return; }
    const next = valueAfter(el);
    if (next) {
      const value = clean((next as HTMLElement).innerText ?? next.textContent, VALUE_MAX);
      if (value) emit(next, 'value', clean(own.slice(0, -1), LABEL_MAX), value);
    }
    return;
  }
  const price = PRICE.exec(own);
  if (price && own.replace(PRICE, '').replace(/[^\p{L}]/gu, '').length < 3) {
    emit(el, 'value', priceLabel(el), clean(own, VALUE_MAX));
    return;
  }
  // Link text is the link's name already; only values inside links (a card's price) are content.
  if (inLink) return;
  const block = blockOf(el);
  if (done.has(block)) return;
  const text = clean(inlineText(block), TEXT_MAX);
  if (text.replace(/[^\p{L}]/gu, '').length >= 2) emit(block, 'text', text);
}

/** A price's label: the word the page marks it with (its itemprop, class or id), else "price". */
function priceLabel(el: Element): string {
  // A struck-through amount is the price it was: the page says so by crossing it out.
  if (el.closest('s,del,strike') || getComputedStyle(el).textDecorationLine.includes('line-through')) return 'old price';
  for (let e: Element | null = el, i = 0; e && i < 3; e = e.parentElement, i++) {
    const hint = [e.getAttribute('itemprop'), typeof e.className === 'string' ? e.className : '', e.id].join(' ');
    const m = /\b(?:was|old|list|regular|original)[-_ ]?price\b|\b(?:sale|new|special|our|final|current)[-_ ]?price\b/i.exec(hint);
    if (m) return m[0].replace(/[-_]/g, ' ').toLowerCase();
    if (PRICE_HINT.test(hint)) return 'price';
  }
  return 'price';
}

/** The element holding the value a "Label:" introduces: the next sibling element, or the parent's. */
function valueAfter(el: Element): Element | null {
  let next = el.nextElementSibling;
  if (!next && el.parentElement && INLINE.has(el.tagName)) next = el.parentElement.nextElementSibling;
  return next && !isControl(next) ? next : null;
}

/** Text after a labelled element's own text within it ("Price: <b>$10</b>"). */
function inlineRest(el: Element): string {
  let t = '';
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (INLINE.has(c.tagName)) t += ' ' + (c.textContent ?? '');
  return t;
}

function readDefinition(dd: Element, emit: Emit): void {
  let dt = dd.previousElementSibling;
  while (dt && dt.tagName === 'DD') dt = dt.previousElementSibling;
  const label = dt?.tagName === 'DT' ? clean(dt.textContent, LABEL_MAX) : '';
  const value = clean((dd as HTMLElement).innerText ?? dd.textContent, VALUE_MAX);
  if (!value) return;
  if (label) emit(dd, 'value', label, value);
  else emit(dd, 'text', clean(value, TEXT_MAX));
}

/**
 * A cell of a data table, named by its column header and its row header (a spec table's first
 * column: "Brand" → "Samsung"). Header cells are names, not content. Layout tables are not
 * handled here (false): their cells are read as blocks.
 */
function readCell(cell: HTMLTableCellElement, emit: Emit): boolean {
  const row = cell.parentElement as HTMLTableRowElement | null;
  const table = cell.closest('table');
  if (!row || !table || !isDataTable(table)) return false;
  if (row.parentElement?.tagName === 'THEAD') return true;
  const cells = Array.from(row.cells);
  const index = cells.indexOf(cell);
  const column = columnHeader(table, index);
  const rowHeader = index > 0 && cells[0].tagName === 'TH' ? clean(cells[0].textContent, LABEL_MAX) : '';
  const text = clean((cell as HTMLElement).innerText ?? cell.textContent, VALUE_MAX);
  if (!text) return true;
  // A header cell that heads its row is the row's name: the row's item carries it when there are controls.
  if (cell.tagName === 'TH' && index === 0) { emit(cell, 'text', text); return true; }
  const name = [rowHeader, column].filter(Boolean).join(' ');
  if (name) emit(cell, 'cell', name, text);
  else emit(cell, 'text', text);
  return true;
}

function isDataTable(t: HTMLTableElement): boolean {
  return t.rows.length >= 2 && !!(t.tHead || t.caption || t.querySelector('th'));
}

function columnHeader(table: HTMLTableElement, index: number): string {
  const head = table.tHead?.rows[table.tHead.rows.length - 1] ?? (Array.from(table.rows[0]?.cells ?? []).every((c) => c.tagName === 'TH') ? table.rows[0] : null);
  const cell = head?.cells[index];
  return cell ? clean(cell.textContent, LABEL_MAX) : '';
}

/** The nearest ancestor-or-self that is not phrasing content: the unit a sentence belongs to. */
function blockOf(el: Element): Element {
  let b = el;
  while (INLINE.has(b.tagName) && b.parentElement && b.parentElement.tagName !== 'BODY') b = b.parentElement;
  return b;
}

/** A block's own sentence: its text and that of its phrasing children, not of nested blocks. */
function inlineText(block: Element): string {
  let out = '';
  const visit = (n: Node): void => {
    for (let c = n.firstChild; c && out.length < TEXT_MAX * 2; c = c.nextSibling) {
      if (c.nodeType === Node.TEXT_NODE) out += c.textContent;
      else if (c.nodeType === Node.ELEMENT_NODE) {
        const e = c as Element;
        if (INLINE.has(e.tagName) && !isControl(e)) visit(e);
        else out += ' ';
      }
    }
  };
  visit(block);
  return out;
}

/** IDs of the nearest ancestors that carry one (structure, rows, controls), nearest first. */
function stampedAncestors(el: Element): string[] {
  const up: string[] = [];
  for (let p = composedParent(el), depth = 0; p && depth < 40 && up.length < UP_MAX; p = composedParent(p), depth++) {
    if (p.nodeType !== Node.ELEMENT_NODE) continue;
    const id = idFor(p as Element);
    if (id !== undefined) up.push(id);
  }
  return up;
}
