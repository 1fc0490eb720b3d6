// L2 of the hierarchical index (seed 002): one region's elements, rows on one line each and runs
// of identical siblings as one group line.
import type { DescribedElement } from '../contracts/engineAnswers.js';
import type { ElementGroup, ExpandedRegion, RegionElement } from './explore.js';
import { groupNames, groupSimilar, idRange, namesCollapse, nodeGroupKey, selectorShape } from '../renderers/grouping.js';
import type { PageModel, PageNode } from '../pagemodel/page.js';
import { clipText, countsOf, countsText, elementKind, regionRef, type RegionNode } from './regions.js';
import { quoteName } from './regionList.js';

export interface ExpandOptions {
  /** Collapse each repeated row onto one line, and identical siblings into "N similar". */
  group: boolean;
  /** Lines of elements at most; subsections that do not fit are summarised. */
  limit: number;
}

const NOTE_STATES = ['checked', 'mixed', 'disabled', 'required', 'readonly', 'expanded', 'collapsed', 'selected', 'pressed'];

export function regionElement(n: PageNode, described: Map<string, DescribedElement>, section: string | undefined): RegionElement {
  const notes: string[] = [];
  if (n.placeholder && n.name === n.placeholder) notes.push('placeholder');
  const type = n.attrs?.type;
  if ((n.tag === 'button' || n.tag === 'input') && (type === 'submit' || type === 'reset')) notes.push(`type=${type}`);
  if (/\b(primary|cta)\b/i.test(n.attrs?.class ?? '')) notes.push('primary');
  const popup = n.attrs?.['aria-haspopup'];
  if (popup === 'menu' || popup === 'true') notes.push('menu');
  if (n.occ) notes.push('covered');
  // A row's item is the row's text and price as the snapshot read them; controls are as they are now.
  const d = n.role === 'item' ? undefined : described.get(n.gid);
  const states = (d?.states ?? n.states).filter((s) => NOTE_STATES.includes(s));
  const out: RegionElement = { ref: n.gid, role: n.role, kind: elementKind(n), name: d?.name ?? n.name, states, notes };
  const value = d?.found ? d.value : n.value;
  if (value !== undefined && value !== '') out.value = value;
  if (d?.options) {
    out.options = d.options.items.map((o) => o.label);
    out.optionCount = d.options.count;
  }
  if (section) out.section = section;
  return out;
}

function elementLine(e: RegionElement): string {
  const parts = [`${e.kind}${e.name ? ` ${JSON.stringify(clipText(e.name, 50))}` : ''} @ref:${e.ref}`];
  if (e.value !== undefined) parts.push(`= ${JSON.stringify(clipText(e.value, 40))}`);
  const notes = [...e.notes, ...e.states];
  if (e.options) {
    const shown = e.options.slice(0, 6).map((o) => clipText(o, 24));
    notes.push(`options: ${shown.join(', ')}${(e.optionCount ?? 0) > shown.length ? `, … (${e.optionCount})` : ''}`);
  }
  if (notes.length) parts.push(`[${notes.join('] [')}]`);
  return parts.join(' ');
}

function groupLine(g: ElementGroup): string {
  return `${idRange(g.refs)} ${g.count} similar: ${g.kind} ${g.shape}${g.names.length ? ` ${groupNames(g.names)}` : ''}`;
}

/** Entries of L2: elements, rows on one line each, and runs of identical siblings. */
type Entry = { kind: 'element'; e: RegionElement } | { kind: 'group'; g: ElementGroup } | { kind: 'row'; item?: RegionElement; controls: RegionElement[]; name: string };

function entriesOf(nodes: PageNode[], model: PageModel, described: Map<string, DescribedElement>, section: (n: PageNode) => string | undefined, group: boolean): Entry[] {
  const element = (n: PageNode): Entry => ({ kind: 'element', e: regionElement(n, described, section(n)) });
  if (!group) return nodes.map(element);
  const S = model.structure;
  const rowOf = (n: PageNode) => (n.ctx !== undefined && n.ctx >= 0 && S[n.ctx].kind === 'row' ? n.ctx : -1);
  // Outside rows, identical siblings collapse; look-alikes with different names stay apart.
  const groupAt = new Map<PageNode, PageNode[]>();
  const inGroup = new Set<PageNode>();
  for (const g of groupSimilar(nodes.filter((n) => rowOf(n) < 0), (n) => nodeGroupKey(model, n))) {
    if (!Array.isArray(g) || !namesCollapse(g.map((n) => n.name))) continue;
    groupAt.set(g[0], g);
    g.forEach((n) => inGroup.add(n));
  }
  const out: Entry[] = [];
  const rows = new Map<number, Extract<Entry, { kind: 'row' }>>();
  for (const n of nodes) {
    const r = rowOf(n);
    if (r >= 0) {
      let row = rows.get(r);
      if (!row) {
        row = { kind: 'row', controls: [], name: S[r].name };
        rows.set(r, row);
        out.push(row);
      }
      const e = regionElement(n, described, section(n));
      if (n.role === 'item' && !row.item) row.item = e;
      else row.controls.push(e);
      continue;
    }
    const g = groupAt.get(n);
    if (g) out.push({ kind: 'group', g: { refs: g.map((m) => m.gid), count: g.length, kind: elementKind(n), shape: selectorShape(n), names: g.map((m) => m.name), ...(section(n) && { section: section(n) }) } });
    else if (!inGroup.has(n)) out.push(element(n));
  }
  return out;
}

