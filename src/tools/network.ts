// The page's requests as an agent needs them: method, URL, status and type, kept per page from
// the moment a holder starts watching, in a bounded buffer (what was dropped is counted). The
// tool lists failed requests first (a 500 from "Save" is what the agent is looking for), then the
// rest, static resources only when asked, under the answer's ceiling.
import type { Page, Request } from 'playwright-core';
import { z } from 'zod';
import { fitLines } from './budget.js';
import { ceilingOf } from './ceiling.js';
import { defineTool, type ToolDef } from './types.js';

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
const STATIC_TYPES = new Set(['image', 'font', 'stylesheet', 'media', 'manifest', 'texttrack']);

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

/** Tokens kept for the lines around the requests. */
const ENVELOPE = 40;

export const NETWORK_TOOL: ToolDef = defineTool({
  name: 'browser_network_requests',
  description: 'Requests of the current page: method, URL, status (or the failure) and type, failed ones first.',
  input: z.strictObject({
    static: z.boolean().optional().describe('Include images, fonts, stylesheets and media (default false)'),
    failedOnly: z.boolean().optional().describe('Only requests that failed or answered 400 or more'),
    all: z.boolean().optional().describe('Include the requests of earlier pages of this tab'),
  }),
  run: async ({ lens, ceiling }, a) => {
    const log = watchNetwork(lens.page);
    const ofPage = log.entries.filter((e) => a.all || e.document === log.currentDocument);
    const picked = ofPage.filter((e) => (a.static || !STATIC_TYPES.has(e.type)) && (!a.failedOnly || failed(e)));
    const staticLeft = a.static ? 0 : ofPage.filter((e) => STATIC_TYPES.has(e.type) && (!a.failedOnly || failed(e))).length;
    const ordered = [...picked.filter(failed), ...picked.filter((e) => !failed(e))];
    const { kept } = await fitLines(ordered, renderRequest, (ceiling ?? ceilingOf('browser_network_requests')) - ENVELOPE);
    const lines = kept.map(renderRequest);
    const left = ordered.length - kept.length;
    if (left) lines.push(`${left} more requests: ask with failedOnly=true, or a larger ceiling`);
    if (log.dropped) lines.unshift(`(${log.dropped} older requests dropped)`);
    const nFailed = picked.filter(failed).length;
    const head = `${picked.length} requests, ${nFailed} failed${staticLeft ? ` (${staticLeft} images, fonts, stylesheets and media left out: static=true)` : ''}`;
    return { text: [head, ...lines].join('\n'), data: { requests: kept, more: left, failed: nFailed } };
  },
});
