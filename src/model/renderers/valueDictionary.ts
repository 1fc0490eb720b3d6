// The dictionary of templatize (rule 0 of templatize.ts): substrings that attribute values repeat
// — a site's origin and image paths, a query-string tail every product link ends with, the one
// image URL a srcset lists at five widths, the keys of JSON in data-* attributes — are written
// once, one per line of `<template id="d">…</template>`, and in the values as `&N;` (line N).
//
// Why `&N;`: it reads as what it is (an entity the dictionary defines), costs three o200k tokens,
// and cannot be the page's own text, since serialized HTML writes every `&` of a value or a text
// as `&amp;`; a string that holds one anyway gets no dictionary (see writeDictionary).
//
// How the substrings are chosen: a suffix array over every attribute value (each value's parts
// between `|`, so template instances' slots count one by one) lists every substring that recurs;
// only those that start and end where a word or a number does are candidates (so `&N;` never cuts
// a word in two), and they are taken greedily by the tokens they save: uses × (their tokens −
// the reference's) − the tokens of their line, re-counted when an earlier choice took some of
// their occurrences.
import { estimateTokens, TOKEN_PIECE, tokens, type Hole } from './htmlTokens.js';
import { longestCommonPrefixes, suffixArray } from './suffixArray.js';

/** The dictionary's definition starts the output when there is one. */
export const DICTIONARY_START = '<template id="d">';
const DICTIONARY_END = '</template>';
/** A reference to line N of the dictionary. */
const REFERENCE = /&(\d+);/g;
/** Tokens of a reference: "&", the number (one token up to 999), ";". */
const REFERENCE_TOKENS = 3;

/** Letters, digits and every non-ASCII character (never cut inside a word, nor a surrogate pair). */
const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 128 && c < 0x10000);

interface Candidate { lb: number; rb: number; length: number; score: number }

