// Recovering an ID whose element was re-rendered away on the CDP host: the ledger's sighting, a
// fresh read of the page for ourselves, and the shared rule (model/acting/recover.ts).
import { recoverFrom, type Recovered } from '../model/acting/recover.js';
import type { LensCore } from './core.js';
import { readPageModel } from './read.js';

export type Recovery = Recovered;

export async function recoverElement(core: LensCore, gid: string): Promise<Recovery> {
  const lost = core.ids.sighting(gid);
  if (!lost) return { ok: false, code: 'UNKNOWN_ID', message: `element ${gid} is gone and was in no snapshot this lens handed out, so there is nothing to match it by`, considered: [] };
  // Read for ourselves: what the agent was shown stays what it was shown.
  const r = recoverFrom(gid, lost, await readPageModel(core, { fullPage: true }), core.ids.urlOf(lost.doc));
  // The match is named to the agent in the result: handed out like a snapshot's IDs.
  if (r.ok) core.ids.note(r.gid, { doc: lost.doc, frame: lost.frame, role: r.found.role, name: r.found.name, centre: r.found.centre });
  return r;
}
