// What a press actually hit. The host hit-tests an element before it presses and again once the
// pointer is there, but a page can slide something over it in the milliseconds between that check
// and the press (a cross-origin "Authorize" frame moved in 2-5 ms after pointermove). So the
// element's frame watches the press itself: the first pointerdown/mousedown its window sees, from
// our isolated world (the page can neither see this listener nor fake its answer), says where the
// press went; a press into another frame never reaches this window at all.
import { coverText, describeCover, reaches } from './actions.js';
import { composedContains, shadowRootOf } from './shadow.js';

interface Watch { target: Element | null; stop(): void }

const watches = new WeakMap<Element, Watch>();

/** Starts watching the next press in the element's window (one at a time per element). */
export function watchPress(el: Element): { ok: boolean; reason?: string } {
  watches.get(el)?.stop();
  const win = el.ownerDocument.defaultView;
  if (!win) return { ok: false, reason: 'its document has no window' };
  const watch: Watch = { target: null, stop: () => {} };
  const seen = (e: Event) => {
    if (watch.target) return;
    const first = e.composedPath()[0];
    watch.target = first instanceof Element ? first : e.target instanceof Element ? e.target : null;
  };
  const opts = { capture: true, passive: true } as const;
  win.addEventListener('pointerdown', seen, opts);
  win.addEventListener('mousedown', seen, opts);
  watch.stop = () => { win.removeEventListener('pointerdown', seen, opts); win.removeEventListener('mousedown', seen, opts); };
  watches.set(el, watch);
  return { ok: true };
}

/**
 * Where the watched press went: `landed` when it hit the element, a part of it, its label, or the
 * host of the closed shadow tree it is in (all that a window listener is shown of such a tree).
 */
export function pressLanded(el: Element): { watched: boolean; landed: boolean; on?: string } {
  const watch = watches.get(el);
  watches.delete(el);
  if (!watch) return { watched: false, landed: false };
  watch.stop();
  const hit = watch.target;
  if (!hit) return { watched: true, landed: false };
  const hostOfEl = !!shadowRootOf(hit) && composedContains(hit, el);
  if (hit === el || reaches(hit, el) || hostOfEl) return { watched: true, landed: true };
  return { watched: true, landed: false, on: coverText(describeCover(hit, el)) };
}
