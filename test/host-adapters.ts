// The two hosts behind one face, for the host matrix (test/host-matrix.test.ts): the CDP host
// (Lens.attach over playwright-core) and the MV3 extension (driven from its service worker). A case
// written once opens a page, snapshots, acts and breaks the engine through this face, whichever host
// is behind it, so both hosts must give the same observable answer.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { httpBackend, runAgent } from '../src/agent/loop.js';
import { coreOf } from '../src/browser/lens.js';
import type { Action } from '../src/model/contracts/actions.js';
import type { ActionResult, ExpectedOutcome } from '../src/model/contracts/outcome.js';
import type { SemanticV3Result } from '../src/model/contracts/schema.js';
import { launchWithExtension, openTab, type ExtensionBrowser } from './extension-helpers.js';
import type { Harness } from './harness.js';

export type HostName = 'cdp' | 'extension';

export interface MatrixPage {
  page: Page;
  snapshot(): Promise<SemanticV3Result>;
  act(action: string | Action, opts?: { expect?: ExpectedOutcome }): Promise<ActionResult>;
  /**
   * Makes one engine call throw in pagelens's isolated world of a frame (the main frame, or the
   * first whose URL contains `frameUrl`), to force the failure path a real page can cause.
   */
  sabotage(frameUrl: string | null, call: string, message: string): Promise<void>;
  /** The host's agent loop against a `pagelens serve` backend, to the end; the whole run (its transcript) as returned. */
  runTask(task: string, backend: { url: string; token: string }): Promise<{ status: string; steps: unknown[] }>;
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
  return {
    name: 'cdp',
    async open(path) {
      const { page, lens } = await h.open(path);
      return {
        page,
        snapshot: () => lens.snapshot(),
        runTask: (task, backend) => runAgent(lens, { task, backend: httpBackend(backend.url, backend.token), maxSteps: 5 }),
        act: (action, opts = {}) => lens.act(action, opts.expect ? { expect: opts.expect } : {}),
        async sabotage(frameUrl, call, message) {
          const frames = await coreOf(lens).frames.known();
          const frame = frameUrl === null ? frames[0] : frames.find((f) => f.url.includes(frameUrl));
          assert.ok(frame, `no frame at ${frameUrl}`);
          await frame.target.callFunction(frame.frameId, `function () { (${breakCall.toString()})(${JSON.stringify(call)}, ${JSON.stringify(message)}); }`, []);
        },
      };
    },
    close: async () => {},
  };
}

export async function extensionHost(h: Harness): Promise<MatrixHost> {
  const ext: ExtensionBrowser = await launchWithExtension('pagelens-matrix-');
  return {
    name: 'extension',
    async open(path) {
      const { page, tabId } = await openTab(ext, h.originA + path);
      return {
        page,
        snapshot: () => ext.worker.evaluate((id) => (self as any).pagelens.snapshot(id), tabId) as Promise<SemanticV3Result>,
        runTask: (task, backend) => ext.worker.evaluate(([id, t, b]) => (self as any).pagelens.runTask(id, t, { backend: b.url, token: b.token, maxSteps: 5 }), [tabId, task, backend] as const),
        act: (action, opts = {}) => ext.worker.evaluate(([id, a, o]) => (self as any).pagelens.act(id, a, o), [tabId, action, opts] as const) as Promise<ActionResult>,
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
    },
    close: () => ext.close(),
  };
}
