// Ghost matching: when a framework re-renders an element between the snapshot and the action,
// its ID dies with the old node. The element the agent meant is usually still there, with the
// same role and name near the same place. A candidate whose role or name differs is never the
// same element; among those that agree, position decides, and a tie is refused, not guessed.

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

/** How far (CSS px) a re-rendered element may have moved and still count as in the same place. */
export const GHOST_RADIUS = 50;

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Exact names, whitespace and case aside: what recovery requires. */
export function sameName(a: string, b: string): boolean {
  return norm(a) === norm(b);
}

/**
 * Names with the same words once numbers and punctuation are set aside ("Cart" = "Cart (3)",
 * "Ends in 5:31" = "Ends in 5:30"), for one element seen twice: a live counter in a label does
 * not make it another element, but "Play" becoming "Pause" does. Labels without letters ("1",
 * "→") must match exactly.
 */
export function sameLabelIgnoringCounts(a: string, b: string): boolean {
  const wa = words(a);
  const wb = words(b);
  return wa || wb ? wa === wb : norm(a) === norm(b);
}

/** For a row's item (its text inside a larger element): the element still shows the item's words. */
export function stillShows(text: string, item: string): boolean {
  const wi = words(item);
  return wi ? ` ${words(text)} `.includes(` ${wi} `) : norm(text).includes(norm(item));
}

const words = (s: string) => s.normalize('NFKC').toLowerCase().replace(/[^\p{L}]+/gu, ' ').trim();

/**
 * The current elements that could be the lost one: same role and same name, scored 0.7, plus
 * 0.3 when within GHOST_RADIUS of where it was. Nameless elements qualify only in place.
 * Nearest first.
 */
export function scoreGhosts(lost: GhostTarget, candidates: GhostCandidate[], exclude?: string): ScoredCandidate[] {
  const out: ScoredCandidate[] = [];
  for (const c of candidates) {
    if (c.gid === exclude || c.role !== lost.role || !sameName(c.name, lost.name)) continue;
    const distance = Math.round(Math.hypot(c.centre[0] - lost.centre[0], c.centre[1] - lost.centre[1]));
    const near = distance <= GHOST_RADIUS;
    if (!near && !norm(lost.name)) continue;
    out.push({ gid: c.gid, role: c.role, name: c.name, confidence: near ? 1 : 0.7, distance });
  }
  return out.sort((a, b) => a.distance - b.distance);
}

export type GhostVerdict =
  | { ok: true; match: ScoredCandidate; considered: ScoredCandidate[] }
  | { ok: false; reason: string; considered: ScoredCandidate[] };

/**
 * One candidate in place, or (when none is in place) the only one on the page. Two in place, or
 * several elsewhere, is a guess between look-alikes (rows of "Delete" buttons): refused.
 */
export function pickGhost(scored: ScoredCandidate[]): GhostVerdict {
  const considered = scored.slice(0, 5);
  if (!scored.length) return { ok: false, reason: 'no element on the page has the same role and name', considered };
  const near = scored.filter((c) => c.distance <= GHOST_RADIUS);
  if (near.length > 1) {
    return { ok: false, reason: `ambiguous: ${near.length} elements with the same role and name are where it was (${near.map((c) => c.gid).join(', ')})`, considered };
  }
  if (near.length === 1) return { ok: true, match: near[0], considered };
  if (scored.length > 1) {
    return { ok: false, reason: `ambiguous: ${scored.length} elements with the same role and name elsewhere on the page, none where it was`, considered };
  }
  return { ok: true, match: scored[0], considered };
}

export function describeCandidates(c: ScoredCandidate[]): string {
  return c.length ? c.map((x) => `${x.gid} ${x.role} "${x.name}" (${x.confidence}, ${x.distance}px away)`).join(', ') : 'none';
}
