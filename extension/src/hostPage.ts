// The page side of the Host port in the extension: dialogs, the console, new documents and a drag
// gesture through chrome.debugger (Page.javascriptDialogOpening / handleJavaScriptDialog,
// Runtime.consoleAPICalled / exceptionThrown, Page.frameNavigated, Input.*), the request log
// (Network.requestWillBeSent / responseReceived / loadingFailed), the viewport through
// Emulation, capture through image.ts; input, the address, navigation and settling are the act
// pipeline's host (hostEngine.ts). One per tab; the debugger is attached when the tab's tools are first
// used (as for trusted input: Chrome shows its bar while it is attached).
import { NetworkLog } from '../../src/tools/logs/requests.js';
import type { DialogAction, HostConsoleEntry, HostDialog, HostPage, HostPageEvents } from '../../src/model/contracts/hostPage.js';
import { photographCovered } from './tabLens.js';
import { extensionActHost } from './hostEngine.js';
import { mouseMove, trustedInput } from './input.js';
import { ExtensionError } from './tab.js';

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
  private mainFrameId?: string;
  /** The tab's requests, from the Network domain while the debugger is attached (src/tools/logs/requests.ts keeps them). */
  readonly network = new NetworkLog();

  readonly input: HostPage['input'];
  readonly pointer: HostPage['pointer'];
  readonly url: HostPage['url'];
  readonly navigate: HostPage['navigate'];
  readonly settle: HostPage['settle'];
  readonly dialogs: HostPage['dialogs'];

  constructor(private readonly tabId: number) {
    const send = (method: string, params: object) => this.send(method, params);
    const button = (type: 'mousePressed' | 'mouseReleased', x: number, y: number) =>
      send('Input.dispatchMouseEvent', { type, x, y, button: 'left', buttons: type === 'mousePressed' ? 1 : 0, clickCount: 1 });
    // Input, the address, navigation and settling are the act pipeline's host (hostEngine.ts), with
    // the debugger attached first: one transport for both.
    const act = async () => { await this.attach(); return extensionActHost(tabId, true); };
    this.input = {
      trusted: true,
      move: async (x, y) => (await act()).input.move(x, y),
      click: async (x, y, clicks) => (await act()).input.click(x, y, clicks),
      insertText: async (text) => (await act()).input.insertText(text),
      typeText: async (text) => (await act()).input.typeText(text),
      press: async (chord) => (await act()).input.press(chord),
    };
    // While the button is held every move says so (buttons: 1): that is what makes it a drag.
    this.pointer = {
      down: async (x, y) => { await this.attach(); await mouseMove(tabId, x, y); await button('mousePressed', x, y); },
      move: (x, y) => send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, button: 'left', buttons: 1 }).then(() => {}),
      up: (x, y) => button('mouseReleased', x, y).then(() => {}),
    };
    this.url = () => extensionActHost(tabId, true).url();
    this.navigate = async (how) => { await (await act()).navigate(how); await (await act()).settle({ timeoutMs: 10_000 }); };
    this.settle = async (opts) => (await act()).settle(opts);
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
    // The request log, from now on (what came before is not seen: the log says so).
    this.mainFrameId = (await this.send<{ frameTree: { frame: { id: string } } }>('Page.getFrameTree', {})).frameTree.frame.id;
    await this.send('Network.enable', {});
  }

  detached(): void {
    this.enabled = false;
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
    } else if (method === 'Network.requestWillBeSent') {
      const id = params.requestId;
      const redirect = params.redirectResponse as { status?: number } | undefined;
      if (redirect?.status !== undefined) this.network.answered(id, redirect.status);
      const r = params.request as { method?: string; url?: string } | undefined;
      // CDP names types as Playwright does, capitalised (Document, XHR, Fetch, Script, …).
      const type = typeof params.type === 'string' ? params.type.toLowerCase() : 'other';
      this.network.sent(id, { method: r?.method ?? 'GET', url: r?.url ?? '', type }, type === 'document' && params.frameId === this.mainFrameId);
    } else if (method === 'Network.responseReceived') {
      const status = (params.response as { status?: number } | undefined)?.status;
      if (status !== undefined) this.network.answered(params.requestId, status);
    } else if (method === 'Network.loadingFailed') {
      this.network.failed(params.requestId, String(params.errorText ?? 'failed'));
    } else if (method === 'Page.frameNavigated') {
      // Cross-document commits only (same-document moves are Page.navigatedWithinDocument).
      const frame = params.frame as { parentId?: string; url?: string } | undefined;
      if (frame && !frame.parentId) this.emit((l) => l.document?.(frame.url ?? ''));
    }
  }

  async capture(): Promise<{ png: Uint8Array; viewport: { width: number; height: number } }> {
    await this.attach();
    const metrics = await this.send<{ cssLayoutViewport: { clientWidth: number; clientHeight: number } }>('Page.getLayoutMetrics', {});
    // Secret fields that show their value are painted over, as in every image this host gives.
    const { png } = await photographCovered(this.tabId);
    return { png, viewport: { width: metrics.cssLayoutViewport.clientWidth, height: metrics.cssLayoutViewport.clientHeight } };
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
