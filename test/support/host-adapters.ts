// The two hosts behind one face, for the host matrix (test/core/host-matrix.test.ts): the CDP host
// (Lens.attach over playwright-core) and the MV3 extension (driven from its service worker). A case
// written once opens a page, snapshots, acts and breaks the engine through this face, whichever host
// is behind it, so both hosts must give the same observable answer.
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { httpBackend, runAgent } from '../../src/agent/loop.js';
import { blockExternalRequests } from '../../src/browser/chromium.js';
import { gotoSettled } from '../../src/browser/goto.js';
import { IdNumbering } from '../../src/browser/lens.js';
import { coreOf, Lens } from '../../src/browser/lens.js';
import type { SearchResult } from '../../src/model/explore/explore.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import type { ToolResult } from '../../src/tools/registry/types.js';
import type { Action } from '../../src/model/contracts/actions.js';
import type { ActionResult, ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { launchWithExtension, openTab, restartServiceWorker, type ExtensionBrowser } from './extension-helpers.js';
import type { Harness } from './harness.js';

export type HostName = 'cdp' | 'extension';

export interface MatrixPage {
  /** Which host is behind this page. */
  host: HostName;
  page: Page;
  snapshot(): Promise<SemanticV3Result>;
  /** A snapshot in any mode (the shared request: mode, fullPage, boxes, query, screenshot), as the host's lens answers it. */
  read(options: object): Promise<any>;
  /** The mode-selection chain (lens.capture): the payload a task calls for. */
  capture(options: object): Promise<any>;
  act(action: string | Action, opts?: { expect?: ExpectedOutcome }): Promise<ActionResult>;
  /**
   * Makes one engine call throw in pagelens's isolated world of a frame (the main frame, or the
   * first whose URL contains `frameUrl`), to force the failure path a real page can cause.
   */
  sabotage(frameUrl: string | null, call: string, message: string): Promise<void>;
  /** The host's agent loop against a `pagelens serve` backend, to the end; the whole run (its transcript) as returned. */
  runTask(task: string, backend: { url: string; token: string }): Promise<{ status: string; steps: unknown[] }>;
  /** dom_search: its hits carry IDs handed out by the search itself (text blocks stamped after the read). */
  search(query: string): Promise<SearchResult>;
  /** One tool of the registry on this page, as an agent calls it. */
  tool(name: string, args?: object): Promise<ToolResult>;
  /** Another tab of the same session (the CDP host: one IdNumbering; the extension: its one service worker). */
  openTab(path: string): Promise<MatrixPage>;
  /**
   * What the host keeps is dropped from memory and read back from its ledger's storage: the
   * extension's service worker is stopped and woken (chrome.storage.session stays); on the CDP
   * host the lens is closed and a new one attached to the page in the same session.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface MatrixHost {
  name: HostName;
  open(path: string): Promise<MatrixPage>;
  close(): Promise<void>;
}

/** The engine call at `path` ("mutationsSince", "act.coverAt") replaced by one that throws `message`. */
function breakCall(path: string, message: string): void {
  const parts = path.split('.');
  let at = (globalThis as unknown as { __pagelens: Record<string, unknown> }).__pagelens as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) at = at[p] as Record<string, unknown>;
  at[parts[parts.length - 1]] = () => { throw new Error(message); };
}

export function cdpHost(h: Harness): MatrixHost {
  // One session for every page of the host, as the extension's one service worker is one: a page's
  // IDs are numbered above every ID handed out before it, whichever host.
  const session = new IdNumbering();
  const open = async (context: BrowserContext, path: string): Promise<MatrixPage> => {
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.dismiss().catch(() => {}); });
    let lens = await Lens.attach(page, { numbering: session });
    await gotoSettled(page, h.originA + path);
    await page.waitForLoadState('load', { timeout: 15_000 }).catch(() => {});
    return {
      host: 'cdp',
      page,
      snapshot: () => lens.snapshot(),
      read: (options) => lens.snapshot(options as never),
      capture: (options) => lens.capture(options as never),
      runTask: (task, backend) => runAgent(lens, { task, backend: httpBackend(backend.url, backend.token), maxSteps: 5 }),
      act: (action, opts = {}) => lens.act(action, opts.expect ? { expect: opts.expect } : {}),
      search: (query) => lens.search(query),
      tool: (name, args = {}) => runTool(lens, name, args),
      openTab: (other) => open(context, other),
      async restart() {
        await lens.close();
        lens = await Lens.attach(page, { numbering: session });
      },
      async close() {
        await lens.close().catch(() => {});
        await page.close().catch(() => {});
      },
      async sabotage(frameUrl, call, message) {
        const frames = await coreOf(lens).frames.known();
        const frame = frameUrl === null ? frames[0] : frames.find((f) => f.url.includes(frameUrl));
        assert.ok(frame, `no frame at ${frameUrl}`);
        await frame.target.callFunction(frame.frameId, `function () { (${breakCall.toString()})(${JSON.stringify(call)}, ${JSON.stringify(message)}); }`, []);
      },
    };
  };
  const contexts: BrowserContext[] = [];
  return {
    name: 'cdp',
    async open(path) {
      const context = await h.browser.newContext({ viewport: { width: 1280, height: 800 } });
      contexts.push(context);
      await blockExternalRequests(context);
      return open(context, path);
    },
    close: async () => { for (const c of contexts) await c.close().catch(() => {}); },
  };
}

