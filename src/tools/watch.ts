// What an action caused beyond the tree: the HTTP status of a document it loaded, console messages
// and page errors, requests that failed, popups it opened and files it downloaded. Listening starts
// before the action and stops when its answer is built, so each answer carries only its own effects.
import type { Download, Page, Response } from 'playwright-core';
import { saveDownload, type DownloadReport } from '../browser/downloads.js';
import { renderConsole, watchConsole } from './console.js';
import { failed, renderRequest, watchNetwork } from './requests.js';

/** Console lines an answer carries at most (the rest: browser_console_messages). */
const CONSOLE_LINES = 8;
/** Failed requests an answer names at most (the rest: browser_network_requests). */
const FAILED_REQUESTS = 5;
/** Characters of one console line in an action's answer. */
const LINE_MAX = 240;
/** A popup's first URL is often about:blank: wait this long for its document. */
const POPUP_WAIT_MS = 3000;

function cutLine(line: string): string {
  return line.length > LINE_MAX ? `${line.slice(0, LINE_MAX - 1)}…` : line;
}

export interface Happened {
  /** The main frame's document answered with this status (only when the action loaded one). */
  http?: { status: number; statusText?: string };
  console?: string[];
  failedRequests?: string[];
  popup?: { url: string; note: string };
  downloads?: DownloadReport[];
}

export class ActionWatch {
  private document?: Response;
  private readonly popups: Page[] = [];
  private readonly downloads: Array<Promise<DownloadReport>> = [];
  private readonly consoleStart: number;
  private readonly networkStart: number;
  private readonly off: Array<() => void> = [];

  constructor(private readonly page: Page, private readonly downloadsDir?: string) {
    const log = watchConsole(page);
    this.consoleStart = log.dropped + log.entries.length;
    const net = watchNetwork(page);
    this.networkStart = net.dropped + net.entries.length;
    this.on('response', (r: Response) => {
      if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) this.document = r;
    });
    this.on('popup', (p: Page) => this.popups.push(p));
    this.on('download', (d: Download) => this.downloads.push(this.save(d)));
  }

  /** Stops listening and says what happened; waits for downloads to be saved. */
  async finish(opts: { tabIndexOf?: (url: string) => Promise<number | undefined> } = {}): Promise<Happened> {
    for (const off of this.off) off();
    const out: Happened = {};
    if (this.document) out.http = { status: this.document.status(), ...(this.document.statusText() && { statusText: this.document.statusText() }) };
    const lines = this.newConsole();
    if (lines.length) out.console = lines;
    const failures = this.failedRequests();
    if (failures.length) {
      out.failedRequests = failures.slice(0, FAILED_REQUESTS);
      if (failures.length > FAILED_REQUESTS) out.failedRequests.push(`${failures.length - FAILED_REQUESTS} more: browser_network_requests failedOnly=true`);
    }
    const popup = this.popups[this.popups.length - 1];
    if (popup) {
      await popup.waitForLoadState('domcontentloaded', { timeout: POPUP_WAIT_MS }).catch(() => {});
      const index = await opts.tabIndexOf?.(popup.url());
      out.popup = { url: popup.url(), note: index === undefined ? 'opened in a new tab: see browser_tabs' : `opened in tab ${index}; this tab stays current: browser_tabs select ${index} to work there` };
    }
    if (this.downloads.length) out.downloads = await Promise.all(this.downloads);
    return out;
  }

  /** Requests made since the action started that failed, the page's own document aside (its status is `http`). */
  private failedRequests(): string[] {
    const net = watchNetwork(this.page);
    const fresh = net.dropped + net.entries.length - this.networkStart;
    return net.entries.slice(Math.max(0, net.entries.length - fresh))
      .filter((e) => failed(e) && !(e.type === 'document' && e.url === this.document?.url()))
      .map(renderRequest);
  }

  private newConsole(): string[] {
    const log = watchConsole(this.page);
    const fresh = log.dropped + log.entries.length - this.consoleStart;
    if (fresh <= 0) return [];
    const entries = log.entries.slice(Math.max(0, log.entries.length - fresh));
    // An action's answer carries the gist of each message; browser_console_messages has them whole.
    const shown = entries.slice(-CONSOLE_LINES).map((e) => cutLine(renderConsole([e])));
    if (fresh > shown.length) shown.unshift(`${fresh - shown.length} earlier: browser_console_messages`);
    return shown;
  }

  private save(d: Download): Promise<DownloadReport> {
    return saveDownload(d, this.downloadsDir);
  }

  private on(event: string, fn: (x: never) => void): void {
    const page = this.page as unknown as { on(e: string, f: unknown): void; off(e: string, f: unknown): void };
    page.on(event, fn);
    this.off.push(() => page.off(event, fn));
  }
}
