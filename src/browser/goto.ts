// Opening a URL in a page and letting it settle: DOM ready, then the load event or a short grace
// period. A page that cannot be loaded is LOAD_FAILED, with the browser's reason; a main document
// the server answered with 4xx or 5xx is a failure too, with the status: the page on screen is an
// error page, not the one asked for.
import type { Page, Response } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';

/** Where a navigation ended and the HTTP status of its main document (null where there is none: file:, data:, about:, a same-document move). */
export interface Navigated { url: string; status: number | null }

export async function gotoSettled(page: Page, url: string, timeoutMs = 30_000): Promise<Navigated> {
  let response: Response | null;
  try {
    response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  } catch (e) {
    throw new PagelensError('LOAD_FAILED', `Could not open ${url}: ${(e as Error).message.split('\n')[0]}`);
  }
  const done = checkStatus(page, response, `open ${url}`, 'LOAD_FAILED');
  // Only a wait: a page whose load event never comes is read as it stands after the grace period.
  await page.waitForLoadState('load', { timeout: 2000 }).catch(() => {});
  return done;
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
