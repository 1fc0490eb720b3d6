// Acting on the page: an action (string or typed) on an element ID, in the document that issued
// the ID and nowhere else, with self-healing when the element was re-rendered away in that same
// document, real input where a person's input would go, and optional sentinel verification.
import { z } from 'zod';
import type { Response } from 'playwright-core';
import { formatAction, formatMasked, toAction, targetOf, type Action } from '../model/contracts/actions.js';
import type { ListedOption, OptionList } from '../model/contracts/engine.js';
import { PagelensError, asPagelensError, isPagelensError } from '../model/contracts/errors.js';
import { parseChord } from '../model/contracts/keys.js';
import { ExpectedOutcome, parseExpectSpec, type ActionMethod, type ActionResult } from '../model/contracts/outcome.js';
import { globalId } from '../model/pagemodel/page.js';
import { staleReason } from '../model/acting/stale.js';
import { planToggle, toggleMissed } from '../model/acting/toggle.js';
import { parseInput } from '../model/contracts/validate.js';
import type { LensCore, Resolved } from './core.js';
import { elementCall, engineCall } from './engine.js';
import { describeFailure } from './frames.js';
import { checkStatus } from './goto.js';
import { insertText, mouseMove, mousePress, pressChord, typeText } from './input.js';
import { locate, type Located } from './locate.js';
import { recoverElement } from './recovery.js';
import { StabilityOptions, trackNetwork, waitForDomStability, type StabilityOptionsInput } from './stability.js';
import { capturePreActionState, verifyOutcome } from './verify.js';

const GROUP = 'pagelens-act';
/** Long enough for a page to react (a scroll handler, a debounced request), short enough per step. */
const AFTER_ACTION: StabilityOptionsInput = { timeout: 3000, stabilityThreshold: 200, networkIdleThreshold: 200, quietFromStart: true };
/** How long a custom dropdown may take to show its options after it is opened or typed into. */
const OPTIONS_WAIT_MS = 1500;

export interface ActOptions {
  /** The outcome to verify: typed, in the LLM's spelling, or the CLI form ("navigation|element_appears:Thanks"). */
  expect?: ExpectedOutcome | string;
  /** Wait for the page to settle after acting (ignored when verifying, which waits itself). Default: on. */
  settle?: boolean | StabilityOptionsInput;
  /** Recover an ID whose element was re-rendered away. Default: on. */
  recover?: boolean;
}

interface Done { method: ActionMethod; detail: string; warnings?: string[]; /** A navigation's HTTP status. */ status?: number }

const ActOptionsShape = z.strictObject({ expect: z.unknown().optional(), settle: z.unknown().optional(), recover: z.boolean().optional() });

export async function performAction(core: LensCore, input: string | Action, opts: ActOptions = {}): Promise<ActionResult> {
  const action = toAction(input);
  parseInput(ActOptionsShape, opts, 'act options');
  const expected = opts.expect === undefined ? undefined
    : typeof opts.expect === 'string' ? parseExpectSpec(opts.expect) : parseInput(ExpectedOutcome, opts.expect, 'expected outcome');
  const settle = typeof opts.settle === 'object' ? parseInput(StabilityOptions, opts.settle, 'stability options') : AFTER_ACTION;
  // Masked until the field is known not to be secret (model/contracts/actions.ts formatMasked).
  const result: ActionResult = { action: formatMasked(action), ok: false, method: 'none' };
  const warnings: string[] = [];
  const requested = targetOf(action);
  let el: Resolved | undefined;
  let gid = requested;
  try {
    const trackers = await trackNetwork(core);
    for (const t of trackers) if (t.failure) warnings.push(`network activity is not watched (${t.failure}), so waits may end early`);
    if (requested) {
      try {
        el = await core.resolve(requested, GROUP);
        await refuseIfStale(core, el, requested);
      } catch (e) {
        if (!isPagelensError(e, 'UNKNOWN_ID') || opts.recover === false) throw e;
        const r = await recoverElement(core, requested);
        if (!r.ok) throw new PagelensError(r.code, r.message);
        gid = r.gid;
        el = await core.resolve(gid, GROUP, { doc: r.doc });
        result.recovered = { from: requested, to: gid, confidence: r.confidence, message: r.message };
      }
    }
    if (!el || !('value' in action) || await isPlainField(el)) result.action = formatAction(action);
    const pre = expected ? await capturePreActionState(core, expected, gid) : undefined;
    const done = await execute(core, action, el, gid);
    result.ok = true;
    result.method = done.method;
    if (done.status !== undefined) result.status = done.status;
    result.detail = (result.recovered ? `${result.recovered.message}; ` : '') + done.detail;
    warnings.push(...done.warnings ?? []);
    if (expected && pre) {
      result.verification = await verifyOutcome(core, pre, expected, gid);
    } else if (opts.settle !== false) {
      try {
        const settled = await waitForDomStability(core, settle);
        if (!settled.stable) warnings.push(`the page had not settled when the action returned (${settled.reason})`);
      } catch (e) {
        warnings.push(`the page could not be watched settling after the action (${describeFailure(e)})`);
      }
    }
  } catch (e) {
    const err = asPagelensError(e);
    if (typeof err.details?.status === 'number') result.status = err.details.status;
    result.error = { code: err.code, message: result.recovered ? `${result.recovered.message}; then: ${err.message}` : err.message };
  } finally {
    if (el) await el.frame.target.release(GROUP).catch(() => {});
  }
  if (warnings.length) result.warnings = warnings;
  return result;
}

