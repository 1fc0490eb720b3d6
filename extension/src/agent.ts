// The client loop of the negotiation (as src/agent/loop.ts runs it for the CDP host), in the
// service worker: semantic_v3 first, the backend's answer validated against the contract, the
// action performed with verification, how it went reported in the next request, until done.
// A backend that asks for more context gets exactly what it asks for (skeleton, the full DOM,
// the hybrid screenshot), semantic_v3 staying primary, as src/agent/loop.ts artifactsFor gives it.
import { actionReport, doneMessage, InteractResponse, requestedArtifacts, type ActionResponse, type InteractRequestInput } from '../../src/model/negotiation/interact.js';
import type { ActionResult, ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { transcriptRedactor } from '../../src/model/safety/transcript.js';
import { act } from './act.js';
import { describe } from './layout.js';
import { snapshot } from './snapshot.js';

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
}

/** Rounds of "needs context" one step may take before it is an error (as src/agent/loop.ts). */
const MAX_NEGOTIATION = 3;

async function post(url: string, token: string | undefined, body: InteractRequestInput): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`the backend answered ${res.status}: ${text.slice(0, 300)}`);
  try { return JSON.parse(text); } catch { throw new Error(`the backend answered something that is not JSON: ${text.slice(0, 200)}`); }
}

export async function runTask(tabId: number, task: string, opts: TaskOptions): Promise<TaskRun> {
  const url = new URL('/api/agent/interact', opts.backend).href;
  const maxSteps = opts.maxSteps ?? 20;
  const sessionId = `ext-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const steps: TaskStep[] = [];
  let report: Partial<InteractRequestInput> = {};
  let lastVerified = true;
  // One redaction for every host (src/model/safety/transcript.ts): a value hidden by the page stays out of every later thought.
  const redactor = transcriptRedactor();
  const end = (status: TaskRun['status'], message: string, success = false): TaskRun => ({ task, status, message: redactor.text(message), success, steps });
  for (let n = 1; n <= maxSteps; n++) {
    if (opts.stopped?.()) return end('stopped', 'stopped by the user');
    let snap;
    try {
      snap = await snapshot(tabId);
    } catch (e) {
      return end('failed', `the page could not be read: ${describe(e)}`);
    }
    const base: InteractRequestInput = {
      url: snap.url, query: task, domMode: 'semantic_v3', interactiveTree: snap.interactive_tree, viewport: snap.viewport,
      pageTitle: snap.title, scrollPosition: snap.scroll_position, scrollableContainers: snap.scrollable_containers, tabId,
      ...(snap.recent_events && { recentEvents: snap.recent_events }), ...(snap.frames && { frames: snap.frames }), sessionId, ...report,
    };
    let request = base;
    let tokensSent = 0;
    let response: ActionResponse | undefined;
    // The backend may ask for heavier context first: exactly what it asks for is added, semantic_v3 stays.
    for (let round = 0; !response; round++) {
      // Text tokens: a screenshot is billed as an image, not as its base64 (as src/agent/loop.ts counts).
      const { screenshot: _image, ...text } = request;
      tokensSent += await countTokens(JSON.stringify(text));
      let answer;
      try {
        answer = InteractResponse.safeParse(await post(url, opts.token, request));
      } catch (e) {
        return end('failed', describe(e));
      }
      if (!answer.success) return end('failed', `the backend answered off-contract: ${answer.error.issues.map((i) => i.message).join('; ')}`);
      if ('action' in answer.data) { response = answer.data; break; }
      if (round >= MAX_NEGOTIATION) return end('failed', `the backend asked for context ${round + 1} times in one step`);
      try {
        request = { ...base, ...await artifactsFor(tabId, requestedArtifacts(answer.data)) };
      } catch (e) {
        return end('failed', `the context the backend asked for could not be read: ${describe(e)}`);
      }
    }
    const step: TaskStep = { step: n, url: snap.url, mode: request.domMode ?? 'semantic_v3', tokensSent, thought: response.thought, action: response.action };
    steps.push(step);
    const done = doneMessage(response.action);
    if (done !== null) {
      const kept = redactor.keep(response);
      step.thought = kept.thought;
      step.action = kept.action;
      opts.onStep?.(step);
      const achieved = response.success !== false;
      return end(achieved ? 'done' : 'failed', done, achieved && lastVerified);
    }
    const result = await act(tabId, response.action, response.expected_outcome ? { expect: response.expected_outcome as ExpectedOutcome } : {});
    step.result = result;
    // The transcript keeps the action as the page reported it and the thought without the value
    // it hid (a secret field's), as the CDP loop's does.
    const kept = redactor.keep(response, result.action);
    step.action = kept.action;
    step.thought = kept.thought;
    opts.onStep?.(step);
    const verified = result.ok && (result.verification?.success ?? true);
    lastVerified = verified;
    const after = (await chrome.tabs.get(tabId)).url ?? snap.url;
    report = actionReport(result, snap.url, after);
  }
  return end('max_steps', `stopped after ${maxSteps} steps without the backend saying done`);
}

/** Exactly what a needs-context answer asked for, semantic_v3 still primary (the request's tree comes from hybrid when a screenshot is sent, so the IDs drawn are the IDs listed). */
async function artifactsFor(tabId: number, want: ReturnType<typeof requestedArtifacts>): Promise<Partial<InteractRequestInput>> {
  const out: Partial<InteractRequestInput> = { domMode: want.mode };
  if (want.mode === 'hybrid' || want.screenshot) {
    const h = await snapshot(tabId, { mode: 'hybrid' });
    out.skeletonDom = h.skeletonDom;
    out.screenshot = h.screenshot;
    out.screenshotHash = h.screenshotHash;
    out.interactiveTree = h.interactive_tree;
  } else if (want.skeleton) {
    out.skeletonDom = (await snapshot(tabId, { mode: 'skeleton' })).skeletonDom;
  }
  if (want.dom) out.dom = (await snapshot(tabId, { mode: 'full' })).dom;
  return out;
}

