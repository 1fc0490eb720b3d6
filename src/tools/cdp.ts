// The tool registry on the CDP host: the tool context of a Playwright lens — the lens itself, the
// page side of the port (src/browser/hostPage.ts) and what only this host offers through
// Playwright (extras: locator clicks with modifiers, file choosers and inputs, screenshots in any
// format, the network log, and what an action caused on the network). Only this file and
// registry.ts know the tools run over Playwright; the extension builds its context elsewhere.
import type { Download, Page, Response } from 'playwright-core';
import { saveDownload, type DownloadReport } from '../browser/downloads.js';
import { cdpActHost } from '../browser/hostEngine.js';
import { hostPageOf } from '../browser/hostPage.js';
import { encodeImage as encode, imageSize } from '../browser/images.js';
import { coreOf, type Lens } from '../browser/lens.js';
import { consoleLogOf, type ConsoleLog } from './console.js';
import type { ActionEffects, ToolExtras } from './types.js';
import type { TabHost } from './host.js';
import { failed, renderRequest, watchNetwork } from './requests.js';
import type { ShotArgs } from './screenshot.js';
import { stateOf } from './state.js';
import { jsonResult, type ToolContext, type ToolResult } from './types.js';

/** How long Playwright-level fallbacks (modifier clicks, uploads, element shots) may wait for an element. */
const LOCATOR_TIMEOUT_MS = 5000;
/** Failed requests an answer names at most (the rest: browser_network_requests). */
const FAILED_REQUESTS = 5;
/** A popup's first URL is often about:blank: wait this long for its document. */
const POPUP_WAIT_MS = 3000;
/** The CDP object group of the handles the tools' reads resolve (drag ends, verification). */
const GROUP = 'pagelens-tools';
const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
const DEFAULT_QUALITY = 60;

/** The page's console log, from the moment a holder opens the page (before any lens is attached). */
export function watchConsole(page: Page): ConsoleLog {
  return consoleLogOf(hostPageOf(page));
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
    watchAction: () => watchEffects(page, downloadsDir),
  };
}

/** Playwright captures (it scrolls and stitches a full page, clips an element in any frame); sharp encodes every format. */
async function shoot(lens: Lens, a: ShotArgs): Promise<ToolResult> {
  const quality = a.quality ?? DEFAULT_QUALITY;
  const marks = a.marks ?? (a.type === undefined && !a.fullPage && !a.id);
  if (marks) {
    const r = await lens.snapshot({ mode: 'hybrid', screenshot: { setOfMark: true, quality: a.type && a.type !== 'jpeg' ? 100 : quality } });
    const type = a.type ?? 'jpeg';
    const image = type === 'jpeg' ? Buffer.from(r.screenshot, 'base64') : await encode(Buffer.from(r.screenshot, 'base64'), type, quality);
    const data = { url: r.url, title: r.title, type, marks: r.meta.marks, bytes: image.length, screenshotHash: r.screenshotHash };
    return { ...jsonResult(data), images: [{ data: image.toString('base64'), mimeType: MIME[type] }] };
  }
  const type = a.type ?? 'png';
  const png = a.id
    ? await (await lens.locator(a.id)).screenshot({ type: 'png', timeout: LOCATOR_TIMEOUT_MS })
    : await lens.page.screenshot({ type: 'png', fullPage: a.fullPage ?? false });
  const image = await encode(png, type, quality);
  const meta = await imageSize(image);
  const data = { url: lens.page.url(), of: a.id ?? (a.fullPage ? 'full page' : 'viewport'), type, width: meta.width, height: meta.height, bytes: image.length };
  return { ...jsonResult(data), images: [{ data: image.toString('base64'), mimeType: MIME[type] }] };
}

/** From now until finish: the main document's response, failed requests, popups and downloads. */
function watchEffects(page: Page, downloadsDir?: string): { finish(opts: { tabIndexOf?: (url: string) => Promise<number | undefined> }): Promise<ActionEffects> } {
  let document: Response | undefined;
  const popups: Page[] = [];
  const downloads: Array<Promise<DownloadReport>> = [];
  const net = watchNetwork(page);
  const networkStart = net.dropped + net.entries.length;
  const off: Array<() => void> = [];
  const on = (event: string, fn: (x: never) => void) => {
    const p = page as unknown as { on(e: string, f: unknown): void; off(e: string, f: unknown): void };
    p.on(event, fn);
    off.push(() => p.off(event, fn));
  };
  on('response', (r: Response) => { if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) document = r; });
  on('popup', (p: Page) => popups.push(p));
  on('download', (d: Download) => downloads.push(saveDownload(d, downloadsDir)));
  return {
    async finish(opts) {
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
      }
      if (downloads.length) out.downloads = await Promise.all(downloads);
      return out;
    },
  };
}

