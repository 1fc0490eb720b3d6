// Whether an action did what it was meant to: the state before (every frame's mutation-log mark,
// the target's state, whether looked-for text was there) against the state after. Errors the page
// showed meanwhile fail the verdict; a check that could not be made is named in `uncertain`.
import type { ElementState } from '../../src/model/engine.js';
import { eventText, isErrorEvent, type MutationEvent } from '../../src/model/mutations.js';
import type { ExpectedOutcome, OutcomeType, VerificationResult } from '../../src/model/outcome.js';
import { describe } from './layout.js';
import { renderEvents } from './snapshot.js';
import { ask, ExtensionError, tabState } from './tab.js';
import { readElement } from './target.js';

interface Mark { doc: string; seq: number; count: number }
type ElementRead = { kind: 'state'; state: ElementState } | { kind: 'gone'; reason: string } | { kind: 'unknown'; reason: string };

export interface PreState {
  url: string;
  marks: Map<number, Mark>;
  elements: Map<string, ElementRead>;
  present: Map<string, Presence>;
  unread: string[];
}

function flatten(o: ExpectedOutcome): ExpectedOutcome[] {
  return o.orOutcome ? [o, ...flatten(o.orOutcome)] : [o];
}

async function tabUrl(tabId: number): Promise<string> {
  return (await chrome.tabs.get(tabId)).url ?? '';
}

async function readState(tabId: number, id: string): Promise<ElementRead> {
  try {
    return { kind: 'state', state: await readElement(tabId, id) };
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'UNKNOWN_ID' || code === 'NAVIGATED') return { kind: 'gone', reason: describe(e) };
    return { kind: 'unknown', reason: `element ${id} could not be read (${describe(e)})` };
  }
}

/** Whether a text is on the page; `unread` names the frames that could not be searched. */
interface Presence { found: boolean; unread: string[] }

async function onPage(tabId: number, text: string): Promise<Presence> {
  const unread: string[] = [];
  const found = await Promise.all([...tabState(tabId).frameOf].map(async ([ordinal, frameId]) => {
    try {
      return await ask(tabId, frameId, { kind: 'findText', text });
    } catch (e) {
      // Not "absent": a frame that could not be searched leaves the answer open.
      unread.push(`${ordinal ? `frame ${ordinal}` : 'the page'} could not be searched for "${text}" (${describe(e)})`);
      return false;
    }
  }));
  return { found: found.some(Boolean), unread };
}

