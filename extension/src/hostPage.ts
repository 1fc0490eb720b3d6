// The page side of the Host port in the extension: trusted input, dialogs, the console and new
// documents through chrome.debugger (Input.*, Page.javascriptDialogOpening /
// handleJavaScriptDialog, Runtime.consoleAPICalled / exceptionThrown, Page.frameNavigated), the
// address and navigation through chrome.tabs, capture through image.ts, settling through the
// content scripts' activity. One per tab; the debugger is attached when the tab's tools are first
// used (as for trusted input: Chrome shows its bar while it is attached).
import type { Chord } from '../../src/model/contracts/keys.js';
import type { DialogAction, HostConsoleEntry, HostDialog, HostPage, HostPageEvents } from '../../src/model/contracts/hostPage.js';
import { captureTab } from './image.js';
import { insertText, mouseMove, mousePress, pressKeys, trustedInput } from './input.js';
import { ask, ExtensionError } from './tab.js';
import { settle } from './verify.js';

interface RemoteObject { type: string; value?: unknown; unserializableValue?: string; description?: string }
interface CallFrame { url: string; lineNumber: number }

const LEVEL_OF: Record<string, HostConsoleEntry['level']> = { error: 'error', assert: 'error', warning: 'warning', debug: 'debug', trace: 'debug' };

/** A console argument as text, as DevTools and Playwright print it: strings bare, the rest by description. */
function argText(a: RemoteObject): string {
  if (a.type === 'string') return String(a.value);
  if (a.value !== undefined) return typeof a.value === 'object' ? JSON.stringify(a.value) : String(a.value);
  return a.unserializableValue ?? a.description ?? a.type;
}

class ExtensionHostPage implements HostPage {
  private dialog?: HostDialog;
  private readonly listeners = new Set<HostPageEvents>();
  /** The debugger session's domains are on (cleared when Chrome detaches it). */
  private enabled = false;
  private held = false;

  readonly input: HostPage['input'];
  readonly dialogs: HostPage['dialogs'];

