// The in-page half of exploration: one element in depth (real XPath across shadow roots, its
// attributes, options, the forms and landmarks around it), selector hints that are checked to
// match exactly their element in its own root, the page's large visual blocks, and text blocks.
// Each call looks at one element, the elements an answer shows, or a handful of top-level
// containers: the page itself is walked once, by the snapshot.
import { attr as finderAttr, finder } from '@medv/finder';
import type {
  ContextLink, DescribeAnswer, DescribedElement, DescribeRequest, HiddenControl, HiddenControls, HintRoot, OptionInfo, PageLayout,
  RawElementContext, SelectorHint, SelectorMatch, TextBlock, TextBlockQuery, TextBlocks, VisualBlock,
} from '../model/explore/explore.js';
import type { Box } from '../model/contracts/schema.js';
import { DOC } from './document.js';
import { isInteractiveByMarkup } from './interactive.js';
import { listOptions } from './actions.js';
import { clean, nameOf } from './names.js';
import { roleOf } from './roles.js';
import { composedParent, deepActiveElement, shadowRootOf } from './shadow.js';
import { isSecretField, REDACTED, statesOf, valueOf } from './state.js';
import { structName, structureOf } from './structure.js';
import { flushStamps, idFor, lookup, stamp } from './tagger.js';
import { visibleBox } from './visibility.js';

type Root = Document | ShadowRoot;

// ---- selector hints ----

// Attributes that identify an element to a test or a person, best first.
const HINT_ATTRS = ['data-testid', 'data-test', 'data-qa', 'data-cy', 'name', 'aria-label', 'placeholder', 'title', 'alt', 'for', 'href'];
const TEXT_HINT_TAGS = new Set(['button', 'a', 'label', 'summary', 'option', 'legend', 'th', 'li']);
// IDs that frameworks generate change from one render to the next: a poor first choice.
const GENERATED_ID = /\d{3,}|[0-9a-f]{8,}|^(ember|react|radix|mui|headlessui|:r|rc-|__)|[:]/i;
const MAX_HINTS = 3;

function cssString(v: string): string {
  return `"${v.replace(/["\\]/g, '\\$&')}"`;
}

