// The browser an MCP server works in, opened lazily on the first tool call so that listing tools
// never needs one: launched headless Chromium in a fresh context (isolated, the default), a
// persistent profile (--user-data-dir), or an attached browser (--cdp, --ws-endpoint). It holds
// the tabs — every page of the context, popups included — one lens per page, and the current tab.
import { mkdir } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { CHROMIUM_ARGS, DROPPED_DEFAULT_ARGS, WEBRTC_PROXIED_ONLY_ARGS, connectChromium, findChromium, launchChromium, parseOriginRules, routeOriginRules } from '../browser/chromium.js';
import { startOriginProxy } from '../browser/originProxy.js';
import { hasOriginRules, type OriginRules } from '../model/safety/origins.js';
import { FilePolicy } from './filePolicy.js';
import { StateKeeper, type StateOptions } from './stateKeeper.js';
import { IdNumbering, Lens } from '../browser/lens.js';
import { WEBMCP_ARGS } from '../browser/webmcp.js';
import { PagelensError } from '../model/contracts/errors.js';
import { displayUrl } from '../model/safety/redact.js';
import { watchConsole, watchNetwork } from '../browser/tools/context.js';
import type { TabHost, TabInfo } from '../tools/registry/host.js';

export interface BrowserOptions extends StateOptions {
  /** Attach to a running browser (ws://… or http://host:9222) over CDP instead of launching one. */
  cdp?: string;
  /** Connect to a Playwright browser server (ws://…, from launchServer / `playwright run-server`). */
  wsEndpoint?: string;
  /** Keep the profile (cookies, storage) in this folder across runs: a persistent context. */
  userDataDir?: string;
  /**
   * A fresh in-memory context for the session, gone when it ends. The default unless userDataDir
   * is given; with cdp it means a new context rather than the attached browser's own profile.
   */
  isolated?: boolean;
  viewport?: { width: number; height: number };
  headless?: boolean;
  /** Abort every request that is not to loopback. */
  offline?: boolean;
  /** Only these origins may load (plus data:, blob:, about:). */
  allowedOrigins?: string[];
  blockedOrigins?: string[];
  /** file:// URLs anywhere (off by default: see filePolicy.ts). */
  allowFileUrls?: boolean;
  /** file:// URLs under these folders. */
  fileRoots?: string[];
  /** Folders browser_file_upload may read from (besides the client's MCP roots). */
  uploadDirs?: string[];
  /** Save files the page downloads here (created if missing); without it they are reported, not saved. */
  downloadsDir?: string;
}

interface Opened {
  context: BrowserContext;
  /** Disconnect or close whatever this session started, and nothing of the user's. */
  close(): Promise<void>;
}

interface Tab {
  page: Page;
  lens?: Promise<Lens>;
  /** The main frame's navigation request not yet committed (see watchLoading). */
  loading?: Request;
}

const DEFAULT_VIEWPORT = { width: 1280, height: 800 };
/** A title read while a dialog blocks the page would hang: the list shows no title instead. */
const TITLE_WAIT_MS = 1000;
/** How long a page may take to answer a one-line script before a call that ran out of time names it as not answering. */
const LIVENESS_WAIT_MS = 2000;
/** How long closing a stuck tab may take before it is forgotten anyway. */
const STUCK_CLOSE_MS = 5000;

/** Refuses flag combinations that cannot mean anything, before any browser starts. */
export function checkBrowserOptions(opts: BrowserOptions): void {
  const attach = [opts.cdp && '--cdp', opts.wsEndpoint && '--ws-endpoint', opts.userDataDir && '--user-data-dir'].filter(Boolean);
  if (attach.length > 1) throw new PagelensError('BAD_INPUT', `${attach.join(' and ')} cannot be combined: each says where the browser comes from.`);
  if (opts.downloadsDir !== undefined && !isAbsolute(opts.downloadsDir)) throw new PagelensError('BAD_INPUT', `--downloads-dir must be an absolute path, got "${opts.downloadsDir}".`);
  if (opts.userDataDir && opts.isolated) throw new PagelensError('BAD_INPUT', '--isolated keeps the profile in memory; --user-data-dir keeps it on disk: choose one.');
}

export class BrowserSession implements TabHost {
  private opening?: Promise<Opened>;
  private tabs: Tab[] = [];
  private current?: Page;
  /** Pages this session opened or saw open, as opposed to an attached user's tabs. */
  private readonly ownPages = new WeakSet<Page>();
  /** One numbering for every tab: an ID from one tab never names an element of another. */
  private readonly numbering = new IdNumbering();

