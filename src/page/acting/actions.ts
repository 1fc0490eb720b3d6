// In-page half of acting on an element: bring it into view, find a point a click would really
// reach (or name what covers it), and the operations a script does better than input events
// (setting a controlled input's value, choosing an option, scrolling a container).
import type { Box } from '../../model/contracts/schema.js';
import type { Cover, ElementState, FindResult, OkReason, OptionList, PrepareResult, ScrollResult, SelectResult, SetValueResult, TextEntry } from '../../model/contracts/engine.js';
import { isInteractiveByMarkup, scrollOverflow } from '../semantics/interactive.js';
import { labelsFor } from '../semantics/labels.js';
import { nameOf } from '../semantics/names.js';
import { roleOf } from '../semantics/roles.js';
import { rowNameOf } from '../structure/rows.js';
import { composedContains, composedParent, deepActiveElement, deepElementFromPoint, shadowRootOf } from '../identity/shadow.js';
import { isSecretField, statesOf, REDACTED } from '../semantics/state.js';
import { flushStamps, idFor, stamp } from '../identity/tagger.js';
import { visibleBox } from '../walk/visibility.js';
import { walkElements } from '../walk/walker.js';
import { onlyWraps } from '../semantics/wrapped.js';

/** Scrolls the element into view if needed, then finds a point on it that a click would reach. */
export function prepare(el: Element, opts: { allowDisabled?: boolean; nearest?: boolean } = {}): PrepareResult {
  if (!el.isConnected) return { ok: false, code: 'NOT_ACTIONABLE', reason: 'is no longer in the document' };
  let box = visibleBox(el);
  if (!box) return { ok: false, code: 'NOT_ACTIONABLE', reason: `is not visible (${hiddenReason(el)})` };
  if (!opts.allowDisabled && (el.matches(':disabled') || el.getAttribute('aria-disabled') === 'true')) {
    return { ok: false, code: 'NOT_ACTIONABLE', reason: 'is disabled', box };
  }
  const vw = window.innerWidth, vh = window.innerHeight;
  if (!fullyInside(box, vw, vh)) {
    const anchor = el.checkVisibility() ? el : (labelsFor(el)[0] ?? el);
    // In a child frame, scrolling propagates to the ancestors asynchronously: move them as little as possible.
    const where = opts.nearest ? 'nearest' : 'center';
    anchor.scrollIntoView({ block: where, inline: where, behavior: 'instant' });
    box = visibleBox(el) ?? box;
  }
  const [x, y, w, h] = box;
  const points: Array<[number, number]> = [
    ...textPoint(el),
    [x + w / 2, y + h / 2], [x + w * 0.25, y + h / 2], [x + w * 0.75, y + h / 2], [x + w / 2, y + h * 0.25], [x + w / 2, y + h * 0.75],
  ];
  let firstHit: Element | null = null;
  let nested: Element | null = null;
  for (const [px, py] of points) {
    if (px < 0 || py < 0 || px >= vw || py >= vh) continue;
    const hit = deepElementFromPoint(el.ownerDocument, px, py);
    if (!hit) continue;
    if (!reaches(hit, el)) { firstHit ??= hit; continue; }
    // A point on a control nested inside the target (a card's "Remove" button) is not the target.
    const inner = nestedControl(hit, el);
    if (!inner || onlyWraps(el, inner)) return { ok: true, point: [Math.round(px * 100) / 100, Math.round(py * 100) / 100], box, viewport: [vw, vh] };
    nested ??= inner;
  }
  if (!firstHit && nested) {
    // The inner control does something else: the host names it by an ID the agent can act on.
    const role = roleOf(nested, false);
    const inner = { id: idFor(nested) ?? stamp(nested), role, name: short(nameOf(nested, role), 40) };
    flushStamps();
    return { ok: false, code: 'NOT_ACTIONABLE', reason: 'has a control inside it that does something else wherever it can be clicked', inner, box };
  }
  if (!firstHit) return { ok: false, code: 'NOT_ACTIONABLE', reason: 'lies outside the visible area even after scrolling', box };
  const cover = describeCover(firstHit, el);
  return { ok: false, code: 'COVERED', reason: `is covered by ${coverText(cover)}`, cover, box };
}