const ROW_CONTROLS = 4;

function entryLine(e: Entry, capRows: boolean): string {
  if (e.kind === 'element') return elementLine(e.e);
  if (e.kind === 'group') return groupLine(e.g);
  const head = e.item ? elementLine(e.item) : `ROW ${JSON.stringify(clipText(e.name, 60))}`;
  // Among many rows, a row is one short line: its first controls, then how many more (a few rows show all).
  const cap = capRows ? ROW_CONTROLS : Infinity;
  const shown = e.controls.slice(0, cap).map(elementLine);
  if (e.controls.length > cap) shown.push(`+${e.controls.length - cap} more (group: false lists every one)`);
  return `${head}${shown.length ? ` | ${shown.join(' | ')}` : ''}`;
}

function entryElements(e: Entry): Array<RegionElement | ElementGroup> {
  if (e.kind === 'element') return [e.e];
  if (e.kind === 'group') return [e.g];
  return [...(e.item ? [e.item] : []), ...e.controls];
}

export function expandRegion(model: PageModel, r: RegionNode, described: Map<string, DescribedElement>, snapshotId: string, opts: ExpandOptions): ExpandedRegion {
  const sectionOf = new Map<PageNode, RegionNode>();
  const mark = (c: RegionNode) => { for (const n of c.nodes) sectionOf.set(n, c); c.children.forEach(mark); };
  r.children.forEach(mark);
  const section = (n: PageNode) => sectionOf.get(n)?.id;
  const all = entriesOf(r.nodes, model, described, section, opts.group);
  const shown: Entry[] = [];
  const collapsed: RegionNode[] = [];
  if (all.length <= opts.limit) {
    shown.push(...all);
  } else {
    // Its own elements first, then whole subsections while they fit; the rest as one line each.
    const inChild = new Set(r.children.flatMap((c) => c.nodes));
    const own = entriesOf(r.nodes.filter((n) => !inChild.has(n)), model, described, section, opts.group);
    shown.push(...own.slice(0, opts.limit));
    let room = opts.limit - shown.length;
    for (const c of r.children) {
      const entries = entriesOf(c.nodes, model, described, section, opts.group);
      if (entries.length <= room) { shown.push(...entries); room -= entries.length; } else collapsed.push(c);
    }
  }
  const lines = [`REGION: ${r.id} ${r.label} ${r.path}${quoteName(r.name)}`];
  if (r.summary) lines.push(`Summary: ${JSON.stringify(r.summary)}`);
  lines.push('', 'ELEMENTS:');
  if (!shown.length) lines.push('  (none)');
  const capRows = shown.filter((e) => e.kind === 'row').length > 5;
  for (const e of shown) lines.push(`  ${entryLine(e, capRows)}`);
  const more = r.nodes.length - shown.reduce((k, e) => k + (e.kind === 'group' ? e.g.count : entryElements(e).length), 0);
  if (collapsed.length) {
    lines.push('', 'MORE (expand for their elements):');
    for (const c of collapsed) lines.push(`  [${c.id}] ${c.label}${quoteName(clipText(c.name, 50))}: ${countsText(countsOf(c.nodes))}${c.purposes.length ? ` — ${clipText(c.purposes.join(', '), 60)}` : ''}`);
  } else if (more > 0) {
    lines.push(`  … ${more} more (ask for a larger limit)`);
  }
  const unlisted = r.children.filter((c) => !collapsed.includes(c));
  if (unlisted.length) lines.push('', `SUBSECTIONS: ${unlisted.map((c) => c.id).join(', ')}`);
  return {
    snapshotId, id: r.id, landmark: r.landmark, xpath: r.path, name: r.name, summary: r.summary,
    elements: shown.flatMap(entryElements),
    collapsed: collapsed.map(regionRef),
    subsections: r.children.map(regionRef),
    total: r.nodes.length,
    text: lines.join('\n'),
  };
}
