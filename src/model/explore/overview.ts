// dom_overview (the seed's reconnaissance tool; its grep, dom_search, is search.ts), as a query
// over one cached snapshot: the page model, its regions and the page's long paragraphs. Planning (which
// rows an answer shows) is separate from rendering, so that the browser side can ask the page
// about exactly those rows (their selector hints, options, and whether they are still as read).
import { MAX_ROWS } from './explore.js';
import type { DescribedElement, HiddenControl, PageLayout, SelectorHint, TextBlock } from '../contracts/engineAnswers.js';
import type { DomOverviewResponse, GroupedInteractiveElement, HeadingElement, InteractiveElement, OutlineElement } from './explore.js';
import { GROUP_MIN, groupNames, groupSimilar, idRange, nodeGroupKey, selectorShape, shapeClasses } from '../renderers/grouping.js';
import { listItemText, pageText, quotedPageText } from '../renderers/pageText.js';
import type { PageModel, PageNode } from '../pagemodel/page.js';
import { countKind, type RegionNode, type RegionTree } from './regions.js';
import type { Box } from '../contracts/schema.js';

export interface OverviewParams {
  outline: boolean;
  interactives: boolean;
  headings: boolean;
  visible: boolean;
  viewport: boolean;
  maxRows: number;
  group: boolean;
}

/** A hidden control placed in the page (frame ordinal, global ID). */
export interface PlacedHidden extends HiddenControl {
  gid: string;
  frame: number;
}

/** A text block placed in the page. */
export interface PlacedText extends TextBlock {
  gid: string;
  frame: number;
}

export interface OverviewSource {
  model: PageModel;
  tree: RegionTree;
  /** The main frame's layout (scroll, content size, body, blocks). */
  layout: PageLayout;
  /** Long paragraphs of every frame, boxes in top-level coordinates. */
  paragraphs: PlacedText[];
  /** With `visible: false`: the controls nobody can see. */
  hidden?: { total: number; controls: PlacedHidden[] };
}

interface OutlineRow { ref: string; tag: string; attrs: Record<string, string>; depth: number; region?: string; leaf: boolean }
type InteractiveRow = { kind: 'one'; node: PageNode } | { kind: 'group'; nodes: PageNode[] } | { kind: 'hidden'; control: PlacedHidden };
interface HeadingRow { ref: string; tag: string; text: string; box: Box }

export interface OverviewPlan {
  params: OverviewParams;
  /**
   * `found`: the rows the parameters let in (in view, …), of which the first `max_rows` are shown.
   * Interactives count elements, not lines (seed 003: a row is a visible interactive element, so
   * a group of six is six rows).
   */
  outline?: { rows: OutlineRow[]; found: number; total: number; truncated: boolean };
  interactives?: { rows: InteractiveRow[]; found: number; total: number; truncated: boolean };
  headings?: { rows: HeadingRow[]; found: number; total: number; truncated: boolean };
  /** Elements whose hints, options and current state the page should give. */
  describe: string[];
  /** Groups whose shared selector the page should give. */
  groups: string[][];
}

/** Long paragraphs shown at most: the key text, not the article. */
const KEY_PARAGRAPHS = 3;

const intersects = (a: Box, b: Box) => a[0] < b[0] + b[2] && a[0] + a[2] > b[0] && a[1] < b[1] + b[3] && a[1] + a[3] > b[1];

/** Controls, not row texts or bare scroll containers. */
export function isControl(n: PageNode): boolean {
  const k = countKind(n);
  return k !== null && !(n.scr && k === 'other');
}

