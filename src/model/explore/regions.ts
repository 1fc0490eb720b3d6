// The hierarchical index over the page model: regions (landmarks by element and role, forms,
// dialogs; on pages without them, the page's large visual blocks), their subsections (sections,
// forms, fieldsets, tables, nested landmarks, headed groups) and heuristic summaries. The text
// forms of the four answer levels are modules of their own: L0 pageOverview.ts (page), L1
// regionList.ts (regions), L2 expandRegion.ts (one region's elements), L3 elementContext.ts (one
// element). Pure: the browser side reads the model and the page's blocks, this module only looks at them.
import type { PageLayout } from '../contracts/engineAnswers.js';
import type { BoundingBox, Region, SubsectionRef } from './explore.js';
import type { PageHeading, PageModel, PageNode, PageStruct } from '../pagemodel/page.js';
import { AMOUNT } from '../retrieval/money.js';
import type { Box } from '../contracts/schema.js';

// ---- what an element is, in a word ----

const DATE_TYPES = new Set(['date', 'datetime-local', 'month', 'week']);

/** The upper-case kind of an element line: SEARCHBOX, BUTTON, COMBOBOX, DATEPICKER, … */
export function elementKind(n: { role: string; tag: string; type?: string; attrs?: Record<string, string> }): string {
  const type = n.type ?? n.attrs?.type;
  if (n.tag === 'input' && type && DATE_TYPES.has(type)) return 'DATEPICKER';
  if (n.tag === 'input' && type === 'time') return 'TIMEPICKER';
  if (n.tag === 'input' && type === 'password') return 'PASSWORD';
  if (n.tag === 'textarea') return 'TEXTAREA';
  if (n.role === 'clickable') return 'CLICKABLE';
  return n.role.toUpperCase();
}

/** The kind an element counts as in a region's "Interactive:" line; null for what is not a control. */
export function countKind(n: { role: string; tag: string; type?: string; attrs?: Record<string, string>; scr?: unknown }): string | null {
  if (n.role === 'item' || n.role === 'heading') return null;
  const popup = n.attrs?.['aria-haspopup'];
  switch (n.role) {
    case 'button': case 'clickable': return popup === 'menu' || popup === 'true' ? 'menu' : 'button';
    case 'link': return 'link';
    case 'textbox': case 'searchbox': case 'spinbutton': case 'slider': return 'input';
    case 'combobox': case 'listbox': return 'select';
    case 'checkbox': case 'switch': return 'checkbox';
    case 'radio': return 'radio';
    case 'tab': return 'tab';
    case 'menuitem': case 'menuitemcheckbox': case 'menuitemradio': return 'menu item';
    default: return 'other';
  }
}

const PLURAL: Record<string, string> = { button: 'buttons', link: 'links', input: 'inputs', select: 'selects', checkbox: 'checkboxes', radio: 'radios', menu: 'menus', tab: 'tabs', 'menu item': 'menu items', other: 'other' };
const KIND_ORDER = ['button', 'link', 'input', 'select', 'checkbox', 'radio', 'menu', 'tab', 'menu item', 'other'];

// ---- the plan: which structures head a region ----

const REGION_KINDS = new Set(['landmark', 'form', 'dialog']);
const SUBSECTION_KINDS = new Set(['landmark', 'form', 'fieldset', 'group', 'dialog', 'table', 'section']);
/** More top-level sections than this are a feed (articles, cards), not regions of their own. */
const MAX_SECTION_REGIONS = 4;

export interface RegionPlan {
  /** Structure indexes heading a region, in document order (main frame only). */
  anchors: number[];
  /** Per structure index: the anchor it lies in (itself for an anchor), -1 for none. */
  topOf: number[];
  /** Local IDs (main frame) whose visual block the page must say: anchors, then everything outside every anchor. */
  ids: string[];
}