/** The element must still be what the last snapshot showed (the rule: model/acting/stale.ts). */
async function refuseIfStale(core: LensCore, el: Resolved, gid: string): Promise<void> {
  const known = core.ids.sighting(gid);
  // Chrome's accessibility tree names roles its own way: only the engine's own sightings compare.
  if (!known || known.vocabulary === 'ax') return;
  const why = staleReason(gid, known, await elementCall(el, 'elementState', [], GROUP));
  if (why) throw new PagelensError('STALE_ID', why);
}

/**
 * The state a click left a checkbox in. A framework that re-renders on change replaces the element
 * the click landed on: the replacement (same role and name where it stood) holds the state now.
 */
async function checkedAfterClick(core: LensCore, el: Resolved, gid: string): Promise<boolean | 'mixed' | null> {
  const now = await elementCall(el, 'checkedOf', [], GROUP);
  if ((await elementCall(el, 'elementState', [], GROUP)).connected) return now;
  const r = await recoverElement(core, gid);
  if (!r.ok) return now;
  return elementCall(await core.resolve(r.gid, GROUP, { doc: r.doc }), 'checkedOf', [], GROUP);
}

/** A field that takes text and is not secret: what is typed there may be echoed. */
async function isPlainField(el: Resolved): Promise<boolean> {
  const entry = await elementCall(el, 'textEntry', [], GROUP);
  // A refused field may still be secret: only one known not to be keeps the value in view.
  return entry.secret === false;
}

function need(el: Resolved | undefined): Resolved {
  if (!el) throw new PagelensError('BAD_INPUT', 'This action needs an element ID.');
  return el;
}

const refuse = (code: 'NOT_ACTIONABLE' | 'COVERED' | 'AMBIGUOUS', message: string) => new PagelensError(code, message);

