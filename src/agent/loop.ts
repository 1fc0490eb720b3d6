// The client side of the negotiation: extract semantic_v3, ask the backend, send exactly the
// artifacts it asks for when it asks, perform the action with verification, report how it went
// in the next request, until the backend says done or the step limit is reached.
import type { Lens } from '../browser/lens.js';
import { actionReport, doneMessage, InteractResponse, requestedArtifacts, type InteractRequestInput, type NeedsContext, type NeedsFullDom } from '../model/interact.js';
import { PagelensError } from '../model/errors.js';
import type { ActionResult } from '../model/outcome.js';
import type { SemanticV3Result } from '../model/schema.js';
import { countTokens } from '../model/tokens.js';
import { transcriptRedactor } from '../model/transcript.js';
import { describeIssues } from '../model/validate.js';

/** Where requests go: a backend over HTTP, or the backend's app in-process. */
export interface Backend {
  interact(request: InteractRequestInput): Promise<unknown>;
}

/** A backend over HTTP (`--backend http://…`). */
export function httpBackend(baseUrl: string, token?: string): Backend {
  const url = new URL('/api/agent/interact', baseUrl).href;
  return {
    async interact(request) {
      let res: Response;
      try {
        res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(request) });
      } catch (e) {
        throw new PagelensError('BACKEND_ERROR', `the backend at ${url} could not be reached: ${(e as Error).message}`);
      }
      return answerOf(res);
    },
  };
}

/** The backend's app called in-process (no network), as `pagelens agent` does without --backend. */
export function appBackend(app: { request: (path: string, init: RequestInit) => Response | Promise<Response> }): Backend {
  return {
    async interact(request) {
      return answerOf(await app.request('/api/agent/interact', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) }));
    },
  };
}

async function answerOf(res: Response): Promise<unknown> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new PagelensError('BACKEND_ERROR', `the backend answered ${res.status} with something that is not JSON: ${text.slice(0, 200)}`);
  }
  if (!res.ok) throw new PagelensError('BACKEND_ERROR', `the backend answered ${res.status}: ${text.slice(0, 500)}`);
  return body;
}

export interface AgentStep {
  step: number;
  url: string;
  /** The mode of the request that got the action (semantic_v3, or the artifact asked for). */
  mode: InteractRequestInput['domMode'];
  /** o200k tokens of every request of the step, together, screenshots aside (a model bills images its own way). */
  tokensSent: number;
  /** Bytes of JPEG sent in the step (hybrid). */
  imageBytes: number;
  /** Answers that asked for context before the action, in order. */
  negotiated: Array<NeedsContext | NeedsFullDom>;
  response: InteractResponse;
  result?: ActionResult;
}

export interface AgentRun {
  task: string;
  status: 'done' | 'max_steps' | 'failed';
  /** done: the backend's closing message; otherwise why it stopped. */
  message: string;
  /** Ended done, and the last action's verification (if any) passed. */
  success: boolean;
  steps: AgentStep[];
}

export interface AgentOptions {
  task: string;
  backend: Backend;
  maxSteps?: number;
  sessionId?: string;
  /** Called after every step (the CLI prints one line per step). */
  onStep?: (step: AgentStep) => void;
}

/** Rounds of "needs context" one step may take before it is an error. */
const MAX_NEGOTIATION = 3;

export async function runAgent(lens: Lens, opts: AgentOptions): Promise<AgentRun> {
  const maxSteps = opts.maxSteps ?? 20;
  const sessionId = opts.sessionId ?? `agent-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const steps: AgentStep[] = [];
  let report: Partial<InteractRequestInput> = {};
  let lastVerified = true;
  const redactor = transcriptRedactor();
  for (let n = 1; n <= maxSteps; n++) {
    const snap = await lens.snapshot() as SemanticV3Result;
    const base: InteractRequestInput = {
      url: snap.url, query: opts.task, domMode: 'semantic_v3', interactiveTree: snap.interactive_tree, viewport: snap.viewport,
      pageTitle: snap.title, scrollPosition: snap.scroll_position, scrollableContainers: snap.scrollable_containers,
      ...(snap.recent_events && { recentEvents: snap.recent_events }), ...(snap.frames && { frames: snap.frames }), sessionId, ...report,
    };
    let request = base;
    let tokensSent = 0;
    let imageBytes = 0;
    const negotiated: Array<NeedsContext | NeedsFullDom> = [];
    let response: InteractResponse;
    for (let round = 0; ; round++) {
      const { screenshot, ...text } = request;
      tokensSent += await countTokens(JSON.stringify(text));
      if (screenshot) imageBytes += Math.floor(screenshot.length * 3 / 4);
      const answer = InteractResponse.safeParse(await opts.backend.interact(request));
      if (!answer.success) throw new PagelensError('BACKEND_ERROR', `the backend answered off-contract: ${describeIssues(answer.error).map((i) => `${i.path || 'answer'}: ${i.message}`).join('; ')}`);
      response = answer.data;
      if ('action' in response) break;
      if (round >= MAX_NEGOTIATION) throw new PagelensError('INTERNAL', `the backend asked for context ${round + 1} times in one step`);
      negotiated.push(response);
      request = { ...base, ...await artifactsFor(lens, response) };
    }
    const step: AgentStep = { step: n, url: snap.url, mode: request.domMode, tokensSent, imageBytes, negotiated, response };
    steps.push(step);
    const done = doneMessage(response.action);
    if (done !== null) {
      step.response = redactor.keep(response);
      opts.onStep?.(step);
      const achieved = response.success !== false;
      return { task: opts.task, status: achieved ? 'done' : 'failed', message: redactor.text(done), success: achieved && lastVerified, steps };
    }
    const result = await lens.act(response.action, response.expected_outcome ? { expect: response.expected_outcome } : {});
    step.result = result;
    // The transcript keeps the action as the lens reports it: a value typed into a secret field
    // is "***" there, so a printed or saved transcript never repeats it (src/model/transcript.ts).
    step.response = redactor.keep(response, result.action);
    opts.onStep?.(step);
    const verified = result.ok && (result.verification?.success ?? true);
    lastVerified = verified;
    report = actionReport(result, snap.url, lens.page.url());
  }
  return { task: opts.task, status: 'max_steps', message: `stopped after ${maxSteps} steps without the backend saying done`, success: false, steps };
}

/** Exactly what a needs-context answer asked for, with semantic_v3 still primary. */
async function artifactsFor(lens: Lens, ask: NeedsContext | NeedsFullDom): Promise<Partial<InteractRequestInput>> {
  const want = requestedArtifacts(ask);
  const out: Partial<InteractRequestInput> = { domMode: want.mode };
  if (want.mode === 'hybrid' || want.screenshot) {
    const h = await lens.snapshot({ mode: 'hybrid' }) as Record<string, unknown>;
    out.skeletonDom = h.skeletonDom as string;
    out.screenshot = h.screenshot as string;
    out.screenshotHash = h.screenshotHash as string;
    if (Array.isArray(h.interactive_tree)) out.interactiveTree = h.interactive_tree as InteractRequestInput['interactiveTree'];
  } else if (want.skeleton) {
    out.skeletonDom = (await lens.snapshot({ mode: 'skeleton' }) as Record<string, unknown>).skeletonDom as string;
  }
  if (want.dom) out.dom = (await lens.snapshot({ mode: 'full' }) as Record<string, unknown>).dom as string;
  return out;
}

