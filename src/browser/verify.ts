// Sentinel verification: what the page looked like before an action, and whether afterwards it
// did what the action was meant to do. Errors the page showed meanwhile (even for one second)
// come from the mutation log and fail the verification whatever else happened.
import type { Page } from 'playwright-core';
import { ExpectedOutcome, eventText, isErrorEvent, type MutationEvent, type OutcomeType, type VerificationResult } from '../model/outcome.js';
import { eventsSince, markFrames, renderEvents, type Marks } from './events.js';
import type { Lens } from './lens.js';
import { waitForDomStability } from './stability.js';

const DEFAULT_TIMEOUT = 2000;
const POLL_MS = 100;
const GROUP = 'pagelens-verify';

interface ElementSnapshot { connected: boolean; visible: boolean; value: string | null; valueKey: string | null; checked: boolean | 'mixed' | null; states: string[] }

export interface PreActionState {
  at: number;
  url: string;
  navigations: number;
  marks: Marks;
  /** Element states by ID, for value/state outcomes. */
  elements: Map<string, ElementSnapshot | null>;
  /** Whether each text/selector an outcome looks for was already on the page. */
  present: Map<string, boolean>;
}

const navCounts = new WeakMap<Page, { n: number }>();
function navigations(page: Page): { n: number } {
  let c = navCounts.get(page);
  if (!c) {
    const counter = { n: 0 };
    c = counter;
    navCounts.set(page, counter);
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) counter.n++; });
  }
  return c;
}

function flatten(o: ExpectedOutcome): ExpectedOutcome[] {
  return o.orOutcome ? [o, ...flatten(o.orOutcome)] : [o];
}

const queryKey = (o: ExpectedOutcome) => (o.selector ? `css:${o.selector}` : `text:${o.text}`);

export async function capturePreActionState(lens: Lens, expected?: ExpectedOutcome, defaultId?: string): Promise<PreActionState> {
  const nav = navigations(lens.page);
  const state: PreActionState = { at: Date.now(), url: lens.page.url(), navigations: nav.n, marks: await markFrames(lens), elements: new Map(), present: new Map() };
  for (const o of expected ? flatten(expected) : []) {
    const id = o.id ?? defaultId;
    if (id && (o.type === 'value_changes' || o.type === 'state_changes' || (o.type === 'element_disappears' && !o.text && !o.selector))) {
      state.elements.set(id, await readElement(lens, id));
    }
    if ((o.type === 'element_appears' || o.type === 'element_disappears') && (o.text || o.selector)) {
      state.present.set(queryKey(o), await onPage(lens, o));
    }
  }
  return state;
}

async function readElement(lens: Lens, id: string): Promise<ElementSnapshot | null> {
  try {
    const r = await lens.resolve(id, GROUP);
    try {
      return await r.frame.target.callFunction<ElementSnapshot>(r.frame.frameId, 'function (el) { return globalThis.__pagelens.act.elementState(el); }', [{ objectId: r.objectId }], true, GROUP);
    } finally {
      await r.frame.target.release(GROUP);
    }
  } catch {
    return null;
  }
}

async function onPage(lens: Lens, o: ExpectedOutcome): Promise<boolean> {
  const frames = (await lens.knownFrames()).filter((f) => !f.error && !f.target.closed);
  const query = o.selector ? { selector: o.selector } : { text: o.text };
  const found = await Promise.all(frames.map((f) => f.target.callFunction<boolean>(f.frameId,
    'function (q) { return globalThis.__pagelens.act.findOnPage(q); }', [{ value: query }]).catch(() => false)));
  return found.some(Boolean);
}

interface Check { met: boolean; actual: string; confidence: number }

async function check(lens: Lens, o: ExpectedOutcome, pre: PreActionState, events: MutationEvent[], domChanged: boolean, defaultId?: string): Promise<Check> {
  const url = lens.page.url();
  const id = o.id ?? defaultId;
  switch (o.type) {
    case 'navigation': {
      const moved = url !== pre.url || navigations(lens.page).n > pre.navigations;
      const fits = !o.urlContains || url.includes(o.urlContains);
      return { met: moved && fits, confidence: 0.95, actual: moved ? `navigated to ${url}${fits ? '' : ` (expected a URL containing "${o.urlContains}")`}` : `URL unchanged (${url})` };
    }
    case 'element_appears': case 'element_disappears': {
      if (!o.text && !o.selector) {
        const el = id ? await readElement(lens, id) : null;
        const gone = !el || !el.connected || !el.visible;
        return { met: gone, confidence: 0.9, actual: gone ? `element ${id} is gone` : `element ${id} is still shown` };
      }
      const what = o.selector ? `an element matching ${o.selector}` : `"${o.text}"`;
      const now = await onPage(lens, o);
      const before = pre.present.get(queryKey(o)) ?? false;
      if (o.type === 'element_disappears') {
        return { met: before && !now, confidence: 0.9, actual: !now ? (before ? `${what} disappeared` : `${what} was not there to begin with`) : `${what} is still shown` };
      }
      const wanted = (o.text ?? '').toLowerCase();
      const flashed = !!o.text && events.some((e) => e.type !== 'removed' && e.description.toLowerCase().includes(wanted));
      const met = (now && !before) || flashed;
      return { met, confidence: now ? 0.9 : 0.8, actual: met ? `${what} appeared${now ? '' : ' (and is gone again)'}` : now ? `${what} was already shown before the action` : `${what} did not appear` };
    }
    case 'value_changes': case 'state_changes': {
      if (!id) return { met: false, confidence: 0.5, actual: `no element to watch (give the outcome an id)` };
      const before = pre.elements.get(id);
      const after = await readElement(lens, id);
      if (!after) return { met: false, confidence: 0.7, actual: `element ${id} is gone` };
      if (o.type === 'value_changes') {
        const met = before ? before.valueKey !== after.valueKey : true;
        return { met, confidence: 0.9, actual: met ? `value is now "${after.value ?? ''}"` : `value unchanged ("${after.value ?? ''}")` };
      }
      const b = before ? `${before.checked}|${before.states.filter((s) => s !== 'focused').join(',')}` : '';
      const a = `${after.checked}|${after.states.filter((s) => s !== 'focused').join(',')}`;
      const shown = after.checked === null ? `states [${after.states.join(', ')}]` : after.checked === true ? 'checked' : after.checked === 'mixed' ? 'mixed' : 'unchecked';
      return { met: b !== a, confidence: 0.9, actual: b !== a ? `state is now ${shown}` : `state unchanged (${shown})` };
    }
    case 'any_change': {
      const moved = url !== pre.url || navigations(lens.page).n > pre.navigations;
      return { met: domChanged || moved, confidence: 0.6, actual: moved ? `navigated to ${url}` : domChanged ? 'the page changed' : 'nothing on the page changed' };
    }
    case 'no_change':
      return { met: true, confidence: 0.7, actual: domChanged ? 'the page changed' : 'nothing changed' };
  }
}

