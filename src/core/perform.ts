// Performing one action on a resolved element, for every host: real input where a person's input
// would go (a click at the element's point, checked for covers; text typed into the focused field),
// the engine's DOM calls where input cannot reach or the host has no trusted input (and the result
// says `method: "js"`). Never past a cover, never on a hidden or disabled element.
import type { Action } from '../model/contracts/actions.js';
import type { ListedOption, OptionList } from '../model/contracts/engine.js';
import { isPagelensError, PagelensError } from '../model/contracts/errors.js';
import type { HostElement } from '../model/contracts/host.js';
import { parseChord } from '../model/contracts/keys.js';
import type { ActionMethod } from '../model/contracts/outcome.js';
import { planToggle, toggleMissed, unaimedPress } from '../model/acting/toggle.js';
import { globalId } from '../model/pagemodel/page.js';
import { locate, reach } from './locate.js';
import type { ActHost, Navigation } from './port.js';

/** How a custom dropdown may take to show its options after it is opened or typed into. */
const OPTIONS_WAIT_MS = 1500;

export interface Done { method: ActionMethod; detail: string; warnings?: string[]; /** A navigation's HTTP status. */ status?: number }

const refuse = (code: 'NOT_ACTIONABLE' | 'COVERED' | 'AMBIGUOUS' | 'BAD_INPUT', message: string) => new PagelensError(code, message);

function need(el: HostElement | undefined): HostElement {
  if (!el) throw refuse('BAD_INPUT', 'This action needs an element ID.');
  return el;
}

export async function perform(host: ActHost, action: Action, el: HostElement | undefined): Promise<Done> {
  const gid = el?.gid ?? '';
  const trusted = host.input.trusted;
  switch (action.type) {
    case 'click': case 'dblclick': {
      const e = need(el);
      const clicks = action.type === 'dblclick' ? 2 : 1;
      if (!trusted) return clickByScript(host, e, clicks, 'no trusted input');
      const at = await reach(host, e);
      if (at.ok) {
        const unwatched = await pressWatched(host, e, () => host.input.click(at.x, at.y, clicks));
        return { method: 'mouse', detail: `${clicks === 2 ? 'double-clicked' : 'clicked'} ${gid} at (${Math.round(at.x)}, ${Math.round(at.y)})`, ...(unwatched && { warnings: [unwatched] }) };
      }
      if (at.code !== 'UNREACHABLE') throw refuse(at.code, at.reason);
      // Only where real input cannot reach: never past a cover, never on a hidden or disabled element.
      return clickByScript(host, e, clicks, at.reason);
    }
    case 'hover': {
      if (!trusted) throw refuse('NOT_ACTIONABLE', 'hover needs trusted input, which this host does not have now');
      const at = await locate(host, need(el));
      if (!at.ok) throw refuse(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
      await host.input.move(at.x, at.y);
      return { method: 'mouse', detail: `moved the mouse to ${gid} at (${Math.round(at.x)}, ${Math.round(at.y)})` };
    }
    case 'focus': {
      const r = await host.element(need(el), 'focus');
      if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid} did not take focus (not focusable?)`);
      return { method: 'js', detail: `focused ${gid}` };
    }
    case 'setValue': case 'clear': case 'type':
      return enterText(host, need(el), action.type === 'clear' ? '' : action.value, action.type);
    case 'select':
      return selectOptions(host, need(el), Array.isArray(action.option) ? action.option : [action.option]);
    case 'check': case 'uncheck': case 'toggle': {
      const e = need(el);
      const state = await host.element(e, 'elementState');
      const plan = planToggle(gid, action.type, await host.element(e, 'checkedOf'), state.tag === 'input' && state.type === 'radio');
      if ('done' in plan) return { method: 'none', detail: plan.done };
      if ('refuse' in plan) throw refuse('NOT_ACTIONABLE', plan.refuse);
      let method: ActionMethod = 'mouse';
      const at = trusted ? await reach(host, e) : undefined;
      let unwatched: string | undefined;
      if (at?.ok) unwatched = await pressWatched(host, e, () => host.input.click(at.x, at.y));
      else if (!at || at.code === 'UNREACHABLE') { await clickByScript(host, e, 1, at?.reason ?? 'no trusted input'); method = 'js'; } else throw refuse(at.code, at.reason);
      const missed = toggleMissed(gid, plan.want, await checkedAfterClick(host, e));
      if (missed) throw refuse('NOT_ACTIONABLE', missed);
      const unaimed = at?.ok ? unaimedPress(gid, at.box) : null;
      const warnings = [unaimed, unwatched].filter((w): w is string => !!w);
      return { method, detail: `${plan.want ? 'checked' : 'unchecked'} ${gid}`, ...(warnings.length && { warnings }) };
    }
    case 'press': {
      const chord = parseChord(action.keys);
      if (!trusted) throw refuse('NOT_ACTIONABLE', 'keys need trusted input, which this host does not have now');
      if (el) {
        const r = await host.element(el, 'focus');
        if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid} did not take focus, so the keys would go elsewhere`);
      }
      await host.input.press(chord);
      return { method: 'keyboard', detail: pressedDetail(action.keys, el ? gid : undefined) };
    }
    case 'scroll': {
      const r = el
        ? await host.element(el, 'scrollElement', [action.direction ?? null, action.amount ?? null, action.intoView ?? false])
        : await host.engine((await host.frames())[0], 'scrollPage', [action.direction ?? undefined, action.amount ?? undefined]);
      const what = el ? gid : 'the page';
      const detail = r.scrolledIntoView ? `scrolled ${what} into view` : r.moved
        ? `scrolled ${what} ${action.direction ?? 'down'} to ${r.position}${r.hasMore ? ' (more below)' : ' (end)'}`
        : `${what} did not move (already at ${r.position})`;
      return { method: 'js', detail };
    }
    case 'submit': {
      const r = await host.element(need(el), 'submit');
      if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
      return { method: 'js', detail: `submitted the form of ${gid}` };
    }
    case 'navigate': {
      const url = absoluteUrl(action.url, await host.url());
      return navigation(host, { goto: url }, (now) => `opened ${now}`);
    }
    case 'back': case 'forward':
      return navigation(host, { history: action.type }, (now) => `went ${action.type} to ${now}`);
    case 'reload':
      return navigation(host, { reload: true }, (now) => `reloaded ${now}`);
  }
}

