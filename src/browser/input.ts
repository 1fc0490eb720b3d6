// Real input over CDP on the page's own session: the browser routes mouse events (top-level
// viewport coordinates) into whichever frame, out-of-process ones included, is under the point,
// and key events to the focused frame, exactly as it would a person's.
import { keyForChar, type Chord, type KeyDefinition } from '../model/contracts/keys.js';
import type { Cdp } from './cdp.js';

export async function mouseMove(cdp: Cdp, x: number, y: number): Promise<void> {
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'none', buttons: 0 });
}

/** A click (or a double click: two presses, the second with clickCount 2) at a point. */
export async function mouseClick(cdp: Cdp, x: number, y: number, clicks: 1 | 2 = 1): Promise<void> {
  await mouseMove(cdp, x, y);
  await mousePress(cdp, x, y, clicks);
}

/** Presses and releases where the pointer already is (moved there by mouseMove). */
export async function mousePress(cdp: Cdp, x: number, y: number, clicks: 1 | 2 = 1): Promise<void> {
  for (let n = 1; n <= clicks; n++) {
    await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: n });
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: n });
  }
}

export async function pressChord(cdp: Cdp, chord: Chord): Promise<void> {
  let modifiers = 0;
  const bits: Record<string, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
  for (const m of chord.modifierKeys) {
    modifiers |= bits[m.key] ?? 0;
    await key(cdp, 'rawKeyDown', m, modifiers);
  }
  // Control/Alt/Meta chords are commands, not text.
  const text = chord.modifiers & 7 ? undefined : chord.key.text;
  await key(cdp, text ? 'keyDown' : 'rawKeyDown', chord.key, chord.modifiers, text);
  await key(cdp, 'keyUp', chord.key, chord.modifiers);
  for (const m of [...chord.modifierKeys].reverse()) {
    modifiers &= ~(bits[m.key] ?? 0);
    await key(cdp, 'keyUp', m, modifiers);
  }
}

/** Text as an IME would commit it: one input event per call, whatever the characters. */
export async function insertText(cdp: Cdp, text: string): Promise<void> {
  await cdp.send('Input.insertText', { text });
}

function key(cdp: Cdp, type: string, def: KeyDefinition, modifiers: number, text?: string): Promise<unknown> {
  return cdp.send('Input.dispatchKeyEvent', {
    type, modifiers, key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, nativeVirtualKeyCode: def.keyCode,
    ...(def.location !== undefined && { location: def.location }),
    ...(text !== undefined && { text, unmodifiedText: text }),
  });
}

/**
 * Text key by key, as a person types it: keydown, the character's input, keyup, for each
 * character that has a key; other characters (accents, emoji, line breaks) as text input.
 */
export async function typeText(cdp: Cdp, text: string): Promise<void> {
  for (const ch of text) {
    const k = keyForChar(ch);
    if (!k) { await insertText(cdp, ch); continue; }
    const shift = k.shift ? 8 : 0;
    if (shift) await key(cdp, 'rawKeyDown', SHIFT, shift);
    await key(cdp, 'keyDown', k.def, shift, k.def.text);
    await key(cdp, 'keyUp', k.def, shift);
    if (shift) await key(cdp, 'keyUp', SHIFT, 0);
  }
}

const SHIFT: KeyDefinition = { key: 'Shift', code: 'ShiftLeft', keyCode: 16, location: 1 };
