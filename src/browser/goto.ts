// Opening a URL in a page and letting it settle, as Playwright MCP does: once the document has
// committed, a bounded wait for DOM ready and the load event, then the page as it stands. A page
// whose scripts or subresources never finish loading (a third-party script on a filtered network)
// is read as it is, and the answer says what was still loading, instead of waiting for a quiet
// that never comes. A page that cannot be opened at all is LOAD_FAILED / NAVIGATION_FAILED, with
// the browser's reason; a main document the server answered with 4xx or 5xx is a failure too,
// with the status: the page on screen is an error page, not the one asked for.
import type { Page, Request, Response } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';

/** Where a navigation ended and the HTTP status of its main document (null where there is none: file:, data:, about:, a same-document move). */
export interface Navigated { url: string; status: number | null; /** What was still loading when the bounded wait ended. */ loading?: string }

/** How long a navigation may take to commit (the server's first answer). */
export const COMMIT_TIMEOUT_MS = 30_000;
/** After the commit: how long a navigation waits for DOM ready and the load event before it answers with the page as it stands. */
export const DEFAULT_SETTLE_MS = 5_000;

/** Starts a navigation that waits until the given point (goto, back, forward, reload all take one). */
export type StartNavigation = (opts: { waitUntil: 'commit'; timeout: number }) => Promise<Response | null>;

/**
 * Runs a navigation to its commit, then waits for DOM ready and load within `settleMs` in all; the
 * answer's `loading` says which of the two had not come. Failures before the commit throw `code`.
 */
export async function navigateCommitted(page: Page, start: StartNavigation, what: string, code: 'LOAD_FAILED' | 'NAVIGATION_FAILED', settleMs = DEFAULT_SETTLE_MS): Promise<{ response: Response | null; loading?: string }> {
  const requests = new RequestTally(page);
  try {
    let response: Response | null;
    try {
      response = await start({ waitUntil: 'commit', timeout: COMMIT_TIMEOUT_MS });
    } catch (e) {
      throw new PagelensError(code, `Could not ${what}: ${(e as Error).message.split('\n')[0]}`);
    }
    const t0 = performance.now();
    const left = () => Math.max(1, settleMs - (performance.now() - t0));
    // Only waits: a page that does not get there is read as it stands.
    const ready = await page.waitForLoadState('domcontentloaded', { timeout: left() }).then(() => true, () => false);
    const loaded = ready && await page.waitForLoadState('load', { timeout: left() }).then(() => true, () => false);
    if (loaded) return { response };
    const seconds = `${(settleMs / 1000).toFixed(settleMs % 1000 ? 1 : 0)} s`;
    const why = !ready
      ? `the document was still loading ${seconds} after it arrived (its DOM was not ready: a script or stylesheet it waits for had not come)`
      : `the page's load event had not come ${seconds} after the document arrived (images, frames or scripts still loading)`;
    const tally = requests.say();
    return { response, loading: tally ? `${why}; ${tally}` : why };
  } finally {
    requests.stop();
  }
}

/** The requests a navigation made, by origin: those still in flight and those that failed, said in one line. */
class RequestTally {
  private readonly pending = new Map<Request, string>();
  private readonly failed = new Map<string, number>();
  private readonly onRequest = (r: Request) => { this.pending.set(r, originOf(r.url())); };
  private readonly onDone = (r: Request) => { this.pending.delete(r); };
  private readonly onFailed = (r: Request) => {
    this.pending.delete(r);
    const o = originOf(r.url());
    this.failed.set(o, (this.failed.get(o) ?? 0) + 1);
  };

  constructor(private readonly page: Page) {
    page.on('request', this.onRequest);
    page.on('requestfinished', this.onDone);
    page.on('requestfailed', this.onFailed);
  }

  stop(): void {
    this.page.off('request', this.onRequest);
    this.page.off('requestfinished', this.onDone);
    this.page.off('requestfailed', this.onFailed);
  }

  say(): string {
    const inFlight = new Map<string, number>();
    for (const o of this.pending.values()) inFlight.set(o, (inFlight.get(o) ?? 0) + 1);
    const parts = [byOrigin(inFlight, 'still in flight'), byOrigin(this.failed, 'failed')].filter(Boolean);
    return parts.join('; ');
  }
}

/** "3 requests still in flight (2 to https://cdn.example, 1 to …)", the four largest origins named. */
function byOrigin(counts: Map<string, number>, what: string): string {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (!total) return '';
  const top = [...counts].sort((a, b) => b[1] - a[1]);
  const named = top.slice(0, 4).map(([o, n]) => `${n} to ${o}`);
  if (top.length > 4) named.push(`${top.length - 4} more origins`);
  return `${total} request${total === 1 ? '' : 's'} ${what} (${named.join(', ')})`;
}

function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? u.protocol : u.origin;
  } catch {
    return 'an unparsable URL';
  }
}

export async function gotoSettled(page: Page, url: string, timeoutMs = COMMIT_TIMEOUT_MS, settleMs = DEFAULT_SETTLE_MS): Promise<Navigated> {
  const { response, loading } = await navigateCommitted(page, (o) => page.goto(url, { ...o, timeout: Math.min(o.timeout, timeoutMs) }), `open ${url}`, 'LOAD_FAILED', settleMs);
  const done = checkStatus(page, response, `open ${url}`, 'LOAD_FAILED');
  return loading ? { ...done, loading } : done;
}

/**
 * The navigation's outcome from its main document's response; an HTTP error (4xx, 5xx) is thrown
 * as `code`, the status in the message and in `details.status`.
 */
export function checkStatus(page: Page, response: Response | null, what: string, code: 'LOAD_FAILED' | 'NAVIGATION_FAILED'): Navigated {
  const status = response ? response.status() : null;
  if (status !== null && status >= 400) {
    const text = response!.statusText();
    throw new PagelensError(code, `Could not ${what}: the server answered ${status}${text ? ` ${text}` : ''}`, { status, url: response!.url() });
  }
  return { url: page.url(), status };
}
