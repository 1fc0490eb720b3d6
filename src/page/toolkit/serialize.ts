// The `full` artifact of one frame: a copy of the document, annotated for an agent and stripped of
// what only the browser needs. The live page is never touched: the document is imported into an
// inert document (no browsing context, so no custom element constructor runs, no image loads and
// no script executes), and only the copy is annotated, walking it in step with the original.
//
// On the copy:
// - `data-id`: the pagelens ID of every tagged element (frame-prefixed in frames, as in semantic_v3).
// - `data-interactive` and `data-visible` ("true"/"false") on every element, as seed 000 §5 promises:
//   interactive is a control the tagger lists (a tagged landmark, heading, row item or scroll
//   container is not; an untagged element never is); visible is what checkVisibility says (inside
//   <head>, a <select> or a <datalist> nothing has a box of its own: those take their parent's).
//   The templatizer folds the repetition (src/model/renderers/templatize.ts).
// - `data-frame-id` on the <html> of the document (its frame ordinal) and on each iframe whose
//   document the Node side inlines; that iframe's content is a marker `<!--NONCE:ordinal-->`.
// - A page's own attributes of those names are kept as `data-page-id`, `data-page-visible`, ….
// - Shadow roots, open and closed, are written as declarative shadow DOM (`<template shadowrootmode>`).
// - Dropped: script, style, noscript, template, meta, resource links (stylesheet, preload, icon, …),
//   comments, the bodies of <svg>, inline `style` and `on…` handler attributes, pagelens's own
//   data-llm-* attributes; long `data:` URLs are cut. Runs of white space become one space
//   (except in pre and textarea).
// - Huge values are cut here, before outerHTML joins them, with a marker saying how long they were
//   (`…[cut: 2,000,000 chars]`): an attribute value, a text node, the document itself, at the
//   ceilings of src/model/safety/inputBounds.ts (a 2 MB attribute held the Node side for minutes).
// - Form fields show their current state (value, checked, selected); the value of a password or
//   other secret field is never written, not even the one in the page's markup.
import type { SerializeRequest, SerializedDocument } from '../../model/contracts/engineAnswers.js';
import { DOC_ATTR, globalId, ID_ATTR } from '../../model/pagemodel/page.js';
import { cutAt, cutDocument, INPUT_BOUNDS } from '../../model/safety/inputBounds.js';
import { DOC } from '../identity/document.js';
import { isInteractiveByMarkup, looksClickable } from '../semantics/interactive.js';
import { composedParent, shadowRootOf } from '../identity/shadow.js';
import { isSecretField } from '../semantics/state.js';
import { idFor } from '../identity/tagger.js';