/** A max-heap of candidates by score. */
class Heap {
  private items: Candidate[] = [];
  get size() { return this.items.length; }
  peek(): Candidate | undefined { return this.items[0]; }
  push(c: Candidate) {
    const a = this.items;
    a.push(c);
    for (let i = a.length - 1; i > 0;) {
      const p = (i - 1) >> 1;
      if (a[p].score >= a[i].score) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }
  pop(): Candidate | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      a[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < a.length && a[l].score > a[m].score) m = l;
        if (r < a.length && a[r].score > a[m].score) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}

/** Counts of marked positions in a prefix, with updates (a Fenwick tree). */
class Counts {
  private tree: Int32Array;
  constructor(n: number) { this.tree = new Int32Array(n + 1); }
  add(i: number) { for (let k = i + 1; k < this.tree.length; k += k & -k) this.tree[k]++; }
  /** Marked positions before `i`. */
  before(i: number) { let s = 0; for (let k = i; k > 0; k -= k & -k) s += this.tree[k]; return s; }
}

export interface Repeat {
  text: string;
  /** Start positions in the html, ascending, non-overlapping. */
  at: number[];
}

/**
 * The substrings of the given ranges of `html` worth writing once (see the top), best first, each
 * with the occurrences it replaces. No occurrence overlaps another, nor crosses a range's end, a
 * `|` (instances' slots are read one by one), a template's slot `{{vN}}`, a `<` or a line break
 * (a dictionary line must stay one line and read back whole).
 */
export function chooseRepeats(html: string, ranges: Hole[]): Repeat[] {
  // One sequence of every range's characters; every range ends with a symbol of its own, and the
  // characters no substring may hold are such symbols too, so no repeat crosses them.
  let length = 0;
  for (const r of ranges) length += r.end - r.start + 1;
  const text = new Int32Array(length);
  const origin = new Int32Array(length);
  let unique = 0x10000;
  let n = 0;
  for (const r of ranges) {
    // A template's slot (`{{v2}}`) is read as a whole: never inside a line, never cut.
    const slots = new Uint8Array(r.end - r.start);
    for (const m of html.slice(r.start, r.end).matchAll(/\{\{v\d*\}\}/g)) slots.fill(1, m.index, m.index + m[0].length);
    for (let i = r.start; i < r.end; i++) {
      const c = html.charCodeAt(i);
      text[n] = c === 124 || c === 60 || c === 10 || c === 13 || slots[i - r.start] ? unique++ : c;
      origin[n++] = i;
    }
    text[n] = unique++;
    origin[n++] = -1;
  }
  if (n < 8) return [];
  const barrier = (c: number) => c >= 0x10000;
  const word = (q: number) => q < n && isWord(text[q]);
  // Where a word, a number or a barrier begins or ends: candidates start and end only there.
  const edge = (q: number) => q === 0 || q >= n || barrier(text[q - 1]) || barrier(text[q]) || !word(q - 1) || !word(q);
  // The estimated tokens before each position (estimateTokens's pieces, per range).
  const tokensBefore = new Int32Array(n + 1);
  {
    const starts = new Uint8Array(n);
    let q = 0;
    for (const r of ranges) {
      const piece = new RegExp(TOKEN_PIECE, 'g');
      const value = html.slice(r.start, r.end);
      for (let m = piece.exec(value); m; m = piece.exec(value)) starts[q + m.index] = 1;
      q += r.end - r.start + 1;
    }
    for (let i = 0; i < n; i++) tokensBefore[i + 1] = tokensBefore[i] + starts[i];
  }
  const tokensIn = (q: number, len: number) => tokensBefore[q + len] - tokensBefore[q];
  // The last place at or before `e` (and after `q`) where a candidate starting at `q` may end.
  const lastEdge = new Int32Array(n + 1);
  for (let e = 0; e <= n; e++) lastEdge[e] = edge(e) ? e : lastEdge[e - 1];

  const sa = suffixArray(text.subarray(0, n));
  const lcp = longestCommonPrefixes(text.subarray(0, n), sa);
  // Only the suffixes that start at an edge, in order, with the prefix each shares with the one before.
  const starts: number[] = [];
  const shared: number[] = [];
  let run = 0;
  for (let i = 0; i < n; i++) {
    run = starts.length ? Math.min(run, lcp[i]) : 0;
    const q = sa[i];
    if (barrier(text[q]) || !edge(q)) continue;
    shared.push(run);
    starts.push(q);
    run = Number.MAX_SAFE_INTEGER;
  }
  const m = starts.length;
  const heap = new Heap();
  const score = (count: number, tok: number) => count * (tok - REFERENCE_TOKENS) - (tok + 1);
  // Every group of suffixes sharing a prefix (an LCP interval): its prefix, cut back to an edge.
  const stack: Array<{ lcp: number; lb: number }> = [{ lcp: 0, lb: 0 }];
  for (let i = 1; i <= m; i++) {
    const here = i < m ? shared[i] : 0;
    let lb = i - 1;
    while (here < stack[stack.length - 1].lcp) {
      const top = stack.pop()!;
      const rb = i - 1;
      const q = starts[top.lb];
      const len = lastEdge[q + top.lcp] - q;
      if (len > 0) {
        const s = score(rb - top.lb + 1, tokensIn(q, len));
        if (s > 0) heap.push({ lb: top.lb, rb, length: len, score: s });
      }
      lb = top.lb;
    }
    if (here > stack[stack.length - 1].lcp) stack.push({ lcp: here, lb });
  }

  // Greedy by tokens saved, each candidate re-counted over the occurrences still free.
  const taken = new Uint8Array(n);
  const takenStarts = new Counts(n);
  const chosen: Repeat[] = [];
  const seen = new Set<string>();
  while (heap.size) {
    const c = heap.pop()!;
    const first = starts[c.lb];
    const value = html.slice(origin[first], origin[first] + c.length);
    if (seen.has(value)) continue;
    const at: number[] = [];
    const positions = starts.slice(c.lb, c.rb + 1).sort((a, b) => a - b);
    let free = -1;
    for (const q of positions) {
      const e = q + c.length;
      // The end must be an edge in this occurrence too (the next character may differ), and free.
      if (q < free || !edge(e) || taken[q] || takenStarts.before(e) - takenStarts.before(q) > 0) continue;
      at.push(q);
      free = e;
    }
    const tok = estimateTokens(value);
    const actual = score(at.length, tok);
    if (actual <= 0) continue;
    if (actual < c.score && heap.size && heap.peek()!.score > actual) { heap.push({ ...c, score: actual }); continue; }
    seen.add(value);
    for (const q of at) {
      takenStarts.add(q);
      taken.fill(1, q, q + c.length);
    }
    chosen.push({ text: value, at: at.map((q) => origin[q]) });
  }
  return chosen;
}

/**
 * Rule 0 written: the dictionary of the attribute values' repeated substrings, and the html with
 * each occurrence replaced by its reference. Nothing changes when the html already holds
 * something that reads as a reference, or when nothing is worth a line; when the html itself
 * starts like a dictionary, an empty one is written first so that it is not read as one.
 */
export function writeDictionary(html: string): string {
  const guard = html.startsWith(DICTIONARY_START) ? `${DICTIONARY_START}${DICTIONARY_END}` : '';
  if (new RegExp(REFERENCE.source).test(html)) return guard + html;
  const ranges: Hole[] = [];
  for (const t of tokens(html)) if (t.type === 'open') ranges.push(...t.values.filter((v) => v.end > v.start));
  const repeats = chooseRepeats(html, ranges);
  if (!repeats.length) return guard + html;
  const edits = repeats.flatMap((r, i) => r.at.map((start) => ({ start, end: start + r.text.length, text: `&${i + 1};` }))).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of edits) { out += html.slice(at, e.start) + e.text; at = e.end; }
  return `${DICTIONARY_START}${repeats.map((r) => r.text).join('\n')}${DICTIONARY_END}${out}${html.slice(at)}`;
}

/** Rule 0 undone: without a dictionary at the start, the html as it is. */
export function readDictionary(html: string): string {
  if (!html.startsWith(DICTIONARY_START)) return html;
  // Its lines hold no "<" (see chooseRepeats): the first end tag closes it.
  const end = html.indexOf(DICTIONARY_END, DICTIONARY_START.length);
  if (end < 0) return html;
  const body = html.slice(DICTIONARY_START.length, end);
  const rest = html.slice(end + DICTIONARY_END.length);
  if (!body) return rest;
  const lines = body.split('\n');
  return rest.replace(REFERENCE, (whole, k: string) => lines[Number(k) - 1] ?? whole);
}
