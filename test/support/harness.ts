// Shared test setup: one real headless Chromium per test file, fixtures served from two loopback
// origins (127.0.0.1 and localhost on another port) so cross-origin iframes are out-of-process,
// and every other request blocked.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { blockExternalRequests, launchChromium } from '../../src/browser/chromium.js';
import { Lens, type IdNumbering } from '../../src/browser/lens.js';
import { gotoSettled } from '../../src/browser/goto.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures');

export interface Harness {
  browser: Browser;
  /** http://127.0.0.1:A/ */
  originA: string;
  /** http://localhost:B/ — a different site, so its frames run in another process. */
  originB: string;
  /**
   * `loaded`: wait for the page's load (every frame of it) however slow the machine, up to 120 s,
   * for tests about reading a page's frames rather than a page still loading.
   */
  open(path: string, opts?: OpenOptions & { origin?: 'A' | 'B' }): Promise<Opened>;
  /** open() for a page of another loopback server (the corpus), in a context of its own that the caller closes. */
  openUrl(url: string, opts?: OpenOptions): Promise<Opened>;
  close(): Promise<void>;
}

export interface OpenOptions {
  viewport?: { width: number; height: number };
  loaded?: boolean;
  /** The lens's ID numbering (a session shared with other lenses, or one that starts where another host's does). */
  numbering?: IdNumbering;
}

export interface Opened {
  context: BrowserContext;
  page: Page;
  lens: Lens;
}

export async function startHarness(): Promise<Harness> {
  const replacements: Record<string, string> = {};
  const a = await serveFolder(FIXTURES, { replacements });
  const b: StaticServer = await serveFolder(FIXTURES, { host: 'localhost', replacements });
  replacements['{{ORIGIN_A}}'] = a.url.slice(0, -1);
  replacements['{{ORIGIN_B}}'] = b.url.slice(0, -1);
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const openUrl: Harness['openUrl'] = async (url, opts = {}) => {
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
    contexts.push(context);
    await blockExternalRequests(context);
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.dismiss().catch(() => {}); });
    const lens = await Lens.attach(page, opts.numbering ? { numbering: opts.numbering } : {});
    await gotoSettled(page, url);
    // Tests read pages as loaded (every iframe included), however slow a loaded CI machine is;
    // gotoSettled alone gives up waiting after a short grace period, as the CLI should. Pages that
    // navigate forever (engine-navloop) never get there: only a wait, then they are read as they are.
    if (opts.loaded) await page.waitForLoadState('load', { timeout: 120_000 });
    else await page.waitForLoadState('load', { timeout: 15_000 }).catch(() => {});
    return { context, page, lens };
  };
  return {
    browser,
    originA: a.url,
    originB: b.url,
    open: (path, opts = {}) => openUrl((opts.origin === 'B' ? b.url : a.url) + path, opts),
    openUrl,
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      await a.close();
      await b.close();
    },
  };
}

/** Once the page has rendered what changed: two animation frames (an observer's reports come with the first). */
export function rendered(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}