/** Which structures head regions, and which elements lie outside all of them (to be placed in the page's blocks). */
export function planRegions(model: PageModel): RegionPlan {
  const S = model.structure;
  const eligible = (i: number, sections: boolean) => S[i].frame === 0 && (REGION_KINDS.has(S[i].kind) || (sections && S[i].kind === 'section'));
  const topWith = (sections: boolean) => S.map((_, i) => {
    let top = -1;
    for (let k = i; k >= 0; k = S[k].parent) if (eligible(k, sections)) top = k;
    return top;
  });
  let topOf = topWith(true);
  const sectionTops = S.filter((s, i) => topOf[i] === i && s.kind === 'section').length;
  if (sectionTops > MAX_SECTION_REGIONS) topOf = topWith(false);
  const anchors = S.map((_, i) => i).filter((i) => topOf[i] === i);
  const ids = anchors.map((i) => S[i].id);
  S.forEach((s, i) => { if (s.frame === 0 && topOf[i] < 0) ids.push(s.id); });
  for (const h of model.headings) if (h.frame === 0 && (h.ctx < 0 || topOf[h.ctx] < 0)) ids.push(h.id);
  for (const n of model.nodes) if (n.frame === 0 && (n.ctx === undefined || n.ctx < 0 || topOf[n.ctx] < 0)) ids.push(n.id);
  return { anchors, topOf, ids };
}

// ---- region IDs that outlive a snapshot ----

/**
 * Region IDs per document: a landmark (or block) keeps its ID for as long as its element does;
 * one re-rendered in place (same kind, name and path) takes the ID of the one it replaced.
 */
export class RegionMemory {
  private doc?: string;
  private next = 0;
  private readonly byKey = new Map<string, string>();
  private readonly bySig = new Map<string, string>();

  assign(doc: string, regions: Array<{ key: string; sig: string }>): string[] {
    if (doc !== this.doc) {
      this.doc = doc;
      this.next = 0;
      this.byKey.clear();
      this.bySig.clear();
    }
    const out: Array<string | undefined> = regions.map(() => undefined);
    const used = new Set<string>();
    regions.forEach((r, i) => {
      const id = this.byKey.get(r.key);
      if (id && !used.has(id)) { out[i] = id; used.add(id); }
    });
    regions.forEach((r, i) => {
      if (out[i]) return;
      const id = this.bySig.get(r.sig);
      if (id && !used.has(id)) { out[i] = id; used.add(id); }
    });
    regions.forEach((r, i) => {
      const id = out[i] ?? `R${this.next++}`;
      out[i] = id;
      this.byKey.set(r.key, id);
      this.bySig.set(r.sig, id);
    });
    return out as string[];
  }
}

// ---- building the tree ----

export interface RegionNode {
  /** "R2", "R2.Filters" */
  id: string;
  /** "R2", "Filters" */
  short: string;
  landmark: string;
  label: string;
  path: string;
  name: string;
  box: Box;
  /** The element that bounds it: landmark, block, structure, or a headed group's heading. */
  ref?: string;
  struct?: number;
  nodes: PageNode[];
  headings: PageHeading[];
  structs: number[];
  children: RegionNode[];
  parent?: RegionNode;
  purposes: string[];
  summary: string;
}

export interface RegionTree {
  regions: RegionNode[];
  byId: Map<string, RegionNode>;
  /** Element ID (nodes and headings) → the deepest region or subsection holding it. */
  regionOf: Map<string, RegionNode>;
}

interface Draft extends Omit<RegionNode, 'id' | 'short' | 'purposes' | 'summary' | 'children'> {
  key: string;
  block: number;
}

const LANDMARKS: Record<string, [string, string]> = {
  banner: ['header', 'HEADER'], navigation: ['nav', 'NAV'], main: ['main', 'MAIN'], complementary: ['aside', 'ASIDE'],
  contentinfo: ['footer', 'FOOTER'], search: ['search', 'SEARCH'], region: ['region', 'REGION'], form: ['form', 'FORM'],
  dialog: ['dialog', 'DIALOG'], alertdialog: ['dialog', 'DIALOG'], article: ['article', 'ARTICLE'], tabpanel: ['tabpanel', 'TABPANEL'],
  table: ['table', 'TABLE'], grid: ['table', 'TABLE'], treegrid: ['table', 'TABLE'], toolbar: ['toolbar', 'TOOLBAR'],
  radiogroup: ['group', 'GROUP'], group: ['group', 'GROUP'],
};

