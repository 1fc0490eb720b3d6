// Real o200k token counts (the GPT-4o / GPT-5 vocabulary). The tokenizer's tables take about a
// second to load, so they are loaded once, on first use.
//
// Bounded work: BPE merges one pre-tokenizer piece (a word, a run of punctuation or of spaces) in
// time that grows with the square of its length, so one 100,000-letter word held the event loop
// for 105 s. Runs longer than EXACT_RUN_LIMIT characters are counted in chunks of that length:
// the count is then an estimate (off by at most a token or so per chunk), and says so. Even so, a
// chunk of 1,000 letters costs a BPE merge of 1,000 letters (2 MB of CJK text without a space
// took 15 s): past LONG_RUN_BUDGET characters of such chunks in one count, the rest of a run is
// taken at the rate of its chunks counted so far, or, for a run met past the budget, each chunk
// at the rate of its first RUN_SAMPLE characters (some hundred times cheaper).
//
// The tokenizer's merge cache: gpt-tokenizer keeps the pieces it merged in an LRU Map of 100,000
// entries that lives as long as the process. Once a long session (the bench's corpus part, an
// agent's many pages) has filled it, every piece it merges evicts the oldest entry, and the Map,
// full of the holes its LRU moves leave, gets slower with every count: the same 490k-token answer
// took 3.8 s instead of 0.12 s. So the cache is kept small (a page's repeated pieces still hit)
// and emptied before each count, which then costs the same whatever was counted before.
type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

/** Merge-cache entries: enough for one answer's repeated pieces, few enough that evicting stays cheap. */
const MERGE_CACHE_SIZE = 4096;

type Tokenizer = typeof import('gpt-tokenizer/encoding/o200k_base');
/** The tokenizer, and its own pre-tokenizer pattern (a copy: exec moves a pattern's lastIndex). */
interface Loaded { m: Tokenizer; split: RegExp }
let tokenizer: Promise<Loaded> | undefined;

/** The o200k tokenizer, loaded once (about a second: start it early, see preloadTokenizer). */
function o200k(): Promise<Loaded> {
  tokenizer ??= Promise.all([import('gpt-tokenizer/encoding/o200k_base'), import('gpt-tokenizer/encodingParams/constants')]).then(([m, c]) => {
    m.setMergeCacheSize(MERGE_CACHE_SIZE);
    return { m, split: new RegExp(c.O200K_TOKEN_SPLIT_REGEX.source, c.O200K_TOKEN_SPLIT_REGEX.flags) };
  });
  return tokenizer;
}

/**
 * Page text is counted as text: a page that writes `<|endoftext|>` gets it counted as the
 * characters it is, where the library's default throws on a special token (and every answer
 * carrying that text would fail).
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** How a text is counted: the tokenizer's count of a text, and the pattern that cuts it into pre-tokens. */
interface Words { count: (text: string) => number; split: RegExp }

/** One exact count, independent of what was counted before (see the merge cache above). */
function countFresh({ m, split }: Loaded): Counter {
  const words: Words = { count: (text) => m.countTokens(text, AS_TEXT), split };
  return (text) => {
    m.clearMergeCache();
    return countByPieces(words, text);
  };
}

// Counts of earlier answers' pieces. A warm read of a big page answers with the same entries as
// the last one (a 20k-element page: 20k JSON objects), and counting them again was a third of the
// Node side's time. The text is cut where the tokenizer's pre-tokenizer must cut too, so the
// pieces' counts add up to the text's, exactly; a piece counted before is looked up, not counted.
//
// Where it cuts: before an ASCII letter that follows `{"` (where a JSON object's first key
// starts; never inside a JSON string, whose `"` is escaped). Why that is a cut of o200k's split
// pattern (encodingParams/constants.js): a piece holding the `"` can only be a run of
// punctuation ` ?[^\s\p{L}\p{N}]+[\r\n/]*`, since a letter piece takes at most one non-letter
// before its letters and the `{` before the `"` is no letter either. That run swallowed the `{`
// too, and it stops at the letter, whatever follows: so both sides split the same alone as
// together, and no special token (`<|...|>`) can straddle the cut.
const pieceCounts = new Map<string, number>();
/** Beyond this many remembered pieces the memory is emptied (never trimmed piece by piece: a Map full of holes is what made counts slow). */
const MAX_PIECES = 150_000;
/** Longer pieces are counted, never remembered: they are not an answer's entries. */
const MAX_PIECE = 2000;