function matchesOnly(root: Root, selector: string, el: Element): boolean {
  let list: NodeListOf<Element>;
  try {
    list = root.querySelectorAll(selector);
  } catch {
    return false; // not a selector this root understands: not a hint
  }
  return list.length === 1 && list[0] === el;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Elements of `base` in `root` whose text contains `text` (case-insensitive), as Playwright's :has-text() finds them. */
function withText(root: Root, base: string, text: string): Element[] {
  const wanted = norm(text).toLowerCase();
  let list: Element[];
  try {
    list = Array.from(root.querySelectorAll(base));
  } catch {
    return [];
  }
  return list.filter((e) => norm(e.textContent ?? '').toLowerCase().includes(wanted));
}

/** 2–3 ranked selectors, each matching exactly `el` in its own root. */
export function selectorHints(el: Element): SelectorHint[] {
  const root = el.getRootNode() as Root;
  const tag = CSS.escape(el.localName);
  const out: SelectorHint[] = [];
  const late: SelectorHint[] = [];
  const add = (selector: string, by: SelectorHint['by'], into = out) => {
    if (out.length >= MAX_HINTS || out.some((h) => h.selector === selector) || late.some((h) => h.selector === selector)) return;
    if (matchesOnly(root, selector, el)) into.push({ selector, by });
  };
  const id = el.getAttribute('id');
  if (id) add(`#${CSS.escape(id)}`, 'id', GENERATED_ID.test(id) ? late : out);
  let attributes = 0;
  for (const name of HINT_ATTRS) {
    if (attributes >= (out.length ? 1 : 2)) break;
    const v = el.getAttribute(name);
    if (!v || v.length > 80 || /[\n\r]/.test(v) || (name === 'href' && (/^(javascript:|#$)/i.test(v) || v.length > 60))) continue;
    const before = out.length;
    add(`${tag}[${name}=${cssString(v)}]`, 'attribute');
    if (out.length > before) attributes++;
  }
  const text = norm(el.textContent ?? '');
  if (out.length < MAX_HINTS && text && text.length <= 40 && (TEXT_HINT_TAGS.has(el.localName) || /^(button|link|tab|menuitem|option)$/.test(el.getAttribute('role') ?? ''))) {
    const selector = `${tag}:has-text(${JSON.stringify(text)})`;
    const found = withText(root, tag, text);
    if (found.length === 1 && found[0] === el) out.push({ selector, by: 'text' });
  }
  // A structural hint only where the element's own hooks gave fewer than two (finder costs queries).
  if (out.length < 2) {
    const structural = finderHint(el, root);
    // `[name="q"]` says nothing `input[name="q"]` did not: only a different kind of hint is worth a line.
    const bare = (sel: string) => sel.replace(/^[a-z][a-z0-9-]*(?=[[#.:])/i, '');
    if (structural && !out.some((h) => bare(h.selector) === bare(structural))) add(structural, /\.[A-Za-z_-]/.test(structural) ? 'class' : 'path');
  }
  for (const h of late) if (out.length < MAX_HINTS) out.push(h);
  if (out.length < 2) {
    const path = positionPath(el, root);
    if (path) add(path, 'path');
  }
  return out;
}

/** @medv/finder's shortest unique selector, within tight limits (it falls back to a position path). */
function finderHint(el: Element, root: Root): string | null {
  const top = root instanceof Document ? root.body : root;
  if (!top) return null;
  try {
    return finder(el, {
      root: top as unknown as Element,
      idName: (n) => !GENERATED_ID.test(n),
      attr: (name, value) => !name.startsWith('data-llm') && finderAttr(name, value),
      timeoutMs: 8,
      maxNumberOfPathChecks: 40,
    });
  } catch {
    return null; // no unique selector within the limits: the element gets its other hints
  }
}

/**
 * `#list > li:nth-of-type(3) > button:nth-of-type(1)`: position steps from the nearest ancestor
 * with a unique id (or from <body>), at most 8 of them.
 */
function positionPath(el: Element, root: Root): string | null {
  const steps: string[] = [];
  for (let e: Element | null = el; e && steps.length < 8; e = e.parentElement) {
    steps.unshift(`${CSS.escape(e.localName)}:nth-of-type(${sameTagIndex(e)})`);
    const parent: Element | null = e.parentElement;
    if (!parent || e.parentNode === root) return steps.join(' > ');
    if (parent.localName === 'body') return `body > ${steps.join(' > ')}`;
    const id = parent.getAttribute('id');
    if (id && !GENERATED_ID.test(id) && matchesOnly(root, `#${CSS.escape(id)}`, parent)) return `#${CSS.escape(id)} > ${steps.join(' > ')}`;
  }
  return null;
}

function sameTagIndex(el: Element): number {
  let i = 1;
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === el.localName) i++;
  return i;
}

/** The shadow roots above an element, outermost first, each host named by its own first hint. */
function shadowChain(el: Element): HintRoot[] {
  const out: HintRoot[] = [];
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    const host = root.host;
    out.unshift({ host: selectorHints(host)[0]?.selector ?? host.localName, closed: root.mode === 'closed' });
  }
  return out;
}

/** A selector matching exactly the given elements (a group of similar siblings), or nothing. */
function groupHints(els: Element[]): SelectorHint[] {
  const root = els[0].getRootNode() as Root;
  if (els.some((e) => e.getRootNode() !== root)) return [];
  const tag = CSS.escape(els[0].localName);
  if (els.some((e) => e.localName !== els[0].localName)) return [];
  const shared = Array.from(els[0].classList).filter((c) => els.every((e) => e.classList.contains(c)) && /^[A-Za-z_-][\w-]*$/.test(c));
  const type = els[0].getAttribute('type');
  const shape = tag + shared.slice(0, 2).map((c) => `.${CSS.escape(c)}`).join('') + (type && els.every((e) => e.getAttribute('type') === type) ? `[type=${cssString(type)}]` : '');
  const set = new Set(els);
  const exactly = (selector: string) => {
    try {
      const list = Array.from(root.querySelectorAll(selector));
      return list.length === set.size && list.every((e) => set.has(e));
    } catch {
      return false;
    }
  };
  const out: SelectorHint[] = [];
  if (exactly(shape)) out.push({ selector: shape, by: shared.length ? 'class' : 'path' });
  let common: Element | null = els[0].parentElement;
  while (common && !els.every((e) => common!.contains(e))) common = common.parentElement;
  if (common && out.length < 2) {
    const container = selectorHints(common)[0];
    if (container && exactly(`${container.selector} ${shape}`)) out.push({ selector: `${container.selector} ${shape}`, by: container.by });
  }
  return out;
}

// ---- describing the elements an answer shows ----

/**
 * The elements an answer shows, as they are now (role, name, value, states), with the options of
 * selects and selector hints where asked. IDs belong to document `doc`: in any other document
 * nothing is looked up, and the answer says which document it is.
 */
export function describeElements(doc: string, ids: string[], req: DescribeRequest = {}): DescribeAnswer {
  if (doc !== DOC) return { doc: DOC, elements: [], groups: [] };
  const focused = deepActiveElement(document);
  const wantHints = new Set(req.hints ?? []);
  const elements = ids.map((id): DescribedElement => {
    const el = lookup(id);
    if (!el) return { id, found: false };
    const role = roleOf(el, false);
    const out: DescribedElement = { id, found: true, role, name: nameOf(el, role), states: statesOf(el, focused).filter((s) => s !== 'focused'), childCount: el.childElementCount };
    const value = valueOf(el, role);
    if (value !== undefined) out.value = value;
    if (req.options && el instanceof HTMLSelectElement) out.options = { count: el.options.length, items: selectOptions(el, 12) };
    if (wantHints.has(id)) {
      const hints = selectorHints(el);
      const shadow = shadowChain(el);
      out.hints = shadow.length ? hints.map((h) => ({ ...h, shadow })) : hints;
    }
    return out;
  });
  const groups = (req.groups ?? []).map((g) => {
    const els = g.map(lookup);
    if (!els.length || els.some((e) => !e)) return [];
    const hints = groupHints(els as Element[]);
    const shadow = shadowChain(els[0]!);
    return shadow.length ? hints.map((h) => ({ ...h, shadow })) : hints;
  });
  flushStamps();
  return { doc: DOC, elements, groups };
}

function selectOptions(el: HTMLSelectElement, limit: number): OptionInfo[] {
  return Array.from(el.options).slice(0, limit).map((o, index) => {
    const info: OptionInfo = { index, label: clean(o.label || o.textContent, 60), selected: o.selected };
    if (o.value && o.value !== info.label) info.value = clean(o.value, 60);
    if (o.disabled) info.disabled = true;
    return info;
  });
}

// ---- one element in depth ----

/** Real XPath within the element's document; `#shadow-root` steps into a shadow root (as resolvePath reads it). */
export function xpathOf(el: Element): string {
  const steps: string[] = [];
  let node: Element | null = el;
  while (node) {
    steps.unshift(`${node.localName}[${sameTagIndex(node)}]`);
    const parent: Node | null = node.parentNode;
    if (parent instanceof ShadowRoot) {
      steps.unshift('#shadow-root');
      node = parent.host;
    } else {
      node = parent instanceof Element ? parent : null;
    }
  }
  return '/' + steps.join('/');
}

const SKIP_ATTRS = /^data-llm-/;

export function elementContext(el: Element): RawElementContext {
  const role = roleOf(el, false);
  const out: RawElementContext = {
    tag: el.localName,
    role,
    name: nameOf(el, role),
    states: statesOf(el, deepActiveElement(el.ownerDocument)),
    xpath: xpathOf(el),
    box: visibleBox(el),
    attributes: attributesOf(el),
    chain: contextChain(el),
    shadow: shadowChain(el),
    hints: selectorHints(el),
  };
  const value = valueOf(el, role);
  if (value !== undefined) out.value = value;
  if (el instanceof HTMLSelectElement) {
    out.options = selectOptions(el, 50);
    out.optionCount = el.options.length;
  } else if (role === 'combobox' || role === 'listbox' || el.getAttribute('aria-haspopup') === 'listbox') {
    const list = listOptions(el);
    out.options = list.options.slice(0, 50).map((o, index) => ({ index, label: o.name, selected: o.selected, ...(o.disabled && { disabled: true }) }));
    out.optionCount = list.options.length;
  }
  if (out.shadow.length) out.hints = out.hints.map((h) => ({ ...h, shadow: out.shadow }));
  flushStamps();
  return out;
}

function attributesOf(el: Element): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of Array.from(el.attributes)) {
    if (SKIP_ATTRS.test(a.name)) continue;
    // The value attribute of a secret field is what the page put there: still never sent.
    if (a.name === 'value' && (isSecretField(el) || el instanceof HTMLTextAreaElement)) { out.value = REDACTED; continue; }
    out[a.name] = clean(a.value, a.name === 'style' || a.name === 'class' ? 80 : 120);
  }
  if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement || el instanceof HTMLButtonElement) {
    if (!('required' in out) && !(el instanceof HTMLButtonElement)) out.required = String(el.required);
    if (!('disabled' in out)) out.disabled = String(el.disabled);
  }
  return out;
}

/** Landmarks, forms, fieldsets, tables, dialogs and sections around the element, outermost first. */
function contextChain(el: Element): ContextLink[] {
  const out: ContextLink[] = [];
  for (let p = composedParent(el); p; p = composedParent(p)) {
    if (!(p instanceof Element)) continue;
    const hit = structureOf(p);
    if (hit) out.unshift({ id: idFor(p) ?? stamp(p), kind: hit.kind, role: hit.role, tag: p.localName, name: structName(p) });
  }
  return out;
}

// ---- the page's blocks and geometry ----

const SKIP_BLOCK = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'LINK', 'META', 'svg']);

function blockChildren(el: Element): Array<[Element, Box]> {
  const out: Array<[Element, Box]> = [];
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    if (SKIP_BLOCK.has(c.tagName)) continue;
    const box = visibleBox(c);
    if (box && box[2] >= 4 && box[3] >= 4) out.push([c, box]);
  }
  return out;
}

function pathStep(el: Element): string {
  const tag = el.localName;
  const id = el.getAttribute('id');
  if (id && /^[A-Za-z][\w-]*$/.test(id) && !GENERATED_ID.test(id)) return `${tag}#${id}`;
  const cls = Array.from(el.classList).find((c) => /^[A-Za-z_-][\w-]*$/.test(c));
  const shape = cls ? `${tag}.${cls}` : tag;
  const parent = el.parentElement;
  if (!parent) return shape;
  const same = Array.from(parent.children).filter((c) => c.localName === tag && (!cls || c.classList.contains(cls)));
  return same.length > 1 ? `${shape}[${same.indexOf(el) + 1}]` : shape;
}

/**
 * The page's large visual blocks: the visible children of <body>, below the wrappers that hold
 * everything (a lone visible child is descended into). Each ID asked about is placed in the
 * block that holds it.
 */
export function pageLayout(ids: string[]): PageLayout {
  const se = document.scrollingElement ?? document.documentElement;
  const body = document.body;
  const blocks: VisualBlock[] = [];
  const blockEls = new Map<Element, number>();
  if (body) {
    let container: Element = body;
    const path = ['body'];
    let kids = blockChildren(container);
    for (let depth = 0; depth < 12 && kids.length === 1 && kids[0][0].childElementCount > 0; depth++) {
      container = kids[0][0];
      path.push(pathStep(container));
      kids = blockChildren(container);
    }
    for (const [el, box] of kids) {
      blockEls.set(el, blocks.length);
      const attrs: Record<string, string> = {};
      for (const a of ['id', 'class', 'role', 'aria-label']) { const v = el.getAttribute(a); if (v) attrs[a] = clean(v, 60); }
      blocks.push({ id: idFor(el) ?? stamp(el), tag: el.localName, path: '/' + [...path, pathStep(el)].join('/'), box, name: structName(el), childCount: el.childElementCount, attrs });
    }
  }
  const member = ids.map((id) => {
    for (let p: Node | null = lookup(id); p; p = composedParent(p)) {
      const i = blockEls.get(p as Element);
      if (i !== undefined) return i;
    }
    return -1;
  });
  const out: PageLayout = {
    doc: DOC,
    readyState: document.readyState,
    scroll: { x: Math.round(window.scrollX), y: Math.round(window.scrollY) },
    content: { width: se.scrollWidth, height: se.scrollHeight },
    elementCount: document.getElementsByTagName('*').length,
    body: body ? { id: idFor(body) ?? stamp(body), childCount: body.childElementCount } : null,
    blocks,
    member,
  };
  flushStamps();
  return out;
}

// ---- text ----

const TEXT_BLOCKS = 'p,li,td,th,dd,dt,blockquote,figcaption,caption,pre,h1,h2,h3,h4,h5,h6,legend,summary,article,section,div,span';
const INSIDE_CONTROL = 'a,button,label,select,option,textarea,[role=button],[role=link]';

/**
 * Paragraphs longer than `minLength` (the key text of dom_overview), or, with a query, the
 * innermost blocks whose text contains it (dom_search), in document order.
 */
export function textBlocks(q: TextBlockQuery): TextBlocks {
  const out: TextBlock[] = [];
  if (!document.body) return { doc: DOC, blocks: out };
  if (q.query === undefined) {
    for (const p of Array.from(document.body.querySelectorAll('p'))) {
      if (out.length >= q.limit) break;
      const text = norm(p.textContent ?? '');
      if (text.length <= q.minLength) continue;
      const box = visibleBox(p);
      if (box) out.push({ id: idFor(p) ?? stamp(p), tag: 'p', text: clip(text, 100), length: text.length, box });
    }
  } else {
    const wanted = norm(q.query).toLowerCase();
    if (!wanted) return { doc: DOC, blocks: out };
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t && out.length < q.limit; t = walker.nextNode()) {
      const parent = t.parentElement;
      if (!parent || !t.textContent?.trim() || parent.closest('script,style,noscript,template')) continue;
      if (parent.closest(INSIDE_CONTROL)) continue; // controls are found among the elements
      const block = parent.closest(TEXT_BLOCKS) ?? parent;
      if (seen.has(block)) continue;
      seen.add(block);
      const text = norm(block.textContent ?? '');
      const at = text.toLowerCase().indexOf(wanted);
      if (at < 0) continue;
      const box = visibleBox(block);
      if (!box) continue;
      out.push({ id: idFor(block) ?? stamp(block), tag: block.localName, text: around(text, at, wanted.length), length: text.length, box });
    }
  }
  flushStamps();
  return { doc: DOC, blocks: out };
}

