// What changed between the semantic_v3 tree a client last saw and the page now, by element ID.
// Action responses carry this instead of a whole snapshot: most actions change a handful of
// elements, and resending hundreds of unchanged ones is what makes other browser tools expensive.
import type { SemanticNodeV3 } from '../../model/contracts/schema.js';

export interface TreeChange {
  i: string;
  /** Only the fields that differ, as "old → new". */
  n?: string;
  v?: string;
  s?: string;
  r?: string;
  occ?: string;
}

export interface TreeDelta {
  added: SemanticNodeV3[];
  /** IDs no longer in the tree (removed, or out of the snapshot's scope, e.g. scrolled away). */
  removed: string[];
  changed: TreeChange[];
  /** Elements in both trees with nothing but their position changed. */
  unchanged: number;
}

const FIELDS = ['r', 'n', 'v', 's'] as const;

export function treeDelta(before: readonly SemanticNodeV3[], after: readonly SemanticNodeV3[]): TreeDelta {
  const old = new Map(before.map((n) => [n.i, n]));
  const seen = new Set<string>();
  const delta: TreeDelta = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const node of after) {
    seen.add(node.i);
    const prev = old.get(node.i);
    if (!prev) { delta.added.push(node); continue; }
    const change: TreeChange = { i: node.i };
    let differs = false;
    for (const f of FIELDS) {
      if ((prev[f] ?? '') !== (node[f] ?? '')) { change[f] = `${prev[f] ?? ''} → ${node[f] ?? ''}`; differs = true; }
    }
    if (!!prev.occ !== !!node.occ) { change.occ = node.occ ? 'now covered' : 'no longer covered'; differs = true; }
    if (differs) delta.changed.push(change); else delta.unchanged++;
  }
  for (const n of before) if (!seen.has(n.i)) delta.removed.push(n.i);
  return delta;
}

export function isEmptyDelta(d: TreeDelta): boolean {
  return d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;
}