export function landmarkOf(s: PageStruct): [string, string] {
  if (s.kind === 'fieldset') return ['fieldset', 'FIELDSET'];
  if (s.kind === 'section' && s.role === 'section') return ['section', 'SECTION'];
  return LANDMARKS[s.role] ?? [s.kind, s.kind.toUpperCase()];
}

const IDENT = /^[A-Za-z][\w-]*$/;
const GENERATED = /\d{3,}|[0-9a-f]{8,}/i;

/** One step of a semantic path: `main#content`, `nav.sidebar`, `section`. */
function step(tag: string, attrs: Record<string, string> | undefined): string {
  const id = attrs?.id;
  if (id && IDENT.test(id) && !GENERATED.test(id)) return `${tag}#${id}`;
  const cls = (attrs?.class ?? '').split(/\s+/).find((c) => IDENT.test(c));
  return cls ? `${tag}.${cls}` : tag;
}

const centre = (b: Box): [number, number] => [b[0] + b[2] / 2, b[1] + b[3] / 2];
const contains = (b: Box, [x, y]: [number, number]) => x >= b[0] && x <= b[0] + b[2] && y >= b[1] && y <= b[1] + b[3];
const area = (b: Box) => b[2] * b[3];

function overlapRatio(a: Box, b: Box): number {
  const x = Math.max(a[0], b[0]), y = Math.max(a[1], b[1]);
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - x, h = Math.min(a[1] + a[3], b[1] + b[3]) - y;
  if (w <= 0 || h <= 0) return 0;
  return (w * h) / Math.max(area(a), area(b), 1);
}

function union(boxes: Box[]): Box {
  let l = Infinity, t = Infinity, r = -Infinity, btm = -Infinity;
  for (const b of boxes) { l = Math.min(l, b[0]); t = Math.min(t, b[1]); r = Math.max(r, b[0] + b[2]); btm = Math.max(btm, b[1] + b[3]); }
  return Number.isFinite(l) ? [l, t, r - l, btm - t] : [0, 0, 0, 0];
}

/**
 * Regions in reading order with their subsections. `layout` is the main frame's blocks, with the
 * block of every ID in `plan.ids`; without it (it could not be read) elements outside every
 * landmark form one region.
 */
