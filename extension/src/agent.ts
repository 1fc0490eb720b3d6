// The agent run in the service worker: the negotiation loop shared with the CDP host
// (src/core/negotiate.ts: semantic_v3 first, exactly the artifacts the backend asks for, the
// action performed with verification, the transcript redacted) over this tab's snapshot and act,
// with the backend reached by fetch. A failure ends the run as `failed` (the panel shows it).
// Every run is recorded (runTrace.ts) and kept as the last run, which the side panel exports.
import type { InteractRequestInput } from '../../src/model/negotiation/interact.js';
import type { ActionResult } from '../../src/model/contracts/outcome.js';
import { negotiate, type NegotiatingFace, type AgentStep } from '../../src/core/negotiate.js';
import { act } from './tabAct.js';
import { startRunTrace } from './runTrace.js';
import { snapshot } from './tabLens.js';

export interface TaskOptions {
  /** Base URL of `pagelens serve`, e.g. http://127.0.0.1:8787 */
  backend: string;
  token?: string;
  maxSteps?: number;
  /** Called after every step (the side panel lists them live). */
  onStep?: (step: TaskStep) => void;
  /** Checked before every step: true stops the run. */
  stopped?: () => boolean;
}

export interface TaskStep {
  step: number;
  url: string;
  mode: string;
  tokensSent: number;
  thought: string;
  action: string;
  result?: ActionResult;
}

export interface TaskRun {
  task: string;
  status: 'done' | 'failed' | 'max_steps' | 'stopped';
  message: string;
  /** Ended done, and the last action's verification (if any) passed. */
  success: boolean;
  steps: TaskStep[];
  /** The run's record, kept as the last run (its archive's name, size and steps), or why it could not be. */
  trace?: { name: string; bytes: number; steps: number };
  traceError?: string;
}

async function post(url: string, token: string | undefined, body: InteractRequestInput): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`the backend answered ${res.status}: ${text.slice(0, 300)}`);
  try { return JSON.parse(text); } catch { throw new Error(`the backend answered something that is not JSON: ${text.slice(0, 200)}`); }
}

export async function runTask(tabId: number, task: string, opts: TaskOptions): Promise<TaskRun> {
  const url = new URL('/api/agent/interact', opts.backend).href;
  const trace = startRunTrace(tabId, task);
  const face: NegotiatingFace = {
    // The step's read, then the record's screenshot of it at once (before the backend is asked).
    snapshot: async () => {
      const t0 = performance.now();
      const snap = await snapshot(tabId);
      await trace.read(snap, performance.now() - t0).catch(() => {});
      return snap;
    },
    hybrid: () => snapshot(tabId, { mode: 'hybrid' }),
    skeleton: async () => (await snapshot(tabId, { mode: 'skeleton' })).skeletonDom,
    fullDom: async () => (await snapshot(tabId, { mode: 'full' })).dom,
    act: (action, o) => act(tabId, action, o),
    url: async () => (await chrome.tabs.get(tabId)).url ?? '',
  };
  // The panel's step: the answer as the transcript keeps it (redacted by the shared loop).
  const asTaskStep = (s: AgentStep): TaskStep => ({
    step: s.step, url: s.url, mode: s.mode ?? 'semantic_v3', tokensSent: s.tokensSent, thought: s.response.thought, action: s.response.action, ...(s.result && { result: s.result }),
  });
  const run = await negotiate(face, {
    task, interact: trace.interact((r) => post(url, opts.token, r)), maxSteps: opts.maxSteps ?? 20, failSoft: true, extra: { tabId },
    sessionId: `ext-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    onStep: (s: AgentStep) => {
      try { trace.step(s); } catch { /* the record misses a step; the run goes on */ }
      opts.onStep?.(asTaskStep(s));
    },
    ...(opts.stopped && { stopped: opts.stopped }),
  });
  const status = run.status === 'max_steps' || run.status === 'done' || run.status === 'failed' || run.status === 'stopped' ? run.status : 'failed';
  // Written before the run is reported finished, so that the panel's export finds it.
  const kept = await trace.finish({ status, message: run.message, success: run.success }).then(
    (t) => ({ trace: { name: t.name, bytes: t.bytes, steps: t.steps } }),
    (e: Error) => ({ traceError: `the run's record could not be kept: ${e.message.split('\n')[0]}` }),
  );
  return { task, status, message: run.message, success: run.success, steps: run.steps.map(asTaskStep), ...kept };
}
