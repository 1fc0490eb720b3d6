// Opening a page for one job (CLI, benchmark, tests): a browser (launched or attached over CDP),
// a page, a lens on it, and one close() for all of it.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { serveFolder, type StaticServer } from './static.js';
import { PagelensError } from '../model/errors.js';
import { blockExternalRequests, connectChromium, launchChromium } from './chromium.js';
import { Lens } from './lens.js';

export interface OpenOptions {
  viewport?: { width: number; height: number };
  /** Attach to a running browser instead of launching one (ws://… or http://host:9222). */
  cdpEndpoint?: string;
  /** Abort every request that is not to loopback; default: on for local files, off for URLs. */
  blockExternal?: boolean;
  timeoutMs?: number;
}

export interface OpenPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  lens: Lens;
  url: string;
  close(): Promise<void>;
}

/** Opens a URL, or a local .html file served from loopback so that relative assets load. */
export async function openPage(target: string, opts: OpenOptions = {}): Promise<OpenPage> {
  let server: StaticServer | undefined;
  let url = target;
  const isFile = !/^[a-z][a-z0-9+.-]*:/i.test(target) && existsSync(target) && statSync(target).isFile();
  if (isFile) {
    server = await serveFolder(dirname(resolve(target)));
    url = server.url + encodeURIComponent(basename(target));
  } else if (!/^(https?|file|data|about):/i.test(target)) {
    throw new PagelensError('BAD_INPUT', `"${target}" is neither a URL nor an existing file.`);
  }
  const viewport = opts.viewport ?? { width: 1280, height: 800 };
  const browser = opts.cdpEndpoint ? await connectChromium(opts.cdpEndpoint) : await launchChromium();
  const context = await browser.newContext({ viewport });
  const closeAll = async () => {
    await context.close().catch(() => {});
    // For a browser we attached to, close() only disconnects: the browser keeps running.
    await browser.close().catch(() => {});
    await server?.close();
  };
  try {
    if (opts.blockExternal ?? isFile) await blockExternalRequests(context);
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.dismiss().catch(() => {}); });
    const lens = await Lens.attach(page);
    await gotoSettled(page, url, opts.timeoutMs ?? 30_000);
    return { browser, context, page, lens, url, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

/** Navigates and lets the page settle: DOM ready, then the load event or a short grace period. */
export async function gotoSettled(page: Page, url: string, timeoutMs = 30_000): Promise<void> {
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs });
  } catch (e) {
    throw new PagelensError('LOAD_FAILED', `Could not open ${url}: ${(e as Error).message.split('\n')[0]}`);
  }
  await page.waitForLoadState('load', { timeout: 2000 }).catch(() => {});
}

export function parseViewport(spec: string): { width: number; height: number } {
  const m = /^(\d{2,5})x(\d{2,5})$/.exec(spec.trim());
  if (!m) throw new PagelensError('BAD_INPUT', `--viewport must look like 1280x800, got "${spec}"`);
  return { width: Number(m[1]), height: Number(m[2]) };
}
