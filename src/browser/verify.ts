// Sentinel verification on the CDP host: lens.capturePreActionState / lens.verifyOutcome (used by
// tools that act outside lens.act, such as drag) over the pipeline's verification (src/core/verify.ts),
// which the extension shares. Only the option checks and the CDP object group are here.
import { ExpectedOutcome, type VerificationResult } from '../model/contracts/outcome.js';
import { parseInput } from '../model/contracts/validate.js';
import type { Presence } from '../model/acting/verdict.js';
import { capturePre, findOnFrames as findOn, verifyOutcome as verifyOn, type PreActionState } from '../core/verify.js';
import type { LensCore } from './core.js';
import { cdpActHost } from './hostEngine.js';

export type { Presence } from '../model/acting/verdict.js';
export type { PreActionState } from '../core/verify.js';

const GROUP = 'pagelens-verify';

export async function capturePreActionState(core: LensCore, expectedInput?: ExpectedOutcome, defaultId?: string): Promise<PreActionState> {
  const expected = expectedInput === undefined ? undefined : parseInput(ExpectedOutcome, expectedInput, 'expected outcome');
  return capturePre(cdpActHost(core, GROUP), expected, defaultId);
}

/** Whether text (or a selector) shows in any frame, read by the engine in its isolated world; unread frames are named. */
export function findOnFrames(core: LensCore, query: { text?: string; selector?: string }, refusal?: string): Promise<Presence> {
  return findOn(cdpActHost(core, GROUP), query, refusal);
}

/** Polls until one of the alternatives holds or the timeout passes; then lets the page settle and reads its errors. */
export async function verifyOutcome(core: LensCore, pre: PreActionState, expectedInput: ExpectedOutcome, defaultId?: string): Promise<VerificationResult> {
  return verifyOn(cdpActHost(core, GROUP), pre, parseInput(ExpectedOutcome, expectedInput, 'expected outcome'), defaultId);
}

/** Sensible defaults: a click should change something, setValue the value, navigate the URL. */
export function defaultOutcome(kind: 'click' | 'setValue' | 'navigate', id?: string): ExpectedOutcome {
  if (kind === 'setValue') return { type: 'value_changes', ...(id && { id }) };
  if (kind === 'navigate') return { type: 'navigation' };
  return { type: 'any_change' };
}
