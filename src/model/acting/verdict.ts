// The verification verdict, written once for every host (issue 19): whether an expected outcome
// holds, judged from what the host read before and after the action (the address, the mutation log,
// an element's state, whether text or a selector shows), and the result built from the checks. The
// hosts only read; every rule about what counts as "met", "gone", "uncertain" lives here, so the
// CDP host and the extension cannot drift apart again.
import type { ElementState } from '../contracts/engine.js';
import { PagelensError } from '../contracts/errors.js';
import { eventText, isErrorEvent, renderEvents, type MutationEvent } from '../pagemodel/mutations.js';
import type { ExpectedOutcome, OutcomeType, VerificationResult } from '../contracts/outcome.js';

/** An element as read for a value/state/disappearance check. */
export type ElementRead =
  | { kind: 'state'; state: ElementState }
  /** Certainly gone: removed, or its document is gone. */
  | { kind: 'gone'; reason: string }
  /** Could not be read: nothing is known. */
  | { kind: 'unknown'; reason: string };

/** Whether something is on the page: `unread` names frames that could not be searched. */
export interface Presence { found: boolean; unread: string[] }

/** One check of one expected outcome. */
export interface Check { met: boolean; actual: string; confidence: number; uncertain?: string[] }

export function flattenOutcome(o: ExpectedOutcome): ExpectedOutcome[] {
  return o.orOutcome ? [o, ...flattenOutcome(o.orOutcome)] : [o];
}

/** The key a text/selector outcome's presence is remembered under. */
const presenceKey = (o: ExpectedOutcome) => (o.selector ? `css:${o.selector}` : `text:${o.text}`);

/** What a host must read for an outcome: the element `id` (before and after) and/or a presence query. */
function outcomeNeeds(o: ExpectedOutcome, defaultId?: string): { element?: string; query?: { text?: string; selector?: string } } {
  const id = o.id ?? defaultId;
  const byQuery = (o.type === 'element_appears' || o.type === 'element_disappears') && !!(o.text || o.selector);
  const byElement = o.type === 'value_changes' || o.type === 'state_changes' || (o.type === 'element_disappears' && !byQuery);
  return {
    ...(byElement && id && { element: id }),
    ...(byQuery && { query: o.selector ? { selector: o.selector } : { text: o.text } }),
  };
}

/** Before the action: an element that is not there cannot disappear because of it (BAD_INPUT, not "gone"). */
function refuseAbsentTarget(o: ExpectedOutcome, id: string, before: ElementRead): void {
  if (before.kind === 'gone' && o.type === 'element_disappears') {
    throw new PagelensError('BAD_INPUT', `Cannot verify element_disappears: element ${id} is not on the page before the action (${before.reason}); expected the ID of an element the page shows now.`);
  }
}

/** How a host reads what outcomes need: one element's state, and whether a query shows in any frame. */
export interface OutcomeReader {
  element(id: string): Promise<ElementRead>;
  /** Throws BAD_INPUT (with `refusal`) for a query the engine cannot run (an invalid selector). */
  find(query: { text?: string; selector?: string }, refusal: string): Promise<Presence>;
}

/** What the outcomes need read before the action (an absent element_disappears target is BAD_INPUT here, before acting). */
export interface Before { elements: Map<string, ElementRead>; present: Map<string, Presence> }

export async function readBefore(alternatives: ExpectedOutcome[], read: OutcomeReader, defaultId?: string): Promise<Before> {
  const before: Before = { elements: new Map(), present: new Map() };
  for (const o of alternatives) {
    const need = outcomeNeeds(o, defaultId);
    if (need.element) {
      const el = await read.element(need.element);
      refuseAbsentTarget(o, need.element, el);
      before.elements.set(need.element, el);
    }
    // Also where an invalid selector is refused: before the action, not after it.
    if (need.query) before.present.set(presenceKey(o), await read.find(need.query, `Cannot verify ${o.type}`));
  }
  return before;
}

/** Reads what `o` needs now and judges it against what was read before. */
export async function checkOutcome(o: ExpectedOutcome, read: OutcomeReader, before: Before, page: Pick<Observed, 'url' | 'moved' | 'domChanged' | 'events'>, defaultId?: string): Promise<Check> {
  const need = outcomeNeeds(o, defaultId);
  return judgeOutcome(o, {
    ...page,
    ...(need.element && { before: before.elements.get(need.element), after: await read.element(need.element) }),
    ...(need.query && { presentBefore: before.present.get(presenceKey(o)), presentNow: await read.find(need.query, `Cannot verify ${o.type}`) }),
  }, defaultId);
}

