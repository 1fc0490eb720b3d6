// Shared by the action tests: counting what recovery and verification did, finding IDs by name.
import assert from 'node:assert/strict';
import type { ActionResult } from '../../src/model/contracts/outcome.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';

export interface ActionCounts { actions: number; recovered: number; caught: number }

/** Counts actions, recoveries, and verifications that caught a failure the bare action hid. */
export function counter(): { counts: ActionCounts; tally: (r: ActionResult) => ActionResult } {
  const counts: ActionCounts = { actions: 0, recovered: 0, caught: 0 };
  return {
    counts,
    tally(r) {
      counts.actions++;
      if (r.recovered && r.ok) counts.recovered++;
      if (r.ok && r.verification && !r.verification.success) counts.caught++;
      return r;
    },
  };
}

export function idOf(snap: SemanticV3Result, name: string, role?: string): string {
  const n = snap.interactive_tree.find((x) => x.n === name && (!role || x.r === role));
  assert.ok(n, `no "${name}" in ${JSON.stringify(snap.interactive_tree.map((x) => [x.i, x.r, x.n]))}`);
  return n.i;
}
