// The structure around the controls: landmarks (HTML elements and ARIA roles), forms, fieldsets,
// dialogs, data tables and headed sections, named the way a person would name them. Cheap to ask
// of every element: only a handful of tags and an explicit role are looked at.
import type { StructKind } from '../../model/contracts/schema.js';
import { clean } from '../semantics/names.js';

export interface StructHit { kind: StructKind; role: string }

const ROLE_KINDS: Record<string, StructKind> = {
  banner: 'landmark', navigation: 'landmark', main: 'landmark', complementary: 'landmark', contentinfo: 'landmark',
  search: 'landmark', region: 'landmark', form: 'form', group: 'group', radiogroup: 'group', toolbar: 'group',
  dialog: 'dialog', alertdialog: 'dialog', table: 'table', grid: 'table', treegrid: 'table', tabpanel: 'section', article: 'section',
};
// Roles that only count when named (an unnamed region or group is just a div).
const NEEDS_NAME = new Set(['region', 'group', 'toolbar']);
const HEADINGS = 'h1,h2,h3,h4,h5,h6,[role=heading]';

export function structureOf(el: Element): StructHit | null {
  const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit) {
    const kind = ROLE_KINDS[explicit];
    if (!kind || (NEEDS_NAME.has(explicit) && !hasOwnName(el))) return null;
    return { kind, role: explicit };
  }
  switch (el.tagName) {
    case 'NAV': return { kind: 'landmark', role: 'navigation' };
    case 'MAIN': return { kind: 'landmark', role: 'main' };
    case 'ASIDE': return { kind: 'landmark', role: 'complementary' };
    case 'SEARCH': return { kind: 'landmark', role: 'search' };
    // A header or footer inside an article or a section belongs to it, not to the page.
    case 'HEADER': return scopedToPage(el) ? { kind: 'landmark', role: 'banner' } : null;
    case 'FOOTER': return scopedToPage(el) ? { kind: 'landmark', role: 'contentinfo' } : null;
    case 'SECTION':
      if (hasOwnName(el)) return { kind: 'landmark', role: 'region' };
      return el.querySelector(':scope > :is(h1,h2,h3,h4,h5,h6), :scope > header > :is(h1,h2,h3,h4,h5,h6)') ? { kind: 'section', role: 'section' } : null;
    case 'ARTICLE': return { kind: 'section', role: 'article' };
    case 'FORM': return { kind: 'form', role: 'form' };
    case 'FIELDSET': return { kind: 'fieldset', role: 'group' };
    case 'DIALOG': return { kind: 'dialog', role: 'dialog' };
    case 'TABLE': return isDataTable(el as HTMLTableElement) ? { kind: 'table', role: 'table' } : null;
  }
  return null;
}

function hasOwnName(el: Element): boolean {
  return !!(el.getAttribute('aria-label')?.trim() || el.getAttribute('aria-labelledby')?.trim());
}

function scopedToPage(el: Element): boolean {
  return !el.parentElement?.closest('article,aside,main,nav,section,[role=article],[role=complementary],[role=main],[role=navigation],[role=region]');
}

/** A table of data, not one used for layout: it has header cells or a caption, and rows. */
function isDataTable(t: HTMLTableElement): boolean {
  return t.rows.length >= 2 && !!(t.tHead || t.caption || t.querySelector('th'));
}

/** aria-label, aria-labelledby, legend, caption, else the first heading inside. */
export function structName(el: Element): string {
  const label = el.getAttribute('aria-label');
  if (label?.trim()) return clean(label, 80);
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const text = by.split(/\s+/).map((id) => root.getElementById?.(id)?.textContent ?? '').join(' ');
    if (text.trim()) return clean(text, 80);
  }
  if (el.tagName === 'FIELDSET') { const legend = el.querySelector(':scope > legend'); if (legend) return clean(legend.textContent, 80); }
  if (el.tagName === 'TABLE') { const caption = (el as HTMLTableElement).caption; if (caption) return clean(caption.textContent, 80); }
  const heading = el.querySelector(HEADINGS);
  return heading ? clean((heading as HTMLElement).innerText ?? heading.textContent, 80) : '';
}

/** Heading level: h1–h6, or aria-level on role=heading (2 when unset, as ARIA says). */
export function headingLevel(el: Element): number | null {
  const m = /^H([1-6])$/.exec(el.tagName);
  if (m && !el.hasAttribute('role')) return Number(m[1]);
  if (el.getAttribute('role') === 'heading') return Number(el.getAttribute('aria-level')) || 2;
  return null;
}

/** Body rows of a data table. */
export function tableRows(el: Element): number | undefined {
  if (el.tagName !== 'TABLE') return undefined;
  const t = el as HTMLTableElement;
  return Array.from(t.tBodies).reduce((n, b) => n + b.rows.length, 0) || Math.max(0, t.rows.length - (t.tHead?.rows.length ?? 0));
}