export function buildRegions(model: PageModel, layout: PageLayout | null, plan: RegionPlan, memory: RegionMemory): RegionTree {
  const S = model.structure;
  const member = new Map<string, number>();
  plan.ids.forEach((id, i) => member.set(id, layout?.member[i] ?? -1));
  const blocks = layout?.blocks ?? [];
  const byAnchor = new Map<number, Draft>();
  for (const a of plan.anchors) {
    const s = S[a];
    const [landmark, label] = landmarkOf(s);
    const b = member.get(s.id) ?? -1;
    const block = blocks[b];
    const path = block ? (block.id === s.id ? block.path : `${block.path}/${step(s.tag, s.attrs)}`) : `/body/${step(s.tag, s.attrs)}`;
    byAnchor.set(a, { key: `s:${s.gid}`, landmark, label, path, name: s.name, box: s.box, ref: s.gid, struct: a, nodes: [], headings: [], structs: [], block: b });
  }
  const byBlock = new Map<number, Draft>();
  const outside = (b: number): Draft => {
    let d = byBlock.get(b);
    if (!d) {
      const block = blocks[b];
      d = block
        ? { key: `b:${block.id}`, landmark: 'block', label: 'BLOCK', path: block.path, name: block.name, box: block.box, ref: block.id, nodes: [], headings: [], structs: [], block: b }
        : { key: 'page', landmark: 'page', label: 'PAGE', path: '/body', name: '', box: [0, 0, model.viewport.width, model.viewport.height], nodes: [], headings: [], structs: [], block: -1 };
      byBlock.set(b, d);
    }
    return d;
  };
  const topDraft = (ctx: number | undefined, id: string): Draft => {
    const top = ctx !== undefined && ctx >= 0 ? plan.topOf[ctx] : -1;
    return top >= 0 ? byAnchor.get(top)! : outside(member.get(id) ?? -1);
  };
  const inFrames: PageNode[] = [];
  for (const n of model.nodes) {
    if (n.frame !== 0) inFrames.push(n);
    else topDraft(n.ctx, n.id).nodes.push(n);
  }
  // Headings outside every region name the region below them; they make no region of their own.
  const looseHeadings: Array<[PageHeading, number]> = [];
  for (const h of model.headings) {
    if (h.frame !== 0) continue;
    const top = h.ctx >= 0 ? plan.topOf[h.ctx] : -1;
    if (top >= 0) byAnchor.get(top)!.headings.push(h);
    else {
      const b = member.get(h.id) ?? -1;
      looseHeadings.push([h, b]);
      byBlock.get(b)?.headings.push(h);
    }
  }
  S.forEach((s, i) => {
    if (s.frame !== 0) return;
    if (plan.topOf[i] >= 0) byAnchor.get(plan.topOf[i])!.structs.push(i);
    else byBlock.get(member.get(s.id) ?? -1)?.structs.push(i);
  });
  // Headings of blocks that became regions only after the headings were seen.
  for (const [h, b] of looseHeadings) { const d = byBlock.get(b); if (d && !d.headings.includes(h)) d.headings.push(h); }
  let drafts = [...byAnchor.values(), ...byBlock.values()].filter((d) => d.nodes.length || d.headings.length);
  // Content of other frames belongs where its iframe stands.
  placeByGeometry(inFrames, drafts, (n, d) => d.nodes.push(n), (n) => {
    const d: Draft = { key: `frame:${n.frame}`, landmark: 'frame', label: 'FRAME', path: `/#frame-f${n.frame}`, name: model.frames.find((f) => f.id === n.frame)?.url ?? '', box: n.box, nodes: [], headings: [], structs: [], block: -1 };
    drafts.push(d);
    return d;
  });
  for (const d of drafts) {
    if (!d.name && d.struct !== undefined) d.name = headingAbove(d, looseHeadings) ?? d.headings[0]?.text ?? '';
    if (!d.name && d.landmark === 'block') d.name = d.headings[0]?.text ?? '';
    if (d.landmark === 'page' || d.landmark === 'frame' || !(d.box[2] && d.box[3])) d.box = union([...d.nodes.map((n) => n.box), ...d.headings.map((h) => h.box)]);
  }
  drafts.sort((a, b) => Math.round(a.box[1] / 8) - Math.round(b.box[1] / 8) || a.box[0] - b.box[0]);
  // Provisional IDs until it is known which regions there are; then the memory's.
  let regions = drafts.map((d, i) => finish(d, `R${i}`, `R${i}`, model, undefined));
  let keys = drafts.map((d) => d.key);
  // One block holding the whole page says nothing: its parts are the regions.
  if (regions.length === 1 && (regions[0].landmark === 'block' || regions[0].landmark === 'page') && regions[0].children.length >= 2) {
    regions = regions[0].children;
    keys = regions.map((p) => `p:${p.ref ?? p.short}`);
  }
  const ids = memory.assign(model.docs[0] ?? '', regions.map((r, i) => ({ key: keys[i], sig: `${r.label}|${r.name}|${r.path}` })));
  regions = regions.map((r, i) => rename(r, ids[i]));
  const byId = new Map<string, RegionNode>();
  const regionOf = new Map<string, RegionNode>();
  const index = (r: RegionNode) => {
    byId.set(r.id, r);
    for (const n of r.nodes) regionOf.set(n.gid, r);
    for (const h of r.headings) regionOf.set(h.gid, r);
    r.children.forEach(index);
  };
  regions.forEach(index);
  return { regions, byId, regionOf };
}

function rename(r: RegionNode, id: string, parent?: RegionNode): RegionNode {
  const out: RegionNode = { ...r, id: parent ? `${parent.id}.${r.short}` : id, short: parent ? r.short : id, parent };
  out.children = r.children.map((c) => rename(c, '', out));
  return out;
}

/** The heading just above a region that has no name of its own, in the same block ("Sign in" over a form). */
function headingAbove(d: Draft, loose: Array<[PageHeading, number]>): string | undefined {
  let best: PageHeading | undefined;
  for (const [h, b] of loose) {
    if (b !== d.block || d.block < 0) continue;
    const gap = d.box[1] - (h.box[1] + h.box[3]);
    if (gap < -4 || gap > 160) continue;
    if (!best || h.box[1] > best.box[1]) best = h;
  }
  return best?.text;
}

