// Token ceilings on answers (o200k, what the client's model counts): lines kept while they fit,
// and answers cut into pages that say which page this is and how to ask for the next. A client's
// context is the scarcest thing it has; an answer never takes more of it than it was allowed.
import { loadTokenizer } from '../model/renderers/tokens.js';

export interface Fitted<T> {
  kept: T[];
  /** How many were left out. */
  left: number;
}

/**
 * The first items whose rendering fits in `maxTokens` together (one token per line break
 * counted). Stops at the first that does not fit, so what is kept is a prefix: "N more" is exact.
 */
export async function fitLines<T>(items: readonly T[], render: (item: T) => string, maxTokens: number): Promise<Fitted<T>> {
  const count = await loadTokenizer();
  const kept: T[] = [];
  let used = 0;
  for (const item of items) {
    const cost = count(render(item)) + 1;
    if (used + cost > maxTokens) break;
    used += cost;
    kept.push(item);
  }
  return { kept, left: items.length - kept.length };
}

export interface AnswerPage {
  text: string;
  page: number;
  pages: number;
}

/**
 * Splits a text into pages of at most `maxTokens` each, cut at a line break where one is close
 * enough (else anywhere: a one-line JSON answer), and returns page `page` (1-based). A text
 * that fits is one page, returned as it is.
 */
const utf8 = new TextEncoder();

export async function pageOfText(text: string, maxTokens: number, page: number): Promise<AnswerPage> {
  // A token is at least one UTF-8 byte: a text with fewer bytes than the ceiling fits. (TextEncoder,
  // not Buffer: the registry runs in the extension's service worker too.)
  if (utf8.encode(text).length <= maxTokens && page === 1) return { text, page: 1, pages: 1 };
  const count = await loadTokenizer();
  if (page === 1 && count(text) <= maxTokens) return { text, page: 1, pages: 1 };
  const pages: string[] = [];
  let rest = text;
  while (rest.length) {
    const cut = fittingPrefix(rest, maxTokens, count);
    pages.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  const n = Math.min(Math.max(1, page), pages.length);
  return { text: pages[n - 1], page: n, pages: pages.length };
}

/** The longest prefix (in chars) within maxTokens, ending at a line break when one is in its last quarter. */
function fittingPrefix(text: string, maxTokens: number, count: (t: string) => number): number {
  if (count(text) <= maxTokens) return text.length;
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(text.slice(0, mid)) <= maxTokens) lo = mid; else hi = mid - 1;
  }
  const nl = text.lastIndexOf('\n', lo);
  return nl > lo * 0.75 ? nl + 1 : lo;
}