/** Scrolls an element (an iframe, before acting inside it) fully into view if it is not. */
export function reveal(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (fullyInside([r.x, r.y, r.width, r.height], window.innerWidth, window.innerHeight)) return false;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  return true;
}

/** In a parent frame: whether a point reaches the iframe `owner`, else what covers it. */
export function coverAt(owner: Element, x: number, y: number): Cover | null {
  if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return null;
  const hit = deepElementFromPoint(document, x, y);
  if (!hit || composedContains(owner, hit)) return null;
  return describeCover(hit, owner);
}

/** The middle of the element's own text, where a person aims at a row or a card by its name. */
function textPoint(el: Element): Array<[number, number]> {
  for (let c = el.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== Node.TEXT_NODE || !c.textContent?.trim()) continue;
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(c);
    const r = range.getBoundingClientRect();
    if (r.width >= 1 && r.height >= 1) return [[r.x + r.width / 2, r.y + r.height / 2]];
  }
  return [];
}

/** The control inside `el` (not `el` itself) that `hit` lies in, if any. */
function nestedControl(hit: Element, el: Element): Element | null {
  for (let n: Node | null = hit; n && n !== el; n = composedParent(n)) {
    if (n instanceof Element && isInteractiveByMarkup(n)) return n;
  }
  return null;
}

export function reaches(hit: Element, el: Element): boolean {
  if (composedContains(el, hit)) return true;
  const label = hit.closest('label');
  return !!label && labelsFor(el).includes(label);
}

export function coverText(c: Cover): string {
  return `${c.selector}${c.text ? ` "${c.text}"` : ''}`;
}

/** The outermost element on top of the target that is not one of its ancestors: the banner, not its inner span. */
export function describeCover(hit: Element, target: Element): Cover {
  let cover: Element = hit;
  for (let p = composedParent(cover); p instanceof Element && p.tagName !== 'BODY' && p.tagName !== 'HTML' && !composedContains(p, target); p = composedParent(p)) cover = p;
  const control = cover.matches('button,a[href],[role=button],input[type=button],input[type=submit]')
    ? cover : cover.querySelector('button,a[href],[role=button],input[type=button],input[type=submit]');
  const out: Cover = { selector: selectorOf(cover), text: '' };
  if (control) {
    const role = roleOf(control, false);
    const name = short(nameOf(control, role), 40);
    out.text = name;
    out.control = { id: idFor(control) ?? stamp(control), role, name };
    flushStamps();
  } else {
    out.text = short((cover as HTMLElement).innerText ?? cover.textContent ?? '', 40);
  }
  return out;
}

function selectorOf(el: Element): string {
  const tag = el.tagName.toLowerCase();
  if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) return `${tag}#${el.id}`;
  const classes = Array.from(el.classList).filter((c) => /^[A-Za-z_-][\w-]*$/.test(c)).slice(0, 2);
  return tag + classes.map((c) => `.${c}`).join('');
}

function hiddenReason(el: Element): string {
  const style = getComputedStyle(el);
  if (style.display === 'none') return 'display: none';
  if (style.visibility === 'hidden') return 'visibility: hidden';
  if (style.opacity === '0') return 'opacity: 0';
  for (let p = el.parentElement; p; p = p.parentElement) if (getComputedStyle(p).display === 'none') return 'inside a hidden container';
  return 'zero size';
}

function fullyInside(box: Box, vw: number, vh: number): boolean {
  const [x, y, w, h] = box;
  return x >= 0 && y >= 0 && x + Math.min(w, vw) <= vw && y + Math.min(h, vh) <= vh;
}

