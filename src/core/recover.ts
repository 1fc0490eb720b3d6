// Recovering an ID whose element was re-rendered away, for both hosts: the ledger's sighting of
// it, a read of the page for the host itself (what the agent was shown stays what it was shown),
// the shared matching rule (model/acting/recover.ts), and the match handed out like a snapshot's IDs
// (it is named to the agent in the result).
import { recoverFrom, type Recovered } from '../model/acting/recover.js';
import type { PageModel } from '../model/pagemodel/page.js';
import type { IdLedger } from './ledger.js';

/** `read`: the whole page, read without handing anything out. */
export async function recoverInLedger(ledger: IdLedger, gid: string, read: () => Promise<PageModel>): Promise<Recovered> {
  const lost = ledger.sighting(gid);
  if (!lost) return { ok: false, code: 'UNKNOWN_ID', message: `element ${gid} is gone and was in no snapshot this tab handed out, so there is nothing to match it by`, considered: [] };
  const r = recoverFrom(gid, lost, await read(), ledger.urlOf(lost.doc));
  if (r.ok) ledger.note(r.gid, { doc: lost.doc, frame: lost.frame, role: r.found.role, name: r.found.name, centre: r.found.centre });
  return r;
}
