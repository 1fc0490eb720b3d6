// What changed since the last read, so that a snapshot re-derives only that. Every DOM change is
// seen by a MutationObserver (document and every shadow root); state changes that are no mutation
// (typing, checking, focus, the pointer) by capturing listeners; changes of the style sheets and
// of the viewport, which can restyle anything, by comparing a signature on each read.
//
// A change at node N makes dirty: the subtree of N's parent (N itself, what N's descendants
// inherit from it, and its siblings, which sibling selectors restyle) and every ancestor of N
// (their names and `:has()` include N's content). Names derived from elsewhere in the document are
// derived again after any change (aria-labelledby, nearby text) or any change that can touch a
// <label> (the name of a labelable control).
import { composedParent, onShadowRootAdopted } from '../identity/shadow.js';
import { DOC_ATTR } from '../identity/document.js';
import { ID_ATTR } from '../../model/pagemodel/page.js';
import type { Reach } from '../semantics/accname.js';
import { moved } from '../walk/viewportMembers.js';

export interface Freshness {
  /** True when nothing that `el`'s derived facts depend on changed since they were last derived. */
  clean(el: Element, subtreeDirty: boolean): boolean;
  /** The read number to store with what is derived now. */
  readonly read: number;
  /** Whether what is derived now is kept for later reads (a cold read leaves them untouched). */
  readonly store: boolean;
  /** True when what a name of that reach depends on outside its element may have changed since read `since`. */
  changedSince(since: number, reach: Reach): boolean;
  /** The subtree below `el` is dirty (what a walk passes down to its children). */
  subtreeDirty(el: Element, parentDirty: boolean): boolean;
  /** Anything at all changed since the previous read (always true for a cold read). */
  readonly changed: boolean;
  /**
   * The roots of the subtrees that changed since the previous read (each changed node's parent),
   * or null when anything may have (a cold read, a new style sheet, too many changes).
   */
  readonly roots: readonly Element[] | null;
  /** Whether any element left the document since the previous read (a cold read: true). */
  readonly removed: boolean;
  /**
   * Nothing changed since the previous read, not even what no dirty subtree shows (fonts that
   * arrived): with no box moved and nothing animating either, the page looks as it did then.
   */
  readonly still: boolean;
  /**
   * The text nodes edited since the previous read, when that is all that changed: every change was
   * new data for a text node that held text before and holds text now (so `:empty` matched
   * nothing differently), with no event, style sheet, label or font change besides. Else null.
   */
  readonly edits: Text[] | null;
  /**
   * True when nothing in `el`'s subtree, in `el` itself or in what it inherits changed since read
   * `since`, whatever reads came between: `aboveDirty` says an ancestor's subtree changed since then
   * (what a walk passes down). A subtree clean since a walk can take that walk's results for it.
   */
  cleanSince(el: Element, since: number, aboveDirty: boolean): boolean;
  /** Whether a change below an ancestor of `el` since read `since` makes `el`'s subtree dirty too. */
  dirtySince(el: Element, since: number, aboveDirty: boolean): boolean;
  /**
   * cleanSince() for an element met outside a walk (a row around listed targets): its ancestors
   * are climbed to learn whether anything it inherits changed since read `since`.
   */
  untouchedSince(el: Element, since: number): boolean;
}

let observer: MutationObserver | null = null;
const observed = new WeakSet<Node>();
/** Nodes whose parent's subtree is dirty. */
let dirty = new Set<Node>();
/** Everything is dirty: a new style sheet, a resize, a change too large to track node by node. */
let allDirty = true;
let read = 0;
/** The last read at which anything changed, and at which anything that can change a <label> did. */
let lastChange = 0;
let lastLabelChange = 0;
/** A change no dirty subtree shows later: a removed label, an `id` or `for` that pairs labels anew. */
let labelsTouched = false;
let signature = '';
/** Something that can move or repaint anything arrived since the last read (a web font). */
let sceneTouched = false;
/** Every change noted since the last read was an edit of a text node's data that kept it non-empty (Freshness.edits). */
let textEditsOnly = true;
/** An element left the document since the last read (what a read kept about it is to be let go). */
let nodesRemoved = false;
/** The last read at which each element was the root of a dirty subtree, or an ancestor of one; and at which everything was. */
const rootAt = new WeakMap<Node, number>();
const aboveAt = new WeakMap<Node, number>();
let everywhereAt = 0;
/** Beyond this many dirty nodes, marking them one by one costs more than a cold read. */
const MAX_TRACKED = 5000;
// Our own marks are no change to the page.
const OWN_ATTRS = new Set([ID_ATTR, DOC_ATTR]);