async function execute(core: LensCore, action: Action, el: Resolved | undefined, gid = ''): Promise<Done> {
  const cdp = core.input;
  switch (action.type) {
    case 'click': case 'dblclick': case 'hover': {
      const e = need(el);
      const at = action.type === 'hover' ? await locate(core, e, gid, { group: GROUP }) : await reach(core, e, gid);
      if (at.ok) {
        if (action.type === 'hover') await mouseMove(cdp, at.x, at.y);
        else await mousePress(cdp, at.x, at.y, action.type === 'dblclick' ? 2 : 1);
        return { method: 'mouse', detail: `${action.type === 'hover' ? 'moved the mouse to' : action.type === 'dblclick' ? 'double-clicked' : 'clicked'} ${gid} at (${Math.round(at.x)}, ${Math.round(at.y)})` };
      }
      if (at.code !== 'UNREACHABLE' || action.type === 'hover') throw refuse(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
      // Only where real input cannot reach: never past a cover, never on a hidden or disabled element.
      await elementCall(e, 'clickJs', [], GROUP);
      if (action.type === 'dblclick') await elementCall(e, 'clickJs', [], GROUP);
      return { method: 'js', detail: `clicked ${gid} by script: ${at.reason}` };
    }
    case 'focus': {
      const r = await elementCall(need(el), 'focus', [], GROUP);
      if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid} did not take focus (not focusable?)`);
      return { method: 'js', detail: `focused ${gid}` };
    }
    case 'setValue': case 'clear': case 'type': {
      const e = need(el);
      const value = action.type === 'clear' ? '' : action.value;
      // Asked right before typing: a field read-only until focused is focused, then typed into.
      const entry = await elementCall(e, 'textEntry', [true], GROUP);
      if (entry.kind === 'refuse') throw refuse('NOT_ACTIONABLE', `${gid}: ${entry.reason}`);
      if (entry.kind === 'set') {
        const r = await elementCall(e, 'setValue', [value], GROUP);
        if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
        if (!(await elementCall(e, 'valueIs', [value], GROUP))) throw refuse('NOT_ACTIONABLE', entry.secret ? `${gid} did not take the value` : `${gid} did not take the value "${value}" (it shows "${r.value}")`);
        return { method: 'js', detail: `set ${gid} to ${entry.secret ? '***' : `"${r.value}"`}` };
      }
      await typeInto(core, e, gid, value, action.type === 'type' ? 'keys' : 'text');
      if (!(await elementCall(e, 'valueIs', [value], GROUP))) {
        const now = await elementCall(e, 'elementState', [], GROUP);
        throw refuse('NOT_ACTIONABLE', `${gid} did not keep the value: it shows "${now.value ?? ''}" (the page rejected or reformatted it)`);
      }
      const what = action.type === 'clear' ? `cleared ${gid}` : `typed ${entry.secret ? '***' : JSON.stringify(value)} into ${gid}`;
      return { method: 'keyboard', detail: `${what} (not committed: press Enter or move on to commit it)` };
    }
    case 'select':
      return selectOptions(core, need(el), gid, Array.isArray(action.option) ? action.option : [action.option]);
    case 'check': case 'uncheck': case 'toggle': {
      const e = need(el);
      const state = await elementCall(e, 'elementState', [], GROUP);
      const plan = planToggle(gid, action.type, await elementCall(e, 'checkedOf', [], GROUP), state.tag === 'input' && state.type === 'radio');
      if ('done' in plan) return { method: 'none', detail: plan.done };
      if ('refuse' in plan) throw refuse('NOT_ACTIONABLE', plan.refuse);
      const at = await reach(core, e, gid);
      let method: ActionMethod = 'mouse';
      if (at.ok) await mousePress(cdp, at.x, at.y);
      else if (at.code === 'UNREACHABLE') { await elementCall(e, 'clickJs', [], GROUP); method = 'js'; } else throw refuse(at.code, at.reason);
      const missed = toggleMissed(gid, plan.want, await checkedAfterClick(core, e, gid));
      if (missed) throw refuse('NOT_ACTIONABLE', missed);
      return { method, detail: `${plan.want ? 'checked' : 'unchecked'} ${gid}` };
    }
    case 'press': {
      const chord = parseChord(action.keys);
      if (el) {
        const r = await elementCall(el, 'focus', [], GROUP);
        if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid} did not take focus, so the keys would go elsewhere`);
      }
      await pressChord(cdp, chord);
      return { method: 'keyboard', detail: `pressed ${action.keys}${el ? ` in ${gid}` : ''}` };
    }
    case 'scroll': {
      const r = el
        ? await elementCall(el, 'scrollElement', [action.direction ?? null, action.amount ?? null, action.intoView ?? false], GROUP)
        : await engineCall((await core.frames.known())[0], 'scrollPage', [action.direction ?? undefined, action.amount ?? undefined]);
      const what = el ? gid : 'the page';
      const detail = r.scrolledIntoView ? `scrolled ${what} into view` : r.moved
        ? `scrolled ${what} ${action.direction ?? 'down'} to ${r.position}${r.hasMore ? ' (more below)' : ' (end)'}`
        : `${what} did not move (already at ${r.position})`;
      return { method: 'js', detail };
    }
    case 'submit': {
      const r = await elementCall(need(el), 'submit', [], GROUP);
      if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
      return { method: 'js', detail: `submitted the form of ${gid}` };
    }
    case 'navigate': {
      const url = absoluteUrl(action.url, core.page.url());
      const r = await navigation(() => core.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30_000 }), `open ${url}`);
      return { method: 'navigation', detail: `opened ${core.page.url()}`, ...statusOf(core, r, `open ${url}`) };
    }
    case 'back': case 'forward': {
      const r = await navigation(() => action.type === 'back' ? core.page.goBack({ waitUntil: 'domcontentloaded' }) : core.page.goForward({ waitUntil: 'domcontentloaded' }), action.type);
      if (r === null && core.page.url() === 'about:blank') throw refuse('NOT_ACTIONABLE', `no page to go ${action.type} to`);
      return { method: 'navigation', detail: `went ${action.type} to ${core.page.url()}`, ...statusOf(core, r, `go ${action.type}`) };
    }
    case 'reload':
      const r = await navigation(() => core.page.reload({ waitUntil: 'domcontentloaded' }), 'reload');
      return { method: 'navigation', detail: `reloaded ${core.page.url()}`, ...statusOf(core, r, 'reload') };
  }
}

