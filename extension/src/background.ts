// The service worker: the second host of the one engine. It reads and acts through the content
// scripts (snapshot.ts, act.ts), runs the agent loop against `pagelens serve` (agent.ts), and
// serves the side panel over a port. For automation and tests it exposes
//   self.pagelens = { snapshot(tabId, options), act(tabId, action, options), runTask(tabId, task, { backend }) }
// where snapshot's options.mode is semantic_v3 (default), skeleton, full or hybrid (quality, marks).
import { act, type ActOptions } from './act.js';
import { runTask, type TaskOptions, type TaskStep } from './agent.js';
import type { PanelCommand, PanelEvent } from './panel.js';
import { snapshot, type SnapshotOptions } from './snapshot.js';
import { releaseInput } from './input.js';
import type { Action } from '../../src/model/contracts/actions.js';

const api = {
  snapshot: (tabId: number, options: SnapshotOptions = {}) => snapshot(tabId, options),
  act: (tabId: number, action: string | Action, options: ActOptions = {}) => act(tabId, action, options),
  // The debugger is given back when a task ends, so that Chrome's "debugging this browser" bar goes.
  runTask: (tabId: number, task: string, options: Omit<TaskOptions, 'onStep' | 'stopped'>) => runTask(tabId, task, options).finally(() => releaseInput(tabId)),
  /** Gives the tab back: detaches the debugger if this extension attached it. */
  release: (tabId: number) => releaseInput(tabId),
};
(self as unknown as { pagelens: typeof api }).pagelens = api;

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
        send({ type: 'finished', status: run.status, message: run.message, success: run.success });
      } catch (e) {
        send({ type: 'finished', status: 'failed', message: e instanceof Error ? e.message : String(e), success: false });
      }
    })();
  });
});
