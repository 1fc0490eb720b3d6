// Sentinel verification over the Host port, for every host: what the page looked like before an
// action (each frame's mutation-log mark, the address, the main document, what the outcomes need),
// and whether afterwards it did what the action was meant to do. The verdict's rules are the shared
// ones in model/acting/verdict.ts; here is the order of the reads. A check that could not be made
// makes the verdict uncertain (with the reason), never quietly positive.
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import type { HostFrame } from '../model/contracts/host.js';
import type { MutationEvent } from '../model/pagemodel/mutations.js';
import type { ExpectedOutcome, VerificationResult } from '../model/contracts/outcome.js';
import { checkOutcome, composeVerification, flattenOutcome, pollChecks, readBefore, type ElementRead, type OutcomeReader, type Presence } from '../model/acting/verdict.js';
import type { ActHost } from './port.js';

const DEFAULT_TIMEOUT = 2000;

/** Where one frame's mutation log stood before the action. */
export interface FrameMark { doc: string; seq: number; count: number }
/** Each frame's mark, by frame ordinal. */
export type Marks = Map<number, FrameMark>;

export interface PreActionState {
  at: number;
  url: string;
  /** The main frame's document before the action: another one afterwards is a navigation. */
  doc?: string;
  /** Each frame's log mark, by ordinal. */
  marks: Marks;
  /** Frames whose log could not be marked before the action. */
  unmarked: string[];
  /** Element states by ID, for value/state outcomes. */
  elements: Map<string, ElementRead>;
  /** Whether each text/selector an outcome looks for was already on the page. */
  present: Map<string, Presence>;
}

const where = (f: HostFrame) => (f.ordinal ? `frame ${f.ordinal}` : 'the page');

async function live(host: ActHost): Promise<HostFrame[]> {
  return (await host.frames()).filter((f) => !f.error);
}

async function readElement(host: ActHost, id: string): Promise<ElementRead> {
  let el;
  try {
    el = await host.resolve(id);
  } catch (e) {
    if (isPagelensError(e, 'UNKNOWN_ID', 'NAVIGATED')) return { kind: 'gone', reason: e.message };
    if (e instanceof PagelensError && e.code === 'BAD_INPUT') throw e;
    return { kind: 'unknown', reason: `element ${id} could not be looked up (${host.describe(e)})` };
  }
  try {
    return { kind: 'state', state: await host.element(el, 'elementState') };
  } catch (e) {
    // A host that looks the element up with the call (the extension's content script) says so there.
    if (isPagelensError(e, 'UNKNOWN_ID', 'NAVIGATED')) return { kind: 'gone', reason: e.message };
    return { kind: 'unknown', reason: `element ${id} could not be read (${host.describe(e)})` };
  } finally {
    await host.release(el).catch(() => {});
  }
}

/**
 * Whether text (or a selector) shows in any frame, read by the engine in its isolated world (the
 * page cannot fake what it reads); frames that could not be searched are named in `unread`.
 */
export async function findOnFrames(host: ActHost, query: { text?: string; selector?: string }, refusal = 'Cannot search the page'): Promise<Presence> {
  const unread: string[] = [];
  const found = await Promise.all((await live(host)).map(async (f) => {
    let r;
    try {
      r = await host.engine(f, 'findOnPage', [query]);
    } catch (e) {
      // Not "absent": a frame that could not be searched leaves the answer open.
      unread.push(`${where(f)} could not be searched (${host.describe(e)})`);
      return false;
    }
    if (!r.ok) throw new PagelensError('BAD_INPUT', `${refusal}: ${r.reason}.`);
    return r.found;
  }));
  return { found: found.some(Boolean), unread };
}

const reader = (host: ActHost): OutcomeReader => ({
  element: (id) => readElement(host, id),
  find: (query, refusal) => findOnFrames(host, query, refusal),
});

