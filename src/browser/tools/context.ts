// The tool registry on the CDP host: the tool context of a Playwright lens — the lens itself, the
// page side of the port (src/browser/cdpHostPage.ts) and what only this host offers through
// Playwright (extras: locator clicks with modifiers, file choosers and inputs, screenshots in any
// format, the network log, and what an action caused on the network). Only this file and
// runTool.ts know the tools run over Playwright (src/tools knows no host); the extension builds
// its context elsewhere.
import type { Download, Page, Request, Response } from 'playwright-core';
import { saveDownload, type DownloadReport } from '../downloads.js';
import { cdpActHost } from '../hostEngine.js';
import { hostPageOf } from '../cdpHostPage.js';
import { encodeImage as encode, imageSize } from '../images.js';
import { plainShot } from '../screenshot.js';
import type { Cdp } from '../cdp.js';
import { coreOf, type Lens } from '../lens.js';
import { consoleLogOf, type ConsoleLog } from '../../tools/logs/console.js';
import type { ActionEffects, ToolExtras } from '../../tools/registry/types.js';
import type { TabHost } from '../../tools/registry/host.js';
import { failed, NetworkLog, renderRequest } from '../../tools/logs/requests.js';
import { DEFAULT_QUALITY, markedShot, MIME, shotType, wantsMarks, type ShotArgs } from '../../tools/reading/screenshot.js';
import { stateOf } from '../../tools/registry/state.js';
import { jsonResult, type ToolContext, type ToolResult } from '../../tools/registry/types.js';

/** How long Playwright-level fallbacks (modifier clicks, uploads, element shots) may wait for an element. */
const LOCATOR_TIMEOUT_MS = 5000;
/** Failed requests an answer names at most (the rest: browser_network_requests). */
const FAILED_REQUESTS = 5;
/** A popup's first URL is often about:blank: wait this long for its document. */
const POPUP_WAIT_MS = 3000;
/** The CDP object group of the handles the tools' reads resolve (drag ends, verification). */
const GROUP = 'pagelens-tools';

/** The page's console log, from the moment a holder opens the page (before any lens is attached). */
export function watchConsole(page: Page): ConsoleLog {
  return consoleLogOf(hostPageOf(page));
}

/** The log of a Playwright page. */
function logOf(page: Page): NetworkLog {
  const log = new NetworkLog();
  page.on('request', (r: Request) => log.sent(r, { method: r.method(), url: r.url(), type: r.resourceType() }, r.isNavigationRequest() && r.frame() === page.mainFrame()));
  page.on('response', (res) => log.answered(res.request(), res.status()));
  page.on('requestfailed', (r) => log.failed(r, r.failure()?.errorText ?? 'failed'));
  return log;
}

const logs = new WeakMap<Page, NetworkLog>();

/** The page's request log, started on first call (a holder calls it when the page opens). */
export function watchNetwork(page: Page): NetworkLog {
  let log = logs.get(page);
  if (!log) { log = logOf(page); logs.set(page, log); }
  return log;
}

/** What runTool runs a tool with on a Playwright lens. */
export function toolContextOf(lens: Lens, host?: TabHost): ToolContext {
  const page = hostPageOf(lens.page, coreOf(lens));
  const extras = extrasOf(lens, host?.downloadsDir);
  return { lens, page, port: cdpActHost(coreOf(lens), GROUP), extras, state: stateOf(page, extras), ...(host && { host }) };
}

function extrasOf(lens: Lens, downloadsDir?: string): ToolExtras {
  const page = lens.page;
  return {
    clickWith: async (id, how) => {
      await (await lens.locator(id)).click({ button: how.button, ...(how.modifiers && { modifiers: how.modifiers as Array<'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift'> }), clickCount: how.clicks, timeout: LOCATOR_TIMEOUT_MS });
    },
    setInputFiles: async (id, paths) => { await (await lens.locator(id)).setInputFiles(paths, { timeout: LOCATOR_TIMEOUT_MS }); },
    watchChoosers: (opened) => {
      const on = (c: import('playwright-core').FileChooser) => opened({ multiple: c.isMultiple(), setFiles: (paths) => c.setFiles(paths, { timeout: LOCATOR_TIMEOUT_MS }) });
      page.on('filechooser', on);
      return () => { page.off('filechooser', on); };
    },
    screenshot: (a) => shoot(lens, a),
    networkLog: () => watchNetwork(page),
    watchAction: () => watchEffects(page, coreOf(lens).pageTarget.cdp, downloadsDir),
  };
}

/**
 * Playwright captures (it scrolls and stitches a full page, clips an element in any frame); the
 * secret fields that show their value are painted over (read as the image was taken, in page
 * coordinates for a whole page or an element); sharp encodes every format.
 */
