// The skeleton (seed 000 §10): minimal HTML of the controls, each carrying the same ID as in
// semantic_v3 (`data-llm-id`), inside just enough structure to tell look-alikes apart: the
// landmarks, forms, fieldsets, dialogs, tables and repeated rows around them, and the nearest
// heading above a group. A renderer over the page model (read with structure and attributes);
// it never reads the page.
import type { NativeOption } from '../contracts/engineAnswers.js';
import type { PageHeading, PageModel, PageNode, PageStruct } from '../pagemodel/page.js';
import type { Box } from '../contracts/schema.js';
import { truncate, V3_NAME_MAX } from './render.js';
import { isSecretNode } from '../safety/secrets.js';

/** The seed's lists (§10), and how the skeleton uses them. */
export const SKELETON_LISTS = {
  /** Written with their own tag (an <option> inside its <select>). */
  interactiveTags: ['a', 'button', 'input', 'select', 'textarea', 'option'],
  /** Written with their own tag and the role; other controls pagelens finds are written the same way. */
  interactiveRoles: ['button', 'link', 'menuitem', 'tab', 'checkbox', 'radio', 'switch', 'option', 'combobox', 'listbox', 'textbox'],
  /** The only attributes of the page's that are kept. */
  keepAttrs: ['name', 'type', 'href', 'value', 'placeholder', 'role', 'aria-label', 'title', 'data-testid', 'data-id', 'disabled', 'readonly', 'checked', 'selected'],
  /** Never written as such: a control with one of these tags is written as a <span>. */
  discardTags: ['style', 'script', 'noscript', 'svg', 'path', 'link', 'meta', 'head', 'title', 'template', 'slot', 'iframe'],
} as const;

const DISCARD = new Set<string>(SKELETON_LISTS.discardTags);
// Boolean attributes come from the element's live state, not from its markup.
const STATE_ATTRS = ['disabled', 'readonly', 'checked', 'selected'] as const;
const TEXT_ATTRS = ['name', 'type', 'href', 'placeholder', 'aria-label', 'title', 'data-testid', 'data-id'] as const;
// Elements whose content is not their name: the name goes in aria-label.
const NAMED_BY_LABEL = new Set(['input', 'select', 'textarea', 'img']);
const INPUT_ROLES: Record<string, string> = {
  checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', image: 'button',
  range: 'slider', number: 'spinbutton', search: 'searchbox', color: 'button', file: 'button',
};
const STRUCT_TAGS: Record<string, string> = {
  header: 'banner', nav: 'navigation', main: 'main', aside: 'complementary', footer: 'contentinfo', search: 'search',
  form: 'form', fieldset: 'group', dialog: 'dialog', table: 'table', section: 'region', article: 'article', tr: 'row', li: 'listitem',
};

export interface SelectOptions { options: NativeOption[]; total: number }

export interface SkeletonOptions {
  /** Options of native selects, by global ID. */
  selects?: Map<string, SelectOptions>;
}