function note(node: Node | null, textEdit = false): void {
  if (!textEdit) textEditsOnly = false;
  if (!node || allDirty) return;
  if (dirty.size >= MAX_TRACKED) { allDirty = true; dirty = new Set(); return; }
  dirty.add(node);
}

/** A change no mutation shows (a gesture listener found by the host): the element is derived again. */
export function noteChange(node: Node): void {
  note(node);
}

function onRecords(records: MutationRecord[]): void {
  let any = false;
  for (const r of records) {
    if (r.type === 'attributes' && OWN_ATTRS.has(r.attributeName ?? '')) continue;
    any = true;
    if (r.type === 'attributes' && (r.attributeName === 'id' || r.attributeName === 'for')) labelsTouched = true;
    for (const n of Array.from(r.removedNodes)) {
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      nodesRemoved = true;
      if (n.nodeName === 'LABEL' || (n as Element).querySelector('label')) labelsTouched = true;
    }
    const target = r.target;
    if (target.nodeName === 'STYLE' || target.nodeName === 'LINK' || target.parentNode?.nodeName === 'STYLE') { allDirty = true; continue; }
    // Children added or removed: the target's own subtree is what changed, and a child still in
    // place stands for it (its parent's subtree is what a note makes dirty).
    note(r.type === 'childList' ? target.firstChild ?? target : target, r.type === 'characterData' && !!r.oldValue && target.nodeType === Node.TEXT_NODE);
    if (r.type === 'childList') for (const n of Array.from(r.addedNodes)) if (n.nodeName === 'STYLE' || n.nodeName === 'LINK') allDirty = true;
    for (const n of Array.from(r.removedNodes)) if (n.nodeName === 'STYLE' || n.nodeName === 'LINK') allDirty = true;
  }
  // What changed can push targets into or out of the viewport: the observer must catch up first.
  if (any) moved();
}

function onEvent(e: Event): void {
  const path = e.composedPath();
  note((path[0] as Node | undefined) ?? (e.target as Node | null));
  moved();
}

export function watchForChanges(root: Node): void {
  if (!observer || observed.has(root)) return;
  observed.add(root);
  observer.observe(root, { childList: true, subtree: true, attributes: true, characterData: true, characterDataOldValue: true });
}

export function startChangeTracking(doc: Document): void {
  if (observer) return;
  observer = new MutationObserver(onRecords);
  watchForChanges(doc);
  // An adopted closed root brings content no read has seen: its host changed.
  onShadowRootAdopted((root) => { watchForChanges(root); note(root.host); });
  // beforetoggle: a popover shown by script is announced synchronously (its toggle event comes later).
  for (const type of ['input', 'change', 'focusin', 'focusout', 'pointerover', 'pointerout', 'pointerdown', 'pointerup', 'toggle', 'beforetoggle', 'transitionend', 'animationend']) {
    doc.defaultView?.addEventListener(type, onEvent, { capture: true, passive: true });
  }
  // An image or a frame that loads resizes with no mutation; its load event never reaches the window.
  for (const type of ['load', 'error']) doc.addEventListener(type, onEvent, { capture: true, passive: true });
  doc.fonts?.addEventListener('loadingdone', () => { sceneTouched = true; });
}

/** What can restyle every element without a mutation: the viewport and the style sheets. */
function currentSignature(doc: Document): string {
  let rules = 0;
  for (const sheet of Array.from(doc.styleSheets)) {
    try { rules += sheet.cssRules.length; } catch { rules += 1e6; /* unreadable (cross-origin): its count stays unknown */ }
  }
  return `${window.innerWidth}x${window.innerHeight}:${doc.styleSheets.length}:${doc.adoptedStyleSheets?.length ?? 0}:${rules}:${window.devicePixelRatio}`;
}

/** A cold read: reuses nothing, and leaves the caches and the pending changes as they were. */
const COLD: Freshness = {
  read: 0, store: false, changed: true, roots: null, removed: true, still: false, edits: null, clean: () => false, changedSince: () => true, subtreeDirty: () => true,
  cleanSince: () => false, dirtySince: () => true, untouchedSince: () => false,
};