async function shoot(lens: Lens, a: ShotArgs): Promise<ToolResult> {
  const quality = a.quality ?? DEFAULT_QUALITY;
  // Marks as WebP: the hybrid snapshot's PNG, encoded by sharp.
  if (wantsMarks(a)) return markedShot(lens, a, async (png, type, q) => (await encode(Buffer.from(png, 'base64'), type, q)).toString('base64'));
  const type = shotType(a);
  const { png, covers } = await plainShot(coreOf(lens), a.id ? { element: await lens.locator(a.id), id: a.id, timeoutMs: LOCATOR_TIMEOUT_MS } : { fullPage: a.fullPage ?? false });
  const image = await encode(png, type, quality);
  const meta = await imageSize(image);
  const data = {
    url: lens.page.url(), of: a.id ?? (a.fullPage ? 'full page' : 'viewport'), type, width: meta.width, height: meta.height, bytes: image.length,
    ...(covers.boxes.length && { secretFieldsCovered: covers.boxes.length }), ...(covers.warnings.length && { warnings: covers.warnings }),
  };
  return { ...jsonResult(data), images: [{ data: image.toString('base64'), mimeType: MIME[type] }] };
}

/** Resolves when `listen`'s callback is called, or after `ms`. */
function arrival(ms: number, listen: (done: () => void) => void): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    listen(() => { clearTimeout(timer); resolve(); });
  });
}

/** From now until finish: the main document's response, failed requests, popups and downloads. */
function watchEffects(page: Page, cdp: Cdp, downloadsDir?: string): { finish(opts: { tabIndexOf?: (url: string) => Promise<number | undefined> }): Promise<ActionEffects> } {
  let document: Response | undefined;
  const popups: Page[] = [];
  let popupArrived: () => void = () => {};
  // Chrome says at once that the page opens a window; Playwright's popup page comes when it is set
  // up, which on a busy machine can be after the action's answer. Knowing a window opened, the
  // answer waits for it rather than leaving it out.
  const windowsOpened: string[] = [];
  const onWindowOpen = (e: { url: string }) => { windowsOpened.push(e.url); };
  cdp.on('Page.windowOpen', onWindowOpen);
  const downloads: Array<Promise<DownloadReport>> = [];
  const net = watchNetwork(page);
  const networkStart = net.dropped + net.entries.length;
  const off: Array<() => void> = [() => cdp.off('Page.windowOpen', onWindowOpen)];
  const on = (event: string, fn: (x: never) => void) => {
    const p = page as unknown as { on(e: string, f: unknown): void; off(e: string, f: unknown): void };
    p.on(event, fn);
    off.push(() => p.off(event, fn));
  };
  on('response', (r: Response) => { if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) document = r; });
  on('popup', (p: Page) => { popups.push(p); popupArrived(); });
  on('download', (d: Download) => downloads.push(saveDownload(d, downloadsDir)));
  return {
    async finish(opts) {
      if (windowsOpened.length && !popups.length) await arrival(POPUP_WAIT_MS, (done) => { popupArrived = done; });
      for (const f of off) f();
      const out: ActionEffects = {};
      if (document) out.http = { status: document.status(), ...(document.statusText() && { statusText: document.statusText() }) };
      const fresh = net.dropped + net.entries.length - networkStart;
      const failures = net.entries.slice(Math.max(0, net.entries.length - fresh))
        .filter((e) => failed(e) && !(e.type === 'document' && e.url === document?.url()))
        .map(renderRequest);
      if (failures.length) {
        out.failedRequests = failures.slice(0, FAILED_REQUESTS);
        if (failures.length > FAILED_REQUESTS) out.failedRequests.push(`${failures.length - FAILED_REQUESTS} more: browser_network_requests failedOnly=true`);
      }
      const popup = popups[popups.length - 1];
      if (popup) {
        await popup.waitForLoadState('domcontentloaded', { timeout: POPUP_WAIT_MS }).catch(() => {});
        const index = await opts.tabIndexOf?.(popup.url());
        out.popup = { url: popup.url(), note: index === undefined ? 'opened in a new tab: see browser_tabs' : `opened in tab ${index}; this tab stays current: browser_tabs select ${index} to work there` };
      } else if (windowsOpened.length) {
        out.popup = { url: windowsOpened[windowsOpened.length - 1], note: `the page opened a new window that was not ready within ${POPUP_WAIT_MS} ms: see browser_tabs` };
      }
      if (downloads.length) out.downloads = await Promise.all(downloads);
      return out;
    },
  };
}

