// Trusted input through chrome.debugger (Input.dispatch*): the page sees isTrusted events, as a
// person's. The debugger is attached on first use and kept; when it cannot be attached (another
// debugger holds the tab, the user refused) callers fall back to DOM events and say so.
const attached = new Set<number>();

chrome.debugger.onDetach.addListener((source) => { if (source.tabId !== undefined) attached.delete(source.tabId); });

/** Whether trusted input is available for the tab (attaching now if needed); the reason when not. */
export async function trustedInput(tabId: number): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (attached.has(tabId)) return { ok: true };
  try {
    await chrome.debugger.attach({ tabId }, '1.3');
    attached.add(tabId);
    return { ok: true };
  } catch (e) {
    const reason = (e as Error).message;
    // After a service-worker restart our own attachment survives while this set is empty: Chrome
    // then says "already attached", and commands still go through.
    if (/already attached/i.test(reason)) { attached.add(tabId); return { ok: true }; }
    return { ok: false, reason };
  }
}

export async function releaseInput(tabId: number): Promise<void> {
  if (!attached.delete(tabId)) return;
  await chrome.debugger.detach({ tabId }).catch(() => {});
}

function send(tabId: number, method: string, params: object): Promise<unknown> {
  return chrome.debugger.sendCommand({ tabId }, method, params);
}

/** A left press and release where the pointer already is (moved there by mouseMove); the browser routes it into out-of-process iframes. */
export async function mousePress(tabId: number, x: number, y: number, clickCount = 1): Promise<void> {
  for (let c = 1; c <= clickCount; c++) {
    await send(tabId, 'Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', buttons: 1, clickCount: c });
    await send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', buttons: 0, clickCount: c });
  }
}

export async function mouseMove(tabId: number, x: number, y: number): Promise<void> {
  await send(tabId, 'Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
}

/** Selects the focused field's whole content, so that what is typed next replaces it. */
export async function selectAll(tabId: number): Promise<void> {
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'rawKeyDown', key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65, modifiers: 2, commands: ['selectAll'] });
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', key: 'a', code: 'KeyA', windowsVirtualKeyCode: 65, modifiers: 2 });
}

/** Text as one trusted input (what an IME or a paste gives): one input event, no change event. */
export async function insertText(tabId: number, text: string): Promise<void> {
  await send(tabId, 'Input.insertText', { text });
}

const KEYS: Record<string, { code: string; vk: number; text?: string }> = {
  Enter: { code: 'Enter', vk: 13, text: '\r' }, Tab: { code: 'Tab', vk: 9 }, Escape: { code: 'Escape', vk: 27 },
  Backspace: { code: 'Backspace', vk: 8 }, Delete: { code: 'Delete', vk: 46 }, Space: { code: 'Space', vk: 32, text: ' ' },
  ArrowUp: { code: 'ArrowUp', vk: 38 }, ArrowDown: { code: 'ArrowDown', vk: 40 }, ArrowLeft: { code: 'ArrowLeft', vk: 37 }, ArrowRight: { code: 'ArrowRight', vk: 39 },
  Home: { code: 'Home', vk: 36 }, End: { code: 'End', vk: 35 }, PageUp: { code: 'PageUp', vk: 33 }, PageDown: { code: 'PageDown', vk: 34 },
};
const MODIFIERS: Record<string, number> = { Alt: 1, Control: 2, Ctrl: 2, Meta: 4, Shift: 8 };

/** One key or chord ("Enter", "Control+A"); false when the key is not one this extension knows. */
export async function pressKeys(tabId: number, keys: string): Promise<boolean> {
  const parts = keys.split('+').map((p) => p.trim()).filter(Boolean);
  const key = parts.pop() ?? '';
  let modifiers = 0;
  for (const m of parts) { const bit = MODIFIERS[m]; if (bit === undefined) return false; modifiers |= bit; }
  const named = KEYS[key === ' ' ? 'Space' : key];
  const single = !named && key.length === 1 ? { code: /[a-z]/i.test(key) ? `Key${key.toUpperCase()}` : '', vk: key.toUpperCase().charCodeAt(0), text: key } : undefined;
  const k = named ?? single;
  if (!k) return false;
  const text = modifiers & ~8 ? undefined : k.text;
  await send(tabId, 'Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers, ...(text && { text }) });
  await send(tabId, 'Input.dispatchKeyEvent', { type: 'keyUp', key, code: k.code, windowsVirtualKeyCode: k.vk, modifiers });
  return true;
}
