// Actions as a backend sends them ("click(12)", "setValue(14, \"SpaceX\")") and as typed objects.
// The parser is strict on purpose: an action it cannot read exactly is refused with what it
// expected, because acting on a guess is worse than asking again.
import { z } from 'zod';
import { PagelensError } from './errors.js';

/** An element ID as snapshots give them: "12", "f1_5"; also a container's name where a page gives one ("feed"). */
export const ElementId = z.string().regex(/^[A-Za-z0-9_-]+$/, 'an element ID like "12" or "f1_5"');

const id = { id: ElementId };
export const Direction = z.enum(['up', 'down', 'left', 'right', 'top', 'bottom']);
export type Direction = z.infer<typeof Direction>;

export const Action = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('click'), ...id }),
  z.strictObject({ type: z.literal('dblclick'), ...id }),
  z.strictObject({ type: z.literal('hover'), ...id }),
  z.strictObject({ type: z.literal('focus'), ...id }),
  /**
   * Replaces the field's content as a person's typing would (trusted text input, one input event);
   * the page commits it (change) when the field is committed: press("Enter") or focus elsewhere.
   * Date, time, colour and range inputs are set in one step, as their pickers do.
   */
  z.strictObject({ type: z.literal('setValue'), ...id, value: z.string() }),
  /** Replaces the field's content key by key (keydown, input, keyup per character), for widgets that react to each key. */
  z.strictObject({ type: z.literal('type'), ...id, value: z.string() }),
  z.strictObject({ type: z.literal('clear'), ...id }),
  /**
   * Options by label (or value): of a <select> (several for a multiple select), or of a custom
   * ARIA listbox / combobox, which is opened and the option clicked.
   */
  z.strictObject({ type: z.literal('select'), ...id, option: z.union([z.string(), z.array(z.string()).min(1)]) }),
  z.strictObject({ type: z.literal('check'), ...id }),
  z.strictObject({ type: z.literal('uncheck'), ...id }),
  z.strictObject({ type: z.literal('toggle'), ...id }),
  /** A key or chord ("Enter", "Control+A"), sent to `id` after focusing it, else to whatever has focus. */
  z.strictObject({ type: z.literal('press'), id: ElementId.optional(), keys: z.string().min(1) }),
  /**
   * Without id: the page. With id and no direction: a scroll container is scrolled down by a page,
   * any other element is scrolled into view. `amount` is in CSS pixels.
   */
  z.strictObject({
    type: z.literal('scroll'), id: ElementId.optional(), direction: Direction.optional(),
    amount: z.number().positive().optional(), intoView: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('submit'), ...id }),
  z.strictObject({ type: z.literal('navigate'), url: z.string().min(1) }),
  z.strictObject({ type: z.literal('back') }),
  z.strictObject({ type: z.literal('forward') }),
  z.strictObject({ type: z.literal('reload') }),
]);
export type Action = z.infer<typeof Action>;
export type ActionType = Action['type'];

/** Actions that need an element. */
export function targetOf(action: Action): string | undefined {
  return 'id' in action ? action.id : undefined;
}

type Arg = { name?: string; value: string | string[] };

// Parameter names in positional order; the first alias is the canonical name.
const SIGNATURES: Record<string, { type: ActionType; params: string[][]; usage: string }> = {};
function sig(names: string[], type: ActionType, params: string[][], usage: string): void {
  for (const n of names) SIGNATURES[n.toLowerCase()] = { type, params, usage };
}
const ID = ['id', 'element', 'target'];
sig(['click'], 'click', [ID], 'click(12)');
sig(['dblclick', 'doubleClick'], 'dblclick', [ID], 'dblclick(12)');
sig(['hover'], 'hover', [ID], 'hover(12)');
sig(['focus'], 'focus', [ID], 'focus(12)');
sig(['setValue', 'fill'], 'setValue', [ID, ['value', 'text']], 'setValue(14, "SpaceX")');
sig(['type', 'typeText'], 'type', [ID, ['value', 'text']], 'type(14, "SpaceX")');
sig(['clear'], 'clear', [ID], 'clear(14)');
sig(['select', 'selectOption'], 'select', [ID, ['option', 'value', 'label', 'options']], 'select(3, "Express") or select(12, ["Taiwan", "Tajikistan"])');
sig(['check'], 'check', [ID], 'check(5)');
sig(['uncheck'], 'uncheck', [ID], 'uncheck(5)');
sig(['toggle'], 'toggle', [ID], 'toggle(5)');
sig(['submit'], 'submit', [ID], 'submit(9)');
sig(['navigate', 'goto'], 'navigate', [['url']], 'navigate("https://example.com")');
sig(['back', 'goBack'], 'back', [], 'back()');
sig(['forward', 'goForward'], 'forward', [], 'forward()');
sig(['reload', 'refresh'], 'reload', [], 'reload()');

const ACTION_NAMES = 'click, dblclick, hover, focus, setValue, type, clear, select, check, uncheck, toggle, press, scroll, submit, navigate, back, forward, reload';