/**
 * Starts a read: takes the changes noted since the previous one. A `fresh` read reuses nothing
 * and changes nothing for the reads after it: it is the cold read reuse is checked against.
 */
export function beginRead(doc: Document, fresh: boolean): Freshness {
  if (fresh) return COLD;
  // Records still queued belong to this read.
  if (observer) onRecords(observer.takeRecords());
  read++;
  const sig = currentSignature(doc);
  if (sig !== signature) { signature = sig; allDirty = true; }
  const everything = allDirty || !observer;
  const touched = sceneTouched;
  sceneTouched = false;
  const dirtyNodes = dirty;
  const textOnly = textEditsOnly;
  textEditsOnly = true;
  const removed = nodesRemoved;
  nodesRemoved = false;
  dirty = new Set();
  allDirty = false;
  // Roots of dirty subtrees (the parent of each changed node) and the ancestors above them.
  const roots = new Set<Node>();
  const ancestors = new Set<Node>();
  let everywhere = everything;
  let labels = labelsTouched;
  labelsTouched = false;
  for (const n of dirtyNodes) {
    // Removed since: the change of its former parent's children covers it.
    if (!n.isConnected) continue;
    const parent = composedParent(n) ?? n;
    // The document itself changed (its root element, a doctype): nothing below can be trusted.
    if (parent.nodeType !== Node.ELEMENT_NODE) { everywhere = true; break; }
    roots.add(parent);
    for (let a = composedParent(parent); a && !ancestors.has(a); a = composedParent(a)) ancestors.add(a);
  }
  // A dirty subtree with a label in it, or inside one: a labelled control's name may have changed.
  if (!labels) for (const r of roots) if ((r as Element).closest('label') || (r as Element).querySelector('label')) { labels = true; break; }
  if (everywhere || dirtyNodes.size > 0) lastChange = read;
  if (everywhere || labels) lastLabelChange = read;
  if (everywhere) everywhereAt = read;
  for (const r of roots) rootAt.set(r, read);
  for (const a of ancestors) aboveAt.set(a, read);
  const since = (at: WeakMap<Node, number>, el: Node, k: number) => (at.get(el) ?? 0) > k;
  // Per read number: whether no subtree rooted at a node or at any node above it changed since then.
  // Rows met outside the walk share their ancestors, so each ancestor is asked once per read.
  const clearAbove = new Map<number, Map<Node, boolean>>();
  const noRootAbove = (from: Node | null, k: number): boolean => {
    let known = clearAbove.get(k);
    if (!known) clearAbove.set(k, known = new Map());
    const climbed: Node[] = [];
    let clear = true;
    for (let a = from; a; a = composedParent(a)) {
      const memo = known.get(a);
      if (memo !== undefined) { clear = memo; break; }
      climbed.push(a);
      if (since(rootAt, a, k)) { clear = false; break; }
    }
    for (const a of climbed) known.set(a, clear);
    return clear;
  };
  return {
    read,
    store: true,
    changed: everywhere || labels || dirtyNodes.size > 0,
    roots: everywhere ? null : [...roots] as Element[],
    removed,
    still: !everywhere && !labels && dirtyNodes.size === 0 && !touched,
    edits: textOnly && !everywhere && !labels && !touched && dirtyNodes.size > 0 && [...dirtyNodes].every((n) => n.nodeType === Node.TEXT_NODE && n.isConnected && (n as Text).data !== '')
      ? [...dirtyNodes] as Text[] : null,
    clean: (el, subtreeDirty) => !everywhere && !subtreeDirty && !roots.has(el) && !ancestors.has(el),
    changedSince: (since, reach) => reach !== 'own' && (everywhere || (reach === 'labels' ? lastLabelChange : lastChange) > since),
    subtreeDirty: (el, parentDirty) => everywhere || parentDirty || roots.has(el),
    cleanSince: (el, k, aboveDirty) => !aboveDirty && everywhereAt <= k && !since(rootAt, el, k) && !since(aboveAt, el, k),
    dirtySince: (el, k, aboveDirty) => aboveDirty || everywhereAt > k || since(rootAt, el, k),
    untouchedSince: (el, k) => !(everywhereAt > k || since(rootAt, el, k) || since(aboveAt, el, k)) && noRootAbove(composedParent(el), k),
  };
}