export async function extensionHost(h: Harness): Promise<MatrixHost> {
  const ext: ExtensionBrowser = await launchWithExtension('pagelens-matrix-');
  const call = (tabId: number, name: string, args: object) =>
    ext.worker.evaluate(([id, n, a]) => (self as any).pagelens.tools.call(id, n, a), [tabId, name, args] as const) as Promise<ToolResult>;
  const open = async (path: string): Promise<MatrixPage> => {
    const { page, tabId } = await openTab(ext, h.originA + path);
    return {
      host: 'extension',
      page,
      snapshot: () => ext.worker.evaluate((id) => (self as any).pagelens.snapshot(id), tabId) as Promise<SemanticV3Result>,
      read: (options) => ext.worker.evaluate(([id, o]) => (self as any).pagelens.snapshot(id, o), [tabId, options] as const),
      capture: (options) => ext.worker.evaluate(([id, o]) => (self as any).pagelens.capture(id, o), [tabId, options] as const),
      runTask: (task, backend) => ext.worker.evaluate(([id, t, b]) => (self as any).pagelens.runTask(id, t, { backend: b.url, token: b.token, maxSteps: 5 }), [tabId, task, backend] as const),
      act: (action, opts = {}) => ext.worker.evaluate(([id, a, o]) => (self as any).pagelens.act(id, a, o), [tabId, action, opts] as const) as Promise<ActionResult>,
      search: async (query) => (await call(tabId, 'dom_search', { query })).data as SearchResult,
      tool: (name, args = {}) => call(tabId, name, args),
      openTab: open,
      restart: async () => { await restartServiceWorker(ext); },
      close: () => page.close().catch(() => {}),
      async sabotage(frameUrl, call, message) {
        // The content scripts' isolated world is the extension's: executeScript reaches the engine there.
        const done = await ext.worker.evaluate(async ([id, url, c, m]) => {
          const chrome = (globalThis as any).chrome;
          const frames: Array<{ frameId: number; url: string }> = await chrome.webNavigation.getAllFrames({ tabId: id });
          const frame = url === null ? frames.find((f) => f.frameId === 0) : frames.find((f) => f.url.includes(url));
          if (!frame) return false;
          // A function from a string is refused by the extension's CSP: breakCall is written out again here, its inputs as args.
          await chrome.scripting.executeScript({
            target: { tabId: id, frameIds: [frame.frameId] }, world: 'ISOLATED', args: [c, m],
            func: (path: string, msg: string) => {
              const parts = path.split('.');
              let at = (globalThis as any).__pagelens;
              for (const p of parts.slice(0, -1)) at = at[p];
              at[parts[parts.length - 1]] = () => { throw new Error(msg); };
            },
          });
          return true;
        }, [tabId, frameUrl, call, message] as const);
        assert.ok(done, `no frame at ${frameUrl}`);
      },
    };
  };
  return { name: 'extension', open, close: () => ext.close() };
}