function placeByGeometry<T extends { box: Box }>(items: PageNode[], targets: T[], put: (n: PageNode, t: T) => void, fallback?: (n: PageNode) => T): void {
  const made = new Map<number, T>();
  for (const n of items) {
    const c = centre(n.box);
    let best: T | undefined;
    for (const t of targets) if (contains(t.box, c) && (!best || area(t.box) < area(best.box))) best = t;
    if (!best && fallback) {
      best = made.get(n.frame) ?? fallback(n);
      made.set(n.frame, best);
    }
    if (best) put(n, best);
  }
}

/** Subsections, purposes and summary of a region (recursively), under its final ID. */
function finish(d: Draft, id: string, short: string, model: PageModel, parent: RegionNode | undefined): RegionNode {
  const r: RegionNode = {
    id, short, landmark: d.landmark, label: d.label, path: d.path, name: d.name, box: d.box, ref: d.ref, struct: d.struct,
    nodes: d.nodes, headings: d.headings, structs: d.structs, children: [], parent, purposes: [], summary: '',
  };
  r.children = subsections(r, model);
  r.purposes = purposesOf(r, model);
  r.summary = summaryOf(r, model);
  return r;
}

/** The nearest enclosing structure that can be a subsection (-1: none). */
function sectionParent(model: PageModel, i: number): number {
  for (let k = model.structure[i].parent; k >= 0; k = model.structure[k].parent) if (SUBSECTION_KINDS.has(model.structure[k].kind)) return k;
  return -1;
}

function subsections(r: RegionNode, model: PageModel): RegionNode[] {
  const S = model.structure;
  let scope = r.struct ?? -1;
  const inRegion = new Set(r.structs);
  const childrenOf = (sc: number) => r.structs.filter((i) => i !== sc && SUBSECTION_KINDS.has(S[i].kind) && S[i].frame === 0 && (sc >= 0 ? sectionParent(model, i) === sc : sectionParent(model, i) < 0 || !inRegion.has(sectionParent(model, i))));
  let kids = childrenOf(scope);
  // A section that only wraps one structure (a "Filters" region around its search form) is that structure.
  for (let guard = 0; guard < 6 && kids.length === 1 && scope >= 0 && overlapRatio(S[kids[0]].box, r.box) > 0.85; guard++) {
    scope = kids[0];
    kids = childrenOf(scope);
  }
  // Four or more alike siblings (articles of a feed, cards) are the region's content, not its parts.
  const alike = new Map<string, number[]>();
  for (const k of kids) { const sig = `${S[k].tag}|${S[k].role}`; alike.set(sig, [...alike.get(sig) ?? [], k]); }
  for (const group of alike.values()) {
    if (group.length >= 4 && (S[group[0]].role === 'article' || group.filter((k) => !S[k].name).length * 2 >= group.length)) kids = kids.filter((k) => !group.includes(k));
  }
  const out: RegionNode[] = [];
  const taken = new Set<PageNode>();
  const names = new Map<string, number>();
  const uniqueShort = (base: string) => {
    const n = (names.get(base) ?? 0) + 1;
    names.set(base, n);
    return n === 1 ? base : `${base}${n}`;
  };
  for (const k of kids) {
    const s = S[k];
    const under = (i: number | undefined) => { for (let j = i ?? -1; j >= 0; j = S[j].parent) { if (j === k) return true; if (j === scope) return false; } return false; };
    const nodes = r.nodes.filter((n) => n.frame === 0 && under(n.ctx));
    const headings = r.headings.filter((h) => under(h.ctx));
    if (!nodes.length && !headings.length) continue;
    nodes.forEach((n) => taken.add(n));
    const [landmark, label] = landmarkOf(s);
    const above = s.kind === 'form' || s.kind === 'table' ? headingJustAbove(r.headings, s.box) : undefined;
    const name = s.name || (above && above !== r.name ? above : '');
    const short = uniqueShort(shortName(name, s));
    const d: Draft = { key: '', landmark, label, path: `${r.path}/${step(s.tag, s.attrs)}`, name, box: s.box, ref: s.gid, struct: k, nodes, headings, structs: r.structs.filter((i) => under(i) || i === k), block: -1 };
    out.push(finish(d, `${r.id}.${short}`, short, model, r));
  }
  // Content of other frames: into the subsection whose box holds it.
  placeByGeometry(r.nodes.filter((n) => n.frame !== 0), out, (n, c) => { c.nodes.push(n); taken.add(n); });
  // Headed groups: headings directly in the region (not its first, title heading) split what is left by position.
  const own = r.nodes.filter((n) => !taken.has(n));
  // Headings inside repeated rows title a card, not a part of the region.
  const rowBoxes = r.structs.filter((i) => S[i].kind === 'row').map((i) => S[i].box);
  const loose = r.headings.filter((h) => !out.some((c) => c.headings.includes(h)) && !rowBoxes.some((b) => contains(b, centre(h.box)))).sort((a, b) => a.box[1] - b.box[1]);
  const title = loose[0] && !own.some((n) => n.box[1] + n.box[3] <= loose[0].box[1] + 2) ? loose[0] : undefined;
  let dividers = loose.filter((h) => h !== title && (!title || h.level >= title.level));
  // Dozens of headings are a list of entries (search results, posts), not parts of the region.
  if (dividers.length > 12) dividers = [];
  dividers.forEach((h, i) => {
    const top = h.box[1];
    const bottom = dividers[i + 1]?.box[1] ?? Infinity;
    const nodes = own.filter((n) => !taken.has(n) && n.box[1] + n.box[3] / 2 >= top && n.box[1] + n.box[3] / 2 < bottom);
    if (!nodes.length) return;
    nodes.forEach((n) => taken.add(n));
    const short = uniqueShort(shortName(h.text, undefined));
    const d: Draft = { key: '', landmark: 'group', label: 'GROUP', path: `${r.path}/h${h.level}`, name: h.text, box: union([h.box, ...nodes.map((n) => n.box)]), ref: h.gid, nodes, headings: [h], structs: [], block: -1 };
    out.push(finish(d, `${r.id}.${short}`, short, model, r));
  });
  return out.sort((a, b) => a.box[1] - b.box[1] || a.box[0] - b.box[0]);
}

