// The elements a CSS selector matches, by ID (issue 12: element context by selector), stepping
// into shadow roots by their hosts' selectors; `:has-text("…")` as Playwright reads it.
import type { SelectorMatch } from '../../model/contracts/engineAnswers.js';
import { DOC } from '../identity/document.js';
import { shadowRootOf } from '../identity/shadow.js';
import { flushStamps, idFor, stamp } from '../identity/tagger.js';
import { type Root, withText } from './selectorHints.js';

const HAS_TEXT = /^(.*):has-text\(("(?:[^"\\]|\\.)*")\)$/;

/**
 * The elements a selector matches (the first two, by ID, and how many): `hosts` are selectors of
 * shadow hosts to step into first, each in the root before it. A `:has-text("…")` ending is
 * matched as Playwright matches it.
 */
export function findSelector(selector: string, hosts: string[] = []): SelectorMatch {
  let root: Root = document;
  for (const host of hosts) {
    let found: NodeListOf<Element>;
    try {
      found = root.querySelectorAll(host);
    } catch {
      return { ok: false, reason: `"${host}" is not a valid CSS selector` };
    }
    if (found.length !== 1) return { ok: false, reason: `the shadow host "${host}" matches ${found.length} elements` };
    const next = shadowRootOf(found[0]);
    if (!next) return { ok: false, reason: `"${host}" has no shadow root` };
    root = next;
  }
  let matches: Element[];
  const m = HAS_TEXT.exec(selector.trim());
  try {
    if (m) {
      let text: string;
      try {
        text = JSON.parse(m[2]) as string;
      } catch {
        return { ok: false, reason: `the text in "${selector}" is not a quoted string` };
      }
      root.querySelector(m[1] || '*');
      matches = withText(root, m[1] || '*', text);
    } else {
      matches = Array.from(root.querySelectorAll(selector));
    }
  } catch {
    return { ok: false, reason: `"${selector}" is not a valid CSS selector` };
  }
  const ids = matches.slice(0, 2).map((e) => idFor(e) ?? stamp(e));
  flushStamps();
  return { ok: true, doc: DOC, ids, count: matches.length };
}