  /** `source`: the browser several sessions share, each in a context of its own (MCP over HTTP). */
  /** The origin rules, when any are set: on every request of the context (see open()). */
  private readonly rules?: OriginRules;

  /** What of the disk the agent may reach: file:// URLs and uploads. */
  readonly files: FilePolicy;
  /** The saved state: loaded on open, saved on close and by autosave, and the tool's confined paths. */
  private readonly state: StateKeeper;
  /** Set while close() runs: a context closing then was closed by us, not lost. */
  private closingNow = false;
  /** Why the last browser connection was lost, until the next open says so (takeNotice). */
  private lostWhy?: string;
  private notice?: string;
  /**
   * Connections lost and opened again: after one, the engine lives in a world of the session's own
   * (target.ts), so a document that outlived the connection is numbered anew, above every ID the
   * session handed out, and its old IDs are refused by the engine itself, never bound again.
   */
  private reconnects = 0;
  /** The context open now, as watchConnection saw it: a loss of an earlier one is old news. */
  private live?: Opened;
  /** Work that needs the context before it closes (a Playwright trace is written then), each bounded by its owner. */
  private readonly closing: Array<(context: BrowserContext) => Promise<void>> = [];

  constructor(private readonly opts: BrowserOptions, private readonly source?: SharedBrowser) {
    checkBrowserOptions(opts);
    this.files = new FilePolicy(opts);
    this.state = new StateKeeper(opts);
    const rules = parseOriginRules(opts);
    if (hasOriginRules(rules)) this.rules = rules;
  }

  get downloadsDir(): string | undefined {
    return this.opts.downloadsDir;
  }

  /** The lens of the current tab (a new tab when none is open). */
  async lens(): Promise<Lens> {
    const opened = await this.ensureOpen();
    let tab = this.currentTab();
    if (!tab) {
      const page = await opened.context.newPage();
      tab = this.adopt(page);
      this.current = page;
    }
    return this.lensOf(tab);
  }

  /**
   * The current tab's lens if one is attached and its browser connected, never opening anything:
   * what a look at the page after a call uses (a closed browser stays closed).
   */
  openLens(): Promise<Lens> | undefined {
    if (!this.connected()) return undefined;
    return this.currentTab()?.lens;
  }

  /**
   * Whether the current tab's page still answers: undefined when it does (or no tab is open), else
   * a line naming it. A page whose main thread never yields (a script in an endless loop, a
   * renderer that hung) answers no command at all; a one-line script is the cheapest question.
   */
  async unanswered(): Promise<string | undefined> {
    const page = this.currentTab()?.page;
    if (!page || page.isClosed()) return undefined;
    const t0 = performance.now();
    const answered = await withTimeout(page.evaluate('1').then(() => true, () => true), LIVENESS_WAIT_MS, false);
    if (answered) return undefined;
    return `the page's main thread has not answered a one-line script for ${((performance.now() - t0) / 1000).toFixed(1)} s (a script that never yields, or a renderer that hung)`;
  }

  /**
   * Closes the current tab, whose page does not answer (`why`), and opens a fresh one in its place:
   * what `--recover-stuck-tabs` lets the next call do by itself. The fresh tab's IDs continue the
   * session's numbering, so no ID of the stuck page names anything there.
   */
  async replaceStuckTab(why: string): Promise<string> {
    const stuck = this.currentTab();
    const index = stuck ? this.tabs.indexOf(stuck) : -1;
    await this.newTab();
    if (stuck) {
      // A renderer that hung may never confirm the close: the tab is forgotten either way.
      await withTimeout(stuck.page.close({ runBeforeUnload: false }).then(() => true), STUCK_CLOSE_MS, false);
      this.forget(stuck.page);
    }
    return `recovered: tab ${index} did not answer (${why}); it was closed and a fresh tab is current (take page_snapshot; IDs of the stuck page are refused)`;
  }

  // ---- TabHost ----

  async listTabs(): Promise<TabInfo[]> {
    const current = this.currentTab();
    return Promise.all(this.tabs.map(async (t, index) => ({
      index,
      url: t.page.url(),
      title: await withTimeout(t.page.title(), TITLE_WAIT_MS, ''),
      current: t === current,
      ...(t.loading && { loading: t.loading.url() }),
    })));
  }

  async newTab(): Promise<Lens> {
    const opened = await this.ensureOpen();
    const page = await opened.context.newPage();
    const tab = this.adopt(page);
    this.current = page;
    return this.lensOf(tab);
  }

  async selectTab(index: number): Promise<Lens> {
    const tab = this.tabAt(index);
    this.current = tab.page;
    // Playwright's screenshots and input work on background pages too; bringing it to the front
    // keeps a headed browser showing what the agent works on.
    await tab.page.bringToFront().catch(() => {});
    return this.lensOf(tab);
  }