function countByPieces(words: Words, text: string): number {
  let tokens = 0;
  let from = 0;
  // Pieces not remembered, in a row: where the first begins and where each ends.
  let missedFrom = 0;
  let missed: number[] = [];
  const piece = (end: number) => {
    const known = end - from > MAX_PIECE ? undefined : pieceCounts.get(text.slice(from, end));
    if (known === undefined) {
      if (!missed.length) missedFrom = from;
      missed.push(end);
    } else {
      if (missed.length) { tokens += countPieces(words, text, missedFrom, missed); missed = []; }
      tokens += known;
    }
    from = end;
  };
  for (let at = text.indexOf('{"'); at >= 0; at = text.indexOf('{"', at + 2)) {
    const cut = at + 2;
    if (isAsciiLetter(text.charCodeAt(cut))) piece(cut);
  }
  if (from === 0) return words.count(text);
  piece(text.length);
  if (missed.length) tokens += countPieces(words, text, missedFrom, missed);
  return tokens;
}

// The tokenizer counts a text as the sum of what it counts for each of the pre-tokens its split
// pattern cuts the text into. A first read of a big page remembers thousands of new pieces;
// counting each alone costs the library's set-up per call (twice the time of one call over the
// whole text), so the pieces in a row are cut into pre-tokens in one pass instead.
// Counts of pre-tokens ("Save", " 12", '":"'): an answer repeats a few thousand of them.
const wordCounts = new Map<string, number>();
const MAX_WORDS = 50_000;

/**
 * The pieces text[start, ends[0]), [ends[0], ends[1]), … counted and remembered. Every piece
 * ends where a pre-token does (see the cut above), so each pre-token belongs to the piece it
 * starts in, and a piece's count is the sum of its pre-tokens' counts.
 */
function countPieces({ count, split }: Words, text: string, start: number, ends: number[]): number {
  const run = text.slice(start, ends[ends.length - 1]);
  let total = 0;
  let sum = 0;
  let pieceStart = start;
  let i = 0;
  const close = () => {
    const end = ends[i++];
    if (end - pieceStart <= MAX_PIECE) remember(pieceCounts, MAX_PIECES, text.slice(pieceStart, end), sum);
    total += sum;
    sum = 0;
    pieceStart = end;
  };
  split.lastIndex = 0;
  for (let m = split.exec(run); m; m = split.exec(run)) {
    while (start + m.index >= ends[i]) close();
    const word = m[0];
    let n = wordCounts.get(word);
    if (n === undefined) { n = count(word); remember(wordCounts, MAX_WORDS, word, n); }
    sum += n;
  }
  while (i < ends.length) close();
  return total;
}

/** Keeps a count under its own copy of the text; past `max` entries the memory is emptied (see MAX_PIECES). */
function remember(memory: Map<string, number>, max: number, text: string, n: number): void {
  if (memory.size >= max) memory.clear();
  memory.set(ownCopy(text), n);
}

/**
 * The piece as a string of its own: a slice shares its parent's characters (V8 keeps the whole
 * answer alive for one remembered piece of it); joining forces a flat copy, which the slice then shares.
 */
