// Acting on the page: an action (string or typed) on an element ID, with self-healing when the
// ID died in a re-render, real input where a person's input would go, and optional sentinel
// verification of what it was meant to achieve.
import { formatAction, toAction, targetOf, type Action } from '../model/actions.js';
import { PagelensError } from '../model/errors.js';
import { parseChord } from '../model/keys.js';
import { ExpectedOutcome, parseExpectSpec, type ActionMethod, type ActionResult } from '../model/outcome.js';
import { insertText, mouseClick, mouseMove, pressChord } from './input.js';
import type { Lens } from './lens.js';
import { locate, type Resolved } from './locate.js';
import { lastKnown, recoverElement } from './recovery.js';
import type { GhostTarget } from '../model/ghost.js';
import { trackNetwork, waitForDomStability, type StabilityOptionsInput } from './stability.js';
import { capturePreActionState, verifyOutcome } from './verify.js';

const GROUP = 'pagelens-act';
/** Long enough for a page to react (a scroll handler, a debounced request), short enough per step. */
const AFTER_ACTION: StabilityOptionsInput = { timeout: 3000, stabilityThreshold: 200, networkIdleThreshold: 200, quietFromStart: true };

export interface ActOptions {
  /** The outcome to verify: typed, in the LLM's spelling, or the CLI form ("navigation|element_appears:Thanks"). */
  expect?: ExpectedOutcome | string;
  /** Wait for the page to settle after acting (ignored when verifying, which waits itself). Default: on. */
  settle?: boolean | StabilityOptionsInput;
  /** Recover an ID whose element was re-rendered away. Default: on. */
  recover?: boolean;
}

interface Done { method: ActionMethod; detail: string }
class Refused extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

export async function performAction(lens: Lens, input: string | Action, opts: ActOptions = {}): Promise<ActionResult> {
  const action = toAction(input);
  const expected = opts.expect === undefined ? undefined : typeof opts.expect === 'string' ? parseExpectSpec(opts.expect) : ExpectedOutcome.parse(opts.expect);
  const result: ActionResult = { action: formatAction(action), ok: false, method: 'none' };
  await trackNetwork(lens).catch(() => {});
  const requested = targetOf(action);
  let el: Resolved | undefined;
  let gid = requested;
  try {
    if (requested) {
      try {
        el = await lens.resolve(requested, GROUP);
        await refuseIfStale(el, requested, lastKnown(lens, requested));
      } catch (e) {
        if (!(e instanceof PagelensError) || e.code !== 'UNKNOWN_ID' || opts.recover === false) throw e;
        const r = await recoverElement(lens, requested);
        if (!r.ok) throw new Refused('UNKNOWN_ID', r.message);
        gid = r.gid;
        el = await lens.resolve(gid, GROUP);
        result.recovered = { from: requested, to: gid, confidence: r.confidence, message: r.message };
      }
    }
    const pre = expected ? await capturePreActionState(lens, expected, gid) : undefined;
    const done = await execute(lens, action, el, gid);
    result.ok = true;
    result.method = done.method;
    result.detail = (result.recovered ? `${result.recovered.message}; ` : '') + done.detail;
    if (expected && pre) {
      result.verification = await verifyOutcome(lens, pre, expected, gid);
    } else if (opts.settle !== false) {
      await waitForDomStability(lens, typeof opts.settle === 'object' ? opts.settle : AFTER_ACTION).catch(() => null);
    }
  } catch (e) {
    if (!(e instanceof Refused || e instanceof PagelensError)) throw e;
    result.error = { code: e.code, message: e.message };
    if (result.recovered) result.error.message = `${result.recovered.message}; then: ${result.error.message}`;
  } finally {
    if (el) await el.frame.target.release(GROUP);
  }
  return result;
}

/**
 * IDs restart at 1 in a new document, so after a navigation an old ID can name a different
 * element. An element whose role and name both differ from the last snapshot's is not the one
 * the agent chose.
 */
async function refuseIfStale(el: Resolved, gid: string, known: GhostTarget | undefined): Promise<void> {
  if (!known) return;
  const now = await call<{ role: string; name: string }>(el, 'elementState');
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  if (now.role !== known.role && norm(now.name) !== norm(known.name)) {
    throw new Refused('STALE_ID', `${gid} is now ${now.role} "${now.name}", not the ${known.role} "${known.name}" of the last snapshot: the page changed (navigated or re-rendered). Take a new snapshot.`);
  }
}

