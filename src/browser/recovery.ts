// The Node side's memory of what each ID looked like in the snapshots it appeared in, and the
// recovery of an ID whose element was re-rendered away (see model/ghost.ts for the scoring).
import { describeCandidates, pickGhost, scoreGhosts, type GhostTarget, type ScoredCandidate } from '../model/ghost.js';
import type { PageModel } from '../model/page.js';
import type { Lens } from './lens.js';

const MAX_REMEMBERED = 5000;
const memories = new WeakMap<object, Map<string, GhostTarget>>();
/** Lenses reading the page for a recovery: what the agent last saw must stay what it last saw. */
const searching = new WeakSet<object>();

/** Called with every page model read: the last sighting of each ID wins. */
export function rememberModel(owner: object, model: PageModel): void {
  if (searching.has(owner)) return;
  let memory = memories.get(owner);
  if (!memory) { memory = new Map(); memories.set(owner, memory); }
  for (const n of model.nodes) {
    memory.delete(n.gid); // re-inserted last: Map order is our recency order
    memory.set(n.gid, { role: n.role, name: n.name, centre: [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2] });
  }
  for (const k of memory.keys()) { if (memory.size <= MAX_REMEMBERED) break; memory.delete(k); }
}

export function lastKnown(owner: object, gid: string): GhostTarget | undefined {
  return memories.get(owner)?.get(gid);
}

export type Recovery =
  | { ok: true; gid: string; confidence: number; message: string; considered: ScoredCandidate[] }
  | { ok: false; message: string; considered: ScoredCandidate[] };

/** Finds the element an ID that no longer resolves most likely meant, in a fresh full-page model. */
export async function recoverElement(lens: Lens, gid: string): Promise<Recovery> {
  const lost = lastKnown(lens, gid);
  if (!lost) return { ok: false, message: `element ${gid} is gone and was in no snapshot this lens took, so there is nothing to match it by`, considered: [] };
  searching.add(lens);
  let model: PageModel;
  try {
    model = await lens.model({ fullPage: true });
  } finally {
    searching.delete(lens);
  }
  const verdict = pickGhost(scoreGhosts(lost, model.nodes.map((n) => ({
    gid: n.gid, role: n.role, name: n.name, centre: [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2] as [number, number],
  })), gid));
  const what = `${lost.role} "${lost.name}"`;
  if (!verdict.ok) {
    return { ok: false, considered: verdict.considered, message: `element ${gid} (${what}) is gone and could not be recovered: ${verdict.reason}; candidates considered: ${describeCandidates(verdict.considered)}` };
  }
  const m = verdict.match;
  return { ok: true, gid: m.gid, confidence: m.confidence, considered: verdict.considered, message: `recovered element (ID ${gid} → ID ${m.gid}, confidence ${m.confidence})` };
}
