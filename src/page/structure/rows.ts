// Repeated rows: the list item, table row or card that holds a group of controls among siblings
// built the same way. A row gives its controls an identity ("the delete button of 'Buy milk'"),
// and its identifying text becomes an `item` node with an ID of its own, so that an agent can
// tell rows apart and act on the text itself (double-click to edit, hover to reveal a button).
import { clean } from '../semantics/names.js';
import { roleOf } from '../semantics/roles.js';
import { AMOUNT } from '../../model/retrieval/money.js';

const MAX_CLIMB = 6;
const STOP_TAGS = new Set(['BODY', 'HTML', 'FORM', 'MAIN', 'NAV', 'HEADER', 'FOOTER', 'ASIDE', 'DIALOG']);
// Containers that are rows by what they are: list items, table rows, articles.
const ROW_TAGS = new Set(['LI', 'TR', 'ARTICLE']);
const ROW_ROLES = new Set(['row', 'listitem', 'article', 'option', 'treeitem']);
// Block containers that are rows when enough siblings are built alike (a grid of cards); never
// inside a form, where alike blocks are the form's field groups, already named by their fields.
const BLOCK_TAGS = new Set(['DIV', 'SECTION', 'FIGURE', 'DETAILS']);
const MIN_ALIKE_BLOCKS = 3;
/** A price or an amount: what a row's value usually is (the Node side reads amounts the same way). */
export const PRICE = AMOUNT;

export interface Row {
  el: Element;
  /** The element whose text names the row (not inside a control), if any. */
  title: Element | null;
  name: string;
  /** A price or amount shown in the row outside its title. */
  value?: string;
}

/**
 * What a read tells the finder so that a row's identity found by an earlier read is taken again
 * while nothing it depends on changed (its subtree, what it inherits: changes.ts). A row's
 * identity is its text, a price and which of its elements are controls: all of it in its subtree
 * or inherited, none of it geometry.
 */
export interface RowMemory {
  /** The read number to keep what is found now under; 0 with `store` false for a cold read. */
  read: number;
  store: boolean;
  untouchedSince(el: Element, read: number): boolean;
}

/** Row identities found by earlier reads: the read, how many listed controls the row held (0, 1, 2 or more), the identity. */
const keptRows = new WeakMap<Element, { read: number; controls: number; row: Row | null }>();

/** Finds the rows around controls, sharing per-parent sibling counts across one read. */
export class RowFinder {
  private readonly counts = new Map<ParentNode, Map<string, number>>();
  private readonly rows = new Map<Element, Row | null>();

  constructor(private readonly isControl: (el: Element) => boolean, private readonly memory?: RowMemory) {}

  /**
   * The nearest ancestor of `el` that is a row: a list item, table row or article among siblings,
   * or a block among several siblings built alike (cards), within a few levels.
   */
  rowOf(el: Element): Element | null {
    let a: Element = el;
    for (let depth = 0; depth < MAX_CLIMB; depth++) {
      // A component's row sits at the top of its shadow tree: climb out to its host.
      const parent = a.parentElement ?? (a.parentNode instanceof ShadowRoot ? a.parentNode.host : null);
      if (!parent || STOP_TAGS.has(parent.tagName) || STOP_TAGS.has(a.tagName)) return null;
      if (a !== el) {
        const role = a.getAttribute('role');
        if (ROW_TAGS.has(a.tagName) || (role && ROW_ROLES.has(role))) { if (this.alike(a) >= 2) return a; } else if (BLOCK_TAGS.has(a.tagName) && !role && this.alike(a) >= MIN_ALIKE_BLOCKS && !a.closest('form,fieldset')) return a;
      }
      a = parent;
    }
    return null;
  }

  /** The row's identity; null when it has none worth listing (a nav item that is just a link). */
  describe(row: Element, controls: Element[]): Row | null {
    let r = this.rows.get(row);
    if (r !== undefined) return r;
    // Only whether the row holds none, one or several of the listed controls decides below.
    const held = Math.min(controls.length, 2);
    const kept = this.memory && keptRows.get(row);
    if (kept && kept.controls === held && this.memory!.untouchedSince(row, kept.read)) {
      this.rows.set(row, kept.row);
      return kept.row;
    }
    // Text written straight into the row ("Trail shoes <button>Remove</button>") names it; else
    // the first element of its own with text.
    const title = isTitleText(ownText(row)) ? row : titleOf(row, this.isControl);
    const text = !title ? '' : title === row ? clean(ownText(row), 120) : clean((title as HTMLElement).innerText ?? title.textContent, 120);
    const value = priceIn(row, title);
    // A row of one control and nothing else to say is already fully described by that control.
    r = text || (value && controls.length) || controls.length >= 2 ? { el: row, title: text ? title : null, name: text, ...(value && { value }) } : null;
    this.rows.set(row, r);
    if (this.memory?.store) keptRows.set(row, { read: this.memory.read, controls: held, row: r });
    return r;
  }

  /**
   * How many siblings are built like `a`. A component renders one row per instance, alone in its
   * shadow tree (`<todo-item>` → `#shadow-root` → `<li>`): there the instances are the siblings.
   */
  private alike(a: Element): number {
    const parent = a.parentNode as ParentNode | null;
    if (!parent) return 0;
    const n = this.alikeIn(a, parent);
    const host = parent instanceof ShadowRoot ? parent.host : null;
    return n === 1 && host?.parentNode ? this.alikeIn(host, host.parentNode as ParentNode) : n;
  }

  private alikeIn(a: Element, parent: ParentNode): number {
    let bySig = this.counts.get(parent);
    if (!bySig) {
      bySig = new Map();
      for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
        const s = signature(c);
        bySig.set(s, (bySig.get(s) ?? 0) + 1);
      }
      this.counts.set(parent, bySig);
    }
    return bySig.get(signature(a)) ?? 0;
  }
}

