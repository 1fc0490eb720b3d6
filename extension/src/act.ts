// Acting by ID in the right frame. With trusted input (chrome.debugger attached) a click is a real
// mouse click at the element's top-level point and text is one trusted insertText, as the CDP host
// does; without it the content script's DOM calls stand in, and `method: "js"` plus a warning say so.
// An action with an expected outcome is then verified against what the page did (verify.ts); the
// rules (stale, masked values, the verdict) are the shared ones in src/model, as on the CDP host.
import { formatAction, formatMasked, toAction, type Action } from '../../src/model/contracts/actions.js';
import type { ElementState, OkReason, PrepareResult, ScrollResult, SelectResult, SetValueResult, TextEntry } from '../../src/model/contracts/engine.js';
import { ERROR_CODES } from '../../src/model/contracts/errors.js';
import { innerControlAdvice } from '../../src/model/pagemodel/page.js';
import type { ActionMethod, ActionResult, ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import { staleReason } from '../../src/model/acting/stale.js';
import { planToggle, toggleMissed } from '../../src/model/acting/toggle.js';
import { insertText, mouseMove, mousePress, pressKeys, selectAll, trustedInput } from './input.js';
import { describe } from './layout.js';
import { ask, restoreTab, tabState } from './tab.js';
import { elementOp, pointInTab, resolveId, revealFrame, type Resolved } from './target.js';
import { capturePre, settle, verify } from './verify.js';

export interface ActOptions {
  /** What the action should do: verified when given, as on the CDP host (nothing is verified by default). */
  expect?: ExpectedOutcome;
  /** false: DOM events only, never the debugger. Default true. */
  trusted?: boolean;
}

type Code = (typeof ERROR_CODES)[number];
interface Done { method: ActionMethod; detail: string; warnings?: string[] }

/** Actions done with trusted input when the debugger can be attached. */
const INPUT_ACTIONS = new Set<Action['type']>(['click', 'dblclick', 'hover', 'setValue', 'type', 'clear', 'check', 'uncheck', 'toggle', 'press']);

class Refused extends Error {
  constructor(readonly code: Code, message: string) { super(message); }
}

export async function act(tabId: number, input: string | Action, opts: ActOptions = {}): Promise<ActionResult> {
  let action: Action;
  try {
    action = toAction(input);
  } catch (e) {
    return { action: String(typeof input === 'string' ? input : JSON.stringify(input)), ok: false, method: 'none', error: { code: 'BAD_INPUT', message: describe(e) } };
  }
  const target = 'id' in action ? action.id : undefined;
  const expected = opts.expect;
  // A value stays masked until its field is known not to be secret: a refusal must not echo a password.
  let shown = formatMasked(action);
  try {
    await restoreTab(tabId);
    const r = target ? await resolveId(tabId, target) : undefined;
    if (r) await refuseIfStale(tabId, r);
    const pre = expected ? await capturePre(tabId, expected, target) : undefined;
    // The debugger is attached only for actions that use input (Chrome shows a bar while it is attached).
    const trusted = opts.trusted === false ? { ok: false as const, reason: 'trusted input was turned off' }
      : INPUT_ACTIONS.has(action.type) ? await trustedInput(tabId) : { ok: false as const, reason: 'not needed' };
    if (r && 'value' in action) {
      // Right before typing: a field read-only until focused is focused first (and only then tells whether it is secret).
      const entry = await elementOp<TextEntry>(tabId, r, { op: 'textEntry', focusIfReadOnly: true });
      // A password's value never leaves the action, not even in its own result: shown only for a field known not to be secret.
      if (entry.secret === false) shown = formatAction(action);
    }
    const done = await perform(tabId, action, r, trusted);
    if (!trusted.ok && INPUT_ACTIONS.has(action.type) && done.method === 'js') done.warnings = [...done.warnings ?? [], `no trusted input (${trusted.reason}): DOM events were used, which the page can tell apart from a person's`];
    const frames = [0, ...(r && r.frameId !== 0 ? [r.frameId] : [])];
    await settle(tabId, frames, expected?.timeout ?? 2000);
    const result: ActionResult = { action: shown, ok: true, method: done.method, detail: done.detail, ...(done.warnings && { warnings: done.warnings }) };
    if (pre && expected) result.verification = await verify(tabId, pre, expected, target, frames);
    return result;
  } catch (e) {
    const given = (e as { code?: unknown } | null)?.code;
    const code: Code = (ERROR_CODES as readonly unknown[]).includes(given) ? given as Code : 'INTERNAL';
    return { action: shown, ok: false, method: 'none', error: { code, message: describe(e) } };
  }
}

/** The element must still be what the last snapshot showed (the rule: model/acting/stale.ts). */
async function refuseIfStale(tabId: number, r: Resolved): Promise<void> {
  const known = tabState(tabId).seen.get(r.gid);
  if (!known) return;
  const why = staleReason(r.gid, known, await elementOp<{ role: string; name: string }>(tabId, r, { op: 'state' }));
  if (why) throw new Refused('STALE_ID', why);
}

function need(r: Resolved | undefined): Resolved {
  if (!r) throw new Refused('BAD_INPUT', 'this action needs an element ID');
  return r;
}

/** The element's clickable point in the top-level viewport (scrolled into view first), or why there is none. */
async function pointOf(tabId: number, r: Resolved): Promise<[number, number]> {
  if (r.frameId !== 0) await revealFrame(tabId, r.frameId);
  const p = await elementOp<PrepareResult>(tabId, r, { op: 'prepare' });
  if (!p.ok) throw new Refused(p.code, `element ${r.gid} ${p.reason}${p.inner ? innerControlAdvice(p.inner, r.ordinal) : ''}`);
  return r.frameId === 0 ? p.point : pointInTab(tabId, r.frameId, p.point, r.gid);
}

/**
 * The element's point, checked again once the pointer is on it: a page can answer the pointer's
 * arrival by sliding something else (a cross-origin frame's "Authorize") under it. Press at once.
 */
async function reach(tabId: number, r: Resolved): Promise<[number, number]> {
  const [x, y] = await pointOf(tabId, r);
  await mouseMove(tabId, x, y);
  let now: [number, number];
  try {
    now = await pointOf(tabId, r);
  } catch (e) {
    if (e instanceof Refused) throw new Refused(e.code, `${e.message} once the pointer reached it, so it was not pressed`);
    throw e;
  }
  if (Math.hypot(now[0] - x, now[1] - y) > 2) throw new Refused('NOT_ACTIONABLE', `element ${r.gid} moved when the pointer reached it, so it was not pressed`);
  return [x, y];
}

async function click(tabId: number, r: Resolved, trusted: boolean, count = 1): Promise<Done> {
  if (trusted) {
    const [x, y] = await reach(tabId, r);
    await mousePress(tabId, x, y, count);
    return { method: 'mouse', detail: `clicked ${r.gid} at (${Math.round(x)}, ${Math.round(y)}) with trusted input` };
  }
  const ok = await elementOp<OkReason>(tabId, r, { op: 'clickJs' });
  if (!ok.ok) throw new Refused('NOT_ACTIONABLE', `element ${r.gid} could not be clicked: ${ok.reason ?? 'unknown reason'}`);
  return { method: 'js', detail: `clicked ${r.gid} with a DOM click()` };
}

async function enterText(tabId: number, r: Resolved, value: string, trusted: boolean, perKey: boolean): Promise<Done> {
  const entry = await elementOp<TextEntry>(tabId, r, { op: 'textEntry' });
  if (entry.kind === 'refuse') throw new Refused('NOT_ACTIONABLE', `element ${r.gid} takes no text: ${entry.reason}`);
  if (entry.kind === 'set') {
    const s = await elementOp<SetValueResult>(tabId, r, { op: 'setValue', value });
    if (!s.ok) throw new Refused('NOT_ACTIONABLE', s.reason);
    return { method: 'js', detail: `set ${r.gid} as its picker does` };
  }
  if (trusted) {
    const f = await elementOp<OkReason>(tabId, r, { op: 'focusForTyping' });
    if (f.reason) throw new Refused('NOT_ACTIONABLE', `element ${r.gid} cannot be focused: ${f.reason}`);
    await selectAll(tabId);
    if (!value) await pressKeys(tabId, 'Delete');
    else if (perKey) for (const ch of value) await insertText(tabId, ch);
    else await insertText(tabId, value);
    return { method: 'keyboard', detail: `typed into ${r.gid} with trusted input` };
  }
  await elementOp<OkReason>(tabId, r, { op: 'focusForTyping' });
  const t = await elementOp<OkReason>(tabId, r, { op: 'typeJs', value });
  if (!t.ok) throw new Refused('NOT_ACTIONABLE', t.reason ?? 'not a text field');
  return { method: 'js', detail: `set ${r.gid} with an input event` };
}

async function perform(tabId: number, a: Action, r: Resolved | undefined, input: { ok: boolean }): Promise<Done> {
  const trusted = input.ok;
  switch (a.type) {
    case 'click': return click(tabId, need(r), trusted);
    case 'dblclick': return click(tabId, need(r), trusted, 2);
    case 'hover': {
      if (!trusted) throw new Refused('NOT_ACTIONABLE', 'hover needs trusted input (chrome.debugger), which is not available');
      const [x, y] = await pointOf(tabId, need(r));
      await mouseMove(tabId, x, y);
      return { method: 'mouse', detail: `moved the mouse over ${a.id}` };
    }
    case 'focus': {
      const f = await elementOp<OkReason>(tabId, need(r), { op: 'focus' });
      if (!f.ok) throw new Refused('NOT_ACTIONABLE', `element ${a.id} did not take focus`);
      return { method: 'js', detail: `focused ${a.id}` };
    }
    case 'setValue': return enterText(tabId, need(r), a.value, trusted, false);
    case 'type': return enterText(tabId, need(r), a.value, trusted, true);
    case 'clear': return enterText(tabId, need(r), '', trusted, false);
    case 'select': {
      const s = await elementOp<SelectResult>(tabId, need(r), { op: 'selectOptions', options: Array.isArray(a.option) ? a.option : [a.option] });
      if (!s.ok) throw new Refused('NOT_ACTIONABLE', `element ${a.id}: ${s.reason}`);
      return { method: 'js', detail: `selected ${s.selected.map((o) => JSON.stringify(o)).join(', ')}` };
    }
    case 'check': case 'uncheck': case 'toggle': {
      const el = need(r);
      const st = await elementOp<ElementState>(tabId, el, { op: 'state' });
      const plan = planToggle(el.gid, a.type, st.checked, st.tag === 'input' && st.type === 'radio');
      if ('done' in plan) return { method: 'none', detail: plan.done };
      if ('refuse' in plan) throw new Refused('NOT_ACTIONABLE', plan.refuse);
      const done = await click(tabId, el, trusted);
      const missed = toggleMissed(el.gid, plan.want, (await elementOp<ElementState>(tabId, el, { op: 'state' })).checked);
      if (missed) throw new Refused('NOT_ACTIONABLE', missed);
      return { method: done.method, detail: `${plan.want ? 'checked' : 'unchecked'} ${el.gid}` };
    }
    case 'press': {
      if (!trusted) throw new Refused('NOT_ACTIONABLE', 'keys need trusted input (chrome.debugger), which is not available');
      if (r) await elementOp<OkReason>(tabId, r, { op: 'focus' });
      if (!await pressKeys(tabId, a.keys)) throw new Refused('BAD_INPUT', `unknown key "${a.keys}"`);
      return { method: 'keyboard', detail: `pressed ${a.keys}` };
    }
    case 'scroll': {
      const s = r
        ? await elementOp<ScrollResult>(tabId, r, { op: 'scrollElement', direction: a.direction, amount: a.amount, intoView: a.intoView })
        : await ask(tabId, 0, { kind: 'scrollPage', direction: a.direction, amount: a.amount });
      return { method: 'js', detail: s.moved ? `scrolled to ${s.position}` : 'nothing moved' };
    }
    case 'submit': {
      const s = await elementOp<OkReason>(tabId, need(r), { op: 'submit' });
      if (!s.ok) throw new Refused('NOT_ACTIONABLE', s.reason ?? 'no form to submit');
      return { method: 'js', detail: `submitted the form of ${a.id}` };
    }
    case 'navigate': await chrome.tabs.update(tabId, { url: a.url }); return { method: 'navigation', detail: `opened ${a.url}` };
    case 'back': await chrome.tabs.goBack(tabId); return { method: 'navigation', detail: 'went back' };
    case 'forward': await chrome.tabs.goForward(tabId); return { method: 'navigation', detail: 'went forward' };
    case 'reload': await chrome.tabs.reload(tabId); return { method: 'navigation', detail: 'reloaded' };
  }
}
