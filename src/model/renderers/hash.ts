// Delta hashing: a hash of what an agent would read in a snapshot, so an unchanged page need not
// be sent again. Timing and token counts change on every read and are left out; geometry is
// snapped to a grid so that sub-pixel layout jitter does not count as a change.
const VOLATILE_META = new Set(['extractionTimeMs', 'estimatedTokens']);
const GEOMETRY = new Set(['xy', 'box', 'bounds']);
/** Grid for coordinates, in CSS pixels. */
export const GEOMETRY_GRID = 4;

export function computeTreeHash(result: object): string {
  return hash53(canonical(result, ''));
}

/** True when the tree differs from the one whose hash is `lastHash` (or there is none). */
export function shouldSendTree(result: object, lastHash: string | null | undefined): boolean {
  return computeTreeHash(result) !== lastHash;
}

/** Remembers the last tree sent: `check(result)` says whether this one is worth sending. */
export class DeltaTracker {
  private last: string | null = null;

  check(result: object): { send: boolean; hash: string } {
    const hash = computeTreeHash(result);
    const send = hash !== this.last;
    this.last = hash;
    return { send, hash };
  }

  reset(): void {
    this.last = null;
  }
}

function canonical(v: unknown, key: string, inGeometry = false): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return inGeometry ? String(Math.round(v / GEOMETRY_GRID)) : String(v);
  if (typeof v === 'string') return JSON.stringify(key === 'recent_events' ? v.replace(/^\[[^\]]*ago\]\s*/, '') : v);
  if (typeof v !== 'object') return JSON.stringify(v);
  const geo = inGeometry || GEOMETRY.has(key);
  if (Array.isArray(v)) return `[${v.map((x) => canonical(x, key, geo)).join(',')}]`;
  const entries = Object.keys(v as object)
    .filter((k) => !(key === 'meta' && VOLATILE_META.has(k)) && (v as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k], k, geo)}`);
  return `{${entries.join(',')}}`;
}

/** A fast 53-bit string hash (two interleaved 32-bit multiplicative hashes), as hex. */
function hash53(s: string): string {
  let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