export function planOverview(src: OverviewSource, params: OverviewParams): OverviewPlan {
  const { model, tree } = src;
  const view: Box = [0, 0, model.viewport.width, model.viewport.height];
  const inView = (b: Box) => !params.viewport || intersects(b, view);
  const plan: OverviewPlan = { params, describe: [], groups: [] };
  const max = params.maxRows;
  if (params.outline) {
    const all: OutlineRow[] = [];
    // Two regions can stand on one element (a landmark split around a block in reading order):
    // the element is listed once.
    const listed = new Set<string>();
    const add = (r: RegionNode, depth: number, leaf: boolean) => {
      const shape = shapeOf(r, model, src.layout);
      if (!shape || !r.ref || listed.has(r.ref)) return false;
      listed.add(r.ref);
      all.push({ ref: r.ref, tag: shape.tag, attrs: shape.attrs, depth, region: r.id, leaf });
      return true;
    };
    for (const r of tree.regions) {
      if (!inView(r.box)) continue;
      const kids = r.children.filter((c) => c.landmark !== 'group' && inView(c.box) && c.ref);
      add(r, 1, kids.length === 0);
      for (const c of kids) add(c, 2, true);
    }
    const total = tree.regions.reduce((k, r) => k + 1 + r.children.filter((c) => c.landmark !== 'group').length, 0);
    plan.outline = { rows: all.slice(0, max), found: all.length, total, truncated: all.length > max };
    plan.describe.push(...plan.outline.rows.map((r) => r.ref));
  }
  if (params.interactives) {
    const controls = model.nodes.filter(isControl);
    const shown = controls.filter((n) => inView(n.box));
    const rows: InteractiveRow[] = (params.group ? groupSimilar(shown, (n) => nodeGroupKey(model, n)) : shown)
      .map((e) => (Array.isArray(e) ? { kind: 'group', nodes: e } : { kind: 'one', node: e }));
    let total = controls.length;
    let found = shown.length;
    if (!params.visible && src.hidden) {
      rows.push(...src.hidden.controls.map((control): InteractiveRow => ({ kind: 'hidden', control })));
      total += src.hidden.total;
      found += src.hidden.total;
    }
    const taken = firstElements(rows, max);
    plan.interactives = { rows: taken, found, total, truncated: found > max };
    for (const r of plan.interactives.rows) {
      if (r.kind === 'one') plan.describe.push(r.node.gid);
      else if (r.kind === 'group') plan.groups.push(r.nodes.map((n) => n.gid));
      else plan.describe.push(r.control.gid);
    }
  }
  if (params.headings) {
    const headings = model.headings.filter((h) => h.level <= 3).map((h) => ({ ref: h.gid, tag: `h${h.level}`, text: h.text, box: h.box }));
    const paragraphs = src.paragraphs.map((p) => ({ ref: p.gid, tag: p.tag, text: p.text, box: p.box }));
    const order = (a: HeadingRow, b: HeadingRow) => a.box[1] - b.box[1] || a.box[0] - b.box[0];
    // Key text: the first few long paragraphs in view, not the whole article.
    const shown = [...headings.filter((h) => inView(h.box)), ...paragraphs.filter((p) => inView(p.box)).slice(0, KEY_PARAGRAPHS)].sort(order);
    const total = headings.length + paragraphs.length;
    plan.headings = { rows: shown.slice(0, max), found: shown.length, total, truncated: shown.length > max };
  }
  return plan;
}

/**
 * The first rows that hold at most `max` elements, a group counting each member (seed 003: max_rows
 * is "maximum elements per category", a row is one interactive element). A group is shown whole,
 * so that "8 similar" means every one of them there, and the section ends at the first row that
 * does not fit; only when that would leave more than half of the rows unused (a long menu early on
 * the page) is the group cut to the members that fit. Either way a larger max_rows never shows fewer.
 */
function firstElements(rows: InteractiveRow[], max: number): InteractiveRow[] {
  const out: InteractiveRow[] = [];
  let used = 0;
  for (const r of rows) {
    const size = r.kind === 'group' ? r.nodes.length : 1;
    if (used + size <= max) {
      out.push(r);
      used += size;
      continue;
    }
    if (r.kind === 'group' && used * 2 < max) {
      const part = r.nodes.slice(0, max - used);
      out.push(...(part.length >= GROUP_MIN ? [{ kind: 'group' as const, nodes: part }] : part.map((node) => ({ kind: 'one' as const, node }))));
    }
    break;
  }
  return out;
}

function shapeOf(r: RegionNode, model: PageModel, layout: PageLayout): { tag: string; attrs: Record<string, string> } | null {
  if (r.struct !== undefined) { const s = model.structure[r.struct]; return { tag: s.tag, attrs: s.attrs ?? {} }; }
  const block = layout.blocks.find((b) => b.id === r.ref);
  if (block) return { tag: block.tag, attrs: block.attrs };
  return null;
}

// ---- rendering ----

export interface OverviewContext {
  snapshotId: string;
  ageMs: number;
  /** The snapshot answered an earlier call already: its age is worth saying. */
  reused: boolean;
  described: Map<string, DescribedElement>;
  /** Shared selectors of the shown groups, by their first member's ID. */
  groupHints: Map<string, SelectorHint[]>;
  hintText: (h: SelectorHint) => string;
  /** Lengths of the paragraphs shown (by ID). */
  lengths: Map<string, number>;
  warnings: string[];
}