function ownCopy(piece: string): string {
  return (piece + ' ').slice(0, -1);
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * Starts loading the tokenizer without waiting for it: a caller that will count an answer once
 * the page has been read lets the loading run while the page works.
 */
export function preloadTokenizer(): void {
  void o200k().catch(() => {});
}

/** Runs of one character class (spaces, or anything else) up to this length are counted exactly. */
export const EXACT_RUN_LIMIT = 1000;
/** Characters of longer runs' chunks counted whole in one count; the chunks past them are sampled. */
export const LONG_RUN_BUDGET = 50_000;
/** The part of a chunk of a run met past the budget that is counted: the chunk is taken at its rate. */
export const RUN_SAMPLE = 100;

export interface TokenCount {
  tokens: number;
  /** Some run was longer than EXACT_RUN_LIMIT and was counted in chunks: `tokens` is an estimate. */
  estimated: boolean;
}

export function loadTokenizer(): Promise<Counter> {
  counter ??= o200k().then((loaded) => { const count = countFresh(loaded); return (text: string) => boundedCount(count, text).tokens; });
  return counter;
}

export async function countTokens(text: string): Promise<number> {
  return (await loadTokenizer())(text);
}

/** The count, and whether it is an estimate (a run too long to count exactly in bounded time). */
export async function countTokensDetailed(text: string): Promise<TokenCount> {
  return boundedCount(countFresh(await o200k()), text);
}

/**
 * `count` over `text` with every run (of whitespace, or of anything else) longer than
 * EXACT_RUN_LIMIT cut into chunks counted one by one (past LONG_RUN_BUDGET characters of them, each
 * from a sample); the text between long runs is counted whole.
 * One linear scan finds the runs (a regex like /\S{1001}/ would cost length × limit).
 */
export function boundedCount(count: Counter, text: string): TokenCount {
  let tokens = 0;
  let estimated = false;
  let from = 0;
  let runStart = 0;
  let runSpace = false;
  let budget = LONG_RUN_BUDGET;
  const flushRun = (end: number) => {
    if (end - runStart <= EXACT_RUN_LIMIT) return;
    estimated = true;
    if (runStart > from) tokens += count(text.slice(from, runStart));
    // The run's own rate, from its chunks counted whole: the closest estimate of the rest of it.
    let runTokens = 0;
    let runChars = 0;
    let estimate = 0;
    for (let at = runStart; at < end;) {
      const cut = pairSafe(text, Math.min(end, at + EXACT_RUN_LIMIT), end);
      if (budget > 0) {
        const n = count(text.slice(at, cut));
        runTokens += n;
        runChars += cut - at;
        tokens += n;
        budget -= cut - at;
      } else {
        estimate += runChars ? (cut - at) * runTokens / runChars : sampledCount(count, text, at, cut);
      }
      at = cut;
    }
    tokens += Math.round(estimate);
    from = end;
  };
  const length = text.length;
  if (length > 0) runSpace = isSpace(text.charCodeAt(0));
  for (let i = 1; i < length; i++) {
    const c = text.charCodeAt(i);
    // Printable ASCII first, without a call: most of an answer, and this loop sees every character.
    const space = c > 32 && c < 0xa0 ? false : isSpace(c);
    if (space !== runSpace) {
      flushRun(i);
      runStart = i;
      runSpace = space;
    }
  }
  flushRun(text.length);
  if (from < text.length) tokens += count(text.slice(from));
  return { tokens, estimated };
}

/** Whether counting `text` would give an estimate: it holds a run longer than EXACT_RUN_LIMIT (one scan, nothing counted). */
export function hasLongRun(text: string): boolean {
  let runStart = 0;
  let runSpace = text.length > 0 && isSpace(text.charCodeAt(0));
  for (let i = 1; i <= text.length; i++) {
    const space = i < text.length && isSpace(text.charCodeAt(i));
    if (i < text.length && space === runSpace) continue;
    if (i - runStart > EXACT_RUN_LIMIT) return true;
    runStart = i;
    runSpace = space;
  }
  return false;
}

/** `cut`, or one further when it would fall between the two halves of a surrogate pair (never past `end`). */
function pairSafe(text: string, cut: number, end: number): number {
  return cut < end && /[\uDC00-\uDFFF]/.test(text[cut]) ? cut + 1 : cut;
}

/** The chunk text[at, cut) at the rate of its first RUN_SAMPLE characters. */
function sampledCount(count: Counter, text: string, at: number, cut: number): number {
  const sample = pairSafe(text, Math.min(cut, at + RUN_SAMPLE), cut);
  return count(text.slice(at, sample)) * (cut - at) / (sample - at);
}

/** JavaScript's \s, the tokenizer's split between runs, by char code (a regex per character would be slower). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/**
 * Token counts for a result's meta, by field name, with `approximateTokens: true` when any of
 * them is an estimate, so that an answer never passes an estimate off as a count.
 */
export async function tokenCounts<K extends string>(texts: Record<K, string>): Promise<Record<K, number> & { approximateTokens?: true }> {
  const out = {} as Record<K, number> & { approximateTokens?: true };
  for (const key of Object.keys(texts) as K[]) {
    const c = await countTokensDetailed(texts[key]);
    out[key] = c.tokens as (typeof out)[K];
    if (c.estimated) out.approximateTokens = true;
  }
  return out;
}