function headingJustAbove(headings: PageHeading[], box: Box): string | undefined {
  let best: PageHeading | undefined;
  for (const h of headings) {
    const gap = box[1] - (h.box[1] + h.box[3]);
    if (gap >= -4 && gap <= 80 && (!best || h.box[1] > best.box[1])) best = h;
  }
  return best?.text;
}

const DEFAULT_SHORT: Record<string, string> = { table: 'DataTable', form: 'Form', fieldset: 'Fieldset', dialog: 'Dialog', group: 'Group', section: 'Section' };

/** "Filter options" → "FilterOptions"; unnamed: by what it is (DataTable, Search, Navigation). */
export function shortName(name: string, s: PageStruct | undefined): string {
  const words = name.normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean).slice(0, 3);
  let out = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('').slice(0, 24);
  if (/^\d/.test(out)) out = `S${out}`;
  if (out) return out;
  if (!s) return 'Section';
  if (s.role === 'search') return 'Search';
  if (s.role === 'navigation') return 'Navigation';
  if (s.role === 'article') return 'Article';
  return DEFAULT_SHORT[s.kind] ?? (s.role[0].toUpperCase() + s.role.slice(1));
}

// ---- purposes and summaries ----

const SEARCH_WORDS = /\b(search|query|find|suche|recherche|buscar|cerca)\b/i;
const LOGIN_WORDS = /\b(log ?in|sign ?in|anmelden|connexion|iniciar sesi)/i;
const SIGNUP_WORDS = /\b(sign ?up|register|registration|create (an |your )?account|join now)\b/i;
const FILTER_WORDS = /\b(filters?|refine|narrow|sort by)\b/i;
const CART_WORDS = /\b(add to (cart|bag|basket)|buy now|in den warenkorb|ajouter au panier)\b/i;
const PAGE_WORDS = /^(next|previous|prev|older|newer|[«»‹›<>]|\d+)$/i;

