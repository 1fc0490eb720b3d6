// Elements inside an iframe that something in an ancestor frame covers (a modal over an embedded
// widget): each ancestor in turn is asked whether the iframe itself is hit at the elements'
// centres. The walk is the same for every host; how a parent is asked is the host's.
import type { PlacedFrame } from './page.js';

/** A frame as far as the walk needs it: its parent, and where its (0,0) lies in the parent. */
export interface NestedFrame<F> {
  ordinal: number;
  parent?: F | null;
  originInParent: [number, number];
}

/**
 * Marks `occ` on the nodes of child frames that an ancestor covers. `ownerHits(frame, points)`
 * says, for points in the parent's coordinates, whether the frame's iframe element is what the
 * parent hits there; it is null when the frame has no owner element to ask (the walk stops). A
 * frame whose check fails keeps its nodes unmarked, and the failure comes back as a warning
 * (`describe` words the error). A marked node is a marked copy in a new list on the placed frame:
 * the snapshots read are left as they came (the host may hold them as the base of its next read).
 */
export async function markOccludedByAncestors<F extends NestedFrame<F>>(
  placed: PlacedFrame[],
  frameOf: (ordinal: number) => F | undefined,
  ownerHits: (frame: F, points: Array<[number, number]>) => Promise<boolean[]> | null,
  describe: (e: unknown) => string,
): Promise<string[]> {
  const warnings: string[] = [];
  await Promise.all(placed.filter((p) => p.ordinal !== 0).map(async (p) => {
    const covered = new Set<number>();
    try {
      await markFrame(p, covered);
    } finally {
      if (covered.size) p.snapshot = { ...p.snapshot, nodes: p.snapshot.nodes.map((n, i) => (covered.has(i) ? { ...n, occ: true } : n)) };
    }
  }));
  return warnings;

  async function markFrame(p: PlacedFrame, covered: Set<number>): Promise<void> {
    let frame = frameOf(p.ordinal);
    const nodes = p.snapshot.nodes;
    let candidates = nodes.flatMap((n, i) => (n.occ === false ? [i] : []));
    let points = candidates.map((i): [number, number] => [nodes[i].box[0] + nodes[i].box[2] / 2, nodes[i].box[1] + nodes[i].box[3] / 2]);
    while (frame?.parent && candidates.length) {
      const [ox, oy] = frame.originInParent;
      points = points.map(([x, y]) => [x + ox, y + oy]);
      const asked = ownerHits(frame, points);
      if (!asked) break;
      let hits: boolean[];
      try {
        hits = await asked;
        if (hits.length !== points.length) throw new Error(`ENGINE_ERROR: asked about ${points.length} points, answered ${hits.length}`);
      } catch (e) {
        warnings.push(`frame ${p.ordinal}: whether anything in frame ${frame.parent.ordinal} covers it could not be checked (${describe(e)}); its elements may be covered without being marked occ`);
        return;
      }
      const keep: number[] = [];
      hits.forEach((hit, i) => { if (hit) keep.push(i); else covered.add(candidates[i]); });
      candidates = keep.map((i) => candidates[i]);
      points = keep.map((i) => points[i]);
      frame = frame.parent;
    }
  }
}