const IDENT = /^[A-Za-z][\w-]*$/;
const GENERATED = /\d{3,}|[0-9a-f]{8,}/i;
export const clip = (s: string, max: number) => (s.length > max ? s.slice(0, max - 1) + '…' : s);
/**
 * Page text as every text form writes it (src/model/renderers/pageText.ts): bare when plain words,
 * else a JSON string literal. A bare text holds no `=`, bracket or quote, so it cannot run into the
 * `value=`, `(4 options)` or `[checked]` written after it.
 */
const t = pageText;
/** An attribute value in a selector shape: bare when a CSS identifier (`[type=date]`, valid CSS as it is), else quoted. */
const attrValue = (v: string) => (/^-?[A-Za-z_][\w-]*$/.test(v) ? v : quotedPageText(v));

/**
 * A class that tells a reader something: not a build tool's hash (`_1jABB`, `rui-3mpO_`,
 * `link--e919c`: a part that mixes letters and digits, or a leading underscore).
 */
const readableClass = (c: string) => !GENERATED.test(c) && !c.startsWith('_') && !c.split(/[-_]+/).some((part) => /\d/.test(part) && /[A-Za-z]/.test(part));

/**
 * `main#content`, `button.row-action`, `input[type=checkbox]#select-all`, `input[name=search]`.
 * The best identifier only (seed 003: id > name > unique text > class): an element `named` by its
 * own text is identified by that text, so it shows its tag (and an input its type: what it takes)
 * and nothing more; a class that is a build tool's hash is never shown. The JSON's attributes and
 * selector hints keep the id, name and classes.
 */
export function displayShape(tag: string, attrs: Record<string, string>, given?: string, named = false): string {
  let out = tag;
  const id = attrs.id && IDENT.test(attrs.id) && !GENERATED.test(attrs.id) ? attrs.id : undefined;
  const type = given ?? attrs.type;
  if (tag === 'input' && attrs.name && !id && !named) return `${out}[name=${attrValue(attrs.name)}]`;
  if (tag === 'input' && type && type !== 'text') out += `[type=${attrValue(type)}]`;
  if (named) return out;
  if (id) return `${out}#${id}`;
  if (tag !== 'input' && attrs.name) return `${out}[name=${attrValue(attrs.name)}]`;
  const cls = shapeClasses(attrs.class).find(readableClass);
  return cls ? `${out}.${cls}` : out;
}

/**
 * The shape a group's members share, as its line shows it: `button.row-action`, `input[type=checkbox]`
 * (the grouping key's tag, first readable class and type; never one member's id or name).
 */
function groupShape(n: PageNode): string {
  const type = n.type ?? n.attrs?.type;
  const cls = shapeClasses(n.attrs?.class).slice(0, 1).find(readableClass);
  return `${n.tag}${cls ? `.${cls}` : ''}${n.tag === 'input' && type && type !== 'text' ? `[type=${attrValue(type)}]` : ''}`;
}

/**
 * A name as the text form shows it: without icon-font glyphs (private-use characters, which no
 * reader can read) and with its white space collapsed. The JSON keeps the name as read.
 */
export function shownName(name: string | undefined): string {
  return (name ?? '').replace(/\p{Co}+/gu, ' ').replace(/\s+/g, ' ').trim();
}

/** A link's target as few characters as say it: the path on the same site, else without the scheme. */
function shortHref(href: string, base: string, max = 50): string {
  try {
    const u = new URL(href);
    const b = new URL(base);
    const s = u.origin === b.origin ? u.pathname + u.search + u.hash : u.href.replace(/^https?:\/\/(www\.)?/, '');
    return clip(s, max);
  } catch {
    return clip(href, max);
  }
}

/** A link to the page itself (a script's `href="#"`, resolved): its href says nothing. */
function isSelfLink(href: string | undefined, page: string): boolean {
  if (!href) return false;
  try {
    const u = new URL(href);
    const p = new URL(page);
    return u.origin === p.origin && u.pathname === p.pathname && u.search === p.search;
  } catch {
    return false;
  }
}

/** A link to a script (`javascript:void(0)`): its href says nothing about where it goes. */
const scriptLink = (href: string) => /^\s*javascript:/i.test(href);

