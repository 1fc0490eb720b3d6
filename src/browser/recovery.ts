// Recovering an ID whose element was re-rendered away: a fresh read of the same document, and
// the one element there with the same role and name where the old one stood (model/acting/ghost.ts).
// Recovery never leaves the document that issued the ID.
import type { ErrorCode } from '../model/contracts/errors.js';
import { describeCandidates, pickGhost, scoreGhosts, type ScoredCandidate } from '../model/acting/ghost.js';
import type { LensCore } from './core.js';
import { readPageModel } from './read.js';

export type Recovery =
  | { ok: true; gid: string; doc: string; confidence: number; message: string; considered: ScoredCandidate[] }
  | { ok: false; code: ErrorCode; message: string; considered: ScoredCandidate[] };

export async function recoverElement(core: LensCore, gid: string): Promise<Recovery> {
  const lost = core.ids.sighting(gid);
  if (!lost) return { ok: false, code: 'UNKNOWN_ID', message: `element ${gid} is gone and was in no snapshot this lens handed out, so there is nothing to match it by`, considered: [] };
  // Read for ourselves: what the agent was shown stays what it was shown.
  const model = await readPageModel(core, { fullPage: true });
  const what = `${lost.role} "${lost.name}"`;
  if (model.docs[lost.frame] !== lost.doc) {
    const where = lost.frame ? `frame ${lost.frame}` : 'the page';
    return { ok: false, code: 'NAVIGATED', considered: [], message: `element ${gid} (${what}) belongs to a document that is gone: ${where} changed from ${core.ids.urlOf(lost.doc) ?? 'an earlier page'} to ${model.frames.find((f) => f.id === lost.frame)?.url ?? 'nothing'}; take a new snapshot` };
  }
  const candidates = model.nodes.filter((n) => n.frame === lost.frame).map((n) => ({
    gid: n.gid, role: n.role, name: n.name, centre: [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2] as [number, number],
  }));
  const verdict = pickGhost(scoreGhosts(lost, candidates, gid));
  if (!verdict.ok) {
    return {
      ok: false, code: verdict.considered.length ? 'AMBIGUOUS' : 'UNKNOWN_ID', considered: verdict.considered,
      message: `element ${gid} (${what}) is gone and could not be recovered: ${verdict.reason}; candidates considered: ${describeCandidates(verdict.considered)}`,
    };
  }
  const m = verdict.match;
  const node = candidates.find((c) => c.gid === m.gid)!;
  core.ids.note(m.gid, { doc: lost.doc, frame: lost.frame, role: node.role, name: node.name, centre: node.centre });
  return { ok: true, gid: m.gid, doc: lost.doc, confidence: m.confidence, considered: verdict.considered, message: `recovered element (ID ${gid} → ID ${m.gid}, confidence ${m.confidence})` };
}
