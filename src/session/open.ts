// Opening a page for one job (the CLI, the backend, tests): a browser (launched or attached over
// CDP), a page, a lens on it, and one close() for all of it. A face-level helper: it composes the
// lens facade, which nothing in src/browser may import.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { connectChromium, launchChromium, routeOriginRules, WEBRTC_PROXIED_ONLY_ARGS } from '../browser/chromium.js';
import { startOriginProxy, type OriginProxy } from '../browser/originProxy.js';
import { gotoSettled } from '../browser/goto.js';
import { Lens } from '../browser/lens.js';
import { readStateFile, type StorageState } from '../browser/stateFile.js';
import { serveFolder, type StaticServer } from '../browser/static.js';
import { PagelensError } from '../model/contracts/errors.js';
import { originKey, type OriginRules } from '../model/safety/origins.js';

export interface OpenOptions {
  viewport?: { width: number; height: number };
  /** Attach to a running browser instead of launching one (ws://… or http://host:9222). */
  cdpEndpoint?: string;
  /** Abort every request that is not to loopback; default: on for local files, off for URLs. */
  blockExternal?: boolean;
  timeoutMs?: number;
  /**
   * Start logged in: a state file saved by lens.saveState / `--save-storage-state` (read, and
   * decrypted with PAGELENS_STATE_KEY, before any browser starts), or the state itself.
   */
  storageState?: string | StorageState;
}

export interface OpenPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  lens: Lens;
  url: string;
  /** The HTTP status of the page opened (null for file:, data: and about: URLs); 4xx/5xx never get here: they are LOAD_FAILED. */
  status: number | null;
  close(): Promise<void>;
}

/** A browser pagelens attached to was started without the WebRTC policy: its page's STUN (UDP) goes past the rules. */
const ATTACHED_WEBRTC_WARNING = 'pagelens: the attached browser was not started by pagelens: its pages\' WebRTC (STUN over UDP) is not held by the origin rules; start it with --webrtc-ip-handling-policy=disable_non_proxied_udp\n';

/** Opens a URL, or a local .html file served from loopback so that relative assets load. */
export async function openPage(target: string, opts: OpenOptions = {}): Promise<OpenPage> {
  let server: StaticServer | undefined;
  let url = target;
  const isFile = !/^[a-z][a-z0-9+.-]*:/i.test(target) && existsSync(target) && statSync(target).isFile();
  if (isFile) {
    // The page and what it references, not its folder (a page in ~ would otherwise read ~/.ssh).
    server = await serveFolder(dirname(resolve(target)), { page: basename(target) });
    url = server.url + encodeURIComponent(basename(target));
  } else if (!/^(https?|file|data|about):/i.test(target)) {
    throw new PagelensError('BAD_INPUT', `"${target}" is neither a URL nor an existing file.`);
  }
  // A state file that cannot be trusted (altered, another key) stops here, before anything is opened.
  const state = typeof opts.storageState === 'string' ? await readStateFile(opts.storageState).catch(async (e) => { await server?.close(); throw e; }) : opts.storageState;
  const viewport = opts.viewport ?? { width: 1280, height: 800 };
  // A local page may reach its own server only; --offline, loopback only. Every hop and WebSocket
  // goes through the origin proxy, first hops are also refused by route (a plainer error), and
  // WebRTC may send nothing but through the proxy (chromium.ts WEBRTC_PROXIED_ONLY_ARGS).
  const rules: OriginRules | undefined = server ? { offline: true, allowed: [originKey(server.url)!], blocked: [] } : (opts.blockExternal ? { offline: true, allowed: [], blocked: [] } : undefined);
  let browser: Browser;
  let context: BrowserContext;
  try {
    browser = opts.cdpEndpoint ? await connectChromium(opts.cdpEndpoint) : await launchChromium(rules ? { extraArgs: WEBRTC_PROXIED_ONLY_ARGS } : {});
  } catch (e) {
    // Nothing else holds the process open once the server is closed too.
    await server?.close();
    throw e;
  }
  if (rules && opts.cdpEndpoint) process.stderr.write(ATTACHED_WEBRTC_WARNING);
  let guard: OriginProxy | undefined;
  try {
    guard = rules && await startOriginProxy(rules);
    context = await browser.newContext({ viewport, ...(guard && { proxy: { server: guard.server } }), ...(state && { storageState: state as unknown as BrowserContextOptions['storageState'] }) });
  } catch (e) {
    await browser.close().catch(() => {});
    await guard?.close();
    await server?.close();
    throw e;
  }
  const closeAll = async () => {
    await context.close().catch(() => {});
    // For a browser we attached to, close() only disconnects: the browser keeps running.
    await browser.close().catch(() => {});
    await guard?.close();
    await server?.close();
  };
  try {
    if (rules) await routeOriginRules(context, rules);
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.dismiss().catch(() => {}); });
    const lens = await Lens.attach(page);
    const { status } = await gotoSettled(page, url, opts.timeoutMs ?? 30_000);
    return { browser, context, page, lens, url, status, close: closeAll };
  } catch (e) {
    await closeAll();
    throw e;
  }
}

export { gotoSettled };

export { parseViewport } from '../model/contracts/viewport.js';
