// A read answered as what changed since the read the Node side holds (issue 21), so that what
// crosses CDP, and what the Node side checks and patches, is in proportion to the change.
//
// The engine keeps, per kind of read (full page or viewport, with or without structure and
// attributes), the JSON text of every entry of the last read it answered, under a sequence
// number. The next read of that kind names the number it holds; the engine answers with a
// ListPatch per list (src/model/contracts/engine.ts): runs of entries equal to the held ones are
// copied by count, the rest crosses. Equal means the same JSON text: an entry that differs in
// anything (its box after a scroll, a name, a state) crosses whole, so the patched copy is the
// read itself, never an approximation of it.
//
// It answers whole, and says why, when it cannot diff: a cold read (`fresh`, which must not
// become a base), no read held by the host, or a base this engine no longer holds (another
// document: a navigation makes a new engine; or a read of the same kind answered to someone else since).
import type { EngineSnapshotOptions, FrameSnapshot, RawNode } from '../../model/contracts/schema.js';
import { DOC } from '../identity/document.js';
import { readKind, type ReadBase } from '../../model/pagemodel/frameRead.js';
import { packNode } from '../../model/contracts/packedNode.js';


type ListName = 'nodes' | 'structure' | 'headings';
const LISTS: ListName[] = ['nodes', 'structure', 'headings'];

interface Kept {
  seq: number;
  lists: Partial<Record<ListName, string[]>>;
  /** The entries those texts were made from (never changed once answered): an equal entry of the next read takes its text. */
  entries: Partial<Record<ListName, object[]>>;
}

/** Per kind of read, the last answer's entries as the JSON text that crossed. */
const kept = new Map<string, Kept>();
let lastSeq = 0;

/**
 * Beyond this many held entries skipped to reach an equal one, the jump must be confirmed by the
 * next entry matching too: a single entry moved far down must not drop everything between.
 */
const FREE_JUMP = 8;

/** The read as JSON text: whole, or as a delta against `since` when this engine still holds it. */
export function answerRead(read: FrameSnapshot, opts: EngineSnapshotOptions, since: ReadBase | null | undefined): string {
  const { nodes, structure, headings, ...rest } = read;
  const entries: Partial<Record<ListName, object[]>> = { nodes };
  if (structure) entries.structure = structure;
  if (headings) entries.headings = headings;
  // A cold read is what reuse is checked against: it neither uses nor replaces the base, and takes no text from it.
  const kind = readKind(opts);
  const base = opts.fresh ? undefined : kept.get(kind);
  const texts: Partial<Record<ListName, string[]>> = {};
  for (const l of LISTS) {
    const list = entries[l];
    if (list) texts[l] = entryTexts(list, base?.entries[l], base?.lists[l], l === 'nodes' ? packed : plain);
  }
  if (opts.fresh) return wholeText(rest, texts, undefined, 'a cold read (fresh)');
  const seq = ++lastSeq;
  kept.set(kind, { seq, lists: texts, entries });
  const why = !since ? 'the host holds no earlier read of this kind'
    : since.doc !== DOC ? 'another document (the host\'s read is of the one before)'
      : !base || base.seq !== since.seq ? `the engine no longer holds read ${since.seq}`
        : LISTS.some((l) => !!texts[l] !== !!base.lists[l]) ? 'the lists asked for changed'
          : null;
  if (why) return wholeText(rest, texts, seq, why);
  const head = JSON.stringify({ ...rest, kind: 'delta', seq, since: since!.seq });
  const parts: string[] = [];
  for (const l of LISTS) {
    const list = texts[l];
    if (list) parts.push(`${JSON.stringify(l)}:[${diffList(base!.lists[l]!, list).join(',')}]`);
  }
  return `${head.slice(0, -1)},${parts.join(',')}}`;
}

function wholeText(rest: object, texts: Partial<Record<ListName, string[]>>, seq: number | undefined, whole: string): string {
  const head = JSON.stringify({ ...rest, kind: 'whole', ...(seq !== undefined && { seq }), whole });
  const parts = LISTS.filter((l) => texts[l]).map((l) => `${JSON.stringify(l)}:[${texts[l]!.join(',')}]`);
  return `${head.slice(0, -1)},${parts.join(',')}}`;
}

/**
 * Each entry's JSON text. Stringifying 20k entries was a sixth of a warm read of an unchanged big
 * page: an entry equal to the last read's entry for the same element (looked for at the same
 * place, then by ID) takes that entry's text, the very same string, which also makes diffList's
 * comparisons instant.
 */
function entryTexts(list: object[], lastEntries: object[] | undefined, lastTexts: string[] | undefined, text: (e: object) => string): string[] {
  if (!lastEntries || !lastTexts) return list.map(text);
  let byId: Map<unknown, number> | undefined;
  return list.map((e, i) => {
    const id = (e as { id?: unknown }).id;
    let at = i;
    if ((lastEntries[i] as { id?: unknown } | undefined)?.id !== id) {
      byId ??= new Map(lastEntries.map((x, j) => [(x as { id?: unknown }).id, j]));
      at = byId.get(id) ?? -1;
    }
    return at >= 0 && sameJson(e, lastEntries[at]) ? lastTexts[at] : text(e);
  });
}

/** How an entry crosses: nodes packed (src/model/contracts/packedNode.ts), the other lists as they are. */
const packed = (e: object) => JSON.stringify(packNode(e as RawNode));
const plain = (e: object) => JSON.stringify(e);

/**
 * Whether two values have the same JSON text: the same keys in the same order, equal values. It
 * may say no for two that would print alike (then the entry is stringified), never yes for two that
 * would not.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/**
 * The ListPatch that turns `held` into `next`, as JSON texts: counts for runs equal to the held
 * entries (positive: copy, negative: skip), the entry's own text otherwise. One pass, greedy.
 */
export function diffList(held: string[], next: string[]): string[] {
  // Where each held text stands: built at the first entry that is not the next held one (never, when nothing changed).
  let positions: Map<string, number[]> | undefined;
  const out: string[] = [];
  let copy = 0;
  let at = 0;
  const flush = () => { if (copy) { out.push(String(copy)); copy = 0; } };
  for (let i = 0; i < next.length; i++) {
    const t = next[i];
    if (held[at] === t) { copy++; at++; continue; }
    if (!positions) {
      positions = new Map();
      for (let j = 0; j < held.length; j++) { const p = positions.get(held[j]); if (p) p.push(j); else positions.set(held[j], [j]); }
    }
    const to = firstAtOrAfter(positions.get(t), at);
    if (to >= 0 && (to - at <= FREE_JUMP || held[to + 1] === next[i + 1])) {
      flush();
      out.push(String(at - to));
      at = to + 1;
      copy = 1;
      continue;
    }
    flush();
    out.push(t);
  }
  flush();
  return out;
}

function firstAtOrAfter(list: number[] | undefined, at: number): number {
  if (!list) return -1;
  let lo = 0, hi = list.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid] < at) lo = mid + 1; else hi = mid; }
  return lo < list.length ? list[lo] : -1;
}
