// The mutation log: a bounded ring of the changes a person would notice (a toast, an error under a
// field, a spinner), kept in the page so that what appears and vanishes between two snapshots is
// still reported. Also counts every DOM change, which DOM stability and verification read.
import { formatMutation, summarize, type MutationCategory, type MutationEvent, type MutationSummary } from '../../model/pagemodel/mutations.js';
import type { DomActivity } from '../../model/contracts/engine.js';
import { DOC, DOC_ATTR } from '../identity/document.js';
import { noteFieldAttributeChange } from '../semantics/secretFields.js';
import { onShadowRootAdopted, shadowRootOf } from '../identity/shadow.js';
import { ID_ATTR } from '../../model/pagemodel/page.js';

const CAPACITY = 100;
const MAX_TEXT = 120;
/** Added subtrees with more text than this are page content, not a message. */
const MESSAGE_TEXT_LIMIT = 300;
const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD', 'META', 'LINK', 'TITLE']);
/** Text inside these is no shown text: a <textarea>'s is its default value (a secret field's is a secret). */
const TEXT_SKIP_TAGS = new Set([...SKIP_TAGS, 'TEXTAREA']);

const ERROR_WORDS = /\b(error|errors|invalid|failed|failure|fail|incorrect|wrong|denied|not allowed|not found|unable|cannot|can't|couldn't|could not|problem|try again|expired|is required|are required|must be|must contain|too (short|long|many)|doesn't match|does not match|already (exists|taken|in use)|unavailable)\b/i;
const SUCCESS_WORDS = /\b(success|successfully|succeeded|saved|thank you|thanks|completed?|confirmed|submitted|sent|welcome|updated|created|added to|well done|congratulations|all set)\b/i;
const WARNING_WORDS = /\b(warning|caution|are you sure|unsaved|careful|deprecated|attention)\b/i;
const LOADING_WORDS = /^(loading|please wait|processing|saving|submitting|signing in|logging in|searching|fetching|updating)\b|\b(loading|please wait)\b/i;
const CLASS_HINTS: Array<[RegExp, MutationCategory]> = [
  [/(^|[\s_-])(error|danger|invalid|is-invalid|has-error|alert-danger|failure)([\s_-]|$)/i, 'error'],
  [/(^|[\s_-])(success|alert-success|is-valid|saved)([\s_-]|$)/i, 'success'],
  [/(^|[\s_-])(warning|warn|alert-warning)([\s_-]|$)/i, 'warning'],
  [/(^|[\s_-])(spinner|loading|loader|skeleton|progress|busy)([\s_-]|$)/i, 'loading'],
];
const ELEMENT_ROLES: Record<string, string> = {
  BUTTON: 'button', A: 'link', INPUT: 'input', SELECT: 'select', TEXTAREA: 'textarea', DIALOG: 'dialog', FORM: 'form', IMG: 'image',
};

let events: MutationEvent[] = [];
let seq = 0;
let mutationCount = 0;
let lastMutationAt = 0;
let logging = false;
let observer: MutationObserver | null = null;
const observed = new WeakSet<Node>();

export function domActivity(): DomActivity {
  return {
    count: mutationCount,
    quietMs: lastMutationAt ? Math.round(performance.now() - lastMutationAt) : 1e9,
    doc: DOC,
    seq,
    readyState: document.readyState,
  };
}

/** Events with seq > `afterSeq` (all of them when the mark belongs to another document). */
export function mutationsSince(doc: string | null, afterSeq: number): { doc: string; events: MutationEvent[] } {
  const from = doc === DOC ? afterSeq : -1;
  return { doc: DOC, events: events.filter((e) => e.seq > from) };
}

/** The last 10 events, as "[2s ago] Added: 'Saved Successfully'". */
export function getRecentMutations(limit = 10): string[] {
  const now = Date.now();
  return events.slice(-limit).map((e) => formatMutation(e, now));
}

export function getMutationSummary(): MutationSummary {
  return summarize(events);
}

export function recentMutationEvents(limit = 10): MutationEvent[] {
  return events.slice(-limit);
}

export function startMutationLog(doc: Document): void {
  if (observer) return;
  observer = new MutationObserver(onRecords);
  watch(doc);
  onShadowRootAdopted(watch);
  // Parser insertions are the page being built, not something that happened on it.
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', () => { logging = true; }, { once: true });
  else logging = true;
  // Native constraint validation shows its bubble outside the DOM: listen for it instead.
  doc.addEventListener('invalid', (e) => {
    const el = e.target as HTMLInputElement;
    const msg = el.validationMessage;
    if (logging && msg) record('added', 'form', `${fieldLabel(el)}: '${clip(msg)}'`);
  }, true);
}

function watch(root: Node): void {
  if (!observer || observed.has(root)) return;
  observed.add(root);
  observer.observe(root, { childList: true, subtree: true, characterData: true, characterDataOldValue: true, attributes: true, attributeOldValue: true });
  // Open shadow roots already in the tree: mutation observers stop at shadow boundaries.
  if (root instanceof Element || root instanceof Document || root instanceof ShadowRoot) watchShadowRootsIn(root);
}

function watchShadowRootsIn(root: ParentNode): void {
  if (root instanceof Element) { const own = shadowRootOf(root); if (own) watch(own); }
  const walker = document.createTreeWalker(root as Node, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const sr = shadowRootOf(n as Element);
    if (sr) watch(sr);
  }
}

interface Pending { added: Node[]; removed: Node[] }

function onRecords(records: MutationRecord[]): void {
  let counted = false;
  const byParent = new Map<Node, Pending>();
  for (const r of records) {
    if (r.type === 'attributes' && (r.attributeName === ID_ATTR || r.attributeName === DOC_ATTR)) continue;
    // Before anything is logged (parsing included): a field turned from secret to plain stays secret.
    if (r.type === 'attributes') noteFieldAttributeChange(r.target as Element, r.attributeName, r.oldValue);
    counted = true;
    if (r.type === 'childList') {
      for (const n of Array.from(r.addedNodes)) if (n.nodeType === Node.ELEMENT_NODE) watchShadowRootsIn(n as Element);
      const p = byParent.get(r.target) ?? { added: [], removed: [] };
      p.added.push(...Array.from(r.addedNodes));
      p.removed.push(...Array.from(r.removedNodes));
      byParent.set(r.target, p);
    } else if (logging && r.type === 'characterData') {
      textChanged(r);
    } else if (logging && r.type === 'attributes') {
      attributeChanged(r);
    }
  }
  if (counted) { mutationCount++; lastMutationAt = performance.now(); }
  if (!logging) return;
  for (const [parent, p] of byParent) childrenChanged(parent, p);
}

/** A re-render that swaps a node for an identical one changes nothing a person sees. */
function childrenChanged(parent: Node, p: Pending): void {
  const added = p.added.map((n) => describeNode(n, true)).filter((d): d is Described => d !== null);
  const removed = p.removed.map((n) => describeNode(n, false)).filter((d): d is Described => d !== null);
  for (let i = added.length - 1; i >= 0; i--) {
    const j = removed.findIndex((r) => r.text === added[i].text && r.label === added[i].label);
    if (j >= 0) { removed.splice(j, 1); added.splice(i, 1); }
  }
  // Text replaced in place ("Saving…" → "Saved") reads as one change.
  if (added.length === 1 && removed.length === 1 && added[0].text && removed[0].text) {
    const a = added[0];
    record('changed', a.category === 'text' ? classify(removed[0].text, parentElement(parent), 'text') : a.category,
      `'${removed[0].text}' → '${a.text}'`);
    return;
  }
  if (added.length > 5) {
    record('added', 'text', `${added.length} elements: '${clip(added.map((a) => a.text).filter(Boolean).join(' | '))}'`);
  } else {
    for (const a of added) record('added', a.category, `${a.label}'${a.text}'`);
  }
  for (const r of removed.slice(0, 5)) record('removed', r.category, `${r.label}'${r.text}'`);
}

interface Described { text: string; label: string; category: MutationCategory }

function describeNode(n: Node, added: boolean): Described | null {
  if (n.nodeType === Node.TEXT_NODE) {
    const text = clip(n.textContent);
    if (!text) return null;
    const parent = (n.parentNode && parentElement(n.parentNode)) ?? null;
    if (parent && TEXT_SKIP_TAGS.has(parent.tagName)) return null;
    if (added && parent && !visible(parent)) return null;
    return { text, label: '', category: classify(text, parent, 'text') };
  }
  if (n.nodeType !== Node.ELEMENT_NODE) return null;
  const el = n as Element;
  if (SKIP_TAGS.has(el.tagName)) return null;
  if (added && !visible(el)) return null;
  if (!added && (el.hasAttribute('hidden') || /display:\s*none/.test(el.getAttribute('style') ?? ''))) return null;
  const raw = (el as HTMLElement).innerText ?? el.textContent ?? '';
  const full = (added && visible(el) ? raw : el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const role = el.getAttribute('role') ?? ELEMENT_ROLES[el.tagName];
  if (!full) {
    if (!role) return null;
    const name = el.getAttribute('aria-label') || el.getAttribute('alt') || el.getAttribute('placeholder') || '';
    return { text: clip(name), label: `${role}: `, category: 'element' };
  }
  if (full.length > MESSAGE_TEXT_LIMIT) {
    return { text: clip(full), label: 'content: ', category: classify(full.slice(0, MESSAGE_TEXT_LIMIT), el, 'text', true) };
  }
  const category = classify(full, el, role && role !== 'alert' && role !== 'status' ? 'element' : 'text');
  return { text: clip(full), label: category === 'element' ? `${role}: ` : '', category };
}

function textChanged(r: MutationRecord): void {
  const parent = r.target.parentNode ? parentElement(r.target.parentNode) : null;
  if (parent && (TEXT_SKIP_TAGS.has(parent.tagName) || !visible(parent))) return;
  const before = clip(r.oldValue);
  const after = clip(r.target.textContent);
  if (before === after) return;
  if (!after) { if (before) record('removed', classify(before, parent, 'text'), `'${before}'`); return; }
  record('changed', classify(after, parent, 'text'), before ? `'${before}' → '${after}'` : `'${after}'`);
}

/** Messages shown or hidden by toggling hidden/style/class, and fields marked invalid. */
function attributeChanged(r: MutationRecord): void {
  const el = r.target as Element;
  const name = r.attributeName;
  if (SKIP_TAGS.has(el.tagName)) return;
  if (name === 'aria-invalid') {
    if (el.getAttribute('aria-invalid') === 'true' && r.oldValue !== 'true') record('changed', 'form', `${fieldLabel(el)} marked invalid`);
    return;
  }
  if (name === 'aria-busy') {
    if (el.getAttribute('aria-busy') === 'true') record('added', 'loading', `busy: '${clip(el.getAttribute('aria-label') || (el as HTMLElement).innerText) || el.tagName.toLowerCase()}'`);
    return;
  }
  if (name !== 'hidden' && name !== 'style' && name !== 'class' && name !== 'open') return;
  const now = visible(el);
  const was = wasVisible.get(el) ?? guessWasVisible(el, r);
  wasVisible.set(el, now);
  if (was === now || was === undefined) return;
  const text = clip(now ? (el as HTMLElement).innerText : el.textContent);
  if (!text || text.length > MESSAGE_TEXT_LIMIT) return;
  const category = classify(text, el, 'text');
  record(now ? 'added' : 'removed', category, `'${text}'`);
}

const wasVisible = new WeakMap<Element, boolean>();

/** From the old attribute value, where that says it; a class change says nothing, unless the element is a message. */
function guessWasVisible(el: Element, r: MutationRecord): boolean | undefined {
  const old = r.oldValue ?? '';
  if (r.attributeName === 'hidden') return r.oldValue === null;
  if (r.attributeName === 'open') return r.oldValue !== null;
  if (r.attributeName === 'style') return !/display:\s*none|visibility:\s*hidden/.test(old);
  const text = ((el as HTMLElement).innerText || el.textContent || '').trim();
  if (!text || text.length > MESSAGE_TEXT_LIMIT) return undefined;
  const category = classify(text, el, 'text');
  // A message whose class just changed: shown now means it likely was not before.
  return category === 'text' ? undefined : !visible(el);
}

function classify(text: string, el: Element | null, fallback: MutationCategory, content = false): MutationCategory {
  const live = el?.closest('[role=alert],[role=status],[aria-live],[role=progressbar]');
  const hint = classHint(el);
  if (hint === 'loading' || el?.closest('[role=progressbar],[aria-busy=true]') || (!content && text.length < 60 && LOADING_WORDS.test(text))) return 'loading';
  const error = hint === 'error' || ERROR_WORDS.test(text);
  if (error && !content) return isFieldMessage(el) ? 'form' : 'error';
  if (!content && (hint === 'success' || SUCCESS_WORDS.test(text))) return 'success';
  if (!content && (hint === 'warning' || WARNING_WORDS.test(text))) return 'warning';
  if (live?.getAttribute('role') === 'alert' || live?.getAttribute('aria-live') === 'assertive') return content ? fallback : 'warning';
  return fallback;
}

function classHint(el: Element | null): MutationCategory | null {
  for (let e: Element | null = el, depth = 0; e && depth < 3; e = e.parentElement, depth++) {
    const cls = typeof e.className === 'string' ? e.className : e.getAttribute('class') ?? '';
    for (const [re, cat] of CLASS_HINTS) if (re.test(cls)) return cat;
  }
  return null;
}

/** A message tied to one field: named by a field's aria-describedby/errormessage, or sitting next to one in a form. */
function isFieldMessage(el: Element | null): boolean {
  if (!el) return false;
  const id = el.id || el.closest('[id]')?.id;
  if (id) {
    const esc = CSS.escape(id);
    if (el.ownerDocument.querySelector(`[aria-describedby~="${esc}"],[aria-errormessage="${esc}"]`)) return true;
  }
  const form = el.closest('form,fieldset');
  if (!form) return false;
  const box = el.closest('label,div,p,span,li') ?? el;
  return !!(box.parentElement?.querySelector('input,select,textarea'));
}

function fieldLabel(el: Element): string {
  const input = el as HTMLInputElement;
  const label = input.labels?.[0]?.textContent || el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.getAttribute('name') || el.tagName.toLowerCase();
  return `field ${clip(label).replace(/'/g, '’')}`;
}

function record(type: MutationEvent['type'], category: MutationCategory, description: string): void {
  const now = Date.now();
  const last = events[events.length - 1];
  // Frameworks often write the same thing twice in a row.
  if (last && last.description === description && last.type === type && now - last.timestamp < 500) return;
  events.push({ timestamp: now, type, category, description, seq: ++seq });
  if (events.length > CAPACITY) events = events.slice(-CAPACITY);
}

function visible(el: Element): boolean {
  return el.isConnected && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
}

function parentElement(n: Node): Element | null {
  if (n instanceof Element) return n;
  if (n instanceof ShadowRoot) return n.host;
  return n.parentElement;
}

function clip(s: string | null | undefined): string {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > MAX_TEXT ? t.slice(0, MAX_TEXT - 1) + '…' : t;
}
