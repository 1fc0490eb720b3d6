// The client side of the negotiation: extract semantic_v3, ask the backend, send exactly the
// artifacts it asks for when it asks, perform the action with verification, report how it went
// in the next request, until the backend says done or the step limit is reached.
import type { Lens } from '../browser/lens.js';
import { actionReport, doneMessage, InteractResponse, requestedArtifacts, type InteractRequestInput, type NeedsContext, type NeedsFullDom } from '../model/negotiation/interact.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { ActionResult } from '../model/contracts/outcome.js';
import type { SemanticV3Result } from '../model/contracts/schema.js';
import { countTokens } from '../model/renderers/tokens.js';
import { transcriptRedactor } from '../model/safety/transcript.js';
import { describeIssues } from '../model/contracts/validate.js';

/** Where requests go: a backend over HTTP, or the backend's app in-process. */
export interface Backend {
  interact(request: InteractRequestInput): Promise<unknown>;
  /**
   * Finds out, before any browser starts, whether the backend is there and takes the token:
   * resolves, or throws BACKEND_ERROR saying which of the two is wrong.
   */
  check?(): Promise<void>;
}

/** How long the probe waits for each answer before the backend counts as down. */
const PROBE_TIMEOUT_MS = 5_000;

/** A backend over HTTP (`--backend http://…`). */
export function httpBackend(baseUrl: string, token?: string): Backend {
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new PagelensError('BAD_INPUT', `the backend must be an http(s) URL such as http://127.0.0.1:8787, got ${JSON.stringify(baseUrl)}.`);
  }
  const url = new URL('/api/agent/interact', baseUrl).href;
  const auth = token ? { authorization: `Bearer ${token}` } : undefined;
  return {
    async check() {
      await probeBackend(baseUrl, url, auth);
    },
    async interact(request) {
      let res: Response;
      try {
        res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(request) });
      } catch (e) {
        throw new PagelensError('BACKEND_ERROR', `the backend at ${url} could not be reached: ${(e as Error).message}`);
      }
      return answerOf(res);
    },
  };
}

/**
 * Two requests a backend answers without a browser: `GET /healthz` (is a pagelens backend there?),
 * then a POST to the interact route carrying no page state. The server authenticates before it
 * validates, so that POST is refused with 401 when the token is missing or wrong, and with 400
 * (no session opened, no planner asked) when the token is accepted.
 */
async function probeBackend(baseUrl: string, interactUrl: string, auth: Record<string, string> | undefined): Promise<void> {
  const ask = async (target: string, init: RequestInit): Promise<Response> => {
    try {
      return await fetch(target, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      const why = (e as Error).name === 'TimeoutError' ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : cause?.code ?? cause?.message ?? (e as Error).message;
      throw new PagelensError('BACKEND_ERROR', `the backend at ${baseUrl} could not be reached (${why}): is \`pagelens serve\` running there?`);
    }
  };
  const healthUrl = new URL('/healthz', baseUrl).href;
  const health = await ask(healthUrl, { method: 'GET' });
  const body = await health.json().catch(() => undefined) as { ok?: unknown } | undefined;
  if (!health.ok || body?.ok !== true) {
    throw new PagelensError('BACKEND_ERROR', `${baseUrl} does not answer as a pagelens backend: GET ${healthUrl} answered ${health.status}${body === undefined ? ' with something that is not JSON' : ''}.`);
  }
  const res = await ask(interactUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: '{}' });
  if (res.status === 401) {
    const said = (await res.json().catch(() => undefined) as { message?: string } | undefined)?.message;
    throw new PagelensError('BACKEND_ERROR', auth
      ? `the backend at ${baseUrl} refused the token${said ? ` (${said})` : ''}: check --token.`
      : `the backend at ${baseUrl} requires a token${said ? ` (${said})` : ''}: give it with --token.`);
  }
  if (res.status !== 400) {
    throw new PagelensError('BACKEND_ERROR', `the backend at ${baseUrl} answered a request without page state with ${res.status}, where a pagelens backend refuses it with 400: is it a pagelens backend of this version?`);
  }
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
    // is "***" there, so a printed or saved transcript never repeats it (src/model/safety/transcript.ts).
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