  async closeTab(index?: number): Promise<void> {
    const tab = index === undefined ? this.currentTab() : this.tabAt(index);
    if (!tab) throw new PagelensError('NOT_ACTIONABLE', 'No tab is open.');
    // The page's 'close' event removes the tab and picks the next current one.
    await tab.page.close();
    this.forget(tab.page);
  }

  async closeBrowser(): Promise<void> {
    await this.close();
  }

  checkNavigation(url: string): void {
    this.files.checkNavigation(url);
  }

  checkUploads(paths: string[]): Promise<string[]> {
    return this.files.checkUploads(paths);
  }

  /** browser_storage_state: the context's cookies, localStorage and IndexedDB to or from a confined file. */
  async storageState(action: 'save' | 'load', path?: string): Promise<{ done: boolean; message: string }> {
    const { context } = await this.ensureOpen();
    return this.state.run(action, path, context, this.currentTab()?.page);
  }

  /** Whether a browser is open and its connection up (false before the first call and after a drop). */
  connected(): boolean {
    return !!this.live && this.live.context.browser()?.isConnected() !== false;
  }

  /**
   * A line the next answer must carry, once: the browser connection was lost and opened again, so
   * every page is a new document to this session. Undefined when there is nothing to say.
   */
  takeNotice(): string | undefined {
    const n = this.notice;
    this.notice = undefined;
    return n;
  }

  // ---- lifecycle ----

  /** Runs `fn` with the context as the session closes, before the context goes (a failure is its own). */
  onClosing(fn: (context: BrowserContext) => Promise<void>): void {
    this.closing.push(fn);
  }

  async close(): Promise<void> {
    this.closingNow = true;
    try {
      await this.closeNow();
    } finally {
      this.closingNow = false;
    }
  }

  private async closeNow(): Promise<void> {
    const opened = await this.opening?.catch(() => undefined);
    // The last save happens while the context is still there (behind the --state-check, on the current tab).
    if (opened && this.live === opened) await this.state.closing(opened.context, this.currentTab()?.page);
    if (opened && this.live === opened) for (const fn of this.closing.splice(0)) await fn(opened.context).catch(() => {});
    this.live = undefined;
    this.opening = undefined;
    const tabs = this.tabs;
    this.tabs = [];
    this.current = undefined;
    for (const t of tabs) {
      const lens = await t.lens?.catch(() => undefined);
      await lens?.close().catch(() => {});
    }
    await opened?.close().catch(() => {});
  }

  private ensureOpen(): Promise<Opened> {
    // A connection that dropped a moment ago may not have said so yet: asked before it is used.
    if (this.live && this.live.context.browser()?.isConnected() === false) this.connectionLost(this.live, 'disconnected');
    this.opening ??= this.open().catch((e) => { this.opening = undefined; throw e; });
    return this.opening;
  }

  private async open(): Promise<Opened> {
    if (this.opts.downloadsDir) await mkdir(this.opts.downloadsDir, { recursive: true });
    const opened = await this.openContext();
    try {
      const { context } = opened;
      if (this.rules) await routeOriginRules(context, this.rules);
      await this.files.guardContext(context);
      // Before any tab of ours: its first document already sees the saved login.
      // (Not into an attached browser's own profile found again after a lost connection: it kept its own.)
      await this.state.opened(context, () => this.currentTab()?.page, { load: !(this.lostWhy && this.opts.cdp && !this.opts.isolated) });
      this.watchConnection(opened);
      // Pages already there (an attached profile's tabs, a persistent context's first page) are
      // tabs too; their lenses are attached when first used. New pages, popups included, get
      // theirs at once, so the tagger is in before their first document loads.
      for (const page of context.pages()) this.adopt(page, false);
      context.on('page', (page) => { this.adopt(page); });
      // A persistent context opens with one blank page: work there rather than beside it.
      const blank = this.opts.userDataDir ? context.pages()[0] : undefined;
      const page = blank ?? await context.newPage();
      this.adopt(page);
      if (this.opts.viewport && (this.opts.cdp && !this.opts.isolated)) await page.setViewportSize(this.opts.viewport);
      this.current = page;
      if (this.lostWhy) {
        this.notice = `BROWSER_LOST: ${describeBrowser(this.opts)} was lost (${this.lostWhy}); reconnected: this call runs in a new connection, every page a new document to this session, so IDs from before are refused: take page_snapshot`;
        this.lostWhy = undefined;
      }
      return opened;
    } catch (e) {
      await opened.close().catch(() => {});
      throw e;
    }
  }

