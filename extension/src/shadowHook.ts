// Runs in the page's own world, before the page's scripts (manifest: world MAIN, document_start):
// the one place where a closed shadow root is seen being made. The content script cannot see the
// page's JavaScript, so this only counts the closed roots made, and tells the count when asked by
// an event (events reach both worlds, and run their listeners at once). The content script then
// searches the document for closed roots only when the count moved (content.ts), instead of at
// every read. A page can lie here, or make roots past the hook; it then hides only its own content.
import { CLOSED_ROOTS_ASK, CLOSED_ROOTS_COUNT } from './messages.js';

(() => {
  const attach = Element.prototype.attachShadow;
  if (typeof attach !== 'function') return;
  let made = 0;
  document.addEventListener(CLOSED_ROOTS_ASK, () => document.dispatchEvent(new CustomEvent(CLOSED_ROOTS_COUNT, { detail: made })));
  Element.prototype.attachShadow = function attachShadow(this: Element, init: ShadowRootInit): ShadowRoot {
    const root = attach.call(this, init);
    if (init?.mode === 'closed') made++;
    return root;
  };
})();