function textOf(n: PageNode): string {
  return `${n.name} ${n.placeholder ?? ''} ${n.attrs?.name ?? ''} ${n.attrs?.id ?? ''}`;
}

/** What a region is for, from its controls, structure and headings. */
export function purposesOf(r: RegionNode, model: PageModel): string[] {
  const S = model.structure;
  const out: string[] = [];
  const structs = r.structs.map((i) => S[i]);
  if (r.struct !== undefined && !r.structs.includes(r.struct)) structs.push(S[r.struct]);
  const controls = r.nodes.filter((n) => countKind(n) !== null);
  const words = `${r.name} ${r.headings.map((h) => h.text).join(' ')} ${structs.map((s) => s.name).join(' ')}`;
  const passwords = controls.filter((n) => n.type === 'password' || n.attrs?.type === 'password').length;
  const buttonNames = controls.filter((n) => n.role === 'button' || n.role === 'link').map((n) => n.name).join(' | ');
  if (structs.some((s) => s.role === 'search') || controls.some((n) => n.role === 'searchbox' || ((n.role === 'textbox' || n.role === 'combobox') && (SEARCH_WORDS.test(textOf(n)) || n.attrs?.name === 'q')))) out.push('search');
  if (passwords >= 2 || (SIGNUP_WORDS.test(buttonNames) && controls.some((n) => n.role === 'textbox')) || SIGNUP_WORDS.test(words)) out.push('sign-up');
  // A login asks for little besides the password; a checkout or profile form that also has one is not a login.
  else if ((passwords === 1 && controls.filter((n) => n.role === 'textbox').length <= 3) || (LOGIN_WORDS.test(words) && controls.some((n) => n.role === 'textbox'))) out.push('login');
  if (FILTER_WORDS.test(words) || (controls.some((n) => /^(apply|filter)/i.test(n.name) && n.role === 'button') && controls.some((n) => n.role === 'combobox' || n.role === 'checkbox'))) out.push('filter');
  const tables = structs.filter((s) => s.kind === 'table');
  if (tables.length === 1) out.push(`data table with ${tables[0].rows ?? 0} rows`);
  else if (tables.length > 1) out.push(`${tables.length} data tables (${tables.slice(0, 4).map((t) => t.rows ?? 0).join(', ')}${tables.length > 4 ? ', …' : ''} rows)`);
  const numbered = controls.filter((n) => n.role === 'link' && PAGE_WORDS.test(n.name.trim())).length;
  if (structs.some((s) => /pag(in|e)/i.test(`${s.name} ${s.attrs?.class ?? ''}`)) || (numbered >= 3 && controls.some((n) => /^(next|prev)/i.test(n.name)))) out.push('pagination');
  const linkNames = controls.filter((n) => n.role === 'link').map((n) => n.name);
  const links = linkNames.length;
  // Menu entries are short labels; a list of long link texts is content (articles, products).
  const shortLabels = [...linkNames].sort((a, b) => a.length - b.length)[links >> 1]?.length <= 24;
  if ((r.landmark === 'nav' || (links >= 5 && links >= 0.8 * controls.length && r.landmark !== 'main' && shortLabels)) && !out.includes('pagination')) out.push(`navigation with ${links} items`);
  const articles = structs.filter((s) => s.role === 'article' && s.kind !== 'row').length;
  const cards = structs.filter((s) => s.kind === 'row' && s.role !== 'row').length || (articles >= 3 ? articles : 0);
  const items = r.nodes.filter((n) => n.role === 'item');
  const priced = items.filter((n) => AMOUNT.test(`${n.value ?? ''} ${n.name}`)).length + controls.filter((n) => n.role === 'link' && AMOUNT.test(n.name)).length;
  const grid = cards >= 3 && (priced >= 3 || controls.filter((n) => CART_WORDS.test(n.name)).length >= 3);
  if (grid) out.push(`product card grid (${cards} cards)`);
  if (!grid && articles >= 4) out.push(`list of ${articles} articles`);
  else if (!grid && (articles || r.landmark === 'article')) out.push('article');
  const fields = controls.filter((n) => ['input', 'select', 'checkbox', 'radio'].includes(countKind(n)!)).length;
  if (!out.length && fields >= 2 && structs.some((s) => s.kind === 'form')) out.push(`form with ${fields} fields`);
  return out;
}

