// Sentinel verification: what the page looked like before an action, and whether afterwards it
// did what the action was meant to do. Errors the page showed meanwhile (even for one second)
// come from the mutation log and fail the verification whatever else happened. A check that
// could not be made makes the verdict uncertain (with the reason), never quietly positive.
import type { ElementState } from '../model/engine.js';
import { PagelensError, isPagelensError } from '../model/errors.js';
import { ExpectedOutcome, eventText, isErrorEvent, type MutationEvent, type OutcomeType, type VerificationResult } from '../model/outcome.js';
import { parseInput } from '../model/validate.js';
import type { LensCore } from './core.js';
import { elementCall, engineCall } from './engine.js';
import { eventsSince, markFrames, renderEvents, type Marks } from './events.js';
import { describeFailure } from './frames.js';
import { waitForDomStability } from './stability.js';

const DEFAULT_TIMEOUT = 2000;
const POLL_MS = 100;
const GROUP = 'pagelens-verify';

/** An element as read for a value/state/disappearance check. */
type ElementRead =
  | { kind: 'state'; state: ElementState }
  /** Certainly gone: removed, or its document is gone. */
  | { kind: 'gone'; reason: string }
  /** Could not be read: nothing is known. */
  | { kind: 'unknown'; reason: string };

/** Whether something is on the page: `unread` names frames that could not be searched. */
export interface Presence { found: boolean; unread: string[] }

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

function flatten(o: ExpectedOutcome): ExpectedOutcome[] {
  return o.orOutcome ? [o, ...flatten(o.orOutcome)] : [o];
}

const queryKey = (o: ExpectedOutcome) => (o.selector ? `css:${o.selector}` : `text:${o.text}`);

export async function capturePreActionState(core: LensCore, expectedInput?: ExpectedOutcome, defaultId?: string): Promise<PreActionState> {
  const expected = expectedInput === undefined ? undefined : parseInput(ExpectedOutcome, expectedInput, 'expected outcome');
  const { marks, unread } = await markFrames(core);
  const state: PreActionState = { at: Date.now(), url: core.page.url(), navigations: core.navigations, marks, unmarked: unread, elements: new Map(), present: new Map() };
  for (const o of expected ? flatten(expected) : []) {
    const id = o.id ?? defaultId;
    if (id && (o.type === 'value_changes' || o.type === 'state_changes' || (o.type === 'element_disappears' && !o.text && !o.selector))) {
      const before = await readElement(core, id);
      // An element that is not there before the action cannot disappear because of it.
      if (before.kind === 'gone' && o.type === 'element_disappears') throw new PagelensError('BAD_INPUT', `Cannot verify element_disappears: element ${id} is not on the page before the action (${before.reason}); expected the ID of an element the page shows now.`);
      state.elements.set(id, before);
    }
    // Also where an invalid selector is refused: before the action, not after it.
    if ((o.type === 'element_appears' || o.type === 'element_disappears') && (o.text || o.selector)) {
      state.present.set(queryKey(o), await onPage(core, o));
    }
  }
  return state;
}

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

