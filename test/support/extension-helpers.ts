// What the extension tests share: building extension/dist when it is stale, a persistent Chromium
// context with it loaded unpacked (loopback only), and finding a page's tab from the service worker.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_ARGS, DROPPED_DEFAULT_ARGS, findChromium } from '../../src/browser/chromium.js';
import { IdNumbering } from '../../src/browser/lens.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const EXT = join(ROOT, 'extension/dist');

/** Builds the extension when it is missing or older than its sources (CI runs only `npm run build`). */
function ensureBuilt(): void {
  const manifest = join(EXT, 'manifest.json');
  // Recursive: src/model has subfolders, and a changed file does not touch its folder's time. src/tools is bundled into the service worker.
  const newest = (dir: string): number => Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)));
  const sources = ['extension/src', 'src/page', 'src/model', 'src/core', 'src/tools'].map((d) => newest(join(ROOT, d)));
  const script = statSync(join(ROOT, 'scripts/build-extension.mjs')).mtimeMs;
  if (existsSync(manifest) && statSync(manifest).mtimeMs >= Math.max(script, ...sources)) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-extension.mjs')], { stdio: 'inherit' });
}

export interface ExtensionBrowser {
  context: BrowserContext;
  /** The running service worker (restartServiceWorker replaces it). */
  worker: Worker;
  close(): Promise<void>;
}

/** Chromium with the unpacked extension, in a fresh profile; every request but loopback and the extension's own is aborted. */
export async function launchWithExtension(profilePrefix: string, viewport = { width: 1280, height: 800 }): Promise<ExtensionBrowser> {
  ensureBuilt();
  const profile = mkdtempSync(join(tmpdir(), profilePrefix));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: findChromium(),
    headless: true,
    viewport,
    args: [...CHROMIUM_ARGS, `--disable-extensions-except=${EXT}`, `--load-extension=${EXT}`],
    ignoreDefaultArgs: ['--disable-extensions', ...DROPPED_DEFAULT_ARGS],
  });
  // Loopback only, as the harness does, but the extension's own pages must load too.
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    const local = url.protocol === 'chrome-extension:' || /^(data|blob|about):$/.test(url.protocol) || ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    return local ? route.continue() : route.abort();
  });
  const worker = context.serviceWorkers()[0] ?? await context.waitForEvent('serviceworker', { timeout: 10_000 });
  return {
    context,
    worker,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}

/** Opens a page in a new tab and finds its tab ID from the service worker. */
export async function openTab(ext: ExtensionBrowser, url: string): Promise<{ page: Page; tabId: number }> {
  const page = await ext.context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  // As the harness reads pages: loaded and settled (the engine's tagger has had its first pass).
  await page.waitForTimeout(300);
  const tabId = await ext.worker.evaluate(async (u) => {
    const tabs: Array<{ id?: number; url?: string }> = await (globalThis as any).chrome.tabs.query({});
    return tabs.find((t) => t.url === u)?.id ?? -1;
  }, page.url());
  assert.ok(tabId >= 0, `the service worker sees the tab of ${url}`);
  return { page, tabId };
}

/**
 * Stops the extension's service worker, as Chrome does when it has been idle, and wakes it with a
 * message: the worker that answers then starts with nothing in memory. Returns it.
 */
export async function restartServiceWorker(ext: ExtensionBrowser): Promise<Worker> {
  const id = new URL(ext.worker.url()).host;
  // An extension page shares the worker's origin, so its CDP session sees (and can stop) that worker.
  const page = await ext.context.newPage();
  try {
    await page.goto(`chrome-extension://${id}/sidepanel.html`);
    const cdp = await ext.context.newCDPSession(page);
    const running = new Promise<string>((resolve) => cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const v = versions.find((x) => x.scriptURL.endsWith('/background.js') && x.runningStatus === 'running');
      if (v) resolve(v.versionId);
    }));
    await cdp.send('ServiceWorker.enable');
    const versionId = await running;
    const stopped = new Promise<void>((resolve) => cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      if (versions.some((x) => x.versionId === versionId && x.runningStatus === 'stopped')) resolve();
    }));
    await cdp.send('ServiceWorker.stopWorker', { versionId });
    await stopped;
    await page.evaluate(() => (globalThis as any).chrome.runtime.sendMessage({ type: 'wake' }).catch(() => {}));
    // Playwright may hand the restarted worker out as a new Worker or keep the old one attached to it.
    let worker: Worker | undefined;
    for (let tries = 0; !worker && tries < 100; tries++) {
      const candidate = ext.context.serviceWorkers().at(-1);
      if (candidate && await candidate.evaluate(() => typeof (self as any).pagelens === 'object').catch(() => false)) worker = candidate;
      else await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(worker, 'the restarted service worker answers');
    ext.worker = worker;
    return worker;
  } finally {
    await page.close();
  }
}

/**
 * A numbering for a CDP lens that starts where the extension's next tab will: every tab of the
 * extension's service worker is one session (src/core/ledger.ts), so a tab read for the first time
 * numbers above every ID handed out before. A reference read on the CDP host with it hands out the
 * same IDs for the same page; take it right before that tab's first read.
 */
export async function sameStartAs(ext: Pick<ExtensionBrowser, 'worker'>): Promise<IdNumbering> {
  const numbering = new IdNumbering();
  numbering.saw(await ext.worker.evaluate(() => (self as any).pagelens.idHighWater()) as number);
  return numbering;
}
