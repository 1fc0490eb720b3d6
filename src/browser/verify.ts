// Sentinel verification: what the page looked like before an action, and whether afterwards it
// did what the action was meant to do. Errors the page showed meanwhile (even for one second)
// come from the mutation log and fail the verification whatever else happened. A check that
// could not be made makes the verdict uncertain (with the reason), never quietly positive.
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import { ExpectedOutcome, type VerificationResult } from '../model/contracts/outcome.js';
import { parseInput } from '../model/contracts/validate.js';
import { checkOutcome, composeVerification, flattenOutcome, pollChecks, readBefore, type ElementRead, type OutcomeReader, type Presence } from '../model/acting/verdict.js';
import type { LensCore } from './core.js';
import { elementCall, engineCall } from './engine.js';
import { eventsSince, markFrames, type Marks } from './events.js';
import { describeFailure } from './frames.js';
import { waitForDomStability } from './stability.js';

export type { Presence } from '../model/acting/verdict.js';

const DEFAULT_TIMEOUT = 2000;
const GROUP = 'pagelens-verify';

export interface PreActionState {
  at: number;
  url: string;
  navigations: number;
  marks: Marks;
  /** Frames whose log could not be marked before the action. */
  unmarked: string[];
  /** Element states by ID, for value/state outcomes. */
  elements: Map<string, ElementRead>;
  /** Whether each text/selector an outcome looks for was already on the page. */
  present: Map<string, Presence>;
}

export async function capturePreActionState(core: LensCore, expectedInput?: ExpectedOutcome, defaultId?: string): Promise<PreActionState> {
  const expected = expectedInput === undefined ? undefined : parseInput(ExpectedOutcome, expectedInput, 'expected outcome');
  const { marks, unread } = await markFrames(core);
  const at = Date.now();
  const url = core.page.url();
  const { navigations } = core;
  const before = await readBefore(expected ? flattenOutcome(expected) : [], reader(core), defaultId);
  return { at, url, navigations, marks, unmarked: unread, elements: before.elements, present: before.present };
}

/** The CDP host's reads for the shared verdict. */
const reader = (core: LensCore): OutcomeReader => ({
  element: (id) => readElement(core, id),
  find: (query, refusal) => findOnFrames(core, query, refusal),
});

async function readElement(core: LensCore, id: string): Promise<ElementRead> {
  let r;
  try {
    r = await core.resolve(id, GROUP);
  } catch (e) {
    if (isPagelensError(e, 'UNKNOWN_ID', 'NAVIGATED')) return { kind: 'gone', reason: e.message };
    return { kind: 'unknown', reason: `element ${id} could not be looked up (${describeFailure(e)})` };
  }
  try {
    return { kind: 'state', state: await elementCall(r, 'elementState', [], GROUP) };
  } catch (e) {
    return { kind: 'unknown', reason: `element ${id} could not be read (${describeFailure(e)})` };
  } finally {
    await r.frame.target.release(GROUP);
  }
}

/**
 * Whether text (or a selector) shows in any frame, read by the engine in its isolated world (the
 * page cannot fake what it reads); frames that could not be searched are named in `unread`.
 */
export async function findOnFrames(core: LensCore, query: { text?: string; selector?: string }, refusal = 'Cannot search the page'): Promise<Presence> {
  const frames = (await core.frames.known()).filter((f) => !f.error && !f.target.closed);
  const unread: string[] = [];
  const found = await Promise.all(frames.map(async (f) => {
    let r;
    try {
      r = await engineCall(f, 'findOnPage', [query]);
    } catch (e) {
      unread.push(`${f.ordinal ? `frame ${f.ordinal}` : 'the page'} could not be searched (${describeFailure(e)})`);
      return false;
    }
    if (!r.ok) throw new PagelensError('BAD_INPUT', `${refusal}: ${r.reason}.`);
    return r.found;
  }));
  return { found: found.some(Boolean), unread };
}

/** Polls until one of the alternatives holds or the timeout passes; then lets the page settle and reads its errors. */
export async function verifyOutcome(core: LensCore, pre: PreActionState, expectedInput: ExpectedOutcome, defaultId?: string): Promise<VerificationResult> {
  const expected = parseInput(ExpectedOutcome, expectedInput, 'expected outcome');
  const alternatives = flattenOutcome(expected);
  const timeout = expected.timeout ?? DEFAULT_TIMEOUT;
  const t0 = performance.now();
  const { met, lastChecks } = await pollChecks({
    alternatives, timeout, describe: describeFailure,
    quiet: async (ms) => { await waitForDomStability(core, { timeout: ms, stabilityThreshold: 300 }); },
    look: () => eventsSince(core, pre.marks),
    check: (o, events, domChanged) => {
      const url = core.page.url();
      return checkOutcome(o, reader(core), pre, { url, moved: url !== pre.url || core.navigations > pre.navigations, domChanged, events }, defaultId);
    },
  });
  // Errors often arrive just after the change that satisfied us (a spinner, then "Invalid email").
  const left = Math.max(300, timeout - (performance.now() - t0));
  const uncertain: string[] = [...pre.unmarked];
  try {
    // Whole milliseconds: the stability options take integers, and a fraction would make every short verification uncertain.
    const settled = await waitForDomStability(core, { timeout: Math.round(Math.min(1500, left)), stabilityThreshold: 300, networkIdleThreshold: 300 });
    uncertain.push(...settled.uncertain ?? []);
  } catch (e) {
    uncertain.push(`the page could not be watched settling after the action (${describeFailure(e)}); late errors may be missed`);
  }
  const { events, domChanged, unread } = await eventsSince(core, pre.marks);
  uncertain.push(...unread);
  return composeVerification({ alternatives, met, lastChecks, events, preUrl: pre.url, url: core.page.url(), domChanged, uncertain, timeout });
}

/** Sensible defaults: a click should change something, setValue the value, navigate the URL. */
export function defaultOutcome(kind: 'click' | 'setValue' | 'navigate', id?: string): ExpectedOutcome {
  if (kind === 'setValue') return { type: 'value_changes', ...(id && { id }) };
  if (kind === 'navigate') return { type: 'navigation' };
  return { type: 'any_change' };
}