/** Parses one action string. Throws PagelensError('BAD_INPUT') saying what was expected. */
export function parseAction(text: string): Action {
  const src = text.trim();
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*;?$/.exec(src);
  if (!m) throw bad(src, `expected name(arguments), e.g. click(12) or setValue(14, "text"); actions: ${ACTION_NAMES}`);
  const name = m[1];
  const args = splitArgs(m[2], src);
  const lower = name.toLowerCase();
  if (lower === 'press' || lower === 'presskey' || lower === 'keypress') return parsePress(scalars(args, src), src);
  if (lower === 'scroll' || lower === 'scrollintoview') return parseScroll(scalars(args, src), src, lower === 'scrollintoview');
  const spec = SIGNATURES[lower];
  if (!spec) throw bad(src, `unknown action "${name}"; actions: ${ACTION_NAMES}`);
  const values = bind(args, spec.params, spec.usage, src);
  const obj: Record<string, unknown> = { type: spec.type };
  spec.params.forEach((aliases, i) => { obj[aliases[0]] = values[i]; });
  return validate(obj, spec.usage, src);
}

/** A typed action as given, or parsed from its string form. */
export function toAction(input: string | Action | unknown): Action {
  if (typeof input === 'string') return parseAction(input);
  const r = Action.safeParse(input);
  if (!r.success) throw new PagelensError('BAD_INPUT', `Not a valid action object: ${r.error.issues.map((i) => `${i.path.join('.') || 'type'}: ${i.message}`).join('; ')}`);
  return r.data;
}

/**
 * The action as shown before its field is known not to be secret: a typed value is masked, so a
 * refusal (unknown, stale, gone, read-only) never echoes a password meant for a field it never reached.
 */
export function formatMasked(a: Action): string {
  return formatAction('value' in a ? { ...a, value: '***' } : a);
}

/** The canonical string form, the same one parseAction reads. */
export function formatAction(a: Action): string {
  const q = (s: string) => JSON.stringify(s);
  switch (a.type) {
    case 'setValue': case 'type': return `${a.type}(${a.id}, ${q(a.value)})`;
    case 'select': return `select(${a.id}, ${Array.isArray(a.option) ? `[${a.option.map(q).join(', ')}]` : q(a.option)})`;
    case 'press': return a.id ? `press(${a.id}, ${q(a.keys)})` : `press(${q(a.keys)})`;
    case 'scroll': {
      if (a.intoView) return `scrollIntoView(${a.id})`;
      const parts = [a.id, a.direction, a.amount].filter((p) => p !== undefined);
      return `scroll(${parts.join(', ')})`;
    }
    case 'navigate': return `navigate(${q(a.url)})`;
    case 'back': case 'forward': case 'reload': return `${a.type}()`;
    default: return `${a.type}(${a.id})`;
  }
}

type ScalarArg = { name?: string; value: string };

/** Lists are select's alone: anywhere else they are refused before anything reads them. */
function scalars(args: Arg[], src: string): ScalarArg[] {
  if (args.some((a) => Array.isArray(a.value))) throw bad(src, 'a list [..] is only accepted as the options of select(id, ["a", "b"])');
  return args as ScalarArg[];
}

function parsePress(args: ScalarArg[], src: string): Action {
  const usage = 'press("Enter") or press(7, "Control+A")';
  const named = Object.fromEntries(args.filter((a) => a.name).map((a) => [a.name!.toLowerCase(), a.value]));
  const positional = args.filter((a) => !a.name);
  if (args.some((a) => a.name && !['id', 'element', 'target', 'key', 'keys'].includes(a.name.toLowerCase()))) throw bad(src, `unknown argument; expected ${usage}`);
  let idArg = named.id ?? named.element ?? named.target;
  let keys = named.key ?? named.keys;
  if (positional.length === 2) [idArg, keys] = [positional[0].value, positional[1].value];
  else if (positional.length === 1 && keys === undefined) keys = positional[0].value;
  else if (positional.length === 1 && idArg === undefined) idArg = positional[0].value;
  else if (positional.length > 2) throw bad(src, `too many arguments; expected ${usage}`);
  if (keys === undefined) throw bad(src, `missing the key to press; expected ${usage}`);
  return validate({ type: 'press', ...(idArg !== undefined && { id: idArg }), keys }, usage, src);
}