const ANNOTATIONS = new Set(['data-id', 'data-interactive', 'data-visible', 'data-frame-id']);
const DROPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'META']);
const RESOURCE_LINK = /\b(stylesheet|preload|modulepreload|prefetch|preconnect|dns-prefetch|icon|apple-touch-icon|mask-icon|manifest)\b/i;
const KEEPS_SPACE = new Set(['PRE', 'TEXTAREA', 'LISTING', 'PLAINTEXT']);
// Where white-space text between children means nothing.
const NO_TEXT = new Set(['HTML', 'HEAD', 'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'UL', 'OL', 'DL', 'SELECT', 'OPTGROUP', 'COLGROUP', 'FRAMESET']);
const URL_ATTRS = new Set(['src', 'href', 'poster', 'srcset', 'data']);
const MAX_DATA_URL = 80;
/** Characters of a field's current value written on the copy (cut with the marker past it). */
const MAX_VALUE = 1000;

interface Scope {
  /** The parent's visibility (what an element without a box of its own is given). */
  visible: boolean;
  keepSpace: boolean;
  /** Inside <head> or a <select>: nothing there has a box of its own, so visibility is not annotated. */
  noBoxes: boolean;
}

export function serializeDocument(req: SerializeRequest, ...owners: Element[]): SerializedDocument {
  const t0 = performance.now();
  const root = document.documentElement;
  if (!root) return { doc: DOC, html: '', elements: 0, tagged: 0, frames: [], timeMs: 0 };
  const inert = document.implementation.createHTMLDocument('');
  const copy = inert.importNode(root, true) as Element;
  const ordinals = new Map<Element, number>();
  owners.forEach((el, i) => { if (el instanceof Element && Number.isInteger(req.children[i])) ordinals.set(el, req.children[i]); });
  let elements = 0;
  let tagged = 0;
  const frames: number[] = [];

  const annotate = (el: Element, out: Element, scope: Scope): Scope => {
    elements++;
    for (const name of out.getAttributeNames()) {
      const value = out.getAttribute(name) ?? '';
      if (name === ID_ATTR || name === DOC_ATTR || name === 'style' || /^on/i.test(name)) out.removeAttribute(name);
      else if (ANNOTATIONS.has(name)) { out.removeAttribute(name); out.setAttribute(`data-page-${name.slice(5)}`, cutAt(value, INPUT_BOUNDS.attributeValue)); }
      else if (URL_ATTRS.has(name) && value.length > MAX_DATA_URL && /^\s*data:/i.test(value)) out.setAttribute(name, `${value.slice(0, value.indexOf(',') >= 0 ? Math.min(value.indexOf(','), 40) : 40)},…(${value.length} chars)`);
      else if (value.length > INPUT_BOUNDS.attributeValue) out.setAttribute(name, cutAt(value, INPUT_BOUNDS.attributeValue));
    }
    writeFormState(el, out);
    const id = idFor(el);
    let visible = el.tagName === 'HEAD' ? false : scope.visible;
    if (!scope.noBoxes && el.tagName !== 'HEAD') visible = el.checkVisibility({ checkVisibilityCSS: true });
    let interactive = false;
    if (id !== undefined) {
      tagged++;
      out.setAttribute('data-id', globalId(req.frame, id));
      interactive = isInteractive(el);
    }
    out.setAttribute('data-interactive', String(interactive));
    out.setAttribute('data-visible', String(visible));
    if (el === root) out.setAttribute('data-frame-id', String(req.frame));
    const ordinal = ordinals.get(el);
    if (ordinal !== undefined) {
      out.setAttribute('data-frame-id', String(ordinal));
      // The frame's own document is inlined here: the srcdoc would say it twice.
      out.removeAttribute('srcdoc');
      out.replaceChildren(inert.createComment(`${req.nonce}:${ordinal}`));
      frames.push(ordinal);
    }
    return {
      visible,
      keepSpace: scope.keepSpace || KEEPS_SPACE.has(el.tagName),
      noBoxes: scope.noBoxes || el.tagName === 'HEAD' || el.tagName === 'SELECT' || el.tagName === 'DATALIST',
    };
  };

  // Pairs of (original, copy) whose children are still to be walked; the copy's children were
  // imported from the original's, so they stand in the same order.
  const pending: Array<[Node, Node, Scope]> = [];
  const shadowTemplates = new WeakSet<Node>();
  const visit = (el: Element, out: Element, scope: Scope) => {
    const inner = annotate(el, out, scope);
    if (ordinals.has(el)) return;
    if (el.localName === 'svg') { out.replaceChildren(); return; }
    const shadow = shadowRootOf(el);
    if (shadow) {
      const tpl = inert.createElement('template');
      tpl.setAttribute('shadowrootmode', shadow.mode);
      for (const child of Array.from(shadow.childNodes)) tpl.content.appendChild(inert.importNode(child, true));
      pending.push([shadow, tpl.content, inner]);
      out.insertBefore(tpl, out.firstChild);
      shadowTemplates.add(tpl);
    }
    pending.push([el, out, inner]);
  };
  visit(root, copy, { visible: true, keepSpace: false, noBoxes: false });
  while (pending.length) {
    const [from, to, scope] = pending.pop()!;
    const dropText = from instanceof Element && NO_TEXT.has(from.tagName);
    // Sibling pointers, not arrays: NodeLists are slow to copy from an isolated world. The next
    // pair is taken before the current copy may be removed.
    let node = from.firstChild;
    let out = to.firstChild;
    // A shadow root's template was put first in the host's copy: it has no original.
    if (out && shadowTemplates.has(out)) out = out.nextSibling;
    while (node && out) {
      const nextNode: ChildNode | null = node.nextSibling;
      const nextOut: ChildNode | null = out.nextSibling;
      if (node.nodeType === Node.ELEMENT_NODE) {
        const el = node as Element;
        if (DROPPED.has(el.tagName) || (el.tagName === 'LINK' && RESOURCE_LINK.test(el.getAttribute('rel') ?? ''))) to.removeChild(out);
        else visit(el, out as Element, scope);
      } else if (node.nodeType === Node.TEXT_NODE) {
        const data = (node as Text).data;
        const text = scope.keepSpace ? data : data.replace(/\s+/g, ' ');
        if (!scope.keepSpace && dropText && text === ' ') to.removeChild(out);
        // A textarea's copy may hold its current value instead (writeFormState bounded that one).
        else if (text.length > INPUT_BOUNDS.textNode && (out as Text).data === data) (out as Text).data = cutAt(text, INPUT_BOUNDS.textNode);
        else if (text !== data) (out as Text).data = text;
      } else {
        to.removeChild(out);
      }
      node = nextNode;
      out = nextOut;
    }
  }
  return { doc: DOC, html: cutDocument(copy.outerHTML, INPUT_BOUNDS.fullDocument), elements, tagged, frames, timeMs: Math.round((performance.now() - t0) * 10) / 10 };
}

function isInteractive(el: Element): boolean {
  if (isInteractiveByMarkup(el)) return true;
  const parent = composedParent(el);
  const parentCursor = parent instanceof Element ? getComputedStyle(parent).cursor : 'auto';
  return looksClickable(el, getComputedStyle(el).cursor, parentCursor);
}

/** The field's current state on the copy; secrets never. */
function writeFormState(el: Element, out: Element): void {
  switch (el.tagName) {
    case 'INPUT': {
      const input = el as HTMLInputElement;
      if (isSecretField(el)) { out.removeAttribute('value'); return; }
      if (input.type === 'checkbox' || input.type === 'radio') { out.toggleAttribute('checked', input.checked); return; }
      if (input.type === 'file') return;
      if (input.value !== (out.getAttribute('value') ?? '')) out.setAttribute('value', cutAt(input.value, MAX_VALUE));
      return;
    }
    case 'TEXTAREA': {
      if (isSecretField(el)) { out.textContent = ''; return; }
      const value = (el as HTMLTextAreaElement).value;
      if (value !== out.textContent) out.textContent = cutAt(value, MAX_VALUE);
      return;
    }
    case 'OPTION':
      out.toggleAttribute('selected', (el as HTMLOptionElement).selected);
  }
}