function signature(el: Element): string {
  const cls = typeof el.className === 'string' ? el.className.trim().split(/\s+/).filter((c) => !/(^|-)(active|selected|current|completed|checked|open|hover|focus|first|last|odd|even)$/i.test(c)).sort().join('.') : '';
  return `${el.tagName}.${cls}`;
}

/**
 * The first element in the row, in reading order, that carries text of its own and is neither a
 * control nor inside one: the to-do's label, the card's product name, the row's first cell.
 */
function titleOf(row: Element, isControl: (el: Element) => boolean): Element | null {
  const skip = (n: Element) => (isControl(n) && !isTextTarget(n)) || (n.tagName === 'LABEL' && onlyNamesItsControl(n as HTMLLabelElement, row, isControl));
  const walker = row.ownerDocument.createTreeWalker(row, NodeFilter.SHOW_ELEMENT, {
    acceptNode: (n) => (skip(n as Element) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  let seen = 0;
  for (let n = walker.nextNode() as Element | null; n && seen < 300; n = walker.nextNode() as Element | null, seen++) {
    if (/^(SCRIPT|STYLE|TEMPLATE|SVG|svg)$/.test(n.tagName)) continue;
    if (!isTitleText(ownText(n)) || !n.checkVisibility({ checkVisibilityCSS: true }) || visuallyHidden(n)) continue;
    return n;
  }
  return null;
}

/**
 * Text that is a target of its own and nothing more (a span that listens for clicks or double
 * clicks, a focusable text): what a person reads as the row and acts on, so it is the row's text.
 */
export function isTextTarget(el: Element): boolean {
  return isTitleText(ownText(el)) && roleOf(el, false) === 'clickable' && !el.querySelector(REAL_CONTROLS);
}

const REAL_CONTROLS = 'a[href],button,input,select,textarea,[role],[tabindex]';

/** The "visually hidden" idiom (a 1px clipped box): text for screen readers, not what a reader sees. */
function visuallyHidden(el: Element): boolean {
  const r = el.getBoundingClientRect();
  return r.width <= 2 || r.height <= 2;
}

// Handlers written on the element itself: the text does something of its own.
const OWN_HANDLERS = ['ondblclick', 'onclick', 'onmousedown', 'onpointerdown'];

/**
 * A label tied to its control names that control, and in a row that is only the control and its
 * label (a list of options) it is the control's text, not the row's. It stays the row's text, with
 * an ID of its own, when it carries a handler of its own or when the row holds other controls too
 * (a to-do's delete button and edit field): there the text is what a person double-clicks to edit.
 */
function onlyNamesItsControl(label: HTMLLabelElement, row: Element, isControl: (el: Element) => boolean): boolean {
  const control = label.control;
  if (!control) return false;
  if (OWN_HANDLERS.some((a) => label.hasAttribute(a))) return false;
  // In document order, as far as the first other control (most rows have one near the top).
  const walker = row.ownerDocument.createTreeWalker(row, NodeFilter.SHOW_ELEMENT);
  let seen = 0;
  for (let el = walker.nextNode() as Element | null; el && ++seen <= 300; el = walker.nextNode() as Element | null) {
    if (el !== control && el !== label && isControl(el)) return false;
  }
  return true;
}

/** The words a nameless control in a row is called by, before the row's name: "Toggle · feed the cat". */
const ROLE_WORDS: Record<string, string> = {
  checkbox: 'Toggle', switch: 'Toggle', radio: 'Choose', button: 'Button', link: 'Link', textbox: 'Edit',
  searchbox: 'Search', combobox: 'Choose', menuitem: 'Menu', tab: 'Tab', clickable: 'Click',
};

/**
 * A control with no name of its own inside a row, or with a name every row's control shares,
 * takes the row's identity, so that a reader never pairs it with the row above or below:
 * `Toggle · feed the cat`, `Toggle Todo · feed the cat`.
 */
export function nameInRow(role: string, rowName: string, ownName = ''): string {
  const word = ownName || ROLE_WORDS[role] || role.charAt(0).toUpperCase() + role.slice(1);
  return `${word} · ${rowName}`;
}

/** nameInRow() for one element, finding its row afresh (an action checking the name it was shown). */
export function rowNameOf(el: Element, role: string, isControl: (el: Element) => boolean, ownName = ''): string {
  const finder = new RowFinder(isControl);
  const row = finder.rowOf(el);
  const described = row ? finder.describe(row, [el]) : null;
  return described?.name ? nameInRow(role, described.name, ownName) : '';
}

/** Words, not just a price or a symbol. */
function isTitleText(own: string): boolean {
  return own.length >= 2 && /\p{L}/u.test(own) && !(PRICE.test(own) && own.replace(PRICE, '').trim().length < 2);
}

export function ownText(el: Element): string {
  let t = '';
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === Node.TEXT_NODE) t += c.textContent;
  return t && t.replace(/\s+/g, ' ').trim();
}

function priceIn(row: Element, title: Element | null): string | undefined {
  const walker = row.ownerDocument.createTreeWalker(row, NodeFilter.SHOW_TEXT);
  let seen = 0;
  for (let n = walker.nextNode(); n && seen < 300; n = walker.nextNode(), seen++) {
    if (title && title.contains(n)) continue;
    const m = PRICE.exec(n.textContent ?? '');
    if (m && n.parentElement?.checkVisibility({ checkVisibilityCSS: true })) return m[0].replace(/\s+/g, ' ').trim();
  }
  return undefined;
}
