// The page's requests, kept per page from the moment a holder starts watching (a holder calls
// watchNetwork when the page opens): method, URL, status or failure, and type, in a bounded buffer
// (what was dropped is counted). browser_network_requests and action answers read it.
import type { Page, Request } from 'playwright-core';

export interface RequestEntry {
  method: string;
  url: string;
  /** Playwright's resource type: document, xhr, fetch, script, stylesheet, image… */
  type: string;
  status?: number;
  /** The browser's reason when no response came (net::ERR_…). */
  failure?: string;
  /** Which document of the tab made it (as in console.ts). */
  document: number;
}

const REQUEST_LIMIT = 1000;
const URL_MAX = 200;
/** What a page loads to look the way it does: left out unless asked for. */
export const STATIC_TYPES = new Set(['image', 'font', 'stylesheet', 'media', 'manifest', 'texttrack']);

export class NetworkLog {
  readonly entries: RequestEntry[] = [];
  dropped = 0;
  private document = 0;
  private readonly byRequest = new WeakMap<Request, RequestEntry>();

  constructor(page: Page) {
    page.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === page.mainFrame()) this.document++;
      if (/^(data|blob):/.test(r.url())) return;
      const e: RequestEntry = { method: r.method(), url: r.url(), type: r.resourceType(), document: this.document };
      this.byRequest.set(r, e);
      this.entries.push(e);
      if (this.entries.length > REQUEST_LIMIT) { this.entries.shift(); this.dropped++; }
    });
    page.on('response', (res) => { const e = this.byRequest.get(res.request()); if (e) e.status = res.status(); });
    page.on('requestfailed', (r) => { const e = this.byRequest.get(r); if (e) e.failure = r.failure()?.errorText ?? 'failed'; });
  }

  get currentDocument(): number {
    return this.document;
  }
}

const logs = new WeakMap<Page, NetworkLog>();

/** The page's request log, started on first call (a holder calls it when the page opens). */
export function watchNetwork(page: Page): NetworkLog {
  let log = logs.get(page);
  if (!log) { log = new NetworkLog(page); logs.set(page, log); }
  return log;
}

export function failed(e: RequestEntry): boolean {
  return e.failure !== undefined || (e.status !== undefined && e.status >= 400);
}

export function renderRequest(e: RequestEntry): string {
  const url = e.url.length > URL_MAX ? `${e.url.slice(0, URL_MAX - 1)}…` : e.url;
  const outcome = e.failure ?? (e.status === undefined ? 'pending' : String(e.status));
  return `${e.method} ${url} → ${outcome} (${e.type})`;
}