/** What a host gives the shared polling loop: how to wait for quiet, look at the log, and check one outcome. */
export interface CheckLoop {
  alternatives: ExpectedOutcome[];
  timeout: number;
  /** Waits (at most `timeoutMs`) for the page to be quiet: no_change alone is judged once, after that. */
  quiet(timeoutMs: number): Promise<void>;
  /** The events since the action and whether any frame's DOM changed. */
  look(): Promise<{ events: MutationEvent[]; domChanged: boolean }>;
  check(o: ExpectedOutcome, events: MutationEvent[], domChanged: boolean): Promise<Check>;
  /** A failure in words (each host knows its own errors). */
  describe(e: unknown): string;
}

const POLL_MS = 100;

/**
 * Checks the alternatives in order until one holds or the timeout passes. A check that throws is
 * not met and says why (uncertain); BAD_INPUT (a question that cannot be asked) is thrown on.
 */
export async function pollChecks(loop: CheckLoop): Promise<{ met: { o: ExpectedOutcome; c: Check } | null; lastChecks: Check[] }> {
  const t0 = performance.now();
  const waitsOnly = loop.alternatives.every((o) => o.type === 'no_change');
  for (;;) {
    if (waitsOnly) await loop.quiet(loop.timeout);
    const { events, domChanged } = await loop.look();
    const lastChecks: Check[] = [];
    for (const o of loop.alternatives) {
      let c: Check;
      try {
        c = await loop.check(o, events, domChanged);
      } catch (e) {
        if ((e as { code?: unknown } | null)?.code === 'BAD_INPUT') throw e;
        c = failedCheck(o, loop.describe(e));
      }
      lastChecks.push(c);
      if (c.met) return { met: { o, c }, lastChecks };
    }
    // A change that happened does not unhappen: no_change is settled by its first look.
    if (waitsOnly || performance.now() - t0 >= loop.timeout) return { met: null, lastChecks };
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** What the host read after the action, for one outcome. */
export interface Observed {
  url: string;
  /** The address changed or the main frame loaded another document. */
  moved: boolean;
  domChanged: boolean;
  events: MutationEvent[];
  /** The element of `outcomeNeeds(o).element`: as it was before the action, and now. */
  before?: ElementRead;
  after?: ElementRead;
  /** The query of `outcomeNeeds(o).query`: before the action, and now. */
  presentBefore?: Presence;
  presentNow?: Presence;
}

const stateKey = (s: ElementState) => `${s.checked}|${s.states.filter((x) => x !== 'focused').join(',')}`;

/** Whether `o` holds, from what was observed. Throws BAD_INPUT for an outcome that cannot be asked. */
export function judgeOutcome(o: ExpectedOutcome, seen: Observed, defaultId?: string): Check {
  const id = o.id ?? defaultId;
  const { url, moved, domChanged, events } = seen;
  switch (o.type) {
    case 'navigation': {
      const fits = !o.urlContains || url.includes(o.urlContains);
      return { met: moved && fits, confidence: 0.95, actual: moved ? `navigated to ${url}${fits ? '' : ` (expected a URL containing "${o.urlContains}")`}` : `URL unchanged (${url})` };
    }
    case 'element_appears': case 'element_disappears': {
      if (!o.text && !o.selector) {
        if (!id) return { met: false, confidence: 0.5, actual: 'no element to watch (give the outcome an id)' };
        const was = seen.before;
        if (!was) return { met: false, confidence: 0.5, actual: `element ${id} was not looked at before the action`, uncertain: ['whether it was there before the action is unknown'] };
        if (was.kind === 'gone') throw new PagelensError('BAD_INPUT', `Cannot verify element_disappears: element ${id} was not on the page before the action (${was.reason}).`);
        const el = seen.after;
        if (!el || el.kind === 'unknown') return { met: false, confidence: 0.5, actual: `element ${id} could not be read`, uncertain: [el?.reason ?? `element ${id} was not read after the action`] };
        const gone = el.kind === 'gone' || !el.state.connected || !el.state.visible;
        return { met: gone, confidence: 0.9, actual: gone ? `element ${id} is gone` : `element ${id} is still shown` };
      }
      const what = o.selector ? `an element matching ${o.selector}` : `"${o.text}"`;
      const now = seen.presentNow ?? { found: false, unread: ['it was not looked for after the action'] };
      const before = seen.presentBefore ?? { found: false, unread: ['it was not looked for before the action'] };
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
      const before = seen.before;
      const after = seen.after;
      if (!after || after.kind === 'unknown') return { met: false, confidence: 0.5, actual: `element ${id} could not be read`, uncertain: [after?.reason ?? `element ${id} was not read after the action`] };
      if (after.kind === 'gone') return { met: false, confidence: 0.7, actual: `element ${id} is gone` };
      const a = after.state;
      const b = before?.kind === 'state' ? before.state : undefined;
      const beforeUnknown = before?.kind === 'unknown' ? [before.reason] : [];
      if (o.type === 'value_changes') {
        const met = b ? b.valueKey !== a.valueKey : beforeUnknown.length === 0;
        return { met, confidence: 0.9, ...(beforeUnknown.length && { uncertain: beforeUnknown }), actual: met ? `value is now "${a.value ?? ''}"` : `value unchanged ("${a.value ?? ''}")` };
      }
      const shown = a.checked === null ? `states [${a.states.join(', ')}]` : a.checked === true ? 'checked' : a.checked === 'mixed' ? 'mixed' : 'unchecked';
      const met = b ? stateKey(b) !== stateKey(a) : false;
      return { met, confidence: 0.9, ...(beforeUnknown.length && { uncertain: beforeUnknown }), actual: met ? `state is now ${shown}` : b ? `state unchanged (${shown})` : `state is ${shown}; what it was before is unknown` };
    }
    case 'any_change':
      return { met: domChanged || moved, confidence: 0.6, actual: moved ? `navigated to ${url}` : domChanged ? 'the page changed' : 'nothing on the page changed' };
    case 'no_change': {
      // Nothing changed means nothing: not the address, not the document, not the DOM.
      const what = moved ? `navigated to ${url}` : domChanged ? `the page changed (${changeSummary(events)})` : 'nothing changed';
      return { met: !moved && !domChanged, confidence: 0.7, actual: what };
    }
  }
}

/** A check that threw (other than BAD_INPUT): not met, and why it is not known. */
function failedCheck(o: ExpectedOutcome, reason: string): Check {
  return { met: false, confidence: 0.5, actual: `could not check ${o.type}`, uncertain: [reason] };
}

/** Everything the result is built from, once the checks are done and the page has settled. */
export interface VerdictInput {
  alternatives: ExpectedOutcome[];
  /** The alternative that held, with its check; null when none did. */
  met: { o: ExpectedOutcome; c: Check } | null;
  /** The last check of every alternative (used when none held). */
  lastChecks: Check[];
  /** Every event since the action, in time order. */
  events: MutationEvent[];
  preUrl: string;
  url: string;
  domChanged: boolean;
  /** Checks that could not be made (frames unread, settling not watched), besides those of the checks. */
  uncertain: string[];
  timeout: number;
}

/**
 * The verification result: errors the page showed (even briefly) fail it whatever else happened;
 * any doubt lowers the confidence and is named; the browser's error page is a failure.
 */
export function composeVerification(v: VerdictInput): VerificationResult {
  const { alternatives, met, lastChecks, events, url } = v;
  const uncertain = [...v.uncertain];
  for (const c of met ? [met.c] : lastChecks) uncertain.push(...c.uncertain ?? []);
  const expectedTexts = alternatives.filter((o) => o.type === 'element_appears' && o.text).map((o) => o.text!.toLowerCase());
  const errors = unique(events.filter(isErrorEvent).map(eventText).filter((t) => !expectedTexts.some((x) => t.toLowerCase().includes(x))));
  const successes = unique(events.filter((e) => e.category === 'success' && e.type !== 'removed').map(eventText));
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
    pageState: { url, urlChanged: url !== v.preUrl, domChanged: v.domChanged, recentMutations: renderEvents(events.slice(-10)) },
    confidence,
    feedback: feedback(alternatives, success, met?.c ?? null, actual, errors, successes, v.timeout, doubts),
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
