// Resolving the paths of the accessibility-tree path's XPath map: `/html[1]/body[1]/div[2]`,
// with `#shadow-root` stepping into an element's (open or adopted closed) shadow root.
import { shadowRootOf } from '../identity/shadow.js';

export function resolvePath(path: string): Element | null {
  let current: ParentNode | null = document;
  let last: Element | null = null;
  for (const step of path.split('/').filter(Boolean)) {
    if (!current) return null;
    if (step === '#shadow-root') {
      current = last ? shadowRootOf(last) : null;
      continue;
    }
    const m = /^([a-z0-9:_-]+)\[(\d+)\]$/i.exec(step);
    if (!m) return null;
    const tag = m[1].toLowerCase();
    let n = Number(m[2]);
    let found: Element | null = null;
    for (let c: Element | null = current.firstElementChild; c; c = c.nextElementSibling) {
      if (c.localName === tag && --n === 0) { found = c; break; }
    }
    if (!found) return null;
    last = found;
    current = found;
  }
  return last;
}
