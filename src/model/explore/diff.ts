// dom_diff: what changed between two snapshots of the same page. Elements are compared by ID
// (an ID names one element object within its document): added, removed, and changed in name,
// value, state or place. An element removed and added again where it stood, with the same role
// and name (a re-render), is reported with its new ID rather than as two unrelated changes.
import type { DiffChange, DiffElement, DomDiff } from './explore.js';
import { GHOST_RADIUS, sameName } from '../acting/ghost.js';
import type { PageModel } from '../pagemodel/page.js';
import { elementKind } from './regions.js';

export interface DiffSide {
  id: string;
  takenAt: number;
  model: PageModel;
  /** The main frame's scroll when the snapshot was taken: places are compared in page coordinates. */
  scroll: { x: number; y: number };
}

/** How far (CSS px) an element must move to count as moved. */
export const MOVE_THRESHOLD = 10;
const MAX_LINES = 60;

interface Seen { gid: string; frame: number; role: string; kind: string; name: string; value?: string; states: string[]; at: [number, number] }

function elementsOf(s: DiffSide, skip: Set<number>): Map<string, Seen> {
  const out = new Map<string, Seen>();
  const place = (b: [number, number, number, number]): [number, number] => [Math.round(b[0] + b[2] / 2 + s.scroll.x), Math.round(b[1] + b[3] / 2 + s.scroll.y)];
  for (const n of s.model.nodes) {
    if (skip.has(n.frame)) continue;
    out.set(n.gid, { gid: n.gid, frame: n.frame, role: n.role, kind: elementKind(n), name: n.name, ...(n.value !== undefined && { value: n.value }), states: n.states.filter((x) => x !== 'focused'), at: place(n.box) });
  }
  for (const h of s.model.headings) {
    if (skip.has(h.frame) || out.has(h.gid)) continue;
    out.set(h.gid, { gid: h.gid, frame: h.frame, role: 'heading', kind: `H${h.level}`, name: h.text, states: [], at: place(h.box) });
  }
  return out;
}

const short = (s: string, max = 60) => (s.length > max ? s.slice(0, max - 1) + '…' : s);
const el = (e: Seen): DiffElement => ({ ref: e.gid, kind: e.kind, name: short(e.name, 100) });
const distance = (a: [number, number], b: [number, number]) => Math.hypot(a[0] - b[0], a[1] - b[1]);

