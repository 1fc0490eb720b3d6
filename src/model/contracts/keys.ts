// Key names and chords ("Enter", "Control+A", "Shift+Tab") as CDP Input.dispatchKeyEvent wants them.
import { PagelensError } from './errors.js';

export interface KeyDefinition {
  key: string;
  code: string;
  keyCode: number;
  /** What the key inserts when pressed without Control/Alt/Meta. */
  text?: string;
  location?: number;
}

export interface Chord {
  /** CDP modifier bit mask: Alt 1, Control 2, Meta 4, Shift 8. */
  modifiers: number;
  modifierKeys: KeyDefinition[];
  key: KeyDefinition;
}

const MODIFIERS: Record<string, { bit: number; def: KeyDefinition }> = {
  alt: { bit: 1, def: { key: 'Alt', code: 'AltLeft', keyCode: 18, location: 1 } },
  control: { bit: 2, def: { key: 'Control', code: 'ControlLeft', keyCode: 17, location: 1 } },
  meta: { bit: 4, def: { key: 'Meta', code: 'MetaLeft', keyCode: 91, location: 1 } },
  shift: { bit: 8, def: { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 } },
};

const NAMED: Record<string, KeyDefinition> = {
  enter: { key: 'Enter', code: 'Enter', keyCode: 13, text: '\r' },
  tab: { key: 'Tab', code: 'Tab', keyCode: 9 },
  escape: { key: 'Escape', code: 'Escape', keyCode: 27 },
  backspace: { key: 'Backspace', code: 'Backspace', keyCode: 8 },
  delete: { key: 'Delete', code: 'Delete', keyCode: 46 },
  space: { key: ' ', code: 'Space', keyCode: 32, text: ' ' },
  arrowup: { key: 'ArrowUp', code: 'ArrowUp', keyCode: 38 },
  arrowdown: { key: 'ArrowDown', code: 'ArrowDown', keyCode: 40 },
  arrowleft: { key: 'ArrowLeft', code: 'ArrowLeft', keyCode: 37 },
  arrowright: { key: 'ArrowRight', code: 'ArrowRight', keyCode: 39 },
  home: { key: 'Home', code: 'Home', keyCode: 36 },
  end: { key: 'End', code: 'End', keyCode: 35 },
  pageup: { key: 'PageUp', code: 'PageUp', keyCode: 33 },
  pagedown: { key: 'PageDown', code: 'PageDown', keyCode: 34 },
  insert: { key: 'Insert', code: 'Insert', keyCode: 45 },
};
for (let i = 1; i <= 12; i++) NAMED[`f${i}`] = { key: `F${i}`, code: `F${i}`, keyCode: 111 + i };

// Other spellings people (and models) use for the same keys.
const ALIASES: Record<string, string> = {
  option: 'alt', ctrl: 'control', cmd: 'meta', command: 'meta',
  return: 'enter', esc: 'escape', up: 'arrowup', down: 'arrowdown', left: 'arrowleft', right: 'arrowright',
};
for (const [alias, name] of Object.entries(ALIASES)) {
  if (MODIFIERS[name]) MODIFIERS[alias] = MODIFIERS[name];
  else NAMED[alias] = NAMED[name];
}

const PUNCTUATION: Record<string, [string, number]> = {
  '-': ['Minus', 189], '=': ['Equal', 187], '[': ['BracketLeft', 219], ']': ['BracketRight', 221],
  ';': ['Semicolon', 186], "'": ['Quote', 222], ',': ['Comma', 188], '.': ['Period', 190],
  '/': ['Slash', 191], '\\': ['Backslash', 220], '`': ['Backquote', 192],
};

/** Characters typed with Shift on a US layout, by the unshifted character of the same key. */
const SHIFTED: Record<string, string> = {
  '!': '1', '@': '2', '#': '3', '$': '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0',
  '_': '-', '+': '=', '{': '[', '}': ']', ':': ';', '"': "'", '<': ',', '>': '.', '?': '/', '|': '\\', '~': '`',
};

function single(ch: string): KeyDefinition | undefined {
  if (/^[a-z]$/i.test(ch)) {
    const upper = ch.toUpperCase();
    return { key: ch, code: `Key${upper}`, keyCode: upper.charCodeAt(0), text: ch };
  }
  if (/^[0-9]$/.test(ch)) return { key: ch, code: `Digit${ch}`, keyCode: ch.charCodeAt(0), text: ch };
  const p = PUNCTUATION[ch];
  return p ? { key: ch, code: p[0], keyCode: p[1], text: ch } : undefined;
}

/**
 * The key a person presses to type one character, when there is one on a US layout (letters,
 * digits, punctuation, space); other characters (line breaks included: Enter would submit a
 * form) are typed as text input.
 */
export function keyForChar(ch: string): { def: KeyDefinition; shift: boolean } | undefined {
  if (ch === ' ') return { def: NAMED.space, shift: false };
  if (/^[A-Z]$/.test(ch)) {
    const lower = single(ch.toLowerCase())!;
    return { def: { ...lower, key: ch, text: ch }, shift: true };
  }
  // "!", "@", "?"…: the key of its unshifted character, pressed with Shift, as a person types it
  // (a page listening for keydown must see them, not only an input event).
  const base = SHIFTED[ch];
  if (base) return { def: { ...single(base)!, key: ch, text: ch }, shift: true };
  const def = single(ch);
  return def ? { def, shift: false } : undefined;
}

/** Parses "Control+Shift+K", "Enter", "a". Throws BAD_INPUT naming the part it does not know. */
export function parseChord(spec: string): Chord {
  const trimmed = spec.trim();
  // "+" itself and chords ending in "+" ("Control++") name the plus key.
  const parts = trimmed === '+' ? ['+'] : trimmed.endsWith('++') ? [...trimmed.slice(0, -2).split('+'), '+'] : trimmed.split('+');
  if (!trimmed || parts.some((p) => !p.trim())) throw new PagelensError('BAD_INPUT', `"${spec}" is not a key or chord (expected e.g. "Enter", "Tab", "Control+A").`);
  let modifiers = 0;
  const modifierKeys: KeyDefinition[] = [];
  for (const p of parts.slice(0, -1)) {
    const m = MODIFIERS[p.trim().toLowerCase()];
    if (!m) throw new PagelensError('BAD_INPUT', `"${p}" in "${spec}" is not a modifier (Control, Shift, Alt, Meta).`);
    if (!(modifiers & m.bit)) { modifiers |= m.bit; modifierKeys.push(m.def); }
  }
  const last = parts[parts.length - 1].trim();
  const key = NAMED[last.toLowerCase()] ?? single(last === '+' ? '=' : last) ?? (MODIFIERS[last.toLowerCase()]?.def);
  if (!key) throw new PagelensError('BAD_INPUT', `"${last}" in "${spec}" is not a key name (expected a letter, digit, Enter, Tab, Escape, Backspace, Delete, Space, Arrow keys, Home, End, PageUp, PageDown, F1-F12).`);
  let def = key;
  if (last === '+') def = { key: '+', code: 'Equal', keyCode: 187, text: '+' };
  if (def.text && /^[a-z]$/.test(def.key) && modifiers & 8) def = { ...def, key: def.key.toUpperCase(), text: def.key.toUpperCase() };
  return { modifiers, modifierKeys, key: def };
}