/** The controls a person would look at first: primary and submit buttons, labelled fields, then the rest. */
function keyControls(r: RegionNode, max: number, skipLinks: boolean): PageNode[] {
  const controls = r.nodes.filter((n) => countKind(n) !== null && n.name && !(skipLinks && n.role === 'link'));
  const rank = (n: PageNode) => {
    if (/\b(primary|cta)\b/i.test(n.attrs?.class ?? '') || n.attrs?.type === 'submit') return 0;
    if (n.role === 'button') return 1;
    if (countKind(n) === 'input' || countKind(n) === 'select') return 2;
    if (countKind(n) === 'menu') return 1;
    return 3;
  };
  const seen = new Set<string>();
  return controls
    .map((n, i) => [n, rank(n), i] as const)
    .sort((a, b) => a[1] - b[1] || a[2] - b[2])
    .map(([n]) => n)
    .filter((n) => { const k = n.name.toLowerCase(); if (seen.has(k)) return false; seen.add(k); return true; })
    .slice(0, max);
}

export const clipText = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1) + '…' : s);

export function summaryOf(r: RegionNode, model: PageModel): string {
  const parts = [...r.purposes];
  const nav = r.purposes.find((p) => p.startsWith('navigation with'));
  if (nav) {
    const names = r.nodes.filter((n) => n.role === 'link' && n.name).map((n) => clipText(n.name, 24));
    parts[parts.indexOf(nav)] = `${nav}: ${names.slice(0, 5).join(', ')}${names.length > 5 ? ', …' : ''}`;
  }
  const key = keyControls(r, 3, !!nav).map((n) => clipText(n.name, 30) + (countKind(n) === 'menu' ? ' (menu)' : ''));
  if (!parts.length && !key.length) {
    const items = r.nodes.filter((n) => n.role === 'item').slice(0, 2).map((n) => clipText(n.name, 40));
    const headings = r.headings.filter((h) => h.text !== r.name).slice(0, 2).map((h) => clipText(h.text, 40));
    return [...headings, ...items].join(', ') || (model.structure.length ? 'no controls' : '');
  }
  return key.length ? `${parts.join(', ')}${parts.length ? '; key: ' : ''}${key.join(', ')}` : parts.join(', ');
}

/** Interactive elements by kind: { button: 3, link: 4 }. */
export function countsOf(nodes: PageNode[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of nodes) {
    const k = countKind(n);
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

export function countsText(counts: Map<string, number>): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const parts = KIND_ORDER.filter((k) => counts.get(k)).map((k) => `${counts.get(k)} ${counts.get(k) === 1 ? k : PLURAL[k]}`);
  return parts.length ? `${total} (${parts.join(', ')})` : '0';
}

export const bbox = (b: Box): BoundingBox => ({ x: b[0], y: b[1], width: b[2], height: b[3] });

export function regionRef(r: RegionNode): SubsectionRef {
  return { id: r.id, name: r.name, kind: r.label, interactive: r.nodes.filter((n) => countKind(n) !== null).length, ...(r.ref && { ref: r.ref }) };
}

export function regionData(r: RegionNode): Region {
  const counts = countsOf(r.nodes);
  const get = (k: string) => counts.get(k) ?? 0;
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const buttons = get('button') + get('menu');
  const links = get('link');
  const inputs = get('input') + get('select') + get('checkbox') + get('radio');
  return {
    id: r.id,
    landmark: r.landmark,
    xpath: r.path,
    name: r.name,
    summary: r.summary,
    purposes: r.purposes,
    subsections: r.children.map((c) => c.short),
    sections: r.children.map(regionRef),
    interactive: total,
    interactiveCounts: { buttons, links, inputs, other: total - buttons - links - inputs },
    byKind: Object.fromEntries(KIND_ORDER.filter((k) => counts.get(k)).map((k) => [PLURAL[k], counts.get(k)!])),
    boundingBox: bbox(r.box),
    ...(r.ref && { ref: r.ref }),
  };
}
