// The stale-ID rule, written once for every host (issue 19). Within one document an ID always names
// the same element object, but the element itself can change: a toggle that was "Play" is now
// "Pause", and clicking it would do the opposite of what the agent chose. Another role, or another
// label (numbers aside: live counters), is refused with STALE_ID.
import type { Seen } from '../contracts/host.js';
import { sameLabelIgnoringCounts, stillShows } from './ghost.js';

/** Why acting on `gid` would act on something else than the caller saw; null when it still is what was seen. */
export function staleReason(gid: string, known: Seen, now: Seen): string | null {
  // A row's item is the row's text, not a control: its element must still show those words.
  if (known.role === 'item') {
    return stillShows(now.name, known.name) ? null
      : `${gid} no longer shows "${known.name}" (it shows "${now.name}"): the row changed. Take a new snapshot.`;
  }
  // A name every row's control shares was listed with the row's identity: that row must still hold it.
  const names = now.inRow ? [now.name, now.inRow] : [now.name];
  if (now.role === known.role && names.some((n) => sameLabelIgnoringCounts(n, known.name))) return null;
  return `${gid} is now ${now.role} "${now.name}", not the ${known.role} "${known.name}" of the last snapshot: the page changed. Take a new snapshot.`;
}
