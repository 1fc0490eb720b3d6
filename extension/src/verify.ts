// Whether an action did what it was meant to, read through the content scripts: every frame's
// mutation-log mark before the action, the target's state, whether looked-for text or a selector
// was there; then the same reads after it. The verdict itself (what counts as met, gone or
// uncertain, and the result) is the shared one in src/model/acting/verdict.ts, as on the CDP host.
import type { MutationEvent } from '../../src/model/pagemodel/mutations.js';
import type { ExpectedOutcome, VerificationResult } from '../../src/model/contracts/outcome.js';
import { checkOutcome, composeVerification, flattenOutcome, pollChecks, readBefore, type ElementRead, type OutcomeReader, type Presence } from '../../src/model/acting/verdict.js';
import { describe } from './layout.js';
import { ask, ExtensionError, ordinalOf, tabState } from './tab.js';
import { readElement } from './target.js';

const DEFAULT_TIMEOUT = 2000;

interface Mark { doc: string; seq: number; count: number }

export interface PreState {
  url: string;
  /** The main frame's document before the action: another one afterwards is a navigation. */
  doc?: string;
  marks: Map<number, Mark>;
  elements: Map<string, ElementRead>;
  present: Map<string, Presence>;
  unread: string[];
}

async function tabUrl(tabId: number): Promise<string> {
  return (await chrome.tabs.get(tabId)).url ?? '';
}

const where = (ordinal: number) => (ordinal ? `frame ${ordinal}` : 'the page');

async function readState(tabId: number, id: string): Promise<ElementRead> {
  try {
    return { kind: 'state', state: await readElement(tabId, id) };
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'UNKNOWN_ID' || code === 'NAVIGATED') return { kind: 'gone', reason: describe(e) };
    return { kind: 'unknown', reason: `element ${id} could not be read (${describe(e)})` };
  }
}

/** Whether text (or a selector) shows in any frame, read by the engine; frames that could not be searched are named. */
async function onPage(tabId: number, query: { text?: string; selector?: string }, refusal: string): Promise<Presence> {
  const unread: string[] = [];
  const found = await Promise.all([...tabState(tabId).frameOf].map(async ([ordinal, frameId]) => {
    let r;
    try {
      r = await ask(tabId, frameId, { kind: 'findOnPage', query });
    } catch (e) {
      // Not "absent": a frame that could not be searched leaves the answer open.
      unread.push(`${where(ordinal)} could not be searched (${describe(e)})`);
      return false;
    }
    if (!r.ok) throw new ExtensionError('BAD_INPUT', `${refusal}: ${r.reason}.`);
    return r.found;
  }));
  return { found: found.some(Boolean), unread };
}

/** The extension's reads for the shared verdict. */
const reader = (tabId: number): OutcomeReader => ({
  element: (id) => readState(tabId, id),
  find: (query, refusal) => onPage(tabId, query, refusal),
});

export async function capturePre(tabId: number, expected: ExpectedOutcome | undefined, target: string | undefined): Promise<PreState> {
  const state = tabState(tabId);
  const pre: PreState = { url: await tabUrl(tabId), marks: new Map(), elements: new Map(), present: new Map(), unread: [] };
  await Promise.all([...state.frameOf].map(async ([ordinal, frameId]) => {
    try {
      const a = await ask(tabId, frameId, { kind: 'activity' });
      pre.marks.set(frameId, { doc: a.doc, seq: a.seq, count: a.count });
      if (frameId === 0) pre.doc = a.doc;
    } catch (e) {
      pre.unread.push(`${where(ordinal)} could not be read before the action (${describe(e)})`);
    }
  }));
  const before = await readBefore(expected ? flattenOutcome(expected) : [], reader(tabId), target);
  pre.elements = before.elements;
  pre.present = before.present;
  return pre;
}

/** Waits until the tab has loaded and the acted-on frames' DOM has been quiet for a moment (at most `timeout`). */
export async function settle(tabId: number, frameIds: number[], timeout = 2000): Promise<void> {
  const end = Date.now() + timeout;
  await new Promise((r) => setTimeout(r, 50));
  while (Date.now() < end) {
    const tab = await chrome.tabs.get(tabId).catch(() => undefined);
    if (tab?.status === 'complete') {
      const quiet = await Promise.all(frameIds.map((f) => ask(tabId, f, { kind: 'activity' }).then((a) => a.quietMs >= 150 && a.readyState === 'complete', () => false)));
      if (quiet.every(Boolean)) return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every frame's events since the marks, whether any DOM changed, and the frames whose log could not be read. */
async function eventsSince(tabId: number, pre: PreState): Promise<{ events: MutationEvent[]; domChanged: boolean; unread: string[]; doc?: string }> {
  const state = tabState(tabId);
  // Frames are listed again: a navigation or a new iframe changes them.
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []).map((f) => f.frameId);
  const events: MutationEvent[] = [];
  const unread: string[] = [];
  let domChanged = false;
  let doc: string | undefined;
  await Promise.all(frames.map(async (frameId) => {
    const mark = pre.marks.get(frameId);
    try {
      const [r, a] = await Promise.all([ask(tabId, frameId, { kind: 'mutationsSince', doc: mark?.doc ?? null, seq: mark?.seq ?? 0 }), ask(tabId, frameId, { kind: 'activity' })]);
      if (frameId === 0) doc = a.doc;
      if (!mark || mark.doc !== a.doc || mark.count !== a.count) domChanged = true;
      const ordinal = ordinalOf(state, frameId);
      events.push(...r.events.map((e) => ({ ...e, frame: ordinal })));
    } catch (e) {
      if (mark) unread.push(`the log of ${where(ordinalOf(state, frameId))} could not be read (${describe(e)}), so errors shown there are unknown`);
    }
  }));
  events.sort((a, b) => a.timestamp - b.timestamp);
  return { events, domChanged, unread, doc };
}

export async function verify(tabId: number, pre: PreState, expected: ExpectedOutcome, target: string | undefined, frameIds: number[]): Promise<VerificationResult> {
  const alternatives = flattenOutcome(expected);
  const timeout = expected.timeout ?? DEFAULT_TIMEOUT;
  const t0 = Date.now();
  let doc: string | undefined = pre.doc;
  const { met, lastChecks } = await pollChecks({
    alternatives, timeout, describe,
    quiet: (ms) => settle(tabId, frameIds, ms),
    look: async () => { const seen = await eventsSince(tabId, pre); doc = seen.doc ?? doc; return seen; },
    check: async (o, events, domChanged) => {
      const url = await tabUrl(tabId);
      return checkOutcome(o, reader(tabId), pre, { url, moved: url !== pre.url || doc !== pre.doc, domChanged, events }, target);
    },
  });
  // Errors often arrive just after the change that satisfied us (a spinner, then "Invalid email").
  await settle(tabId, frameIds, Math.min(1500, Math.max(300, timeout - (Date.now() - t0))));
  const { events, domChanged, unread } = await eventsSince(tabId, pre);
  return composeVerification({ alternatives, met, lastChecks, events, preUrl: pre.url, url: await tabUrl(tabId), domChanged, uncertain: [...pre.unread, ...unread], timeout });
}
