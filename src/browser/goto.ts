// Opening a URL in a page and letting it settle: DOM ready, then the load event or a short grace
// period. A page that cannot be loaded is LOAD_FAILED, with the browser's reason.
import type { Page } from 'playwright-core';
import { PagelensError } from '../model/errors.js';

export async function gotoSettled(page: Page, url: string, timeoutMs = 30_000): Promise<void> {
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  } catch (e) {
    throw new PagelensError('LOAD_FAILED', `Could not open ${url}: ${(e as Error).message.split('\n')[0]}`);
  }
  // Only a wait: a page whose load event never comes is read as it stands after the grace period.
  await page.waitForLoadState('load', { timeout: 2000 }).catch(() => {});
}