/** The main document's HTTP status, when it has one; a 4xx/5xx answer fails the action (NAVIGATION_FAILED, with the status). */
function statusOf(core: LensCore, response: Response | null, what: string): { status?: number } {
  const { status } = checkStatus(core.page, response, what, 'NAVIGATION_FAILED');
  return status === null ? {} : { status };
}

async function navigation<T>(go: () => Promise<T>, what: string): Promise<T> {
  try {
    return await go();
  } catch (e) {
    throw new PagelensError('NAVIGATION_FAILED', `could not ${what}: ${(e as Error).message.split('\n')[0]}`);
  }
}

function absoluteUrl(url: string, base: string): string {
  let u: URL;
  try {
    u = new URL(url, base.startsWith('about:') ? undefined : base);
  } catch {
    throw new PagelensError('BAD_INPUT', `"${url}" is not a URL pagelens can open (expected http(s)://…).`);
  }
  if (!/^(https?|file|data|about):$/.test(u.protocol)) throw new PagelensError('BAD_INPUT', `"${url}" is not a URL pagelens can open (expected http(s)://…).`);
  return u.href;
}

/**
 * Typing as a person does: focus (by a click where one reaches, so the frame gets focus too),
 * select what is there, then either one trusted text insertion (`text`) or key by key (`keys`).
 * No change event is faked: the page commits the field when Enter is pressed or focus leaves.
 */
