// What a press actually hit. The host hit-tests an element before it presses and again once the
// pointer is there, but a page can slide something over it in the milliseconds between that check
// and the press (a cross-origin "Authorize" frame moved in 2-5 ms after pointermove). So the
// element's frame watches the press itself: the first pointerdown/mousedown its window sees, from
// our isolated world (the page can neither see this listener nor fake its answer), says where the
// press went; a press into another frame never reaches this window at all.
import { coverText, describeCover, reaches } from './actions.js';
import { composedContains, shadowRootOf } from '../identity/shadow.js';

interface Watch { target: Element | null; release: Element | null; stop(): void }

const watches = new WeakMap<Element, Watch>();

/** Starts watching the next press in the element's window (one at a time per element). */
export function watchPress(el: Element): { ok: boolean; reason?: string } {
  watches.get(el)?.stop();
  const win = el.ownerDocument.defaultView;
  if (!win) return { ok: false, reason: 'its document has no window' };
  const watch: Watch = { target: null, release: null, stop: () => {} };
  const hitOf = (e: Event): Element | null => {
    const first = e.composedPath()[0];
    return first instanceof Element ? first : e.target instanceof Element ? e.target : null;
  };
  const down = (e: Event) => { if (!watch.target) watch.target = hitOf(e); };
  // A click needs the release where the press was: a cover slid in between the two takes it.
  const up = (e: Event) => { if (watch.target) watch.release = hitOf(e); };
  const opts = { capture: true, passive: true } as const;
  const events: Array<[string, (e: Event) => void]> = [['pointerdown', down], ['mousedown', down], ['pointerup', up], ['mouseup', up]];
  for (const [type, fn] of events) win.addEventListener(type, fn, opts);
  watch.stop = () => { for (const [type, fn] of events) win.removeEventListener(type, fn, opts); };
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
  if (!onElement(hit, el)) return { watched: true, landed: false, on: coverText(describeCover(hit, el)) };
  // An element the page took away on the press (a menu that closes) has had its press.
  if (!el.isConnected) return { watched: true, landed: true };
  const release = watch.release;
  if (!release) return { watched: true, landed: false, on: 'something the page moved over it before the button was released (the release never reached its page)' };
  if (!onElement(release, el)) return { watched: true, landed: false, on: `${coverText(describeCover(release, el))} (where the button was released)` };
  return { watched: true, landed: true };
}

/** Whether a hit is the element, a part of it, its label, or the host of the closed shadow tree it is in (all a window listener is shown of such a tree). */
function onElement(hit: Element, el: Element): boolean {
  return hit === el || reaches(hit, el) || (!!shadowRootOf(hit) && composedContains(hit, el));
}