async function onPage(core: LensCore, o: ExpectedOutcome): Promise<Presence> {
  return findOnFrames(core, o.selector ? { selector: o.selector } : { text: o.text }, `Cannot verify ${o.type}`);
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

interface Check { met: boolean; actual: string; confidence: number; uncertain?: string[] }

async function check(core: LensCore, o: ExpectedOutcome, pre: PreActionState, events: MutationEvent[], domChanged: boolean, defaultId?: string): Promise<Check> {
  const url = core.page.url();
  const id = o.id ?? defaultId;
  switch (o.type) {
    case 'navigation': {
      const moved = url !== pre.url || core.navigations > pre.navigations;
      const fits = !o.urlContains || url.includes(o.urlContains);
      return { met: moved && fits, confidence: 0.95, actual: moved ? `navigated to ${url}${fits ? '' : ` (expected a URL containing "${o.urlContains}")`}` : `URL unchanged (${url})` };
    }
    case 'element_appears': case 'element_disappears': {
      if (!o.text && !o.selector) {
        if (!id) return { met: false, confidence: 0.5, actual: 'no element to watch (give the outcome an id)' };
        const was = pre.elements.get(id);
        if (!was) return { met: false, confidence: 0.5, actual: `element ${id} was not looked at before the action`, uncertain: ['whether it was there before the action is unknown'] };
        if (was.kind === 'gone') throw new PagelensError('BAD_INPUT', `Cannot verify element_disappears: element ${id} was not on the page before the action (${was.reason}).`);
        const el = await readElement(core, id);
        if (el.kind === 'unknown') return { met: false, confidence: 0.5, actual: `element ${id} could not be read`, uncertain: [el.reason] };
        const gone = el.kind === 'gone' || !el.state.connected || !el.state.visible;
        return { met: gone, confidence: 0.9, actual: gone ? `element ${id} is gone` : `element ${id} is still shown` };
      }
      const what = o.selector ? `an element matching ${o.selector}` : `"${o.text}"`;
      const now = await onPage(core, o);
      const before = pre.present.get(queryKey(o)) ?? { found: false, unread: ['it was not looked for before the action'] };
      const uncertain = [...before.unread, ...now.unread];
      if (o.type === 'element_disappears') {
        // Not found where we could look is not "gone" while some frame could not be searched.
        const met = before.found && !now.found && now.unread.length === 0;
        return {
          met, confidence: 0.9, ...(uncertain.length && { uncertain }),
          actual: now.found ? `${what} is still shown` : !before.found ? `${what} was not there to begin with` : now.unread.length ? `${what} was not found where the page could be searched` : `${what} disappeared`,
        };
      }
      const wanted = (o.text ?? '').toLowerCase();
      const flashed = !!o.text && events.some((e) => e.type !== 'removed' && e.description.toLowerCase().includes(wanted));
      const met = (now.found && !before.found) || flashed;
      return {
        met, confidence: now.found ? 0.9 : 0.8, ...(!met && uncertain.length && { uncertain }),
        actual: met ? `${what} appeared${now.found ? '' : ' (and is gone again)'}` : now.found ? `${what} was already shown before the action` : `${what} did not appear`,
      };
    }
    case 'value_changes': case 'state_changes': {
      if (!id) return { met: false, confidence: 0.5, actual: 'no element to watch (give the outcome an id)' };
      const before = pre.elements.get(id);
      const after = await readElement(core, id);
      if (after.kind === 'unknown') return { met: false, confidence: 0.5, actual: `element ${id} could not be read`, uncertain: [after.reason] };
      if (after.kind === 'gone') return { met: false, confidence: 0.7, actual: `element ${id} is gone` };
      const a = after.state;
      const b = before?.kind === 'state' ? before.state : undefined;
      const beforeUnknown = before?.kind === 'unknown' ? [before.reason] : [];
      if (o.type === 'value_changes') {
        const met = b ? b.valueKey !== a.valueKey : beforeUnknown.length === 0;
        return { met, confidence: 0.9, ...(beforeUnknown.length && { uncertain: beforeUnknown }), actual: met ? `value is now "${a.value ?? ''}"` : `value unchanged ("${a.value ?? ''}")` };
      }
      const key = (s: ElementState) => `${s.checked}|${s.states.filter((x) => x !== 'focused').join(',')}`;
      const shown = a.checked === null ? `states [${a.states.join(', ')}]` : a.checked === true ? 'checked' : a.checked === 'mixed' ? 'mixed' : 'unchecked';
      const met = b ? key(b) !== key(a) : false;
      return { met, confidence: 0.9, ...(beforeUnknown.length && { uncertain: beforeUnknown }), actual: met ? `state is now ${shown}` : b ? `state unchanged (${shown})` : `state is ${shown}; what it was before is unknown` };
    }
    case 'any_change': {
      const moved = url !== pre.url || core.navigations > pre.navigations;
      return { met: domChanged || moved, confidence: 0.6, actual: moved ? `navigated to ${url}` : domChanged ? 'the page changed' : 'nothing on the page changed' };
    }
    case 'no_change': {
      // Nothing changed means nothing: not the address, not the document, not the DOM.
      const moved = url !== pre.url || core.navigations > pre.navigations;
      const what = moved ? `navigated to ${url}` : domChanged ? `the page changed (${changeSummary(events)})` : 'nothing changed';
      return { met: !moved && !domChanged, confidence: 0.7, actual: what };
    }
  }
}

/** Polls until one of the alternatives holds or the timeout passes; then lets the page settle and reads its errors. */
export async function verifyOutcome(core: LensCore, pre: PreActionState, expectedInput: ExpectedOutcome, defaultId?: string): Promise<VerificationResult> {
  const expected = parseInput(ExpectedOutcome, expectedInput, 'expected outcome');
  const alternatives = flatten(expected);
  const timeout = expected.timeout ?? DEFAULT_TIMEOUT;
  const t0 = performance.now();
  let met: { o: ExpectedOutcome; c: Check } | null = null;
  let lastChecks: Check[] = [];
  const waitsOnly = alternatives.every((o) => o.type === 'no_change');
  for (;;) {
    if (waitsOnly) await waitForDomStability(core, { timeout, stabilityThreshold: 300 });
    const { events, domChanged } = await eventsSince(core, pre.marks);
    lastChecks = [];
    for (const o of alternatives) {
      let c: Check;
      try {
        c = await check(core, o, pre, events, domChanged, defaultId);
      } catch (e) {
        if (isPagelensError(e, 'BAD_INPUT')) throw e;
        c = { met: false, confidence: 0.5, actual: `could not check ${o.type}`, uncertain: [describeFailure(e)] };
      }
      lastChecks.push(c);
      if (c.met) { met = { o, c }; break; }
    }
    // A change that happened does not unhappen: no_change is settled by its first look.
    if (met || waitsOnly || performance.now() - t0 >= timeout) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
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
  for (const c of met ? [met.c] : lastChecks) uncertain.push(...c.uncertain ?? []);
  const expectedTexts = alternatives.filter((o) => o.type === 'element_appears' && o.text).map((o) => o.text!.toLowerCase());
  const errors = unique(events.filter(isErrorEvent).map(eventText).filter((t) => !expectedTexts.some((x) => t.toLowerCase().includes(x))));
  const successes = unique(events.filter((e) => e.category === 'success' && e.type !== 'removed').map(eventText));
  const url = core.page.url();
  // A navigation that ends on the browser's own error page moved the URL, but nothing loaded:
  // that is a failure, whatever outcome was asked for.
  if (url.startsWith('chrome-error://')) errors.unshift(`the page could not be loaded${failedUrl(events) ? ` (${failedUrl(events)})` : ''}: the browser shows its error page`);
  const success = !!met && errors.length === 0;
  const verified: OutcomeType | null = met ? met.o.type : null;
  const actual = met ? met.c.actual : lastChecks.map((c) => c.actual).join('; ');
  const doubts = unique(uncertain);
  let confidence = errors.length ? 0.9 : met ? met.c.confidence : 0.7;
  if (doubts.length) confidence = Math.round(confidence * 0.6 * 100) / 100;
  return {
    success,
    verifiedOutcome: verified,
    actualOutcome: actual,
    errorsDetected: errors,
    successMessages: successes,
    pageState: { url, urlChanged: url !== pre.url, domChanged, recentMutations: renderEvents(events.slice(-10)) },
    confidence,
    feedback: feedback(alternatives, success, met?.c ?? null, actual, errors, successes, timeout, doubts),
    ...(doubts.length && { uncertain: doubts }),
  };
}

/** The last few changes, in words, for an answer that must say what changed. */
function changeSummary(events: MutationEvent[]): string {
  const shown = renderEvents(events.slice(-3));
  return shown.length ? shown.join('; ') : 'the DOM was modified';
}

/** The address the browser's error page names, if its text says. */
function failedUrl(events: MutationEvent[]): string | undefined {
  for (const e of events) {
    const m = /\b(https?:\/\/[^\s'"<>]+)/.exec(eventText(e));
    if (m) return m[1].replace(/[.,;:)]+$/, '');
  }
  return undefined;
}

function describeOutcome(o: ExpectedOutcome): string {
  switch (o.type) {
    case 'navigation': return o.urlContains ? `navigation to a URL containing "${o.urlContains}"` : 'navigation';
    case 'element_appears': return `${o.selector ?? `"${o.text}"`} to appear`;
    case 'element_disappears': return `${o.selector ?? (o.text ? `"${o.text}"` : `element ${o.id ?? ''}`.trim())} to disappear`;
    case 'value_changes': return 'the value to change';
    case 'state_changes': return 'the state to change';
    case 'any_change': return 'a change on the page';
    case 'no_change': return 'no change on the page';
  }
}

function feedback(alts: ExpectedOutcome[], success: boolean, met: Check | null, actual: string, errors: string[], successes: string[], timeout: number, doubts: string[]): string {
  const wanted = alts.map(describeOutcome).join(' or ');
  const errs = errors.length ? ` Error${errors.length > 1 ? 's' : ''} shown: ${errors.map((e) => `'${e}'`).join(', ')}.` : '';
  const ok = successes.length ? ` Success message: ${successes.map((e) => `'${e}'`).join(', ')}.` : '';
  const unsure = doubts.length ? ` Uncertain: ${doubts.join('; ')}.` : '';
  if (success) return `Verified: ${actual}.${ok}${unsure}`;
  if (met) return `Expected ${wanted}: ${actual}, but the page showed an error.${errs}${unsure} The action probably did not work; fix the cause before continuing.`;
  return `Expected ${wanted} within ${timeout} ms, but ${actual}.${errs}${ok}${unsure} The action may not have worked: look at the page again before continuing.`;
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/** Sensible defaults: a click should change something, setValue the value, navigate the URL. */
export function defaultOutcome(kind: 'click' | 'setValue' | 'navigate', id?: string): ExpectedOutcome {
  if (kind === 'setValue') return { type: 'value_changes', ...(id && { id }) };
  if (kind === 'navigate') return { type: 'navigation' };
  return { type: 'any_change' };
}
