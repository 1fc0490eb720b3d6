// This document's identity: one random token per engine instance, and the engine is installed
// once per document (in an isolated world the page cannot reach). IDs are numbered per document,
// so the Node side pairs every ID with this token and refuses it in any other document.
import { DOC_ATTR } from '../../model/pagemodel/page.js';

export { DOC_ATTR };

function randomToken(): string {
  // getRandomValues works in every context (randomUUID only in secure ones).
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const DOC = randomToken();

/**
 * Writes the token on <html>, for selector engines outside pagelens (a Playwright locator scoped
 * to this document matches nothing once the frame shows another one).
 */
export function markDocument(): string {
  const root = document.documentElement;
  if (root && root.getAttribute(DOC_ATTR) !== DOC) root.setAttribute(DOC_ATTR, DOC);
  return DOC;
}