async function navigation(host: ActHost, how: Navigation, say: (url: string) => string): Promise<Done> {
  const r = await host.navigate(how);
  const status = r && r.status !== undefined ? { status: r.status } : {};
  return { method: 'navigation', detail: say(await host.url()), ...status, ...(r && r.warnings?.length && { warnings: r.warnings }) };
}

function absoluteUrl(url: string, base: string): string {
  let u: URL;
  try {
    u = new URL(url, base.startsWith('about:') ? undefined : base);
  } catch {
    throw refuse('BAD_INPUT', `"${url}" is not a URL pagelens can open (expected http(s)://…).`);
  }
  if (!/^(https?|file|data|about):$/.test(u.protocol)) throw refuse('BAD_INPUT', `"${url}" is not a URL pagelens can open (expected http(s)://…).`);
  return u.href;
}

/** The engine's click() (an untrusted event the page can tell apart), where real input cannot reach or the host has none. */
async function clickByScript(host: ActHost, el: HostElement, clicks: 1 | 2, why: string): Promise<Done> {
  for (let n = 0; n < clicks; n++) {
    const r = await host.element(el, 'clickJs');
    if (!r.ok) throw refuse('NOT_ACTIONABLE', `${el.gid} could not be clicked: ${r.reason ?? 'unknown reason'}`);
  }
  return { method: 'js', detail: `clicked ${el.gid} by script: ${why}` };
}

/**
 * The state a click left a checkbox in. A framework that re-renders on change replaces the element
 * the click landed on: the replacement (same role and name where it stood) holds the state now.
 */
async function checkedAfterClick(host: ActHost, el: HostElement): Promise<boolean | 'mixed' | null> {
  // A host that reaches elements by ID (the extension) cannot reach one that left the document:
  // for it, gone is the answer, and the replacement is looked for the same way.
  let now: boolean | 'mixed' | null = null;
  let connected = false;
  try {
    now = await host.element(el, 'checkedOf');
    connected = (await host.element(el, 'elementState')).connected;
  } catch (e) {
    if (!isPagelensError(e, 'UNKNOWN_ID')) throw e;
  }
  if (connected || !host.recover) return now;
  const r = await host.recover(el.gid);
  if (!r.ok) return now;
  const again = await host.resolve(r.gid, { doc: r.doc });
  try { return await host.element(again, 'checkedOf'); } finally { await host.release(again).catch(() => {}); }
}

/** What a key press's answer says it did (a tool that types then presses reads it back to shorten it). */
export const pressedDetail = (keys: string, gid?: string): string => `pressed ${keys}${gid ? ` in ${gid}` : ''}`;

/** Said after typing: many fields act on their text only once it is committed. */
export const UNCOMMITTED = ' (not committed: press Enter or move on to commit it)';