/** Why a frame was not read, in its first words: `failed to load (blocked or unreachable)` → `failed to load`. */
const shortReason = (error: string) => error.split(/ \(|: /)[0];

/** Names a group line quotes (the first ones and the last); the JSON lists every member's. */
const GROUP_EXAMPLES = 3;

/** An href the text shows (of a link without a name) is cut here; the JSON has it to 50 characters. */
const TEXT_HREF = 30;

const TYPES: Record<string, string> = { button: 'button', menu: 'button', link: 'link', checkbox: 'checkbox', radio: 'radio', tab: 'tab', 'menu item': 'menuitem' };

function interactiveType(n: { role: string; tag: string; type?: string; attrs?: Record<string, string> }): string {
  if (n.tag === 'select' || n.role === 'combobox' || n.role === 'listbox') return 'select';
  if (n.tag === 'textarea') return 'textarea';
  const k = countKind(n) ?? 'other';
  if (k === 'input') return 'input';
  return TYPES[k] ?? (n.tag === 'input' ? 'input' : 'other');
}

const SHOWN_STATES = ['checked', 'mixed', 'disabled', 'expanded', 'selected', 'pressed'];

function interactiveOf(n: PageNode, model: PageModel, ctx: OverviewContext): InteractiveElement {
  const d = ctx.described.get(n.gid);
  const attrs = n.attrs ?? {};
  const name = d?.found && d.name !== undefined ? d.name : n.name;
  const value = d?.found ? d.value : n.value;
  const type = interactiveType(n);
  const out: InteractiveElement = {
    id: `[${n.gid}]`, type, tag: n.tag,
    attributes: {
      ...(attrs.name && { name: attrs.name }),
      ...(n.placeholder && { placeholder: clip(n.placeholder, 40) }),
      ...(n.href && { href: shortHref(n.href, model.url) }),
      ...((n.type ?? attrs.type) && { type: n.type ?? attrs.type }),
      ...(attrs.role && { role: attrs.role }),
    },
    selector_hints: (d?.hints ?? []).map((h) => ctx.hintText(n.frame ? { ...h, frame: `f${n.frame}` } : h)),
    ref: n.gid,
  };
  if (type === 'button' || type === 'link' || type === 'other' || type === 'tab' || type === 'menuitem') { if (name) out.text = clip(name, 80); }
  else if (name) out.label = clip(name, 80);
  if (value !== undefined && value !== '') out.value = clip(value, 80);
  const states = (d?.states ?? n.states).filter((s) => SHOWN_STATES.includes(s));
  if (states.length) out.states = states;
  return out;
}

/** What a line says of an element besides its JSON entry: the page's attributes and what was seen of it. */
interface LineFacts { attrs: Record<string, string>; placeholder?: string; options?: number; selfLink?: boolean }

function interactiveLine(e: InteractiveElement, { attrs, placeholder, options, selfLink }: LineFacts): string {
  const name = shownName(e.text ?? e.label);
  let line = `${e.id} ${displayShape(e.tag, attrs, e.attributes.type, !!name)}`;
  // A placeholder that names a field says the field is empty: it keeps its key.
  if (e.attributes.placeholder && (e.text ?? e.label) === placeholder) line += ` placeholder=${t(shownName(e.attributes.placeholder))}`;
  else if (name) line += ` ${t(clip(name, 40))}`;
  if (e.value !== undefined) line += ` value=${t(clip(e.value, 40))}`;
  if (options !== undefined) line += ` (${options} options)`;
  const href = e.attributes.href;
  // A link with a name is identified by it; one without is identified by where it goes.
  if (href && !name && !selfLink && !scriptLink(href)) line += ` href=${t(clip(href, TEXT_HREF))}`;
  if (e.states?.length) line += ` [${e.states.join(', ')}]`;
  if (e.hidden) line += ' [hidden]';
  return line;
}

/** How many of a row's elements something else covers (a group has several). */
interface RowCover { id: string; covered: number; of: number }

/** Rows excepted by name at most in a section-wide cover note; past that each covered row is marked. */
const COVER_EXCEPTIONS = 5;

/**
 * Marks the covered rows of a section (`body`, one line per row, in `cover`'s order). Behind a
 * cookie wall or a modal most rows are covered: one note after the heading then says so and names
 * the rows that are not, instead of a mark on every line. A group partly covered says how much.
 */
function markCovered(body: string[], cover: RowCover[]): string[] {
  const whole = cover.filter((c) => c.covered > 0 && c.covered === c.of).length;
  const exceptions = cover.filter((c) => c.covered < c.of);
  const noted = whole > 2 && whole * 2 > cover.length && exceptions.length <= COVER_EXCEPTIONS;
  const lines = body.map((line, i) => {
    const c = cover[i];
    if (c.covered > 0 && c.covered < c.of) return `${line} [${c.covered} of ${c.of} covered]`;
    return !noted && c.covered > 0 ? `${line} [covered]` : line;
  });
  if (!noted) return lines;
  const but = exceptions.length ? ` but ${exceptions.map((c) => c.id).join(' ')}` : '';
  return [`Covered by something on top: every row${but}`, ...lines];
}

/** A section's heading: its name, then how many rows it shows of how many when max_rows cut it, else `whole`. */
function sectionHead(name: string, shown: number, found: number, whole: string): string {
  return `[${name}${shown < found ? ` ${shown} of ${found}` : whole}]`;
}

/**
 * What the summary says of the sections max_rows cut, and the max_rows that shows them whole (at
 * most the 100 the parameter allows): `Truncated: interactives; max_rows=39 shows all`.
 */
function truncationNote(cut: Array<{ name: string; found: number }>): string {
  if (!cut.length) return '';
  const most = Math.max(...cut.map((c) => c.found));
  const all = Math.min(most, MAX_ROWS);
  return ` | Truncated: ${cut.map((c) => c.name).join(', ')}; max_rows=${all} shows ${all === most ? 'all' : `the first ${all}`}`;
}

export function renderOverview(src: OverviewSource, plan: OverviewPlan, ctx: OverviewContext): DomOverviewResponse {
  const { model, layout } = src;
  const sections: DomOverviewResponse['sections'] = {};
  /** Sections max_rows cut, with the rows each had. */
  const cut: Array<{ name: string; found: number }> = [];
  const lines = [`DOM OVERVIEW ${model.url}`];
  let shown = 0;
  let total = 0;
  /** The body row: counted in the JSON (the outline's root), not in the text, which leaves it out. */
  let bodyRow = 0;
  if (plan.outline) {
    const o = plan.outline;
    const body = layout.body;
    total += o.total + (body ? 1 : 0);
    const rows: OutlineElement[] = [];
    lines.push('', sectionHead('OUTLINE', o.rows.length, o.found, ''));
    // The body is the JSON outline's root; the text leaves its line out (every page has one, and
    // an agent does nothing with it), so the regions start the outline unindented.
    if (body) { rows.push({ id: `[${body.id}]`, tag: 'body', depth: 0, child_count: body.childCount, ref: body.id }); bodyRow = 1; }
    for (const r of o.rows) {
      const d = ctx.described.get(r.ref);
      const childCount = d?.childCount ?? 0;
      const cls = shapeClasses(r.attrs.class).join(' ');
      rows.push({ id: `[${r.ref}]`, tag: r.tag, ...(cls && { classes: cls }), ...(r.attrs.id && { id_attr: r.attrs.id }), depth: r.depth, child_count: childCount, ref: r.ref, ...(r.region && { region: r.region }) });
      lines.push(`${'  '.repeat(r.depth - 1)}[${r.ref}] ${displayShape(r.tag, r.attrs)}${r.leaf && childCount ? ` (${childCount} ${childCount === 1 ? 'child' : 'children'})` : ''}`);
    }
    // Frames with controls get a line each; the rest (ads, trackers, frames that did not load) one line together.
    const frames = model.frames.filter((f) => f.id !== 0);
    const withControls = frames.filter((f) => !f.error && model.nodes.some((n) => n.frame === f.id && isControl(n)));
    for (const f of withControls.slice(0, 5)) lines.push(`[iframe] f${f.id} ${shortHref(f.url, model.url, 50)}`);
    const rest = frames.length - Math.min(withControls.length, 5);
    const unread = frames.filter((f) => f.error).length;
    if (rest > 0) lines.push(`[iframes] ${rest} ${withControls.length ? 'more' : 'without controls'}${unread ? ` (${unread} not read: ${shortReason(frames.find((f) => f.error)!.error!)})` : ''}`);
    shown += rows.length;
    if (o.truncated) cut.push({ name: 'outline', found: o.found });
    sections.outline = rows;
  }
  if (plan.interactives) {
    const p = plan.interactives;
    total += p.total;
    const rows: Array<InteractiveElement | GroupedInteractiveElement> = [];
    const body: string[] = [];
    const cover: RowCover[] = [];
    let elements = 0;
    for (const r of p.rows) {
      if (r.kind === 'one') {
        const e = interactiveOf(r.node, model, ctx);
        rows.push(e);
        body.push(interactiveLine(e, { attrs: r.node.attrs ?? {}, placeholder: r.node.placeholder, options: ctx.described.get(r.node.gid)?.options?.count, selfLink: isSelfLink(r.node.href, model.url) }));
        cover.push({ id: e.id, covered: r.node.occ ? 1 : 0, of: 1 });
        elements++;
      } else if (r.kind === 'group') {
        const first = r.nodes[0];
        const names = r.nodes.map((n) => clip(n.name, 28));
        const shape = groupShape(first);
        const g: GroupedInteractiveElement = {
          id: idRange(r.nodes.map((n) => n.gid)), group: selectorShape(first), count: r.nodes.length,
          selector_hints: (ctx.groupHints.get(first.gid) ?? []).map((h) => ctx.hintText(first.frame ? { ...h, frame: `f${first.frame}` } : h)),
          refs: r.nodes.map((n) => n.gid), type: interactiveType(first), names,
        };
        rows.push(g);
        body.push(`${g.id} ${g.count} similar: ${shape} ${groupNames(r.nodes.map((n) => clip(shownName(n.name), 28)), GROUP_EXAMPLES, listItemText)}`.trimEnd());
        cover.push({ id: g.id, covered: r.nodes.filter((n) => n.occ).length, of: r.nodes.length });
        elements += r.nodes.length;
      } else {
        const c = r.control;
        const e: InteractiveElement = {
          id: `[${c.gid}]`, type: interactiveType({ role: c.role, tag: c.tag, attrs: c.attrs }), tag: c.tag,
          attributes: { ...(c.attrs.name && { name: c.attrs.name }), ...(c.attrs.placeholder && { placeholder: clip(c.attrs.placeholder, 40) }), ...(c.attrs.href && { href: shortHref(c.attrs.href, model.url) }), ...(c.attrs.type && { type: c.attrs.type }), ...(c.attrs.role && { role: c.attrs.role }) },
          selector_hints: (ctx.described.get(c.gid)?.hints ?? []).map((h) => ctx.hintText(c.frame ? { ...h, frame: `f${c.frame}` } : h)),
          ref: c.gid, hidden: true,
          ...(c.name && { text: clip(c.name, 80) }),
        };
        rows.push(e);
        body.push(interactiveLine(e, { attrs: c.attrs, placeholder: c.attrs.placeholder }));
        cover.push({ id: e.id, covered: 0, of: 1 });
        elements++;
      }
    }
    lines.push('', sectionHead('INTERACTIVES', elements, p.found, ` ${p.found}`), ...markCovered(body, cover));
    shown += elements;
    if (p.truncated) cut.push({ name: 'interactives', found: p.found });
    sections.interactives = rows;
  }
  if (plan.headings) {
    const h = plan.headings;
    total += h.total;
    const rows: HeadingElement[] = h.rows.map((r) => {
      const length = ctx.lengths.get(r.ref) ?? r.text.length;
      return { id: `[${r.ref}]`, tag: r.tag, text: clip(r.text, 100), length, ref: r.ref };
    });
    lines.push('', sectionHead('HEADINGS', h.rows.length, h.found, ''));
    for (const r of rows) lines.push(`${r.id} ${r.tag} ${t(clip(r.text, r.tag === 'p' ? 80 : 100))}${r.tag === 'p' || r.length > r.text.length ? ` (${r.length} chars)` : ''}`);
    shown += rows.length;
    if (h.truncated) cut.push({ name: 'headings', found: h.found });
    sections.headings = rows;
  }
  const info = { width: model.viewport.width, height: model.viewport.height, scroll_position: layout.scroll.y, contentHeight: layout.content.height };
  lines.push('', `[SUMMARY] Snapshot ${ctx.snapshotId}${ctx.reused && ctx.ageMs >= 1000 ? ` (${Math.round(ctx.ageMs / 1000)} s old)` : ''} | Shown ${shown - bodyRow} of ${total - bodyRow}${truncationNote(cut)} | Viewport ${info.width}x${info.height} | Scroll ${info.scroll_position}/${info.contentHeight}`);
  if (ctx.warnings.length) lines.push(`Warnings: ${ctx.warnings.join('; ')}`);
  return {
    success: true, snapshotId: ctx.snapshotId, url: model.url, sections,
    summary: { total_elements: total, shown, truncatedSections: cut.map((c) => c.name), viewport_info: info },
    snapshotAgeMs: Math.round(ctx.ageMs),
    ...(ctx.warnings.length && { warnings: ctx.warnings }),
    text: lines.join('\n'),
  };
}
