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
 * (`describe` words the error).
 */
export async function markOccludedByAncestors<F extends NestedFrame<F>>(
  placed: PlacedFrame[],
  frameOf: (ordinal: number) => F | undefined,
  ownerHits: (frame: F, points: Array<[number, number]>) => Promise<boolean[]> | null,
  describe: (e: unknown) => string,
): Promise<string[]> {
  const warnings: string[] = [];
  await Promise.all(placed.filter((p) => p.ordinal !== 0).map(async (p) => {
    let frame = frameOf(p.ordinal);
    let candidates = p.snapshot.nodes.filter((n) => n.occ === false);
    let points = candidates.map((n): [number, number] => [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2]);
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
      hits.forEach((hit, i) => { if (hit) keep.push(i); else candidates[i].occ = true; });
      candidates = keep.map((i) => candidates[i]);
      points = keep.map((i) => points[i]);
      frame = frame.parent;
    }
  }));
  return warnings;
}