/** The element's name, nameless controls named by their row, and its name with its row's identity. */
function named(el: Element, role: string): { name: string; inRow?: string } {
  if (!el.isConnected) return { name: '' };
  const own = nameOf(el, role);
  if (!own) return { name: rowNameOf(el, role, isInteractiveByMarkup) };
  const inRow = rowNameOf(el, role, isInteractiveByMarkup, own);
  return inRow ? { name: own, inRow } : { name: own };
}

export function elementState(el: Element): ElementState {
  const role = el.isConnected ? roleOf(el, false) : '';
  const raw = rawValue(el);
  const focused = deepActiveElement(el.ownerDocument);
  return {
    connected: el.isConnected,
    visible: el.isConnected && visibleBox(el) !== null,
    tag: el.tagName.toLowerCase(),
    type: el instanceof HTMLInputElement ? el.type : null,
    role,
    ...named(el, role),
    value: raw === null ? null : isSecretField(el) ? REDACTED : short(raw, 100),
    valueKey: raw === null ? null : fingerprint(raw),
    checked: checkedOf(el),
    states: el.isConnected ? statesOf(el, focused) : [],
    focused: focused === el,
    scrollContainer: isScrollContainer(el),
    inClosedShadow: inClosedShadow(el),
  };
}

function inClosedShadow(el: Element): boolean {
  for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    if (root.host.shadowRoot !== root) return true;
  }
  return false;
}

function rawValue(el: Element): string | null {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
  if ((el as HTMLElement).isContentEditable) return el.textContent ?? '';
  const now = el.getAttribute('aria-valuenow');
  return now;
}

function fingerprint(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return `${s.length}:${(h >>> 0).toString(36)}`;
}

export function checkedOf(el: Element): boolean | 'mixed' | null {
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.indeterminate ? 'mixed' : el.checked;
  const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  if (aria === 'mixed') return 'mixed';
  if (aria === 'true' || aria === 'false') return aria === 'true';
  return null;
}

/** The snapshot's rule (`scr`): what it lists as scrollable is what scroll(id) scrolls. */
function isScrollContainer(el: Element): boolean {
  if (!el.isConnected) return false;
  const style = getComputedStyle(el);
  return scrollOverflow(el, style.overflowX, style.overflowY) !== null;
}

// Input types whose value comes from a picker, not from typed characters: a person sets them
// in one step, and the browser fires input and change together when they do.
const PICKED_TYPES = new Set(['date', 'datetime-local', 'month', 'week', 'time', 'color', 'range']);
const NO_TEXT_TYPES = new Set(['button', 'submit', 'reset', 'image', 'file', 'hidden']);

/**
 * How a field takes a value: typed with the keyboard, set in one step (pickers), or not at all.
 * `focusIfReadOnly` (asked right before typing): a read-only field is focused first and asked
 * again, since many login forms keep the password read-only until it takes focus (their focus
 * handler removes `readonly`, so that browsers do not autofill it); a person clicks it first too.
 */
export function textEntry(el: Element, focusIfReadOnly = false): TextEntry {
  if (focusIfReadOnly && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.readOnly && !el.disabled) {
    el.focus();
    if (el.readOnly) return { kind: 'refuse', reason: 'it is read-only, and stays so after taking focus', secret: isSecretField(el) };
  }
  if (el instanceof HTMLSelectElement) return { kind: 'refuse', reason: 'it is a <select>: use select(id, "option")' };
  if (el instanceof HTMLInputElement) {
    if (el.type === 'checkbox' || el.type === 'radio') return { kind: 'refuse', reason: `it is a ${el.type}: use check(id) or uncheck(id)` };
    if (NO_TEXT_TYPES.has(el.type)) return { kind: 'refuse', reason: `it is an input of type ${el.type}, which takes no typed value` };
  }
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    const secret = isSecretField(el);
    if (el.disabled) return { kind: 'refuse', reason: 'it is disabled', secret };
    if (el.readOnly) return { kind: 'refuse', reason: 'it is read-only', secret };
    return el instanceof HTMLInputElement && PICKED_TYPES.has(el.type) ? { kind: 'set', secret } : { kind: 'type', secret };
  }
  if ((el as HTMLElement).isContentEditable) return { kind: 'type', secret: false };
  return { kind: 'refuse', reason: `it is a ${roleOf(el, false)} (${el.tagName.toLowerCase()}), not a text field` };
}