/** Text into a field: typed with trusted input, set for pickers (date, range), by script only where the host has no trusted input. */
async function enterText(host: ActHost, e: HostElement, value: string, kind: 'setValue' | 'clear' | 'type'): Promise<Done> {
  const gid = e.gid;
  // Asked right before typing: a field read-only until focused is focused, then typed into.
  const entry = await host.element(e, 'textEntry', [true]);
  if (entry.kind === 'refuse') throw refuse('NOT_ACTIONABLE', `${gid}: ${entry.reason}`);
  if (entry.kind === 'set') {
    const r = await host.element(e, 'setValue', [value]);
    if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
    if (!(await host.element(e, 'valueIs', [value]))) throw refuse('NOT_ACTIONABLE', entry.secret ? `${gid} did not take the value` : `${gid} did not take the value "${value}" (it shows "${r.value}")`);
    return { method: 'js', detail: `set ${gid} to ${entry.secret ? '***' : `"${r.value}"`}` };
  }
  let method: ActionMethod = 'keyboard';
  if (host.input.trusted || !host.typeByScript) await typeInto(host, e, value, kind === 'type' ? 'keys' : 'text');
  else {
    await host.element(e, 'focusForTyping');
    const t = await host.typeByScript(e, value);
    if (!t.ok) throw refuse('NOT_ACTIONABLE', `${gid}: ${t.reason ?? 'not a text field'}`);
    method = 'js';
  }
  if (!(await host.element(e, 'valueIs', [value]))) {
    const now = await host.element(e, 'elementState');
    throw refuse('NOT_ACTIONABLE', `${gid} did not keep the value: it shows "${now.value ?? ''}" (the page rejected or reformatted it)`);
  }
  const what = kind === 'clear' ? `cleared ${gid}` : `typed ${entry.secret ? '***' : JSON.stringify(value)} into ${gid}`;
  return { method, detail: `${what}${method === 'js' ? ' by script' : ''}${UNCOMMITTED}` };
}

/**
 * Typing as a person does: focus (by a click where one reaches, so the frame gets focus too),
 * select what is there, then either one trusted text insertion (`text`) or key by key (`keys`).
 * No change event is faked: the page commits the field when Enter is pressed or focus leaves.
 */
