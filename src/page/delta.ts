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
import type { EngineSnapshotOptions, FrameSnapshot } from '../model/contracts/schema.js';
import { DOC } from './document.js';
import { readKind } from '../model/pagemodel/frameRead.js';

/** The read the host holds: the document that answered it and its sequence number. */
export interface HeldBase { doc: string; seq: number }

type ListName = 'nodes' | 'structure' | 'headings';
const LISTS: ListName[] = ['nodes', 'structure', 'headings'];

interface Kept { seq: number; lists: Partial<Record<ListName, string[]>> }

/** Per kind of read, the last answer's entries as the JSON text that crossed. */
const kept = new Map<string, Kept>();
let lastSeq = 0;

/**
 * Beyond this many held entries skipped to reach an equal one, the jump must be confirmed by the
 * next entry matching too: a single entry moved far down must not drop everything between.
 */
const FREE_JUMP = 8;

/** The read as JSON text: whole, or as a delta against `since` when this engine still holds it. */
export function answerRead(read: FrameSnapshot, opts: EngineSnapshotOptions, since: HeldBase | null | undefined): string {
  const { nodes, structure, headings, ...rest } = read;
  const texts: Partial<Record<ListName, string[]>> = { nodes: nodes.map((n) => JSON.stringify(n)) };
  if (structure) texts.structure = structure.map((n) => JSON.stringify(n));
  if (headings) texts.headings = headings.map((n) => JSON.stringify(n));
  // A cold read is what reuse is checked against: it neither uses nor replaces the base.
  if (opts.fresh) return wholeText(rest, texts, undefined, 'a cold read (fresh)');
  const kind = readKind(opts);
  const base = kept.get(kind);
  const seq = ++lastSeq;
  kept.set(kind, { seq, lists: texts });
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
 * The ListPatch that turns `held` into `next`, as JSON texts: counts for runs equal to the held
 * entries (positive: copy, negative: skip), the entry's own text otherwise. One pass, greedy.
 */
export function diffList(held: string[], next: string[]): string[] {
  const positions = new Map<string, number[]>();
  held.forEach((t, i) => { const p = positions.get(t); if (p) p.push(i); else positions.set(t, [i]); });
  const out: string[] = [];
  let copy = 0;
  let at = 0;
  const flush = () => { if (copy) { out.push(String(copy)); copy = 0; } };
  for (let i = 0; i < next.length; i++) {
    const t = next[i];
    if (held[at] === t) { copy++; at++; continue; }
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