/**
 * For picker inputs only (date, time, colour, range): the value through the prototype's native
 * setter (a framework's own `value` property is its tracker and must not learn it first), then
 * the input and change events a person's pick fires. Text fields are typed instead, so that the
 * page sees a person's input and commits (change) only when the field is committed.
 */
export function setValue(el: Element, value: string): SetValueResult {
  const entry = textEntry(el);
  if (entry.kind !== 'set' || !(el instanceof HTMLInputElement)) return { ok: false, reason: entry.kind === 'refuse' ? entry.reason : 'it takes typed text' };
  el.focus();
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, value: short(el.value, 100) };
}

/** Whether the field now holds exactly `value` (secrets are compared here, never sent). */
export function valueIs(el: Element, value: string): boolean {
  const raw = rawValue(el);
  return raw !== null && raw === value;
}

/** Focuses the field and selects its whole content, so that keyboard input replaces it. */
export function focusForTyping(el: Element): OkReason {
  const html = el as HTMLElement;
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
    if (el.disabled || el.readOnly) return { ok: false, reason: `it is ${el.disabled ? 'disabled' : 'read-only'}` };
    el.focus();
    try { el.select(); } catch { /* types without selection (number, email) are selected by Control+A instead */ }
    return { ok: deepActiveElement(el.ownerDocument) === el };
  }
  if (html.isContentEditable) {
    html.focus();
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    const sel = (el.getRootNode() as Document).getSelection?.() ?? el.ownerDocument.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
    return { ok: true };
  }
  return { ok: false, reason: `it is a ${roleOf(el, false)} (${el.tagName.toLowerCase()}), not a text field` };
}

export function focus(el: Element): OkReason {
  (el as HTMLElement).focus?.();
  return { ok: deepActiveElement(el.ownerDocument) === el };
}

const normText = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * Chooses options of a native <select> by label (or value): exactly `wanted` end up selected, in
 * a multiple select the others are deselected. Returns every option selected afterwards.
 */
export function selectOptions(el: Element, wanted: string[]): SelectResult {
  if (!(el instanceof HTMLSelectElement)) {
    return { ok: false, reason: `it is a ${roleOf(el, false)}, not a <select>` };
  }
  if (el.disabled) return { ok: false, reason: 'it is disabled' };
  if (!wanted.length) return { ok: false, reason: 'no option given' };
  if (!el.multiple && wanted.length > 1) return { ok: false, reason: `it takes one option, not ${wanted.length} (it is not a multiple select)` };
  const options = Array.from(el.options);
  const label = (o: HTMLOptionElement) => normText(o.label || o.textContent || '');
  const chosen: HTMLOptionElement[] = [];
  for (const want of wanted) {
    const w = normText(want);
    const match = options.find((o) => label(o) === w) ?? options.find((o) => o.value === want)
      ?? options.find((o) => label(o).toLowerCase() === w.toLowerCase());
    if (!match) {
      const list = options.slice(0, 15).map((o) => `"${label(o)}"`).join(', ');
      return { ok: false, reason: `no option "${want}" (options: ${list}${options.length > 15 ? ', …' : ''})` };
    }
    if (match.disabled) return { ok: false, reason: `option "${label(match)}" is disabled` };
    chosen.push(match);
  }
  el.focus();
  if (el.multiple) for (const o of options) o.selected = chosen.includes(o);
  else chosen[0].selected = true;
  el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true, selected: Array.from(el.selectedOptions, label) };
}