  /**
   * The context, and the origin proxy its every request passes when rules are set. An attached
   * browser's own profile cannot be given a proxy: there the rules hold for first hops only
   * (routeOriginRules), and the log says so.
   */
  private async openContext(): Promise<Opened> {
    const { opts } = this;
    const viewport = opts.viewport ?? DEFAULT_VIEWPORT;
    const guard = this.rules && !(opts.cdp && !opts.isolated) ? await startOriginProxy(this.rules) : undefined;
    const proxy = guard && { proxy: { server: guard.server } };
    const stopGuard = async () => { await guard?.close(); };
    try {
      if (opts.userDataDir) {
        const context = await launchPersistent(opts.userDataDir, viewport, opts.headless ?? true, proxy, launchArgs(opts));
        return { context, close: async () => { await context.close(); await stopGuard(); } };
      }
      if (this.rules && (opts.cdp || opts.wsEndpoint)) process.stderr.write(ATTACHED_WEBRTC_WARNING);
      if (opts.cdp && !opts.isolated) {
        if (this.rules) process.stderr.write('pagelens: origin rules on an attached browser\'s own profile see first hops only (not redirects or WebSockets); add --isolated for all of them\n');
        const browser = await connectChromium(opts.cdp);
        // Attached without --isolated: the browser's own profile, as its user would. Only the
        // pages this session opened are closed at the end; the browser keeps running.
        const existing = browser.contexts()[0];
        if (existing) {
          return { context: existing, close: async () => { await this.closeOwnPages(); await browser.close(); } };
        }
        const context = await browser.newContext({ viewport });
        return { context, close: async () => { await context.close(); await browser.close(); } };
      }
      // A context of our own, in a browser of our own or in the one the server's sessions share.
      const browser = this.source ? await this.source.get() : await startBrowser(opts);
      const ownsBrowser = !this.source;
      try {
        const context = await browser.newContext({ viewport, ...proxy });
        return { context, close: async () => { await context.close().catch(() => {}); if (ownsBrowser) await browser.close(); await stopGuard(); } };
      } catch (e) {
        if (ownsBrowser) await browser.close().catch(() => {});
        throw e;
      }
    } catch (e) {
      await stopGuard();
      throw e;
    }
  }

  /**
   * A context or connection that goes away without close() (an attached browser's socket dropped,
   * a browser that crashed or was closed by its user): the session forgets it and its tabs, and
   * the next call opens again, saying so. The pages' lenses forget their ledgers as the pages
   * close, while the session's numbering goes on above every ID handed out: an ID from before is
   * never bound to an element of a page seen after.
   */
  private watchConnection(opened: Opened): void {
    this.live = opened;
    opened.context.once('close', () => this.connectionLost(opened, 'the browser context closed'));
    opened.context.browser()?.once('disconnected', () => this.connectionLost(opened, 'disconnected'));
  }

  private connectionLost(opened: Opened, why: string): void {
    if (this.closingNow || this.live !== opened) return;
    this.live = undefined;
    this.lostWhy ??= why;
    this.reconnects++;
    this.opening = undefined;
    for (const t of this.tabs) void t.lens?.then((l) => l.close()).catch(() => {});
    this.tabs = [];
    this.current = undefined;
    void opened.close().catch(() => {});
  }

  private async closeOwnPages(): Promise<void> {
    for (const t of [...this.tabs]) if (this.ownPages.has(t.page)) await t.page.close().catch(() => {});
  }

  private adopt(page: Page, attachNow = true): Tab {
    const known = this.tabs.find((t) => t.page === page);
    if (known) return known;
    const tab: Tab = { page };
    this.tabs.push(tab);
    if (attachNow) {
      this.ownPages.add(page);
      this.lensOf(tab).catch(() => {});
    }
    watchLoading(tab);
    watchConsole(page);
    watchNetwork(page);
    page.on('close', () => this.forget(page));
    return tab;
  }

  /** A tab gone (closed by us, the user or the site): the one before it becomes current. */
  private forget(page: Page): void {
    const i = this.tabs.findIndex((t) => t.page === page);
    if (i < 0) return;
    const [tab] = this.tabs.splice(i, 1);
    void tab.lens?.then((l) => l.close()).catch(() => {});
    if (this.current === page) this.current = this.tabs[Math.max(0, i - 1)]?.page;
  }

  private lensOf(tab: Tab): Promise<Lens> {
    tab.lens ??= Lens.attach(tab.page, { numbering: this.numbering, ...(this.reconnects && { world: `pagelens-r${this.reconnects}` }) }).catch((e) => { tab.lens = undefined; throw e; });
    return tab.lens;
  }