/** Polls until one of the alternatives holds or the timeout passes; then lets the page settle and reads its errors. */
export async function verifyOutcome(lens: Lens, pre: PreActionState, expectedInput: ExpectedOutcome, defaultId?: string): Promise<VerificationResult> {
  const expected = ExpectedOutcome.parse(expectedInput);
  const alternatives = flatten(expected);
  const timeout = expected.timeout ?? DEFAULT_TIMEOUT;
  const t0 = performance.now();
  let met: { o: ExpectedOutcome; c: Check } | null = null;
  let lastChecks: Check[] = [];
  const waitsOnly = alternatives.every((o) => o.type === 'no_change');
  for (;;) {
    if (waitsOnly) await waitForDomStability(lens, { timeout, stabilityThreshold: 300 });
    const { events, domChanged } = await eventsSince(lens, pre.marks);
    lastChecks = [];
    for (const o of alternatives) {
      const c = await check(lens, o, pre, events, domChanged, defaultId).catch((e) => ({ met: false, confidence: 0.5, actual: `could not check: ${(e as Error).message}` }));
      lastChecks.push(c);
      if (c.met) { met = { o, c }; break; }
    }
    if (met || performance.now() - t0 >= timeout) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  // Errors often arrive just after the change that satisfied us (a spinner, then "Invalid email").
  const left = Math.max(300, timeout - (performance.now() - t0));
  await waitForDomStability(lens, { timeout: Math.min(1500, left), stabilityThreshold: 300, networkIdleThreshold: 300 }).catch(() => null);
  const { events, domChanged } = await eventsSince(lens, pre.marks);
  const expectedTexts = alternatives.filter((o) => o.type === 'element_appears' && o.text).map((o) => o.text!.toLowerCase());
  const errors = unique(events.filter(isErrorEvent).map(eventText).filter((t) => !expectedTexts.some((x) => t.toLowerCase().includes(x))));
  const successes = unique(events.filter((e) => e.category === 'success' && e.type !== 'removed').map(eventText));
  const url = lens.page.url();
  const urlChanged = url !== pre.url;
  const success = !!met && errors.length === 0;
  const verified: OutcomeType | null = met ? met.o.type : null;
  const actual = met ? met.c.actual : lastChecks.map((c) => c.actual).join('; ');
  const confidence = errors.length ? 0.9 : met ? met.c.confidence : 0.7;
  return {
    success,
    verifiedOutcome: verified,
    actualOutcome: actual,
    errorsDetected: errors,
    successMessages: successes,
    pageState: { url, urlChanged, domChanged, recentMutations: renderEvents(events.slice(-10)) },
    confidence,
    feedback: feedback(alternatives, success, met?.c ?? null, actual, errors, successes, timeout),
  };
}

function describeOutcome(o: ExpectedOutcome): string {
  switch (o.type) {
    case 'navigation': return o.urlContains ? `navigation to a URL containing "${o.urlContains}"` : 'navigation';
    case 'element_appears': return `${o.selector ?? `"${o.text}"`} to appear`;
    case 'element_disappears': return `${o.selector ?? (o.text ? `"${o.text}"` : `element ${o.id ?? ''}`.trim())} to disappear`;
    case 'value_changes': return 'the value to change';
    case 'state_changes': return 'the state to change';
    case 'any_change': return 'a change on the page';
    case 'no_change': return 'no errors';
  }
}

function feedback(alts: ExpectedOutcome[], success: boolean, met: Check | null, actual: string, errors: string[], successes: string[], timeout: number): string {
  const wanted = alts.map(describeOutcome).join(' or ');
  const errs = errors.length ? ` Error${errors.length > 1 ? 's' : ''} shown: ${errors.map((e) => `'${e}'`).join(', ')}.` : '';
  const ok = successes.length ? ` Success message: ${successes.map((e) => `'${e}'`).join(', ')}.` : '';
  if (success) return `Verified: ${actual}.${ok}`;
  if (met) return `Expected ${wanted}: ${actual}, but the page showed an error.${errs} The action probably did not work; fix the cause before continuing.`;
  return `Expected ${wanted} within ${timeout} ms, but ${actual}.${errs}${ok} The action may not have worked: look at the page again before continuing.`;
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
