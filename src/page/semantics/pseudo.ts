// CSS generated content (::before / ::after) as Chrome puts it in accessible names. Computed
// `content` is CSS syntax, not text: strings come quoted and escaped, `attr()` arrives resolved,
// and `content: "★" / "Favourite"` carries alternative text after the slash, which is what a
// name takes instead of the rendered part. Chrome reads counters only in that alternative text
// (a rendered counter is not in the name) and leaves images out unless they have alternative text.

import { mayHavePseudoRule } from './pseudoRules.js';

export type Pseudo = '::before' | '::after';

export interface Generated {
  text: string;
  /** Set apart from the text around it by spaces: alternative text, an image, or a block-level pseudo-element. */
  apart: boolean;
}

/** Elements whose pseudo-elements Chrome never renders into the name (replaced elements and form controls). */
const NO_PSEUDO = new Set(['INPUT', 'SELECT', 'TEXTAREA', 'IMG', 'IFRAME', 'VIDEO', 'AUDIO', 'CANVAS', 'OBJECT', 'EMBED', 'BR', 'WBR', 'HR', 'svg', 'math']);

export function mayHavePseudo(el: Element): boolean {
  return !NO_PSEUDO.has(el.tagName);
}

/** The generated content of `el`'s pseudo-element as it counts in a name; null when there is none. */
export function generatedContent(el: Element, which: Pseudo): Generated | null {
  if (!mayHavePseudo(el) || !mayHavePseudoRule(el, 'content')) return null;
  const style = getComputedStyle(el, which);
  const content = style.content;
  if (!content || content === 'none' || content === 'normal' || style.display === 'none') return null;
  // A clearfix's "." is generated but hidden.
  if (style.visibility === 'hidden' || style.visibility === 'collapse') return null;
  const tokens = tokenize(content);
  const slash = tokens.findIndex((t) => t.kind === 'slash');
  if (slash >= 0) {
    const text = tokens.slice(slash + 1).map((t) => altPiece(t, el, which)).join('');
    return text ? { text, apart: true } : null;
  }
  let text = '';
  let image = false;
  for (const t of tokens) {
    if (t.kind === 'string') text += t.value;
    else if (t.kind === 'ident') text += quoteMark(t.value, style);
    else if (t.kind === 'function' && IMAGE_FUNCTIONS.test(t.name)) image = true;
    else if (t.kind === 'function' && t.name === 'attr') text += el.getAttribute(t.args.trim().split(/\s+/)[0] ?? '') ?? '';
    // Rendered counters are left out of Chrome's names.
  }
  text = transformText(text, style.textTransform);
  if (!text && !image) return null;
  // A block-level pseudo-element stands apart; an inline or inline-block one runs into the text.
  return { text, apart: image || !(style.display.startsWith('inline') || style.display === 'contents') };
}