const escapeText = (s: string) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
const escapeAttr = (s: string) => s.replace(/[&"]/g, (c) => (c === '&' ? '&amp;' : '&quot;'));

function attrs(list: Array<[string, string | true]>): string {
  return list.map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${escapeAttr(v)}"`)).join('');
}

function impliedRole(n: PageNode): string {
  switch (n.tag) {
    case 'a': return 'link';
    case 'button': case 'summary': return 'button';
    case 'select': return n.attrs?.multiple !== undefined ? 'listbox' : 'combobox';
    case 'textarea': return 'textbox';
    case 'option': return 'option';
    case 'input': return INPUT_ROLES[n.type ?? n.attrs?.type ?? 'text'] ?? 'textbox';
  }
  return '';
}

/** One control, with its ID, the seed's attributes, its name and its value. */
function renderNode(n: PageNode, selects: Map<string, SelectOptions> | undefined, isContainer: boolean): string {
  // A row whose own text is its item: the row is written around it already.
  const tag = DISCARD.has(n.tag) || isContainer ? 'span' : n.tag;
  const page = n.attrs ?? {};
  const out: Array<[string, string | true]> = [['data-llm-id', n.gid]];
  if (n.role !== impliedRole(n)) out.push(['role', n.role]);
  const name = truncate(n.name, V3_NAME_MAX);
  const byLabel = NAMED_BY_LABEL.has(tag) || n.role === 'textbox';
  for (const key of TEXT_ATTRS) {
    let v = page[key];
    if (key === 'type' && n.type) v = n.type;
    if (v === undefined) continue;
    // Said once: the name as content, or as aria-label on fields.
    if ((key === 'aria-label' || key === 'title') && v === n.name) continue;
    out.push([key, v]);
  }
  if (byLabel && name && !out.some(([k, v]) => v === n.name && (k === 'placeholder' || k === 'aria-label' || k === 'title'))) out.push(['aria-label', name]);
  const value = isSecretNode(n) ? undefined : n.value;
  if (value !== undefined && tag === 'input') out.push(['value', value]);
  for (const s of STATE_ATTRS) if (n.states.includes(s)) out.push([s, true]);
  if (tag === 'input' || tag === 'img') return `<${tag}${attrs(out)}>`;
  let content: string;
  if (tag === 'select') {
    const list = selects?.get(n.gid);
    content = list ? renderOptions(list) : '';
  } else if (byLabel) {
    content = value === undefined ? '' : escapeText(value);
  } else {
    content = escapeText(name);
    if (value !== undefined && value !== n.name) out.push(['value', value]);
  }
  return `<${tag}${attrs(out)}>${content}</${tag}>`;
}

function renderOptions(list: SelectOptions): string {
  const shown = list.options.map((o) => {
    const a: Array<[string, string | true]> = [];
    if (o.value !== o.label) a.push(['value', o.value]);
    if (o.selected) a.push(['selected', true]);
    if (o.disabled) a.push(['disabled', true]);
    return `<option${attrs(a)}>${escapeText(o.label)}</option>`;
  }).join('');
  const more = list.total - list.options.length;
  return more > 0 ? `${shown}<option disabled>… ${more} more</option>` : shown;
}

type Item =
  | { kind: 'node'; node: PageNode; order: number; top: number }
  | { kind: 'struct'; index: number; order: number; top: number }
  | { kind: 'heading'; heading: PageHeading; top: number };

function renderStructOpen(st: PageStruct, name: string): string {
  const tag = STRUCT_TAGS[st.tag] !== undefined ? st.tag : 'div';
  const implied = tag === 'section' && st.kind === 'section' ? 'section' : STRUCT_TAGS[tag];
  const a: Array<[string, string | true]> = [];
  if (st.role !== implied) a.push(['role', st.role]);
  if (name) a.push(['aria-label', truncate(name, V3_NAME_MAX)]);
  return `<${tag}${attrs(a)}>`;
}

/**
 * The name worth writing on a structure: none when it only repeats what is written right inside
 * (a row's item), or when it is the first heading of a structure nested in it (a <main> "named"
 * after its first section's heading says nothing about the <main>).
 */
function structLabel(model: PageModel, index: number, firstItemName: string | undefined): string {
  const st = model.structure[index];
  if (!st.name || st.name === firstItemName) return '';
  const inside = (ctx: number) => {
    for (let s = ctx; s >= 0; s = model.structure[s].parent) if (s === index) return true;
    return false;
  };
  const fromDeeper = model.headings.some((h) => h.frame === st.frame && h.text === st.name && h.ctx !== index && inside(h.ctx));
  return fromDeeper ? '' : st.name;
}

/**
 * The skeleton of a page model: each frame's controls in their structure, child frames in a
 * `<div data-frame-id="N" data-src="…">` after their parent's content (frames without a control
 * are left out). Passwords never appear
 * (the model carries "***" at most, and the skeleton leaves even that out).
 */
export function renderSkeleton(model: PageModel, opts: SkeletonOptions = {}): string {
  const frameIds = model.frames.length ? model.frames.map((f) => f.id) : [0];
  const rendered = new Map<number, string>();
  for (const f of frameIds) rendered.set(f, renderFrame(model, f, opts));
  const write = (f: number): string => {
    let html = rendered.get(f) ?? '';
    for (const child of model.frames.filter((c) => c.parentId === f)) {
      // A frame with nothing to act on (or that could not be read: the payload's warnings say so) is left out.
      const inner = write(child.id);
      if (!inner) continue;
      html += `<div${attrs([['data-frame-id', String(child.id)], ['data-src', shortUrl(child.url)]])}>\n${inner}</div>\n`;
    }
    return html;
  };
  return write(0).trimEnd();
}

/** Where a frame comes from, without its query and fragment (ad frames carry kilobytes there). */
function shortUrl(url: string): string {
  const cut = url.search(/[?#]/);
  return truncate(cut >= 0 ? url.slice(0, cut) : url, 120);
}

function renderFrame(model: PageModel, frame: number, opts: SkeletonOptions): string {
  const children = new Map<number, Item[]>();
  const add = (container: number, item: Item) => {
    const list = children.get(container);
    if (list) list.push(item);
    else children.set(container, [item]);
  };
  const structs = model.structure;
  // Each structure with a control inside is written, placed where its first control stands.
  const firstOrder = new Map<number, number>();
  model.nodes.forEach((n, order) => {
    if (n.frame !== frame) return;
    const ctx = n.ctx ?? -1;
    add(ctx, { kind: 'node', node: n, order, top: n.box[1] });
    for (let s = ctx; s >= 0 && structs[s]?.frame === frame; s = structs[s].parent) {
      if (firstOrder.has(s)) break;
      firstOrder.set(s, order);
    }
  });
  for (const [s, order] of firstOrder) add(structs[s].parent, { kind: 'struct', index: s, order, top: structs[s].box[1] });
  for (const list of children.values()) list.sort((a, b) => (a.kind === 'heading' || b.kind === 'heading' ? 0 : a.order - b.order));
  placeHeadings(model, frame, children);

  const boxOf = (it: Item): Box => (it.kind === 'node' ? it.node.box : it.kind === 'struct' ? structs[it.index].box : it.heading.box);
  const write = (container: number): string => {
    let html = '';
    const items = children.get(container) ?? [];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item.kind === 'node' && item.node.scr) {
        // A scroll container (a cart list, a feed) holds what follows it and lies inside its box:
        // written inside it, so its rows are not read as the container's siblings.
        let end = i + 1;
        while (end < items.length && inside(boxOf(items[end]), item.node.box)) end++;
        const own = renderNode(item.node, opts.selects, false);
        const open = own.indexOf('>');
        const close = own.lastIndexOf('</');
        if (end > i + 1 && open > 0 && close > open) {
          // Its name moves to aria-label: the content is now what it holds.
          const name = item.node.name && !/ aria-label="/.test(own.slice(0, open)) ? attrs([['aria-label', truncate(item.node.name, V3_NAME_MAX)]]) : '';
          const inner = items.slice(i + 1, end).map((it) => writeItem(it, container)).join('');
          html += `${own.slice(0, open)}${name}>\n${inner}${own.slice(close)}\n`;
          i = end - 1;
          continue;
        }
      }
      html += writeItem(item, container);
    }
    return html;
  };
  const writeItem = (item: Item, container: number): string => {
    let html = '';
    {
      if (item.kind === 'node') html += renderNode(item.node, opts.selects, container >= 0 && structs[container].gid === item.node.gid) + '\n';
      else if (item.kind === 'heading') html += `<h${item.heading.level}>${escapeText(truncate(item.heading.text, V3_NAME_MAX))}</h${item.heading.level}>\n`;
      else {
        const st = structs[item.index];
        const first = children.get(item.index)?.[0];
        const firstItemName = first?.kind === 'node' && first.node.role === 'item' ? first.node.name : undefined;
        const tag = STRUCT_TAGS[st.tag] !== undefined ? st.tag : 'div';
        html += `${renderStructOpen(st, structLabel(model, item.index, firstItemName))}\n${write(item.index)}</${tag}>\n`;
      }
    }
    return html;
  };
  return write(-1);
}

/** The centre of `b` lies inside `box`. */
function inside(b: Box, box: Box): boolean {
  const [x, y, w, h] = b;
  const cx = x + w / 2, cy = y + h / 2;
  return cx >= box[0] && cx <= box[0] + box[2] && cy >= box[1] && cy <= box[1] + box[3];
}

/**
 * Headings that name a group: in each written container, the nearest heading above each of its
 * items (by position on the page), unless it is already the container's name.
 */
function placeHeadings(model: PageModel, frame: number, children: Map<number, Item[]>): void {
  const byContainer = new Map<number, PageHeading[]>();
  for (const h of model.headings) {
    if (h.frame !== frame || !children.has(h.ctx)) continue;
    if (h.ctx >= 0 && model.structure[h.ctx].name === h.text) continue;
    byContainer.set(h.ctx, [...byContainer.get(h.ctx) ?? [], h]);
  }
  for (const [container, headings] of byContainer) {
    const items = children.get(container)!;
    headings.sort((a, b) => a.box[1] - b.box[1]);
    const used = new Set<PageHeading>();
    for (const item of items) {
      let nearest: PageHeading | undefined;
      for (const h of headings) if (h.box[1] <= item.top + 1) nearest = h;
      if (nearest) used.add(nearest);
    }
    for (const h of headings) {
      if (!used.has(h)) continue;
      const at = items.findIndex((it) => it.kind !== 'heading' && it.top >= h.box[1]);
      items.splice(at < 0 ? items.length : at, 0, { kind: 'heading', heading: h, top: h.box[1] });
    }
  }
}