/**
 * The options of a custom (ARIA) list widget: a listbox, or a combobox / popup button and the
 * listbox it controls (found through aria-controls / aria-owns, else any listbox shown on the
 * page, as popups rendered in a portal are). Each option is given an ID so it can be clicked.
 */
export function listOptions(el: Element): OptionList {
  const role = roleOf(el, false);
  const popupButton = el.getAttribute('aria-haspopup') === 'listbox';
  const widget = role === 'listbox' ? 'listbox' : role === 'combobox' || popupButton ? 'combobox' : 'none';
  const editable = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || (el as HTMLElement).isContentEditable;
  const out: OptionList = {
    widget, editable, expanded: widget === 'listbox' || el.getAttribute('aria-expanded') === 'true',
    multiselectable: false, source: 'self', options: [], shown: shownValue(el),
  };
  if (widget === 'none') return out;
  let lists: Element[] = [el];
  if (widget === 'combobox') ({ source: out.source, lists } = popupsOf(el));
  const seen = new Set<Element>();
  for (const list of lists) {
    if (list.getAttribute('aria-multiselectable') === 'true') out.multiselectable = true;
    for (const opt of optionsIn(list)) {
      if (seen.has(opt)) continue;
      seen.add(opt);
      out.options.push({
        id: idFor(opt) ?? stamp(opt),
        name: nameOf(opt, 'option'),
        selected: opt.getAttribute('aria-selected') === 'true' || opt.getAttribute('aria-checked') === 'true',
        disabled: opt.getAttribute('aria-disabled') === 'true',
        visible: visibleBox(opt) !== null,
      });
    }
  }
  flushStamps();
  return out;
}

function popupsOf(el: Element): { source: OptionList['source']; lists: Element[] } {
  const root = el.getRootNode() as Document | ShadowRoot;
  const ids = `${el.getAttribute('aria-controls') ?? ''} ${el.getAttribute('aria-owns') ?? ''}`.split(/\s+/).filter(Boolean);
  // A named popup that does not exist yet (rendered on open) is waited for, not replaced by another list.
  if (ids.length) {
    const lists = ids.map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id)).filter((x): x is HTMLElement => !!x);
    return { source: 'referenced', lists };
  }
  const inside = el.querySelector('[role=listbox]');
  if (inside) return { source: 'inside', lists: [inside] };
  // A popup rendered elsewhere (a portal at the end of <body>) names nothing: the lists shown now
  // (the Node side keeps those that appeared when the control was opened).
  return { source: 'page', lists: Array.from(el.ownerDocument.querySelectorAll('[role=listbox]')).filter((l) => visibleBox(l) !== null) };
}

function optionsIn(list: Element): Element[] {
  const own = list.matches('[role=option]') ? [list] : Array.from(list.querySelectorAll('[role=option]'));
  return own.filter((o) => o.isConnected);
}

function shownValue(el: Element): string {
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return isSecretField(el) ? REDACTED : short(el.value, 80);
  return short(el.getAttribute('aria-valuetext') ?? (el as HTMLElement).innerText ?? el.textContent ?? '', 80);
}

export function clickJs(el: Element): OkReason {
  (el as HTMLElement).click();
  return { ok: true };
}

export function submit(el: Element): OkReason {
  const form = el instanceof HTMLFormElement ? el : (el as HTMLInputElement).form ?? el.closest('form');
  if (!form) return { ok: false, reason: 'it is not in a form' };
  const submitter = (el instanceof HTMLButtonElement || el instanceof HTMLInputElement) && (el.type === 'submit' || el.type === 'image') ? el : undefined;
  form.requestSubmit(submitter);
  return { ok: true };
}

type Dir = 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom';

