// Repeated rows: the list item, table row or card that holds a group of controls among siblings
// built the same way. A row gives its controls an identity ("the delete button of 'Buy milk'"),
// and its identifying text becomes an `item` node with an ID of its own, so that an agent can
// tell rows apart and act on the text itself (double-click to edit, hover to reveal a button).
import { clean } from './names.js';
import { AMOUNT } from '../model/money.js';

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

/** Finds the rows around controls, sharing per-parent sibling counts across one read. */
export class RowFinder {
  private readonly counts = new Map<Element | ShadowRoot, Map<string, number>>();
  private readonly rows = new Map<Element, Row | null>();

  constructor(private readonly isControl: (el: Element) => boolean) {}

  /**
   * The nearest ancestor of `el` that is a row: a list item, table row or article among siblings,
   * or a block among several siblings built alike (cards), within a few levels.
   */
  rowOf(el: Element): Element | null {
    let a: Element = el;
    for (let depth = 0; depth < MAX_CLIMB; depth++) {
      const parent = a.parentElement;
      if (!parent || STOP_TAGS.has(parent.tagName) || STOP_TAGS.has(a.tagName)) return null;
      if (a !== el) {
        const role = a.getAttribute('role');
        if (ROW_TAGS.has(a.tagName) || (role && ROW_ROLES.has(role))) { if (this.alike(a, parent) >= 2) return a; } else if (BLOCK_TAGS.has(a.tagName) && !role && this.alike(a, parent) >= MIN_ALIKE_BLOCKS && !a.closest('form,fieldset')) return a;
      }
      a = parent;
    }
    return null;
  }

  /** The row's identity; null when it has none worth listing (a nav item that is just a link). */
  describe(row: Element, controls: Element[]): Row | null {
    let r = this.rows.get(row);
    if (r !== undefined) return r;
    // Text written straight into the row ("Trail shoes <button>Remove</button>") names it; else
    // the first element of its own with text.
    const title = isTitleText(ownText(row)) ? row : titleOf(row, this.isControl);
    const text = !title ? '' : title === row ? clean(ownText(row), 120) : clean((title as HTMLElement).innerText ?? title.textContent, 120);
    const value = priceIn(row, title);
    // A row of one control and nothing else to say is already fully described by that control.
    r = text || (value && controls.length) || controls.length >= 2 ? { el: row, title: text ? title : null, name: text, ...(value && { value }) } : null;
    this.rows.set(row, r);
    return r;
  }

  private alike(a: Element, parent: Element): number {
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
  // A label tied to its control already names that control: it is the control's text, not the row's.
  const skip = (n: Element) => isControl(n) || (n.tagName === 'LABEL' && !!(n as HTMLLabelElement).control);
  const walker = row.ownerDocument.createTreeWalker(row, NodeFilter.SHOW_ELEMENT, {
    acceptNode: (n) => (skip(n as Element) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  let seen = 0;
  for (let n = walker.nextNode() as Element | null; n && seen < 300; n = walker.nextNode() as Element | null, seen++) {
    if (/^(SCRIPT|STYLE|TEMPLATE|SVG|svg)$/.test(n.tagName)) continue;
    if (!isTitleText(ownText(n)) || !n.checkVisibility({ checkVisibilityCSS: true })) continue;
    return n;
  }
  return null;
}

/** Words, not just a price or a symbol. */
function isTitleText(own: string): boolean {
  return own.length >= 2 && /\p{L}/u.test(own) && !(PRICE.test(own) && own.replace(PRICE, '').trim().length < 2);
}

export function ownText(el: Element): string {
  let t = '';
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === Node.TEXT_NODE) t += c.textContent;
  return t.replace(/\s+/g, ' ').trim();
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
