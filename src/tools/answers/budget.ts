// Token ceilings on answers (o200k, what the client's model counts): lines kept while they fit,
// and answers cut into pages that say which page this is and how to ask for the next. A client's
// context is the scarcest thing it has; an answer never takes more of it than it was allowed.
import { hasLongRun, loadTokenizer } from '../../model/renderers/tokens.js';

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

const utf8 = new TextEncoder();

/** Characters of one counted piece of a long line (BPE's cost grows with the square of a word). */
const PIECE_CHARS = 256;
/** A page ends at its last line break when that leaves it at least this share of its length. */
const LINE_BREAK_SHARE = 0.75;

/**
 * Splits a text into pages of at most `maxTokens` each, cut at a line break where one is close
 * enough (else anywhere: a one-line JSON answer), and returns page `page` (1-based). A text
 * that fits is one page, returned as it is.
 *
 * In time linear in the text: it is cut into pieces (its lines, long lines every PIECE_CHARS), each
 * piece is counted once, and a page takes pieces while their counts fit. Searching each page's
 * longest prefix instead counted the rest of the text some twenty times per page: a 4 MB answer
 * held the event loop past every deadline.
 */
export async function pageOfText(text: string, maxTokens: number, page: number): Promise<AnswerPage> {
  // A token is at least one UTF-8 byte: a text with fewer bytes than the ceiling fits. (TextEncoder,
  // not Buffer: the registry runs in the extension's service worker too.)
  if (utf8.encode(text).length <= maxTokens && page === 1) return { text, page: 1, pages: 1 };
  const count = await loadTokenizer();
  if (page === 1 && count(text) <= maxTokens) return { text, page: 1, pages: 1 };
  // browser_more reads the pages of the answer cut last, one call each: they are cut once.
  if (lastCut?.text !== text || lastCut.maxTokens !== maxTokens) lastCut = { text, maxTokens, bounds: pagesOf(text, maxTokens, count) };
  const { bounds } = lastCut;
  const n = Math.min(Math.max(1, page), bounds.length);
  const [start, end] = bounds[n - 1];
  return { text: text.slice(start, end), page: n, pages: bounds.length };
}

let lastCut: { text: string; maxTokens: number; bounds: Array<[number, number]> } | undefined;

/** [start, end) of each page. */
function pagesOf(text: string, maxTokens: number, count: (t: string) => number): Array<[number, number]> {
  const ends = pieceEnds(text);
  const pages: Array<[number, number]> = [];
  let start = 0;
  // The first piece that ends after `start` (it may have begun before: a page cut inside it).
  let i = 0;
  while (start < text.length) {
    // Whole pieces while their counts fit: pieces i … j-1.
    let used = 0;
    let j = i;
    while (j < ends.length) {
      const cost = count(text.slice(j === i ? start : ends[j - 1], ends[j]));
      if (used + cost > maxTokens) break;
      used += cost;
      j++;
    }
    let end = j > i ? ends[j - 1] : start;
    if (j < ends.length && end > start) {
      // Cut short: at the last line break when it is close enough to the end (a piece ends there).
      const nl = text.lastIndexOf('\n', end - 1);
      if (nl >= start && nl + 1 - start >= LINE_BREAK_SHARE * (end - start)) end = nl + 1;
    }
    // Counts of pieces need not add up to the count of their text (BPE merges across a cut): the
    // page is checked whole, and gives up its last piece while it does not fit. Not where the
    // count of the whole is an estimate anyway (a run of letters without a space, counted in
    // chunks), and costs a BPE merge per 1,000 letters: 1 MB of CJK text took seconds more.
    for (let k = j - 1; end > start && !hasLongRun(text.slice(start, end)) && count(text.slice(start, end)) > maxTokens;) {
      while (k >= i && ends[k] >= end) k--;
      end = k >= i ? ends[k] : start;
    }
    // Not even the first piece fits (a small ceiling): as much of it as does.
    if (end === start) end = fittingPrefix(text, start, ends[i], maxTokens, count);
    pages.push([start, end]);
    start = end;
    while (i < ends.length && ends[i] <= start) i++;
  }
  return pages;
}

/** Where each piece ends: after each line break, and every PIECE_CHARS in between (not inside a surrogate pair). */
function pieceEnds(text: string): number[] {
  const ends: number[] = [];
  let from = 0;
  let lineEnd = 0;
  while (from < text.length) {
    // Each line break is looked for once, not once per piece of its line.
    if (lineEnd <= from) { const nl = text.indexOf('\n', from); lineEnd = nl < 0 ? text.length : nl + 1; }
    let end = Math.min(lineEnd, from + PIECE_CHARS);
    if (end < lineEnd && /[\uDC00-\uDFFF]/.test(text[end])) end++;
    ends.push(end);
    from = end;
  }
  return ends;
}

/** The longest prefix of text[start, limit) within maxTokens (at least one character), by binary search: limit is one piece away. */
function fittingPrefix(text: string, start: number, limit: number, maxTokens: number, count: (t: string) => number): number {
  let lo = start + 1;
  let hi = limit;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(text.slice(start, mid)) <= maxTokens) lo = mid; else hi = mid - 1;
  }
  return /[\uDC00-\uDFFF]/.test(text[lo] ?? '') && lo + 1 <= limit ? lo + 1 : lo;
}