/** Each frame's log mark; a frame that does not answer may have been replaced since the last layout: asked again after a fresh one. */
async function markFrames(host: ActHost): Promise<{ marks: Marks; doc?: string; unread: string[] }> {
  const read = async () => Promise.all((await live(host)).map(async (frame) => {
    try {
      return { frame, activity: await host.engine(frame, 'domActivity') };
    } catch (e) {
      return { frame, failure: host.describe(e) };
    }
  }));
  let all = await read();
  if (!all.every((a) => a.activity)) {
    await host.layout(async () => undefined);
    all = await read();
  }
  const marks = new Map<number, FrameMark>();
  const unread: string[] = [];
  let doc: string | undefined;
  for (const { frame, activity, failure } of all) {
    if (!activity) { unread.push(`${where(frame)} could not be read before the action (${failure})`); continue; }
    marks.set(frame.ordinal, { doc: activity.doc, seq: activity.seq, count: activity.count });
    if (frame.ordinal === 0) doc = activity.doc;
  }
  return { marks, unread, ...(doc && { doc }) };
}

export async function capturePre(host: ActHost, expected: ExpectedOutcome | undefined, defaultId?: string): Promise<PreActionState> {
  const { marks, doc, unread } = await markFrames(host);
  const at = Date.now();
  const url = await host.url();
  const before = await readBefore(expected ? flattenOutcome(expected) : [], reader(host), defaultId);
  return { at, url, ...(doc && { doc }), marks, unmarked: unread, elements: before.elements, present: before.present };
}

interface EventsRead { events: MutationEvent[]; domChanged: boolean; unread: string[]; doc?: string }

/** Every frame's events since the marks (frames listed again: a navigation or a new iframe changes them), whether any DOM changed, and the frames whose log could not be read. */
export async function eventsSince(host: ActHost, pre: Pick<PreActionState, 'marks'>): Promise<EventsRead> {
  let domChanged = false;
  let doc: string | undefined;
  const unread: string[] = [];
  const lists = await Promise.all((await live(host)).map(async (frame) => {
    const mark = pre.marks.get(frame.ordinal);
    try {
      const [r, activity] = await Promise.all([
        host.engine(frame, 'mutationsSince', [mark?.doc ?? null, mark?.seq ?? 0]),
        host.engine(frame, 'domActivity'),
      ]);
      if (frame.ordinal === 0) doc = activity.doc;
      if (!mark || mark.doc !== activity.doc || mark.count !== activity.count) domChanged = true;
      return r.events.map((e) => ({ ...e, frame: frame.ordinal }));
    } catch (e) {
      unread.push(`the log of ${where(frame)} could not be read (${host.describe(e)}), so errors shown there are unknown`);
      return [];
    }
  }));
  return { events: lists.flat().sort((a, b) => a.timestamp - b.timestamp), domChanged, unread, ...(doc && { doc }) };
}

/** Polls until one of the alternatives holds or the timeout passes; then lets the page settle and reads its errors. */
export async function verifyOutcome(host: ActHost, pre: PreActionState, expected: ExpectedOutcome, defaultId?: string): Promise<VerificationResult> {
  const alternatives = flattenOutcome(expected);
  const timeout = expected.timeout ?? DEFAULT_TIMEOUT;
  const t0 = performance.now();
  let doc = pre.doc;
  const { met, lastChecks } = await pollChecks({
    alternatives, timeout, describe: (e) => host.describe(e),
    quiet: async (ms) => { await host.settle({ timeoutMs: Math.round(ms), quietMs: 300 }); },
    look: async () => { const seen = await eventsSince(host, pre); doc = seen.doc ?? doc; return seen; },
    check: async (o, events, domChanged) => {
      const url = await host.url();
      return checkOutcome(o, reader(host), pre, { url, moved: url !== pre.url || doc !== pre.doc, domChanged, events }, defaultId);
    },
  });
  // Errors often arrive just after the change that satisfied us (a spinner, then "Invalid email").
  const left = Math.max(300, timeout - (performance.now() - t0));
  const uncertain: string[] = [...pre.unmarked];
  try {
    // Whole milliseconds: a fraction would make the host's wait refuse it, and every short verification uncertain.
    const settled = await host.settle({ timeoutMs: Math.round(Math.min(1500, left)), quietMs: 300 });
    uncertain.push(...settled.uncertain ?? []);
  } catch (e) {
    uncertain.push(`the page could not be watched settling after the action (${host.describe(e)}); late errors may be missed`);
  }
  const { events, domChanged, unread } = await eventsSince(host, pre);
  uncertain.push(...unread);
  return composeVerification({ alternatives, met, lastChecks, events, preUrl: pre.url, url: await host.url(), domChanged, uncertain, timeout });
}