  constructor(private readonly tabId: number) {
    const send = (method: string, params: object) => this.send(method, params);
    const button = (type: 'mousePressed' | 'mouseReleased', x: number, y: number) =>
      send('Input.dispatchMouseEvent', { type, x, y, button: 'left', buttons: type === 'mousePressed' ? 1 : 0, clickCount: 1 });
    this.input = {
      trusted: true,
      // While the button is held a move says so (buttons: 1): that is what makes it a drag.
      move: async (x, y) => { if (this.held) await send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'left', buttons: 1 }); else await mouseMove(tabId, x, y); },
      down: async (x, y) => { await this.attach(); this.held = true; await button('mousePressed', x, y); },
      up: async (x, y) => { this.held = false; await button('mouseReleased', x, y); },
      click: async (x, y, clicks = 1) => { await this.attach(); await mouseMove(tabId, x, y); await mousePress(tabId, x, y, clicks); },
      insertText: async (text) => { await this.attach(); await insertText(tabId, text); },
      typeText: async (text) => { await this.attach(); for (const ch of text) await insertText(tabId, ch); },
      press: async (chord: Chord) => {
        await this.attach();
        const keys = [...chord.modifierKeys.map((k) => k.key), chord.key.key].join('+');
        if (!await pressKeys(tabId, keys)) throw new ExtensionError('BAD_INPUT', `unknown key "${keys}"`);
      },
    };
    this.dialogs = {
      pending: () => this.dialog,
      answer: async (a: DialogAction) => {
        if (!this.dialog) throw new ExtensionError('NOT_ACTIONABLE', 'No dialog is open.');
        this.dialog = undefined;
        await this.send('Page.handleJavaScriptDialog', a.accept ? { accept: true, ...(a.promptText !== undefined && { promptText: a.promptText }) } : { accept: false });
      },
    };
  }

  /** Attaches the debugger (if it is not) and turns on the events the port reports. */
  async attach(): Promise<void> {
    const t = await trustedInput(this.tabId);
    if (!t.ok) throw new ExtensionError('CDP_ERROR', `the debugger could not be attached to the tab (${t.reason}): dialogs, the console and trusted input need it`);
    if (this.enabled) return;
    this.enabled = true;
    await this.send('Page.enable', {});
    // Runtime.enable reports the messages logged before it too (the inspector keeps them).
    await this.send('Runtime.enable', {});
  }

  detached(): void {
    this.enabled = false;
    this.held = false;
  }

  event(method: string, params: Record<string, unknown>): void {
    if (method === 'Page.javascriptDialogOpening') {
      const type = params.type as HostDialog['type'];
      const d: HostDialog = { type, message: String(params.message ?? ''), ...(type === 'prompt' && { defaultValue: String(params.defaultPrompt ?? '') }) };
      this.dialog = d;
      this.emit((l) => l.dialog?.(d));
    } else if (method === 'Page.javascriptDialogClosed') {
      this.dialog = undefined;
    } else if (method === 'Runtime.consoleAPICalled') {
      const frame = (params.stackTrace as { callFrames?: CallFrame[] } | undefined)?.callFrames?.[0];
      const type = String(params.type);
      const e: HostConsoleEntry = {
        level: LEVEL_OF[type] ?? 'info', type, text: ((params.args as RemoteObject[] | undefined) ?? []).map(argText).join(' '),
        ...(frame?.url && { location: `${frame.url}:${frame.lineNumber + 1}` }), at: Date.now(),
      };
      this.emit((l) => l.console?.(e));
    } else if (method === 'Runtime.exceptionThrown') {
      const d = params.exceptionDetails as { text?: string; exception?: { description?: string } } | undefined;
      const text = d?.exception?.description ?? d?.text ?? 'uncaught exception';
      this.emit((l) => l.console?.({ level: 'error', type: 'pageerror', text, at: Date.now() }));
    } else if (method === 'Page.frameNavigated') {
      // Cross-document commits only (same-document moves are Page.navigatedWithinDocument).
      const frame = params.frame as { parentId?: string; url?: string } | undefined;
      if (frame && !frame.parentId) this.emit((l) => l.document?.(frame.url ?? ''));
    }
  }

  async capture(): Promise<{ png: Uint8Array; viewport: { width: number; height: number } }> {
    await this.attach();
    const metrics = await this.send<{ cssLayoutViewport: { clientWidth: number; clientHeight: number } }>('Page.getLayoutMetrics', {});
    const { png } = await captureTab(this.tabId);
    return { png: new Uint8Array(await png.arrayBuffer()), viewport: { width: metrics.cssLayoutViewport.clientWidth, height: metrics.cssLayoutViewport.clientHeight } };
  }

  async url(): Promise<string> {
    return (await chrome.tabs.get(this.tabId)).url ?? '';
  }

  async navigate(how: Parameters<HostPage['navigate']>[0]): Promise<void> {
    if ('goto' in how) await chrome.tabs.update(this.tabId, { url: how.goto });
    else if ('reload' in how) await chrome.tabs.reload(this.tabId);
    else if (how.history === 'back') await chrome.tabs.goBack(this.tabId);
    else await chrome.tabs.goForward(this.tabId);
    await settle(this.tabId, [0], 10_000);
  }

  async settle(opts: { timeoutMs: number; quietMs?: number }): Promise<{ settled: boolean; waitedMs: number; reason?: string }> {
    const t0 = Date.now();
    await settle(this.tabId, [0], opts.timeoutMs);
    // settle() waits but does not say whether it got there: the page is asked once more.
    const a = await ask(this.tabId, 0, { kind: 'activity' }).catch(() => undefined);
    const quiet = !!a && a.readyState === 'complete' && a.quietMs >= (opts.quietMs ?? 150);
    return { settled: quiet, waitedMs: Date.now() - t0, ...(!quiet && { reason: a ? `the page was still changing ${a.quietMs} ms before the end` : 'the page could not be asked' }) };
  }

  async setViewport(size: { width: number; height: number }): Promise<void> {
    await this.attach();
    await this.send('Emulation.setDeviceMetricsOverride', { width: size.width, height: size.height, deviceScaleFactor: 0, mobile: false });
  }

  watch(listener: HostPageEvents): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  private send<T = unknown>(method: string, params: object): Promise<T> {
    return chrome.debugger.sendCommand<T>({ tabId: this.tabId }, method, params);
  }

  private emit(call: (l: HostPageEvents) => void): void {
    for (const l of this.listeners) call(l);
  }
}

const pages = new Map<number, ExtensionHostPage>();

chrome.debugger.onEvent.addListener((source, method, params) => {
  if (source.tabId !== undefined) pages.get(source.tabId)?.event(method, (params ?? {}) as Record<string, unknown>);
});
chrome.debugger.onDetach.addListener((source) => { if (source.tabId !== undefined) pages.get(source.tabId)?.detached(); });

/**
 * The tab's HostPage, one per tab. Call attach() once its listeners are in place: Runtime.enable
 * reports the messages logged before it at once, and a listener added later would miss them.
 */
export function hostPageOf(tabId: number): ExtensionHostPage {
  let p = pages.get(tabId);
  if (!p) {
    p = new ExtensionHostPage(tabId);
    pages.set(tabId, p);
  }
  return p;
}