  private currentTab(): Tab | undefined {
    return this.tabs.find((t) => t.page === this.current) ?? this.tabs[this.tabs.length - 1];
  }

  private tabAt(index: number): Tab {
    const tab = this.tabs[index];
    if (!tab) throw new PagelensError('BAD_INPUT', `No tab ${index}: ${this.tabs.length} tab(s) are open (indexes 0-${this.tabs.length - 1}).`);
    return tab;
  }
}

/**
 * Keeps the tab's navigation in flight: a call given up at its deadline may leave one behind,
 * and the tab list then says where the tab is going rather than only the page it still shows.
 */
function watchLoading(tab: Tab): void {
  const { page } = tab;
  const settled = (r: Request) => { if (tab.loading === r) tab.loading = undefined; };
  page.on('request', (r) => { if (r.isNavigationRequest() && r.frame() === page.mainFrame()) tab.loading = r; });
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) tab.loading = undefined; });
  page.on('requestfailed', settled);
  page.on('requestfinished', settled);
}

/** The browser of these options, by name (an endpoint's token, query and user info left out). */
export function describeBrowser(opts: BrowserOptions): string {
  if (opts.wsEndpoint) return `the Playwright browser server at ${displayUrl(opts.wsEndpoint)}`;
  if (opts.cdp) return `the browser at ${displayUrl(opts.cdp)} (CDP)`;
  if (opts.userDataDir) return `Chromium with the profile ${opts.userDataDir}`;
  return 'the Chromium pagelens launched';
}

/** One browser (launched, or connected to) in which several sessions open contexts of their own. */
export class SharedBrowser {
  private browser?: Promise<Browser>;

  constructor(private readonly opts: BrowserOptions) {}

  get(): Promise<Browser> {
    this.browser ??= startBrowser(this.opts).then((b) => {
      b.on('disconnected', () => { this.browser = undefined; });
      return b;
    }, (e) => { this.browser = undefined; throw e; });
    return this.browser;
  }

  async close(): Promise<void> {
    const b = await this.browser?.catch(() => undefined);
    this.browser = undefined;
    await b?.close().catch(() => {});
  }
}

function startBrowser(opts: BrowserOptions): Promise<Browser> {
  if (opts.cdp) return connectChromium(opts.cdp);
  return opts.wsEndpoint ? connectServer(opts.wsEndpoint) : launchChromium({ headless: opts.headless ?? true, extraArgs: launchArgs(opts) });
}

/**
 * A browser pagelens did not start was not given the WebRTC policy: its pages' STUN (UDP) goes
 * past the origin proxy. Said once per session with rules, as the first-hop limit is.
 */
const ATTACHED_WEBRTC_WARNING = 'pagelens: an attached browser was not started by pagelens: its pages\' WebRTC (STUN over UDP) is not held by the origin rules; start it with --webrtc-ip-handling-policy=disable_non_proxied_udp\n';

/**
 * The flags of a browser pagelens launches for these options. With origin rules, WebRTC leaves only
 * through the context's origin proxy (chromium.ts WEBRTC_PROXIED_ONLY_ARGS); every session of the
 * server has the same rules, so a browser they share gets it too.
 */
function launchArgs(opts: BrowserOptions): string[] {
  return [...WEBMCP_ARGS, ...(hasOriginRules(parseOriginRules(opts)) ? WEBRTC_PROXIED_ONLY_ARGS : [])];
}

/** A persistent profile, with the executable and flags every other launch uses. */
async function launchPersistent(dir: string, viewport: { width: number; height: number }, headless: boolean, proxy: { proxy: { server: string } } | undefined, extraArgs: string[]): Promise<BrowserContext> {
  const executablePath = findChromium();
  try {
    return await chromium.launchPersistentContext(dir, { executablePath, headless, args: [...CHROMIUM_ARGS, ...extraArgs], ignoreDefaultArgs: DROPPED_DEFAULT_ARGS, viewport, ...proxy });
  } catch (e) {
    throw new PagelensError('NO_BROWSER', `Chromium at ${executablePath} failed to start with the profile ${dir}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/** A Playwright browser server (chromium.launchServer, `npx playwright run-server`). */
async function connectServer(endpoint: string): Promise<Browser> {
  try {
    return await chromium.connect(endpoint);
  } catch (e) {
    throw new PagelensError('NO_BROWSER', `Could not connect to the Playwright browser server at ${endpoint}: ${(e as Error).message.split('\n')[0]}`);
  }
}

function withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((r) => { timer = setTimeout(() => r(fallback), ms); });
  return Promise.race([p.catch(() => fallback), late]).finally(() => clearTimeout(timer));
}
