// Elements that listen for a gesture other than a click (double click, right click, hover, drag
// and drop) through addEventListener: the host finds them over CDP (DOMDebugger, which sees every
// world's listeners without touching the page) and marks them here, so the walk lists them as it
// lists an element with an ondblclick attribute. Marks live as long as their element.
const marked = new WeakSet<Element>();

/** Marks these elements (the page's root elements excepted: a listener there is delegation, not a target). */
export function markGestures(els: unknown[]): number {
  let n = 0;
  for (const el of els) {
    if (!(el instanceof Element) || el === document.documentElement || el === document.body) continue;
    if (!marked.has(el)) n++;
    marked.add(el);
  }
  return n;
}

export function hasGestureListener(el: Element): boolean {
  return marked.has(el);
}
