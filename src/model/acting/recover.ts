// Recovering an ID whose element was re-rendered away, written once for every host: in a fresh read
// of the same document, the one element with the same role and name where the old one stood
// (ghost.ts). Recovery never leaves the document that issued the ID: another document is NAVIGATED.
import type { ErrorCode } from '../contracts/errors.js';
import type { PageModel } from '../pagemodel/page.js';
import { describeCandidates, pickGhost, scoreGhosts, type GhostCandidate, type GhostTarget, type ScoredCandidate } from './ghost.js';

/** What a snapshot handed out for an ID: enough to find the element again. */
export interface LostElement extends GhostTarget {
  /** The document (engine token) that issued the ID. */
  doc: string;
  frame: number;
}

export type Recovered =
  | { ok: true; gid: string; doc: string; confidence: number; message: string; considered: ScoredCandidate[]; found: GhostCandidate }
  | { ok: false; code: ErrorCode; message: string; considered: ScoredCandidate[] };

/** `model`: read for the host itself (what the agent was shown stays what it was shown); `issuedAt`: the URL the document had. */
export function recoverFrom(gid: string, lost: LostElement, model: PageModel, issuedAt?: string): Recovered {
  const what = `${lost.role} "${lost.name}"`;
  if (model.docs[lost.frame] !== lost.doc) {
    const where = lost.frame ? `frame ${lost.frame}` : 'the page';
    return { ok: false, code: 'NAVIGATED', considered: [], message: `element ${gid} (${what}) belongs to a document that is gone: ${where} changed from ${issuedAt ?? 'an earlier page'} to ${model.frames.find((f) => f.id === lost.frame)?.url ?? 'nothing'}; take a new snapshot` };
  }
  const candidates: GhostCandidate[] = model.nodes.filter((n) => n.frame === lost.frame).map((n) => ({
    gid: n.gid, role: n.role, name: n.name, centre: [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2],
  }));
  const verdict = pickGhost(scoreGhosts(lost, candidates, gid));
  if (!verdict.ok) {
    return {
      ok: false, code: verdict.considered.length ? 'AMBIGUOUS' : 'UNKNOWN_ID', considered: verdict.considered,
      message: `element ${gid} (${what}) is gone and could not be recovered: ${verdict.reason}; candidates considered: ${describeCandidates(verdict.considered)}`,
    };
  }
  const m = verdict.match;
  const found = candidates.find((c) => c.gid === m.gid)!;
  return { ok: true, gid: m.gid, doc: lost.doc, confidence: m.confidence, considered: verdict.considered, found, message: `recovered element (ID ${gid} → ID ${m.gid}, confidence ${m.confidence})` };
}
