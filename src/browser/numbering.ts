// How a document on the CDP host learns where its ID numbering starts: an expression run once in
// its isolated world, before anything reads an ID of it, and the engine's answer checked like
// every engine answer. Where it starts is the ledger's rule (src/core/ledger.ts), shared with the
// extension, which sends the same start with a frame's first read (extension/src/snapshot.ts).
import { z } from 'zod';
import type { IdLedger } from '../core/ledger.js';
import { ENGINE_CALLS } from '../model/contracts/engine.js';
import { PagelensError } from '../model/contracts/errors.js';
import { describeIssues } from '../model/contracts/validate.js';
import type { DocumentNumbering } from './target.js';

const NumberingAnswer = ENGINE_CALLS.numberFrom.extend({ top: z.boolean() });

/**
 * The ledger's numbering for CDP targets. A frame lineage is a CDP frame ID; whether a document is
 * the page's top one is known in the page only (an out-of-process iframe has a target of its own),
 * so the expression carries both starts and picks.
 */
export function documentNumbering(ledger: IdLedger): DocumentNumbering {
  return {
    claimExpression(frameId) {
      const top = ledger.start(frameId, true);
      const frame = ledger.start(frameId, false);
      return `(() => { const top = window === window.top; return { ...globalThis.__pagelens.numberFrom(top ? ${top} : ${frame}), top }; })()`;
    },
    claimed(frameId, raw) {
      const r = NumberingAnswer.safeParse(raw);
      if (!r.success) {
        const why = describeIssues(r.error).slice(0, 2).map((i) => `${i.path || 'answer'}: ${i.message}`).join('; ');
        throw new PagelensError('ENGINE_ERROR', `The in-page engine answered numberFrom with something it never returns (${why}); the page may have tampered with it.`);
      }
      ledger.claimed(frameId, r.data.top, r.data.last);
    },
  };
}
