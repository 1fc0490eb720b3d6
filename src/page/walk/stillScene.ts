// Whether the page can look different from the last read although nothing changed that the
// change tracking (changes.ts) or the kept boxes (liveWalk.ts) show. What an element covers is
// decided by the whole rendered page, not by the element alone: it can be taken from the last
// read only when the page as a whole provably looks the same (issue 21: occlusion only when
// something that could cover or uncover changed).
//
// Besides mutations, state events, style sheets and the kept boxes, the page moves when it
// scrolls or when anything animates (CSS animations and transitions, or script-driven Web
// Animations, whose time a script can set with no mutation): any animation at all, running,
// paused or holding its end state, makes the page count as moving.

let lastView = '';
/** Whether anything was animating at the previous stored read: the answers it made saw a moving page. */
let lastMoving = true;

/**
 * Called once per stored read: true when `wanted` (the caller can use the answer: nothing changed,
 * changes.ts `still`, or only text it can account for, `edits`), no kept box or clip moved
 * (`moved`), and neither the page's scroll nor any animation can have moved anything since the
 * previous stored read (nor was anything animating at that read).
 */
export function sceneQuiet(doc: Document, moved: boolean, wanted: boolean): boolean {
  const view = `${window.scrollX},${window.scrollY},${window.innerWidth},${window.innerHeight},${window.devicePixelRatio}`;
  const sameView = view === lastView;
  lastView = view;
  const wasMoving = lastMoving;
  // Asked at every stored read: an animation that ended (or was cancelled) since the last read moved what that read saw.
  lastMoving = doc.getAnimations().length > 0;
  return wanted && !moved && sameView && !lastMoving && !wasMoving;
}