function parseScroll(args: ScalarArg[], src: string, intoView: boolean): Action {
  const usage = intoView ? 'scrollIntoView(12)' : 'scroll(down), scroll(down, 600), scroll(12), scroll(12, down) or scroll(12, down, 400)';
  if (args.some((a) => a.name && !['id', 'element', 'target', 'direction', 'amount'].includes(a.name.toLowerCase()))) throw bad(src, `unknown argument; expected ${usage}`);
  const out: Record<string, unknown> = { type: 'scroll' };
  for (const a of args) {
    const key = a.name?.toLowerCase();
    const v = a.value;
    if (key === 'amount' || (!key && /^\d+(\.\d+)?(px)?$/.test(v) && out.direction !== undefined)) {
      const n = Number(v.replace(/px$/, ''));
      if (!Number.isFinite(n) || n <= 0) throw bad(src, `scroll amount must be a positive number of pixels; expected ${usage}`);
      out.amount = n;
    } else if (key === 'direction' || (!key && Direction.safeParse(v.toLowerCase()).success)) {
      const d = Direction.safeParse(v.toLowerCase());
      if (!d.success) throw bad(src, `direction must be one of ${Direction.options.join(', ')}; expected ${usage}`);
      out.direction = d.data;
    } else if (key && ['id', 'element', 'target'].includes(key) || (!key && out.id === undefined && out.direction === undefined)) {
      out.id = v;
    } else {
      throw bad(src, `could not read argument "${v}"; expected ${usage}`);
    }
  }
  if (intoView) {
    if (out.id === undefined || out.direction !== undefined || out.amount !== undefined) throw bad(src, `expected ${usage}`);
    out.intoView = true;
  }
  if (out.amount !== undefined && out.direction === undefined) throw bad(src, `an amount needs a direction; expected ${usage}`);
  return validate(out, usage, src);
}

function bind(args: Arg[], params: string[][], usage: string, src: string): Array<string | string[] | undefined> {
  const values: Array<string | string[] | undefined> = new Array(params.length).fill(undefined);
  let next = 0;
  for (const a of args) {
    let slot: number;
    if (a.name) {
      slot = params.findIndex((aliases) => aliases.includes(a.name!.toLowerCase()));
      if (slot < 0) throw bad(src, `unknown argument "${a.name}"; expected ${usage}`);
    } else {
      while (next < params.length && values[next] !== undefined) next++;
      slot = next;
      if (slot >= params.length) throw bad(src, `too many arguments; expected ${usage}`);
    }
    if (values[slot] !== undefined) throw bad(src, `"${params[slot][0]}" given twice; expected ${usage}`);
    values[slot] = a.value;
  }
  const missing = params.findIndex((_, i) => values[i] === undefined);
  if (missing >= 0) throw bad(src, `missing ${params[missing][0]}; expected ${usage}`);
  return values;
}

function validate(obj: Record<string, unknown>, usage: string, src: string): Action {
  const r = Action.safeParse(obj);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw bad(src, `${issue.path.join('.') || 'action'}: ${issue.message}; expected ${usage}`);
  }
  return r.data;
}

/** Splits `12, "a, b", key=value` into arguments, honouring quotes and escapes. */
function splitArgs(body: string, src: string): Arg[] {
  const args: Arg[] = [];
  let i = 0;
  const n = body.length;
  const skipWs = () => { while (i < n && /\s/.test(body[i])) i++; };
  const readString = (): string => {
    const q = body[i++];
    let out = '';
    while (i < n) {
      const c = body[i++];
      if (c === '\\' && i < n) {
        const e = body[i++];
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e === 'r' ? '\r' : e;
      } else if (c === q) return out;
      else out += c;
    }
    throw bad(src, `unterminated string (a ${q} is missing)`);
  };
  skipWs();
  if (i === n) return args;
  for (;;) {
    skipWs();
    let name: string | undefined;
    const nm = /^([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/.exec(body.slice(i));
    if (nm) { name = nm[1]; i += nm[0].length; skipWs(); }
    let value: string | string[] = '';
    if (body[i] === '"' || body[i] === "'") {
      value = readString();
    } else if (body[i] === '[') {
      // A list of quoted strings: select(12, ["Taiwan", "Tajikistan"]).
      i++;
      const items: string[] = [];
      skipWs();
      while (i < n && body[i] !== ']') {
        if (body[i] !== '"' && body[i] !== "'") throw bad(src, 'list items must be quoted strings, e.g. ["Taiwan", "Tajikistan"]');
        items.push(readString());
        skipWs();
        if (body[i] === ',') { i++; skipWs(); } else if (body[i] !== ']') throw bad(src, 'expected "," or "]" in the list');
      }
      if (body[i] !== ']') throw bad(src, 'unterminated list (a ] is missing)');
      i++;
      if (!items.length) throw bad(src, 'empty list');
      value = items;
    } else {
      const start = i;
      while (i < n && body[i] !== ',') i++;
      value = body.slice(start, i).trim();
      if (!value) throw bad(src, 'empty argument');
      if (/[\s"'()]/.test(value)) throw bad(src, `"${value}" must be quoted`);
    }
    args.push({ ...(name && { name }), value });
    skipWs();
    if (i === n) break;
    if (body[i] !== ',') throw bad(src, `expected "," after argument ${args.length}`);
    i++;
    skipWs();
    if (i === n) throw bad(src, 'trailing comma');
  }
  return args;
}

function bad(src: string, expected: string): PagelensError {
  const shown = src.length > 120 ? src.slice(0, 117) + '...' : src;
  return new PagelensError('BAD_INPUT', `Cannot read action ${JSON.stringify(shown)}: ${expected}.`, { action: src });
}
