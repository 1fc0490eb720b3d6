// The service worker: the second host of the one engine. It reads and acts through the content
// scripts (lens.ts over src/core/lens.ts, act.ts), runs the agent loop against `pagelens serve` (agent.ts), and
// serves the side panel over a port. For automation and tests it exposes
//   self.pagelens = { snapshot(tabId, options), model(tabId, options), capture(tabId, options), act(tabId, action, options), runTask(tabId, task, { backend }),
//                     tools: { list(tabId), call(tabId, name, args) }, release(tabId), idHighWater(), lastRun() }   (also as tools/list, tools/call messages)
// where snapshot's options are the shared snapshot request's (mode semantic_v3 by default, semantic, skeleton, full or
// hybrid with quality and marks; query and maxTokens), all but axtree.
import { act, type ActOptions } from './tabAct.js';
import { runTask, type TaskOptions, type TaskStep } from './agent.js';
import type { PanelCommand, PanelEvent } from './panel.js';
import { forgetLens, lensOf, snapshot, type SnapshotOptions } from './tabLens.js';
import { releaseInput } from './input.js';
import { loadLastRun } from './lastRun.js';
import { callTool, listTools } from './tools.js';
import { forgetTab, restoreTab, session } from './tab.js';
import type { Action } from '../../src/model/contracts/actions.js';
import type { CaptureOptionsInput } from '../../src/model/negotiation/modes.js';
import { ModelOptions } from '../../src/model/contracts/schema.js';
import { parseInput } from '../../src/model/contracts/validate.js';

/** What `lens.model()` takes that the extension's reads do: anything else is refused (BAD_INPUT), not ignored. */
const EXTENSION_MODEL_OPTIONS = ModelOptions.pick({ fullPage: true, fresh: true });

const api = {
  snapshot: (tabId: number, options: SnapshotOptions = {}) => snapshot(tabId, options),
  /** The page model under the payloads (as `lens.model()`): its `engine` figures say what each read carried. `fresh`: reuse nothing (a cold read). */
  model: async (tabId: number, options: unknown = {}) => {
    const opts = parseInput(EXTENSION_MODEL_OPTIONS, options, 'model options');
    await restoreTab(tabId);
    return lensOf(tabId).model(opts);
  },
  /** The payload a task calls for, by the mode-selection chain with its fallbacks (as `lens.capture()`: src/core/capture.ts). */
  capture: async (tabId: number, options: CaptureOptionsInput) => { await restoreTab(tabId); return lensOf(tabId).capture(options); },
  act: (tabId: number, action: string | Action, options: ActOptions = {}) => act(tabId, action, options),
  // The debugger is given back when a task ends, so that Chrome's "debugging this browser" bar goes.
  runTask: (tabId: number, task: string, options: Omit<TaskOptions, 'onStep' | 'stopped'>) => runTask(tabId, task, options).finally(() => releaseInput(tabId)),
  /** The tool registry's tools on a tab (the MCP server's definitions and dispatcher): tools/list and tools/call. */
  tools: { list: (tabId: number) => listTools(tabId), call: (tabId: number, name: string, args: unknown = {}) => callTool(tabId, name, args) },
  /** Gives the tab back: detaches the debugger if this extension attached it. */
  release: (tabId: number) => releaseInput(tabId),
  /** The highest ID this extension's session has handed out: a tab read for the first time numbers above it (src/core/ledger.ts). */
  idHighWater: async () => { await session.restore(); return session.highWater; },
  /** The last run's record as the side panel exports it: its download name, steps and size (the bytes are the panel's to download). */
  lastRun: async () => {
    const run = await loadLastRun();
    return run && { name: run.name, steps: run.steps, status: run.status, startedAt: run.startedAt, bytes: run.bytes.length };
  },
};
(self as unknown as { pagelens: typeof api }).pagelens = api;

// tools/list and tools/call from the extension's own pages (the side panel, an agent UI): the
// active tab unless tabId is given. Other extensions' and pages' messages are not ours.
chrome.runtime.onMessage.addListener((raw, sender, reply) => {
  const m = raw as { type?: string; tabId?: number; name?: string; arguments?: unknown } | null;
  if (sender.url && !sender.url.startsWith(`chrome-extension://${chrome.runtime.id}/`)) return;
  if (m?.type !== 'tools/list' && m?.type !== 'tools/call') return;
  void targetTab(m.tabId)
    .then((tabId): Promise<unknown> => (m.type === 'tools/list' ? listTools(tabId) : callTool(tabId, String(m.name), m.arguments ?? {})))
    .then(reply, (e: Error) => reply({ isError: true, text: `BAD_INPUT: ${e.message}`, data: { error: { code: 'BAD_INPUT', message: e.message } } }));
  return true;
});

// A closed tab's state and ID ledger go, as a closed lens's do on the CDP host.
chrome.tabs.onRemoved.addListener((tabId) => { forgetLens(tabId); void forgetTab(tabId); });

// The toolbar button opens the side panel.
chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});

/** The tab a panel run acts on: the given one, else the active tab of the last focused window that is a web page. */
async function targetTab(tabId?: number): Promise<number> {
  if (tabId !== undefined) return tabId;
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (tab?.id === undefined || !/^https?:|^file:/.test(tab.url ?? '')) throw new Error('no web page is open in the active tab');
  return tab.id;
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== 'pagelens-panel') return;
  let stop = false;
  const send = (e: PanelEvent) => { try { port.postMessage(e); } catch { stop = true; } };
  port.onDisconnect.addListener(() => { stop = true; });
  port.onMessage.addListener((raw) => {
    const cmd = raw as PanelCommand;
    if (cmd.type === 'stop') { stop = true; return; }
    if (cmd.type !== 'run') return;
    stop = false;
    void (async () => {
      try {
        const tabId = await targetTab(cmd.tabId);
        send({ type: 'started', tabId });
        const run = await runTask(tabId, cmd.task, {
          backend: cmd.backend, ...(cmd.token && { token: cmd.token }),
          onStep: (s: TaskStep) => send({ type: 'step', step: s }),
          stopped: () => stop,
        }).finally(() => releaseInput(tabId));
        send({ type: 'finished', status: run.status, message: run.message, success: run.success, ...(run.trace && { trace: run.trace }), ...(run.traceError && { traceError: run.traceError }) });
      } catch (e) {
        send({ type: 'finished', status: 'failed', message: e instanceof Error ? e.message : String(e), success: false });
      }
    })();
  });
});