/** Scrolls a container (no direction: a page down), or brings any other element into view. */
export function scrollElement(el: Element, direction?: Dir, amount?: number, intoView?: boolean): ScrollResult {
  if (intoView || (!direction && !isScrollContainer(el))) {
    const before = el.getBoundingClientRect();
    el.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    const after = el.getBoundingClientRect();
    return { moved: before.top !== after.top || before.left !== after.left, position: pagePosition(), hasMore: false, scrolledIntoView: true };
  }
  const vertical = direction !== 'left' && direction !== 'right';
  const before = vertical ? el.scrollTop : el.scrollLeft;
  scrollBy(el, direction ?? 'down', amount ?? Math.max(40, Math.round((vertical ? el.clientHeight : el.clientWidth) * 0.8)));
  const after = vertical ? el.scrollTop : el.scrollLeft;
  const max = vertical ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth;
  return { moved: after !== before, position: percent(max > 0 ? after / max : 0), hasMore: after < max - 1 };
}

export function scrollPage(direction: Dir = 'down', amount?: number): ScrollResult {
  const se = document.scrollingElement ?? document.documentElement;
  const vertical = direction !== 'left' && direction !== 'right';
  const before = vertical ? window.scrollY : window.scrollX;
  scrollBy(se, direction, amount ?? Math.round((vertical ? window.innerHeight : window.innerWidth) * 0.8));
  const after = vertical ? window.scrollY : window.scrollX;
  const max = vertical ? se.scrollHeight - window.innerHeight : se.scrollWidth - window.innerWidth;
  return { moved: after !== before, position: pagePosition(), hasMore: after < max - 1 };
}

function scrollBy(el: Element, direction: Dir, amount: number): void {
  const opts: ScrollToOptions = { behavior: 'instant' };
  if (direction === 'top') el.scrollTo({ top: 0, ...opts });
  else if (direction === 'bottom') el.scrollTo({ top: el.scrollHeight, ...opts });
  else el.scrollBy({
    top: direction === 'down' ? amount : direction === 'up' ? -amount : 0,
    left: direction === 'right' ? amount : direction === 'left' ? -amount : 0, ...opts,
  });
}

function pagePosition(): string {
  const se = document.scrollingElement ?? document.documentElement;
  const max = se.scrollHeight - window.innerHeight;
  return percent(max > 0 ? window.scrollY / max : 0);
}

function percent(f: number): string {
  return `${Math.round(Math.min(1, Math.max(0, f)) * 100)}%`;
}

/**
 * Whether visible text (case-insensitive, whitespace-normalised) or a visible selector match is
 * on this frame's page now. An invalid selector is a wrong question, not an absent answer.
 */
export function findOnPage(query: { text?: string; selector?: string }): FindResult {
  const roots: ParentNode[] = [document];
  walkElements(document, (el, ctx) => { const sr = shadowRootOf(el); if (sr) roots.push(sr); return ctx; });
  if (query.selector) {
    try {
      document.createDocumentFragment().querySelector(query.selector);
    } catch {
      return { ok: false, reason: `"${query.selector}" is not a valid CSS selector` };
    }
    for (const root of roots) {
      for (const el of Array.from(root.querySelectorAll(query.selector))) if (visibleBox(el)) return { ok: true, found: true };
    }
    return { ok: true, found: false };
  }
  const wanted = norm(query.text ?? '').toLowerCase();
  if (!wanted) return { ok: false, reason: 'nothing to look for (empty text)' };
  for (const root of roots) {
    const container = root instanceof Document ? root.body : root;
    if (!container) continue;
    const text = container instanceof HTMLElement ? container.innerText : Array.from(container.children, (c) => (c as HTMLElement).innerText ?? '').join(' ');
    if (norm(text).toLowerCase().includes(wanted)) return { ok: true, found: true };
  }
  return { ok: true, found: false };
}

function norm(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function short(s: string, max: number): string {
  const t = norm(s);
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}