export function diffSnapshots(a: DiffSide, b: DiffSide): DomDiff {
  const base = { snapshotA: a.id, snapshotB: b.id, elapsedMs: Math.round(b.takenAt - a.takenAt), url: { from: a.model.url, to: b.model.url } };
  if (a.model.docs[0] !== b.model.docs[0]) {
    const text = `DIFF ${a.id} → ${b.id}: the page navigated (${a.model.url} → ${b.model.url}); IDs of ${a.id} mean nothing in ${b.id}: read the new page.`;
    return { ...base, navigated: true, framesNavigated: [], added: [], removed: [], changed: [], rerendered: [], text };
  }
  const framesNavigated = Object.keys(a.model.docs).map(Number).filter((f) => f !== 0 && b.model.docs[f] !== undefined && b.model.docs[f] !== a.model.docs[f]);
  const skip = new Set(framesNavigated);
  const before = elementsOf(a, skip);
  const after = elementsOf(b, skip);
  let added = [...after.values()].filter((e) => !before.has(e.gid));
  let removed = [...before.values()].filter((e) => !after.has(e.gid));
  const changed: DiffChange[] = [];
  for (const [gid, now] of after) {
    const was = before.get(gid);
    if (!was) continue;
    const changes = compare(was, now);
    if (changes.length) changed.push({ ref: gid, kind: now.kind, name: short(now.name, 100), changes });
  }
  // Re-rendered: gone and back in the same place with the same role and name, nearest first.
  const rerendered: DomDiff['rerendered'] = [];
  const pairs = removed.flatMap((r) => added.filter((x) => x.frame === r.frame && x.role === r.role && sameName(x.name, r.name) && distance(x.at, r.at) <= GHOST_RADIUS).map((x) => [r, x, distance(x.at, r.at)] as const))
    .sort((p, q) => p[2] - q[2]);
  const paired = new Set<Seen>();
  for (const [r, x] of pairs) {
    if (paired.has(r) || paired.has(x)) continue;
    paired.add(r);
    paired.add(x);
    rerendered.push({ from: r.gid, to: x.gid, kind: x.kind, name: short(x.name, 100) });
    const changes = compare(r, x).filter((c) => c.field !== 'name');
    if (changes.length) changed.push({ ref: x.gid, kind: x.kind, name: short(x.name, 100), changes });
  }
  added = added.filter((x) => !paired.has(x));
  removed = removed.filter((x) => !paired.has(x));
  const lines: string[] = [];
  for (const e of added) lines.push(`+ [${e.gid}] ${e.kind}${e.name ? ` ${JSON.stringify(short(e.name))}` : ''}`);
  for (const e of removed) lines.push(`- [${e.gid}] ${e.kind}${e.name ? ` ${JSON.stringify(short(e.name))}` : ''}`);
  for (const c of changed) lines.push(`~ [${c.ref}] ${c.kind}${c.name ? ` ${JSON.stringify(short(c.name))}` : ''} ${c.changes.map(changeText).join('; ')}`);
  for (const r of rerendered) lines.push(`↻ [${r.from}→${r.to}] ${r.kind}${r.name ? ` ${JSON.stringify(short(r.name))}` : ''} re-rendered (use ${r.to})`);
  const counts = `${added.length} added, ${removed.length} removed, ${changed.length} changed, ${rerendered.length} re-rendered`;
  const head = `DIFF ${a.id} → ${b.id} (${(base.elapsedMs / 1000).toFixed(1)} s apart): ${lines.length ? counts : 'no change'}`;
  const frames = framesNavigated.length ? [`frames that show another document (left out): ${framesNavigated.map((f) => `f${f}`).join(', ')}`] : [];
  const body = lines.length > MAX_LINES ? [...lines.slice(0, MAX_LINES), `… ${lines.length - MAX_LINES} more`] : lines;
  return {
    ...base, navigated: false, framesNavigated,
    added: added.map(el), removed: removed.map(el), changed, rerendered,
    text: [head, ...frames, ...body].join('\n'),
  };
}

function compare(was: Seen, now: Seen): DiffChange['changes'] {
  const out: DiffChange['changes'] = [];
  if (was.name !== now.name) out.push({ field: 'name', from: was.name, to: now.name });
  if ((was.value ?? '') !== (now.value ?? '')) out.push({ field: 'value', from: was.value ?? '', to: now.value ?? '' });
  const gone = was.states.filter((s) => !now.states.includes(s));
  const came = now.states.filter((s) => !was.states.includes(s));
  if (gone.length || came.length) out.push({ field: 'states', from: was.states.join(','), to: now.states.join(',') });
  if (distance(was.at, now.at) > MOVE_THRESHOLD) out.push({ field: 'position', from: `${was.at[0]},${was.at[1]}`, to: `${now.at[0]},${now.at[1]}` });
  return out;
}

function changeText(c: DiffChange['changes'][number]): string {
  if (c.field === 'states') {
    const from = c.from ? c.from.split(',') : [];
    const to = c.to ? c.to.split(',') : [];
    return `states: ${[...to.filter((s) => !from.includes(s)).map((s) => `+${s}`), ...from.filter((s) => !to.includes(s)).map((s) => `-${s}`)].join(' ')}`;
  }
  if (c.field === 'position') return `moved (${c.from}) → (${c.to})`;
  return `${c.field}: ${JSON.stringify(short(c.from, 40))} → ${JSON.stringify(short(c.to, 40))}`;
}