/** text-transform as layout applies it to rendered text (Chrome names carry the transformed text). */
export function transformText(text: string, transform: string): string {
  switch (transform) {
    case 'uppercase': return text.toUpperCase();
    case 'lowercase': return text.toLowerCase();
    case 'capitalize': return text.replace(/(^|[\s\u00a0([{"'“‘-])(\p{Ll})/gu, (_m, before: string, letter: string) => before + letter.toUpperCase());
    default: return text;
  }
}

const IMAGE_FUNCTIONS = /^(url|image|image-set|-webkit-image-set|cross-fade|element|(repeating-)?(linear|radial|conic)-gradient|-webkit-(repeating-)?(linear|radial)-gradient)$/;

type Token =
  | { kind: 'string'; value: string }
  | { kind: 'slash' }
  | { kind: 'ident'; value: string }
  | { kind: 'function'; name: string; args: string };

/** Splits a computed `content` value into strings, identifiers, functions and the alt-text slash. */
function tokenize(css: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < css.length) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const [value, end] = readString(css, i);
      out.push({ kind: 'string', value });
      i = end;
    } else if (c === '/') {
      out.push({ kind: 'slash' });
      i++;
    } else if (/[A-Za-z_-]/.test(c)) {
      let j = i;
      while (j < css.length && /[\w-]/.test(css[j])) j++;
      const name = css.slice(i, j).toLowerCase();
      if (css[j] === '(') {
        const end = closingParen(css, j);
        out.push({ kind: 'function', name, args: css.slice(j + 1, end) });
        i = end + 1;
      } else {
        out.push({ kind: 'ident', value: name });
        i = j;
      }
    } else {
      i++;
    }
  }
  return out;
}

/** A CSS string starting at `start` (its quote): its value with escapes resolved, and the index after it. */
function readString(css: string, start: number): [string, number] {
  const quote = css[start];
  let value = '';
  let i = start + 1;
  while (i < css.length && css[i] !== quote) {
    if (css[i] !== '\\') { value += css[i++]; continue; }
    i++;
    const hex = /^[0-9a-fA-F]{1,6}/.exec(css.slice(i, i + 6));
    if (hex) {
      const code = parseInt(hex[0], 16);
      value += code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      i += hex[0].length;
      if (/\s/.test(css[i] ?? '')) i++;
    } else if (css[i] === '\n') {
      i++;
    } else if (i < css.length) {
      value += css[i++];
    }
  }
  return [value, i + 1];
}

function closingParen(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") { i = readString(css, i)[1] - 1; continue; }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return css.length;
}

function quoteMark(ident: string, style: CSSStyleDeclaration): string {
  if (ident !== 'open-quote' && ident !== 'close-quote') return '';
  const quotes = style.quotes;
  if (quotes === 'none') return '';
  // "auto": the language's marks; Chrome's English ones unless the page says otherwise.
  const marks = quotes && quotes !== 'auto' ? tokenize(quotes).flatMap((t) => (t.kind === 'string' ? [t.value] : [])) : ['“', '”'];
  return ident === 'open-quote' ? marks[0] ?? '' : marks[1] ?? '';
}

function altPiece(t: Token, el: Element, which: Pseudo): string {
  if (t.kind === 'string') return t.value;
  if (t.kind !== 'function') return '';
  if (t.name === 'attr') return el.getAttribute(t.args.trim().split(/\s+/)[0] ?? '') ?? '';
  if (t.name === 'counter' || t.name === 'counters') {
    const args = splitArgs(t.args);
    const name = args[0]?.trim() ?? '';
    if (t.name === 'counter') return formatCounter(counterValues(el, which, name).at(-1) ?? 0, args[1]?.trim());
    const separator = args[1] ? tokenize(args[1]).map((x) => (x.kind === 'string' ? x.value : '')).join('') : '';
    const values = counterValues(el, which, name);
    return (values.length ? values : [0]).map((v) => formatCounter(v, args[2]?.trim())).join(separator);
  }
  return '';
}

function splitArgs(args: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < args.length; i++) {
    const c = args[i];
    if (c === '"' || c === "'") { i = readString(args, i)[1] - 1; continue; }
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) { out.push(args.slice(start, i)); start = i + 1; }
  }
  out.push(args.slice(start));
  return out;
}

// ---- CSS counters, for alternative text that shows one ----
// A counter's value at a pseudo-element: the innermost instance in scope (made by counter-reset on
// the item itself, a preceding sibling, an ancestor or an ancestor's preceding sibling), then every
// counter-increment and counter-set of that instance in tree order up to the item. Items are
// elements and their generated ::before/::after, which sit first and last among the children.

type Item = { el: Element; pseudo: Pseudo | null };

/** How many items one counter value may cost before it is given up (an unknown counter is left out). */
const MAX_COUNTER_ITEMS = 5000;

/** Values of the counter's instances in scope at the item, outermost first (empty: none). */
function counterValues(el: Element, which: Pseudo, name: string): number[] {
  if (!name || name === 'none') return [];
  const target: Item = { el, pseudo: which };
  const found = instancesInScope(target, name);
  // No counter-reset in scope: the counter lives on the root, from 0.
  const creators = found.length ? found : [{ el: el.ownerDocument.documentElement, pseudo: null }];
  const values: number[] = [];
  const budget = { left: MAX_COUNTER_ITEMS };
  // The value of an outer instance is the one it had where the next inner instance began.
  creators.forEach((creator, k) => {
    const stop = k + 1 < creators.length ? creators[k + 1] : target;
    const v = valueAt(creator, stop, k + 1 >= creators.length, name, budget);
    if (v !== null) values.push(v);
  });
  return values;
}

function counterOps(item: Item, name: string): { reset?: number; increment?: number; set?: number } {
  const style = getComputedStyle(item.el, item.pseudo ?? undefined);
  const read = (prop: string, byDefault: number): number | undefined => {
    const value = style.getPropertyValue(prop);
    if (!value || value === 'none') return undefined;
    const parts = value.trim().split(/\s+/);
    let found: number | undefined;
    for (let i = 0; i < parts.length; i++) {
      if (parts[i] !== name) continue;
      const n = Number(parts[i + 1]);
      found = Number.isFinite(n) && parts[i + 1] !== undefined && /^-?\d+$/.test(parts[i + 1]) ? n : byDefault;
    }
    return found;
  };
  const ops: { reset?: number; increment?: number; set?: number } = {};
  const reset = read('counter-reset', 0);
  if (reset !== undefined) ops.reset = reset;
  const increment = read('counter-increment', 1);
  if (increment !== undefined) ops.increment = increment;
  const set = read('counter-set', 0);
  if (set !== undefined) ops.set = set;
  return ops;
}

function pseudoExists(el: Element, which: Pseudo): boolean {
  if (!mayHavePseudo(el)) return false;
  const content = getComputedStyle(el, which).content;
  return !!content && content !== 'none' && content !== 'normal';
}

/**
 * The items whose counter-reset makes an instance in scope at `target`, outermost first: at each
 * level (the items before it among its siblings, then its parent's level) the nearest reset, since
 * a reset on a sibling replaces the instance of an earlier sibling while one on an ancestor nests.
 */
function instancesInScope(target: Item, name: string): Item[] {
  const found: Item[] = [];
  const nearest = (items: Item[]) => {
    for (let i = items.length - 1; i >= 0; i--) if (counterOps(items[i], name).reset !== undefined) { found.unshift(items[i]); return; }
  };
  // Inside the element: a ::before is its first child; a ::after comes after ::before and the children.
  if (target.pseudo === '::after') {
    const inside: Item[] = [];
    if (pseudoExists(target.el, '::before')) inside.push({ el: target.el, pseudo: '::before' });
    for (let c = target.el.firstElementChild; c; c = c.nextElementSibling) inside.push({ el: c, pseudo: null });
    inside.push(target);
    nearest(inside);
  } else {
    nearest([target]);
  }
  for (let el: Element | null = target.el; el; el = el.parentElement) {
    const level: Item[] = [];
    const parent = el.parentElement;
    if (parent && pseudoExists(parent, '::before')) level.push({ el: parent, pseudo: '::before' });
    const before: Item[] = [];
    for (let s = el.previousElementSibling; s; s = s.previousElementSibling) before.unshift({ el: s, pseudo: null });
    level.push(...before, { el, pseudo: null });
    nearest(level);
  }
  return found;
}

/**
 * The instance made by `creator`, walked in tree order up to `stop` (including stop's own
 * increments when `includeStop`); null when the walk costs too much or never meets `stop`.
 */
function valueAt(creator: Item, stop: Item, includeStop: boolean, name: string, budget: { left: number }): number | null {
  let value = 0;
  let reached = false;
  const same = (a: Item, b: Item) => a.el === b.el && a.pseudo === b.pseudo;
  /** Applies one item; false once the walk must end (stop reached, budget spent, or a nested instance begins). */
  const apply = (item: Item, isCreator: boolean): 'go' | 'nested' | 'end' => {
    if (--budget.left < 0) return 'end';
    const atStop = same(item, stop);
    if (atStop && !includeStop) { reached = true; return 'end'; }
    const ops = counterOps(item, name);
    if (!isCreator && ops.reset !== undefined) {
      if (atStop) { value = ops.reset; } else return 'nested';
    }
    if (isCreator) value = ops.reset ?? 0;
    if (ops.increment !== undefined) value += ops.increment;
    if (ops.set !== undefined) value = ops.set;
    if (atStop) { reached = true; return 'end'; }
    return 'go';
  };
  /** Walks an element's own item, its ::before, its children and its ::after. */
  const walkElement = (el: Element, isCreator: boolean): 'go' | 'nested' | 'end' => {
    const own = apply({ el, pseudo: null }, isCreator);
    if (own !== 'go') return own;
    return walkInside(el);
  };
  const walkInside = (el: Element): 'go' | 'end' => {
    const list: Item[] = [];
    if (pseudoExists(el, '::before')) list.push({ el, pseudo: '::before' });
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) list.push({ el: c, pseudo: null });
    if (pseudoExists(el, '::after')) list.push({ el, pseudo: '::after' });
    return walkList(list, 0);
  };
  // A nested counter-reset scopes over the rest of its siblings too: the rest of the list is skipped.
  const walkList = (list: Item[], from: number): 'go' | 'end' => {
    for (let i = from; i < list.length; i++) {
      const item = list[i];
      const r = item.pseudo ? apply(item, false) : walkElement(item.el, false);
      if (r === 'end') return 'end';
      if (r === 'nested') return 'go';
    }
    return 'go';
  };
  // From the creator: itself, what it holds, then its following siblings (with the parent's ::after).
  if (creator.pseudo) {
    const r = apply(creator, true);
    if (r === 'end') return reached ? value : null;
    if (creator.pseudo === '::before') {
      const rest: Item[] = [];
      for (let c = creator.el.firstElementChild; c; c = c.nextElementSibling) rest.push({ el: c, pseudo: null });
      if (pseudoExists(creator.el, '::after')) rest.push({ el: creator.el, pseudo: '::after' });
      walkList(rest, 0);
    }
    return reached ? value : null;
  }
  if (walkElement(creator.el, true) === 'end') return reached ? value : null;
  const parent = creator.el.parentElement;
  if (!parent) return reached ? value : null;
  const siblings: Item[] = [];
  for (let s = creator.el.nextElementSibling; s; s = s.nextElementSibling) siblings.push({ el: s, pseudo: null });
  if (pseudoExists(parent, '::after')) siblings.push({ el: parent, pseudo: '::after' });
  walkList(siblings, 0);
  return reached ? value : null;
}

