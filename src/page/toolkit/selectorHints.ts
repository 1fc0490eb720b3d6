// Selector hints: 2–3 ranked selectors for an element (or a group of similar siblings), each
// checked to match exactly its element(s) in its own root, for the selector engines outside pagelens.
import { attr as finderAttr, finder } from '@medv/finder';
import type { HintRoot, SelectorHint } from '../../model/contracts/engineAnswers.js';

export type Root = Document | ShadowRoot;

// Attributes that identify an element to a test or a person, best first.
const HINT_ATTRS = ['data-testid', 'data-test', 'data-qa', 'data-cy', 'name', 'aria-label', 'placeholder', 'title', 'alt', 'for', 'href'];
const TEXT_HINT_TAGS = new Set(['button', 'a', 'label', 'summary', 'option', 'legend', 'th', 'li']);
// IDs that frameworks generate change from one render to the next: a poor first choice.
export const GENERATED_ID = /\d{3,}|[0-9a-f]{8,}|^(ember|react|radix|mui|headlessui|:r|rc-|__)|[:]/i;
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

export const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Elements of `base` in `root` whose text contains `text` (case-insensitive), as Playwright's :has-text() finds them. */
export function withText(root: Root, base: string, text: string): Element[] {
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

/**
 * @medv/finder's first unique selector, shortest paths first, within a bound on the paths it tries
 * (past it, a position path). The bound is a count, never a time: a hint that depended on the
 * machine's speed would differ between two reads of the same page, and between hosts. Its
 * shortening pass is off because only a clock bounds it.
 */
function finderHint(el: Element, root: Root): string | null {
  const top = root instanceof Document ? root.body : root;
  if (!top) return null;
  try {
    return finder(el, {
      root: top as unknown as Element,
      idName: (n) => !GENERATED_ID.test(n),
      attr: (name, value) => !name.startsWith('data-llm') && finderAttr(name, value),
      timeoutMs: Number.POSITIVE_INFINITY,
      seedMinLength: 1,
      optimizedMinLength: Number.POSITIVE_INFINITY,
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

export function sameTagIndex(el: Element): number {
  let i = 1;
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === el.localName) i++;
  return i;
}

/** The shadow roots above an element, outermost first, each host named by its own first hint. */
export function shadowChain(el: Element): HintRoot[] {
  const out: HintRoot[] = [];
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    const host = root.host;
    out.unshift({ host: selectorHints(host)[0]?.selector ?? host.localName, closed: root.mode === 'closed' });
  }
  return out;
}

/** A selector matching exactly the given elements (a group of similar siblings), or nothing. */
export function groupHints(els: Element[]): SelectorHint[] {
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
