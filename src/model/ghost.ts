// Ghost matching: when a framework re-renders an element between the snapshot and the action,
// its ID dies with the old node. The element the agent meant is usually still there, with the
// same role and name near the same place: score the current nodes against what we remembered.

export interface GhostTarget {
  role: string;
  name: string;
  /** Centre in top-level viewport coordinates. */
  centre: [number, number];
}

export interface GhostCandidate extends GhostTarget {
  gid: string;
}

export interface ScoredCandidate {
  gid: string;
  role: string;
  name: string;
  confidence: number;
  distance: number;
}

export const GHOST_THRESHOLD = 0.5;
export const GHOST_RADIUS = 50;

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Exact name +0.4, same role +0.3, centre within 50px +0.3. Best first; ties broken by distance. */
export function scoreGhosts(lost: GhostTarget, candidates: GhostCandidate[], exclude?: string): ScoredCandidate[] {
  const name = norm(lost.name);
  const out: ScoredCandidate[] = [];
  for (const c of candidates) {
    if (c.gid === exclude) continue;
    const distance = Math.hypot(c.centre[0] - lost.centre[0], c.centre[1] - lost.centre[1]);
    let confidence = 0;
    // Two nameless elements share no evidence.
    if (name && norm(c.name) === name) confidence += 0.4;
    if (c.role === lost.role) confidence += 0.3;
    if (distance <= GHOST_RADIUS) confidence += 0.3;
    confidence = Math.round(confidence * 10) / 10;
    if (confidence > 0) out.push({ gid: c.gid, role: c.role, name: c.name, confidence, distance: Math.round(distance) });
  }
  return out.sort((a, b) => b.confidence - a.confidence || a.distance - b.distance);
}

export type GhostVerdict =
  | { ok: true; match: ScoredCandidate; considered: ScoredCandidate[] }
  | { ok: false; reason: string; considered: ScoredCandidate[] };

/** The best candidate if it clears the threshold and nothing else is equally good. */
export function pickGhost(scored: ScoredCandidate[], threshold = GHOST_THRESHOLD): GhostVerdict {
  const considered = scored.slice(0, 5);
  const [best, second] = scored;
  if (!best || best.confidence < threshold) {
    return { ok: false, reason: best ? `best candidate scored ${best.confidence} (< ${threshold})` : 'no element shares its role, name or position', considered };
  }
  if (second && second.confidence === best.confidence && second.distance === best.distance) {
    return { ok: false, reason: `ambiguous: ${best.gid} and ${second.gid} match equally (${best.confidence})`, considered };
  }
  return { ok: true, match: best, considered };
}

export function describeCandidates(c: ScoredCandidate[]): string {
  return c.length ? c.map((x) => `${x.gid} ${x.role} "${x.name}" (${x.confidence})`).join(', ') : 'none';
}