async function call<T>(el: Resolved, fn: string, args: unknown[] = []): Promise<T> {
  return el.frame.target.callFunction<T>(el.frame.frameId,
    `function (el, ...a) { return globalThis.__pagelens.act.${fn}(el, ...a); }`, [{ objectId: el.objectId }, ...args.map((value) => ({ value }))], true, GROUP);
}

function need(el: Resolved | undefined): Resolved {
  if (!el) throw new PagelensError('BAD_INPUT', 'This action needs an element ID.');
  return el;
}

async function execute(lens: Lens, action: Action, el: Resolved | undefined, gid = ''): Promise<Done> {
  const cdp = lens.pageInput.cdp;
  switch (action.type) {
    case 'click': case 'dblclick': case 'hover': {
      const e = need(el);
      const at = await locate(lens, e, gid);
      if (at.ok) {
        if (action.type === 'hover') await mouseMove(cdp, at.x, at.y);
        else await mouseClick(cdp, at.x, at.y, action.type === 'dblclick' ? 2 : 1);
        return { method: 'mouse', detail: `${action.type === 'hover' ? 'moved the mouse to' : action.type === 'dblclick' ? 'double-clicked' : 'clicked'} ${gid} at (${Math.round(at.x)}, ${Math.round(at.y)})` };
      }
      if (at.code !== 'UNREACHABLE' || action.type === 'hover') throw new Refused(at.code, at.reason);
      // Only where real input cannot reach: never past a cover, never on a hidden or disabled element.
      await call(e, 'clickJs');
      if (action.type === 'dblclick') await call(e, 'clickJs');
      return { method: 'js', detail: `clicked ${gid} by script: ${at.reason}` };
    }
    case 'focus': {
      const r = await call<{ ok: boolean }>(need(el), 'focus');
      if (!r.ok) throw new Refused('NOT_ACTIONABLE', `${gid} did not take focus (not focusable?)`);
      return { method: 'js', detail: `focused ${gid}` };
    }
    case 'setValue': case 'clear': case 'type': {
      const e = need(el);
      const value = action.type === 'clear' ? '' : action.value;
      if (action.type !== 'type') {
        const r = await call<{ ok: true; stuck: boolean; value: string } | { ok: false; reason: string; keyboard?: boolean }>(e, 'setValue', [value]);
        if (!r.ok && !r.keyboard) throw new Refused('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
        if (r.ok && r.stuck && await valueIs(e, value)) return { method: 'js', detail: `set ${gid} to "${r.value}"` };
      }
      await typeInto(lens, e, gid, value);
      if (!(await valueIs(e, value))) {
        const now = await call<{ value: string | null }>(e, 'elementState');
        throw new Refused('NOT_ACTIONABLE', `${gid} did not keep the value: it shows "${now.value ?? ''}" (the page rejected or reformatted it)`);
      }
      return { method: 'keyboard', detail: `typed into ${gid}` };
    }
    case 'select': {
      const r = await call<{ ok: true; selected: string } | { ok: false; reason: string }>(need(el), 'selectOption', [action.option]);
      if (!r.ok) throw new Refused('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
      return { method: 'js', detail: `selected "${r.selected}" in ${gid}` };
    }
    case 'check': case 'uncheck': case 'toggle': {
      const e = need(el);
      const before = await call<boolean | 'mixed' | null>(e, 'checkedOf');
      if (before === null) throw new Refused('NOT_ACTIONABLE', `${gid} is not a checkbox, radio or switch`);
      const want = action.type === 'toggle' ? before !== true : action.type === 'check';
      if (before === want) return { method: 'none', detail: `${gid} was already ${want ? 'checked' : 'unchecked'}` };
      if (!want && (await call<{ tag: string }>(e, 'elementState')).tag === 'input' && await isRadio(e)) {
        throw new Refused('NOT_ACTIONABLE', `${gid} is a radio button: choose another option in its group instead of unchecking it`);
      }
      const at = await locate(lens, e, gid);
      let method: ActionMethod = 'mouse';
      if (at.ok) await mouseClick(cdp, at.x, at.y);
      else if (at.code === 'UNREACHABLE') { await call(e, 'clickJs'); method = 'js'; } else throw new Refused(at.code, at.reason);
      const after = await call<boolean | 'mixed' | null>(e, 'checkedOf');
      if (after !== want) throw new Refused('NOT_ACTIONABLE', `clicked ${gid}, but it is still ${after === true ? 'checked' : after === 'mixed' ? 'mixed' : 'unchecked'}`);
      return { method, detail: `${want ? 'checked' : 'unchecked'} ${gid}` };
    }
    case 'press': {
      const chord = parseChord(action.keys);
      if (el) {
        const r = await call<{ ok: boolean }>(el, 'focus');
        if (!r.ok) throw new Refused('NOT_ACTIONABLE', `${gid} did not take focus, so the keys would go elsewhere`);
      }
      await pressChord(cdp, chord);
      return { method: 'keyboard', detail: `pressed ${action.keys}${el ? ` in ${gid}` : ''}` };
    }
    case 'scroll': {
      type S = { moved: boolean; position: string; hasMore: boolean; scrolledIntoView?: boolean };
      let r: S;
      if (el) r = await call<S>(el, 'scrollElement', [action.direction ?? null, action.amount ?? null, action.intoView ?? false]);
      else {
        const main = (await lens.knownFrames())[0];
        r = await main.target.callFunction<S>(main.frameId, 'function (d, a) { return globalThis.__pagelens.act.scrollPage(d || undefined, a || undefined); }',
          [{ value: action.direction ?? null }, { value: action.amount ?? null }]);
      }
      const what = el ? gid : 'the page';
      const detail = r.scrolledIntoView ? `scrolled ${what} into view` : r.moved
        ? `scrolled ${what} ${action.direction ?? 'down'} to ${r.position}${r.hasMore ? ' (more below)' : ' (end)'}`
        : `${what} did not move (already at ${r.position})`;
      return { method: 'js', detail };
    }
    case 'submit': {
      const r = await call<{ ok: boolean; reason?: string }>(need(el), 'submit');
      if (!r.ok) throw new Refused('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
      return { method: 'js', detail: `submitted the form of ${gid}` };
    }
    case 'navigate': {
      const url = absoluteUrl(action.url, lens.page.url());
      await navigation(() => lens.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 30_000 }), `open ${url}`);
      return { method: 'navigation', detail: `opened ${lens.page.url()}` };
    }
    case 'back': case 'forward': {
      const r = await navigation(() => action.type === 'back' ? lens.page.goBack({ waitUntil: 'domcontentloaded' }) : lens.page.goForward({ waitUntil: 'domcontentloaded' }), action.type);
      if (r === null && lens.page.url() === 'about:blank') throw new Refused('NOT_ACTIONABLE', `no page to go ${action.type} to`);
      return { method: 'navigation', detail: `went ${action.type} to ${lens.page.url()}` };
    }
    case 'reload':
      await navigation(() => lens.page.reload({ waitUntil: 'domcontentloaded' }), 'reload');
      return { method: 'navigation', detail: `reloaded ${lens.page.url()}` };
  }
}

async function navigation<T>(go: () => Promise<T>, what: string): Promise<T> {
  try {
    return await go();
  } catch (e) {
    throw new Refused('NAVIGATION_FAILED', `could not ${what}: ${(e as Error).message.split('\n')[0]}`);
  }
}

function absoluteUrl(url: string, base: string): string {
  try {
    const u = new URL(url, base.startsWith('about:') ? undefined : base);
    if (!/^(https?|file|data|about):$/.test(u.protocol)) throw new Error('scheme');
    return u.href;
  } catch {
    throw new PagelensError('BAD_INPUT', `"${url}" is not a URL pagelens can open (expected http(s)://…).`);
  }
}

async function valueIs(el: Resolved, value: string): Promise<boolean> {
  return el.frame.target.callFunction<boolean>(el.frame.frameId,
    'function (el, v) { return ("value" in el ? el.value : el.textContent) === v; }', [{ objectId: el.objectId }, { value }], true, GROUP);
}

async function isRadio(el: Resolved): Promise<boolean> {
  return el.frame.target.callFunction<boolean>(el.frame.frameId, 'function (el) { return el.type === "radio"; }', [{ objectId: el.objectId }], true, GROUP);
}

/** Real keystrokes: focus (by a click where one reaches, so the frame gets focus too), select all, insert. */
async function typeInto(lens: Lens, el: Resolved, gid: string, value: string): Promise<void> {
  const cdp = lens.pageInput.cdp;
  const focus = await call<{ ok: boolean; reason?: string }>(el, 'focusForTyping');
  if (!focus.ok && focus.reason) throw new Refused('NOT_ACTIONABLE', `${gid}: ${focus.reason}`);
  if (!focus.ok) {
    const at = await locate(lens, el, gid);
    if (!at.ok) throw new Refused(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
    await mouseClick(cdp, at.x, at.y);
    await call(el, 'focusForTyping');
  }
  // Some input types cannot be selected by script; the keyboard can.
  await pressChord(cdp, parseChord('Control+A'));
  if (value) await insertText(cdp, value);
  else await pressChord(cdp, parseChord('Backspace'));
}