const ROMAN: Array<[number, string]> = [[1000, 'm'], [900, 'cm'], [500, 'd'], [400, 'cd'], [100, 'c'], [90, 'xc'], [50, 'l'], [40, 'xl'], [10, 'x'], [9, 'ix'], [5, 'v'], [4, 'iv'], [1, 'i']];

function formatCounter(n: number, style = 'decimal'): string {
  switch (style) {
    case 'none': return '';
    case 'disc': return '•';
    case 'circle': return '◦';
    case 'square': return '▪';
    case 'decimal-leading-zero': return (n < 0 ? '-' : '') + String(Math.abs(n)).padStart(2, '0');
    case 'lower-roman': case 'upper-roman': {
      if (n <= 0 || n >= 4000) return String(n);
      let out = '', rest = n;
      for (const [v, s] of ROMAN) while (rest >= v) { out += s; rest -= v; }
      return style === 'upper-roman' ? out.toUpperCase() : out;
    }
    case 'lower-alpha': case 'lower-latin': case 'upper-alpha': case 'upper-latin': case 'lower-greek': {
      if (n <= 0) return String(n);
      const letters = style === 'lower-greek' ? 'αβγδεζηθικλμνξοπρστυφχψω' : 'abcdefghijklmnopqrstuvwxyz';
      let out = '', rest = n;
      while (rest > 0) { rest--; out = letters[rest % letters.length] + out; rest = Math.floor(rest / letters.length); }
      return style.startsWith('upper') ? out.toUpperCase() : out;
    }
    default: return String(n);
  }
}