function clip(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

function around(text: string, at: number, len: number): string {
  if (text.length <= 100) return text;
  const start = Math.max(0, Math.min(at - 40, text.length - 100));
  return (start > 0 ? '…' : '') + text.slice(start, start + 98) + (start + 98 < text.length ? '…' : '');
}

const CONTROLS = 'a[href],button,input:not([type=hidden]),select,textarea,[role=button],[role=link],[role=checkbox],[role=tab],[role=menuitem],[onclick]';

/** Interactive elements that cannot be seen (collapsed menus, closed dialogs), for an overview that asks for them. */
export function hiddenControls(limit: number): HiddenControls {
  const controls: HiddenControl[] = [];
  let total = 0;
  for (const el of Array.from(document.querySelectorAll(CONTROLS))) {
    if (!isInteractiveByMarkup(el) || visibleBox(el)) continue;
    total++;
    if (controls.length >= limit) continue;
    const role = roleOf(el, false);
    const attrs: Record<string, string> = {};
    for (const a of ['id', 'name', 'type', 'class', 'href', 'placeholder', 'aria-label', 'role']) { const v = el.getAttribute(a); if (v) attrs[a] = clean(v, 60); }
    controls.push({ id: idFor(el) ?? stamp(el), role, name: nameOf(el, role), tag: el.localName, attrs });
  }
  flushStamps();
  return { doc: DOC, total, controls };
}

// ---- elements by selector ----

const HAS_TEXT = /^(.*):has-text\(("(?:[^"\\]|\\.)*")\)$/;

/**
 * The elements a selector matches (the first two, by ID, and how many): `hosts` are selectors of
 * shadow hosts to step into first, each in the root before it. A `:has-text("…")` ending is
 * matched as Playwright matches it.
 */
export function findSelector(selector: string, hosts: string[] = []): SelectorMatch {
  let root: Root = document;
  for (const host of hosts) {
    let found: NodeListOf<Element>;
    try {
      found = root.querySelectorAll(host);
    } catch {
      return { ok: false, reason: `"${host}" is not a valid CSS selector` };
    }
    if (found.length !== 1) return { ok: false, reason: `the shadow host "${host}" matches ${found.length} elements` };
    const next = shadowRootOf(found[0]);
    if (!next) return { ok: false, reason: `"${host}" has no shadow root` };
    root = next;
  }
  let matches: Element[];
  const m = HAS_TEXT.exec(selector.trim());
  try {
    if (m) {
      let text: string;
      try {
        text = JSON.parse(m[2]) as string;
      } catch {
        return { ok: false, reason: `the text in "${selector}" is not a quoted string` };
      }
      root.querySelector(m[1] || '*');
      matches = withText(root, m[1] || '*', text);
    } else {
      matches = Array.from(root.querySelectorAll(selector));
    }
  } catch {
    return { ok: false, reason: `"${selector}" is not a valid CSS selector` };
  }
  const ids = matches.slice(0, 2).map((e) => idFor(e) ?? stamp(e));
  flushStamps();
  return { ok: true, doc: DOC, ids, count: matches.length };
}