async function typeInto(core: LensCore, el: Resolved, gid: string, value: string, how: 'text' | 'keys'): Promise<void> {
  const cdp = core.input;
  const focus = await elementCall(el, 'focusForTyping', [], GROUP);
  if (!focus.ok && focus.reason) throw refuse('NOT_ACTIONABLE', `${gid}: ${focus.reason}`);
  if (!focus.ok) {
    const at = await reach(core, el, gid);
    if (!at.ok) throw refuse(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
    await mousePress(cdp, at.x, at.y);
    const again = await elementCall(el, 'focusForTyping', [], GROUP);
    if (!again.ok) throw refuse('NOT_ACTIONABLE', `${gid} did not take focus${again.reason ? `: ${again.reason}` : ''}, so the keys would go elsewhere`);
  }
  // Some input types cannot be selected by script; the keyboard can.
  await pressChord(cdp, parseChord('Control+A'));
  if (!value) await pressChord(cdp, parseChord('Backspace'));
  else if (how === 'keys') await typeText(cdp, value);
  else await insertText(cdp, value);
}

/**
 * select(): a native <select> takes its options by script (as a person's choice in its popup
 * would set them); a custom ARIA listbox or combobox is operated with real input: opened, typed
 * into when it filters as you type, and the option clicked.
 */
async function selectOptions(core: LensCore, el: Resolved, gid: string, wanted: string[]): Promise<Done> {
  const state = await elementCall(el, 'elementState', [], GROUP);
  if (state.tag === 'select') {
    const r = await elementCall(el, 'selectOptions', [wanted], GROUP);
    if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
    return { method: 'js', detail: `selected ${quoteAll(wanted)} in ${gid}; now selected: ${quoteAll(r.selected)}` };
  }
  let list = await elementCall(el, 'listOptions', [], GROUP);
  if (list.widget === 'none') {
    throw refuse('NOT_ACTIONABLE', `${gid} is a ${state.role}, not a select, listbox or combobox: click it to open it, then click the option`);
  }
  if (wanted.length > 1 && !list.multiselectable) throw refuse('NOT_ACTIONABLE', `${gid} takes one option, not ${wanted.length}`);
  const steps: string[] = [];
  // Options already on the page before the control opened belong to other widgets.
  const earlier = new Set(list.source === 'page' ? list.options.map((o) => o.id) : []);
  const fresh = (l: OptionList): OptionList => (l.source === 'page' ? { ...l, options: l.options.filter((o) => !earlier.has(o.id)) } : l);
  if (list.widget === 'combobox' && (!list.expanded || !list.options.some((o) => o.visible))) {
    await clickElement(core, el, gid);
    steps.push('opened it');
    list = fresh(await waitForOptions(el, (l) => fresh(l).options.some((o) => o.visible)));
  }
  let picked = pick(list, wanted);
  if (picked.missing.length && list.editable && wanted.length === 1) {
    await typeInto(core, el, gid, wanted[0], 'keys');
    steps.push(`typed "${wanted[0]}" to filter`);
    list = fresh(await waitForOptions(el, (l) => pick(fresh(l), wanted).missing.length === 0));
    picked = pick(list, wanted);
  }
  const seen = list.options.filter((o) => o.visible).slice(0, 15).map((o) => `"${o.name}"`).join(', ') || 'none';
  if (picked.ambiguous.length) throw refuse('AMBIGUOUS', `${gid}: several options are called ${quoteAll(picked.ambiguous)} (options seen: ${seen})`);
  if (picked.missing.length) throw refuse('NOT_ACTIONABLE', `${gid}: no option ${quoteAll(picked.missing)} (options seen: ${seen})`);
  for (const opt of picked.found) {
    if (opt.disabled) throw refuse('NOT_ACTIONABLE', `${gid}: option "${opt.name}" is disabled`);
    if (opt.selected && list.multiselectable) continue;
    const optGid = globalId(el.frame.ordinal, opt.id);
    const optEl = await core.resolve(optGid, GROUP, el.doc ? { doc: el.doc } : {});
    await clickElement(core, optEl, optGid);
    steps.push(`clicked option ${optGid} "${opt.name}"`);
  }
  const warnings: string[] = [];
  try {
    await waitForDomStability(core, { timeout: 1000, stabilityThreshold: 150, waitForNetwork: false });
    const after = await elementCall(el, 'listOptions', [], GROUP);
    const unconfirmed = picked.found.filter((o) => !after.options.some((a) => a.id === o.id && a.selected) && !after.shown.toLowerCase().includes(o.name.toLowerCase()));
    if (unconfirmed.length) warnings.push(`${gid} does not show ${quoteAll(unconfirmed.map((o) => o.name))} as chosen (it shows "${after.shown}"); check the page`);
  } catch (e) {
    warnings.push(`the choice in ${gid} could not be confirmed (${describeFailure(e)})`);
  }
  return { method: 'mouse', detail: `selected ${quoteAll(wanted)} in ${gid} (${steps.join(', ')})`, warnings };
}

async function clickElement(core: LensCore, el: Resolved, gid: string): Promise<void> {
  const at = await reach(core, el, gid);
  if (!at.ok) throw refuse(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
  await mousePress(core.input, at.x, at.y);
}

/**
 * Where a press on the element lands, checked twice: before the pointer moves there, and once it
 * is there. A page can answer the pointer's arrival (pointermove, mouseover) by putting something
 * else under it — a cross-origin frame's "Authorize payment" over "Cancel" — and the press would
 * land on that. Returns the point with the pointer on it; press there at once.
 */
async function reach(core: LensCore, el: Resolved, gid: string): Promise<Located> {
  const at = await locate(core, el, gid, { group: GROUP });
  if (!at.ok) return at;
  await mouseMove(core.input, at.x, at.y);
  const now = await locate(core, el, gid, { group: GROUP });
  // Reachable before the pointer came and not after: no script click stands in for the press.
  if (!now.ok) return { ok: false, code: now.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : now.code, reason: `${now.reason} once the pointer reached it, so it was not pressed` };
  if (Math.hypot(now.x - at.x, now.y - at.y) > 2) {
    return { ok: false, code: 'NOT_ACTIONABLE', reason: `${gid} moved when the pointer reached it (from (${Math.round(at.x)}, ${Math.round(at.y)}) to (${Math.round(now.x)}, ${Math.round(now.y)})), so it was not pressed` };
  }
  return at;
}

async function waitForOptions(el: Resolved, ready: (l: OptionList) => boolean): Promise<OptionList> {
  const t0 = performance.now();
  for (;;) {
    const list = await elementCall(el, 'listOptions', [], GROUP);
    if (ready(list) || performance.now() - t0 > OPTIONS_WAIT_MS) return list;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Options by accessible name: exact (whitespace and case aside) first, then by prefix; two of a kind is ambiguous. */
function pick(list: OptionList, wanted: string[]): { found: ListedOption[]; missing: string[]; ambiguous: string[] } {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const candidates = list.options.filter((o) => o.visible || list.widget === 'listbox');
  const out = { found: [] as ListedOption[], missing: [] as string[], ambiguous: [] as string[] };
  for (const w of wanted) {
    let hits = candidates.filter((o) => norm(o.name) === norm(w));
    if (!hits.length) hits = candidates.filter((o) => norm(o.name).startsWith(norm(w)));
    if (hits.length === 1) out.found.push(hits[0]);
    else if (hits.length > 1) out.ambiguous.push(w);
    else out.missing.push(w);
  }
  return out;
}

function quoteAll(xs: string[]): string {
  return xs.map((x) => `"${x}"`).join(', ');
}