export async function capturePre(tabId: number, expected: ExpectedOutcome | undefined, target: string | undefined): Promise<PreState> {
  const state = tabState(tabId);
  const pre: PreState = { url: await tabUrl(tabId), marks: new Map(), elements: new Map(), present: new Map(), unread: [] };
  await Promise.all([...state.frameOf].map(async ([ordinal, frameId]) => {
    try {
      const a = await ask(tabId, frameId, { kind: 'activity' });
      pre.marks.set(frameId, { doc: a.doc, seq: a.seq, count: a.count });
    } catch (e) {
      pre.unread.push(`${ordinal ? `frame ${ordinal}` : 'the page'} could not be read before the action (${describe(e)})`);
    }
  }));
  for (const o of expected ? flatten(expected) : []) {
    const id = o.id ?? target;
    if (id && (o.type === 'value_changes' || o.type === 'state_changes' || (o.type === 'element_disappears' && !o.text))) {
      const before = await readState(tabId, id);
      // An element that is not there before the action cannot disappear because of it.
      if (before.kind === 'gone' && o.type === 'element_disappears') throw new ExtensionError('BAD_INPUT', `cannot verify element_disappears: element ${id} is not on the page before the action (${before.reason})`);
      pre.elements.set(id, before);
    }
    if ((o.type === 'element_appears' || o.type === 'element_disappears') && o.text) pre.present.set(o.text, await onPage(tabId, o.text));
  }
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

function stateKey(s: ElementState): string {
  return JSON.stringify([s.checked, s.states, s.role, s.name]);
}

export async function verify(tabId: number, pre: PreState, expected: ExpectedOutcome, target: string | undefined): Promise<VerificationResult> {
  const url = await tabUrl(tabId);
  const urlChanged = url !== pre.url;
  const uncertain = [...pre.unread];
  let domChanged = false;
  const events: MutationEvent[] = [];
  const state = tabState(tabId);
  // Frames are listed again: a navigation or a new iframe changes them.
  const frames = ((await chrome.webNavigation.getAllFrames({ tabId })) ?? []).map((f) => f.frameId);
  await Promise.all(frames.map(async (frameId) => {
    const mark = pre.marks.get(frameId);
    try {
      const [r, a] = await Promise.all([ask(tabId, frameId, { kind: 'mutationsSince', doc: mark?.doc ?? null, seq: mark?.seq ?? 0 }), ask(tabId, frameId, { kind: 'activity' })]);
      if (!mark || mark.doc !== a.doc || mark.count !== a.count) domChanged = true;
      const ordinal = state.ordinals.get(frameId) ?? 0;
      events.push(...r.events.map((e) => ({ ...e, frame: ordinal })));
    } catch (e) {
      if (mark) uncertain.push(`the log of frame ${frameId} could not be read (${describe(e)}), so errors shown there are unknown`);
    }
  }));
  events.sort((a, b) => a.timestamp - b.timestamp);
  const errors = [...new Set(events.filter(isErrorEvent).map(eventText))];
  const successes = [...new Set(events.filter((e) => e.category === 'success' && e.type !== 'removed').map(eventText))];

  let verified: OutcomeType | null = null;
  let actual = '';
  for (const o of flatten(expected)) {
    const id = o.id ?? target;
    const r = await check(tabId, o, id, pre, { urlChanged, url, domChanged });
    if (r.uncertain) uncertain.push(r.uncertain);
    actual ||= r.actual;
    if (r.ok) { verified = o.type; actual = r.actual; break; }
  }
  const success = verified !== null && errors.length === 0;
  const feedback = errors.length ? `the page showed an error: ${errors[0]}` : success ? `verified: ${actual}` : `not verified: ${actual}`;
  return {
    success, verifiedOutcome: verified, actualOutcome: actual, errorsDetected: errors, successMessages: successes,
    pageState: { url, urlChanged, domChanged, recentMutations: renderEvents(events.slice(-10)) },
    confidence: success ? (uncertain.length ? 0.6 : 0.9) : 0.2,
    feedback,
    ...(uncertain.length > 0 && { uncertain }),
  };
}

async function check(
  tabId: number, o: ExpectedOutcome, id: string | undefined, pre: PreState, now: { urlChanged: boolean; url: string; domChanged: boolean },
): Promise<{ ok: boolean; actual: string; uncertain?: string }> {
  switch (o.type) {
    case 'navigation': {
      const ok = now.urlChanged && (!o.urlContains || now.url.includes(o.urlContains));
      return { ok, actual: now.urlChanged ? `navigated to ${now.url}` : 'the URL did not change' };
    }
    case 'any_change': return { ok: now.urlChanged || now.domChanged, actual: now.urlChanged || now.domChanged ? 'the page changed' : 'nothing on the page changed' };
    case 'no_change': return { ok: !now.urlChanged && !now.domChanged, actual: now.domChanged ? 'the page changed' : 'nothing changed' };
    case 'value_changes': case 'state_changes': {
      const before = id ? pre.elements.get(id) : undefined;
      if (!id || !before) return { ok: false, actual: 'no element to watch' };
      if (before.kind !== 'state') return { ok: false, actual: `element ${id} could not be read before the action`, uncertain: before.reason };
      const after = await readState(tabId, id);
      if (after.kind !== 'state') return { ok: false, actual: after.reason, ...(after.kind === 'unknown' && { uncertain: after.reason }) };
      if (o.type === 'value_changes') {
        const ok = after.state.valueKey !== before.state.valueKey;
        return { ok, actual: ok ? `the value of ${id} is now ${JSON.stringify(after.state.value ?? '')}` : `the value of ${id} did not change` };
      }
      const ok = stateKey(after.state) !== stateKey(before.state);
      return { ok, actual: ok ? `the state of ${id} changed (${after.state.states.join(',') || 'no states'})` : `the state of ${id} did not change` };
    }
    case 'element_appears': case 'element_disappears': {
      if (o.text) {
        const was = pre.present.get(o.text) ?? { found: false, unread: ['the page was not searched before the action'] };
        const now = await onPage(tabId, o.text);
        const unread = [...was.unread, ...now.unread];
        const actual = `"${o.text}" is ${now.found ? '' : 'not '}on the page`;
        // A frame that could not be searched may hold the text: neither "appeared" nor "gone" is known then.
        if (unread.length) return { ok: false, actual, uncertain: unread.join('; ') };
        const ok = o.type === 'element_appears' ? now.found && !was.found : was.found && !now.found;
        return { ok, actual };
      }
      if (o.selector) return { ok: false, actual: 'selectors are not checked by the extension yet', uncertain: `selector ${o.selector} was not checked` };
      if (!id) return { ok: false, actual: 'no element to watch' };
      if (!pre.elements.has(id)) return { ok: false, actual: `element ${id} was not looked at before the action`, uncertain: 'whether it was there before the action is unknown' };
      const after = await readState(tabId, id);
      const gone = after.kind === 'gone' || (after.kind === 'state' && !after.state.visible);
      return { ok: gone, actual: gone ? `element ${id} is gone` : `element ${id} is still there` };
    }
  }
}
