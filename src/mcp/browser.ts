// The one page an MCP server works on: launched headless Chromium or an attached browser (CDP),
// opened lazily on the first tool call so that listing tools never needs a browser.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { blockExternalRequests, connectChromium, launchChromium } from '../browser/chromium.js';
import { Lens } from '../browser/lens.js';
import { PagelensError } from '../model/errors.js';

export interface BrowserOptions {
  /** Attach to a running browser (ws://… or http://host:9222) instead of launching one. */
  cdp?: string;
  viewport?: { width: number; height: number };
  headless?: boolean;
  /** Abort every request that is not to loopback. */
  offline?: boolean;
  /** Only these origins may load (plus data:, blob:, about:). */
  allowedOrigins?: string[];
  blockedOrigins?: string[];
}

export class BrowserSession {
  private opening?: Promise<{ browser: Browser; context: BrowserContext; page: Page; lens: Lens; owned: boolean }>;

  constructor(private readonly opts: BrowserOptions) {}

  async lens(): Promise<Lens> {
    this.opening ??= this.open().catch((e) => { this.opening = undefined; throw e; });
    return (await this.opening).lens;
  }

  private async open() {
    const { opts } = this;
    const browser = opts.cdp ? await connectChromium(opts.cdp) : await launchChromium({ headless: opts.headless ?? true });
    try {
      // An attached browser keeps its own profile: work in its default context, as its user would.
      const existing = opts.cdp ? browser.contexts()[0] : undefined;
      const context = existing ?? await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 } });
      if (opts.offline) await blockExternalRequests(context);
      if (opts.allowedOrigins?.length || opts.blockedOrigins?.length) await restrictOrigins(context, opts.allowedOrigins ?? [], opts.blockedOrigins ?? []);
      const page = await context.newPage();
      if (existing && opts.viewport) await page.setViewportSize(opts.viewport);
      const lens = await Lens.attach(page);
      return { browser, context, page, lens, owned: !existing };
    } catch (e) {
      await browser.close().catch(() => {});
      throw e;
    }
  }

  async close(): Promise<void> {
    const opened = await this.opening?.catch(() => undefined);
    this.opening = undefined;
    if (!opened) return;
    await opened.lens.close().catch(() => {});
    if (opened.owned) await opened.context.close().catch(() => {});
    else await opened.page.close().catch(() => {});
    // For an attached browser this only disconnects: it keeps running.
    await opened.browser.close().catch(() => {});
  }
}

async function restrictOrigins(context: BrowserContext, allowed: string[], blocked: string[]): Promise<void> {
  const norm = (o: string) => { try { return new URL(o).origin; } catch { throw new PagelensError('BAD_INPUT', `"${o}" is not an origin (expected e.g. https://example.com).`); } };
  const allow = new Set(allowed.map(norm));
  const block = new Set(blocked.map(norm));
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(data|blob|about):/.test(url)) return route.fallback();
    let origin = '';
    try { origin = new URL(url).origin; } catch { /* unparseable: blocked below */ }
    if (block.has(origin) || (allow.size > 0 && !allow.has(origin))) return route.abort('blockedbyclient');
    return route.fallback();
  });
}
