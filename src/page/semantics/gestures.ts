// Elements that listen for a gesture other than a click (double click, right click, hover, drag
// and drop) through addEventListener: the host finds them over CDP (DOMDebugger, which sees every
// world's listeners without touching the page) and marks them here, so the walk lists them as it
// lists an element with an ondblclick attribute. Marks live as long as their element.
import { shadowRootOf } from '../identity/shadow.js';
import { noteChange } from '../changes/changes.js';
import { domActivity } from '../changes/mutationLog.js';
import { hoverRuleTargets } from './hoverRules.js';

const marked = new WeakSet<Element>();
/** Marked elements that take a drop: a target even when it holds controls (a list items are dragged into). */
const dropZones = new WeakSet<Element>();
/** Marked elements that react to the pointer over them (a listener, or a :hover rule: hoverRules.ts). */
const hovers = new WeakSet<Element>();

const FRAMES = 'iframe,frame,object,embed';
/** The document's mutation count at the last search for listeners (-1: never searched). */
let searchedAt = -1;

/** The host's search of this document failed: the next one searches whatever changed. */
export function gestureSearchFailed(): void {
  searchedAt = -1;
}

/**
 * The largest subtrees the host may ask Chromium for listeners with `pierce` (which descends into
 * shadow roots and frames): none that holds a frame or a shadow host. Entering a closed shadow
 * root that way left Chromium 156's page unable to answer any command after a later navigation
 * back (15 s CDP timeouts); frames have their own pass. Shadow trees (open, and closed ones the
 * engine was handed) are entered here instead, one level at a time, so that the listeners of a
 * component's insides (a to-do's double-click to edit) are found without CDP crossing a shadow
 * boundary. The elements on the way down (html, body, wrappers, the shadow hosts themselves) are
 * left out: a known gap, said in src/browser/gestures.ts.
 */
export function gestureRoots(onlyIfChanged = false): Element[] {
  // Listeners come with the elements they sit on (a to-do rendered after the first read brings its
  // label's double click): a document that has not changed since its last search has nothing new
  // to find, so every read may ask and only a changed document costs a search.
  const count = domActivity().count;
  if (onlyIfChanged && count === searchedAt) return [];
  searchedAt = count;
  // What a :hover rule restyles is found here, in the page, with the same rhythm as the listeners.
  markGestures(hoverRuleTargets(document), 'hover');
  const out: Element[] = [];
  const holdsBlocked = (el: Element): boolean => {
    if (shadowRootOf(el) || el.querySelector(FRAMES)) return true;
    for (const d of el.querySelectorAll('*')) if (shadowRootOf(d)) return true;
    return false;
  };
  const visit = (el: Element): void => {
    if (el.matches(FRAMES)) return;
    if (!holdsBlocked(el)) { out.push(el); return; }
    for (const c of Array.from(el.children)) visit(c);
    const shadow = shadowRootOf(el);
    if (shadow) for (const c of Array.from(shadow.children)) visit(c);
  };
  const root = document.documentElement;
  if (root) visit(root);
  return out;
}

/** What a marked element listens for beyond a double click or a right click: a drop, or the pointer over it. */
export type GestureKind = 'drop' | 'hover' | 'other';

/**
 * Marks these elements (the page's root elements excepted: a listener there is delegation, not a
 * target). `kinds`: what each listens for, one letter per element (d: a drop, h: the pointer over
 * it, anything else: another gesture), or one kind for all.
 */
export function markGestures(els: unknown[], kinds: string | boolean = ''): number {
  let n = 0;
  els.forEach((el, i) => {
    if (!(el instanceof Element) || el === document.documentElement || el === document.body) return;
    const kind = kinds === true || kinds === 'drop' ? 'd' : kinds === 'hover' ? 'h' : typeof kinds === 'string' ? kinds[i] : '';
    if (kind === 'd') dropZones.add(el);
    if (kind === 'h' && !hovers.has(el)) { hovers.add(el); noteChange(el); }
    if (marked.has(el)) return;
    n++;
    marked.add(el);
    // No mutation shows a listener: a read that kept this element's look must look again.
    noteChange(el);
  });
  return n;
}

/** Whether the element reacts to the pointer over it (a listener or a :hover rule found for it). */
export function reactsToHover(el: Element): boolean {
  return hovers.has(el);
}

export function hasGestureListener(el: Element): boolean {
  return marked.has(el);
}

export function takesDrops(el: Element): boolean {
  return dropZones.has(el);
}