async function typeInto(host: ActHost, el: HostElement, value: string, how: 'text' | 'keys'): Promise<void> {
  const gid = el.gid;
  const focus = await host.element(el, 'focusForTyping');
  if (!focus.ok && focus.reason) throw refuse('NOT_ACTIONABLE', `${gid}: ${focus.reason}`);
  if (!focus.ok) {
    const at = await reach(host, el);
    if (!at.ok) throw refuse(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
    await host.input.click(at.x, at.y);
    const again = await host.element(el, 'focusForTyping');
    if (!again.ok) throw refuse('NOT_ACTIONABLE', `${gid} did not take focus${again.reason ? `: ${again.reason}` : ''}, so the keys would go elsewhere`);
  }
  // Some input types cannot be selected by script; the keyboard can.
  await host.input.press(parseChord('Control+A'));
  if (!value) await host.input.press(parseChord('Backspace'));
  else if (how === 'keys') await host.input.typeText(value);
  else await host.input.insertText(value);
}

/**
 * select(): a native <select> takes its options by script (as a person's choice in its popup
 * would set them); a custom ARIA listbox or combobox is operated with real input: opened, typed
 * into when it filters as you type, and the option clicked.
 */
async function selectOptions(host: ActHost, el: HostElement, wanted: string[]): Promise<Done> {
  const gid = el.gid;
  const state = await host.element(el, 'elementState');
  if (state.tag === 'select') {
    const r = await host.element(el, 'selectOptions', [wanted]);
    if (!r.ok) throw refuse('NOT_ACTIONABLE', `${gid}: ${r.reason}`);
    return { method: 'js', detail: `selected ${quoteAll(wanted)} in ${gid}; now selected: ${quoteAll(r.selected)}` };
  }
  let list = await host.element(el, 'listOptions');
  if (list.widget === 'none') {
    throw refuse('NOT_ACTIONABLE', `${gid} is a ${state.role}, not a select, listbox or combobox: click it to open it, then click the option`);
  }
  if (!host.input.trusted) throw refuse('NOT_ACTIONABLE', `${gid} is a custom ${list.widget}: choosing in it needs trusted input, which this host does not have now`);
  if (wanted.length > 1 && !list.multiselectable) throw refuse('NOT_ACTIONABLE', `${gid} takes one option, not ${wanted.length}`);
  const steps: string[] = [];
  // Options already on the page before the control opened belong to other widgets.
  const earlier = new Set(list.source === 'page' ? list.options.map((o) => o.id) : []);
  const fresh = (l: OptionList): OptionList => (l.source === 'page' ? { ...l, options: l.options.filter((o) => !earlier.has(o.id)) } : l);
  if (list.widget === 'combobox' && (!list.expanded || !list.options.some((o) => o.visible))) {
    await clickElement(host, el);
    steps.push('opened it');
    list = fresh(await waitForOptions(host, el, (l) => fresh(l).options.some((o) => o.visible)));
  }
  let picked = pick(list, wanted);
  if (picked.missing.length && list.editable && wanted.length === 1) {
    await typeInto(host, el, wanted[0], 'keys');
    steps.push(`typed "${wanted[0]}" to filter`);
    list = fresh(await waitForOptions(host, el, (l) => pick(fresh(l), wanted).missing.length === 0));
    picked = pick(list, wanted);
  }
  const seen = list.options.filter((o) => o.visible).slice(0, 15).map((o) => `"${o.name}"`).join(', ') || 'none';
  if (picked.ambiguous.length) throw refuse('AMBIGUOUS', `${gid}: several options are called ${quoteAll(picked.ambiguous)} (options seen: ${seen})`);
  if (picked.missing.length) throw refuse('NOT_ACTIONABLE', `${gid}: no option ${quoteAll(picked.missing)} (options seen: ${seen})`);
  for (const opt of picked.found) {
    if (opt.disabled) throw refuse('NOT_ACTIONABLE', `${gid}: option "${opt.name}" is disabled`);
    if (opt.selected && list.multiselectable) continue;
    const optEl = await host.resolve(globalId(el.frame.ordinal, opt.id), el.doc ? { doc: el.doc } : {});
    try { await clickElement(host, optEl); } finally { await host.release(optEl).catch(() => {}); }
    steps.push(`clicked option ${optEl.gid} "${opt.name}"`);
  }
  const warnings: string[] = [];
  try {
    await host.settle({ timeoutMs: 1000, quietMs: 150 });
    const after = await host.element(el, 'listOptions');
    const unconfirmed = picked.found.filter((o) => !after.options.some((a) => a.id === o.id && a.selected) && !after.shown.toLowerCase().includes(o.name.toLowerCase()));
    if (unconfirmed.length) warnings.push(`${gid} does not show ${quoteAll(unconfirmed.map((o) => o.name))} as chosen (it shows "${after.shown}"); check the page`);
  } catch (e) {
    warnings.push(`the choice in ${gid} could not be confirmed (${host.describe(e)})`);
  }
  return { method: 'mouse', detail: `selected ${quoteAll(wanted)} in ${gid} (${steps.join(', ')})`, warnings };
}

async function clickElement(host: ActHost, el: HostElement): Promise<void> {
  const at = await reach(host, el);
  if (!at.ok) throw refuse(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
  await host.input.click(at.x, at.y);
}

async function waitForOptions(host: ActHost, el: HostElement, ready: (l: OptionList) => boolean): Promise<OptionList> {
  const t0 = performance.now();
  for (;;) {
    const list = await host.element(el, 'listOptions');
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

/**
 * Presses with the element's frame watching where the press went: a page that slides a cover over
 * the element between the last hit test and the press gets the press, and the answer says so
 * (COVERED, with what was pressed), never "clicked". A press that navigated the page away cannot be
 * asked about; its outcome is the navigation the verdict reports. When the frame could not be set
 * to watch, the press still goes (the hit test before it passed), and the answer is a warning that
 * says so: never a press reported as landed where nothing saw it land.
 */
async function pressWatched(host: ActHost, el: HostElement, press: () => Promise<void>): Promise<string | undefined> {
  const watching = await host.element(el, 'watchPress').then((r) => r.ok ? undefined : r.reason ?? 'the frame refused', (e: unknown) => host.describe(e));
  await press();
  if (watching !== undefined) return `where the press on ${el.gid} landed could not be watched (${watching}): a cover the page moved over it as it was pressed would go unnoticed`;
  const hit = await host.element(el, 'pressLanded').catch(() => undefined);
  if (!hit || !hit.watched || hit.landed) return undefined;
  throw refuse('COVERED', hit.on
    ? `the press meant for ${el.gid} landed on ${hit.on}, which the page moved over it as it was pressed`
    : `the press meant for ${el.gid} never reached its page: something the page moved over it as it was pressed (another frame) took it`);
}
