// The client side of the negotiation for the CDP host: where requests go (a backend over HTTP or
// in-process) and the lens as the face the loop reads and acts through. The loop itself (and the
// transcript's redaction) is src/core/negotiate.ts, shared with the extension.
import type { Lens } from '../browser/lens.js';
import type { InteractRequestInput } from '../model/negotiation/interact.js';
import type { SemanticV3Result } from '../model/contracts/schema.js';
import { PagelensError } from '../model/contracts/errors.js';
import { negotiate, type AgentStep, type NegotiatingFace } from '../core/negotiate.js';

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

export type { AgentStep } from '../core/negotiate.js';

export interface AgentRun {
  task: string;
  /** stopped: only when the caller's `stopped` said so. */
  status: 'done' | 'max_steps' | 'failed' | 'stopped';
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
  /** Checked before every step: true ends the run as 'stopped' (a harness whose episode is over). */
  stopped?: () => boolean;
  /** Called with each step's read as soon as it is made, and how long it took (a trace takes its screenshot then). */
  onRead?: (snapshot: SemanticV3Result, ms: number) => void | Promise<void>;
  /** Called as each step begins, before its read (a Playwright trace opens the step's group then). */
  beforeRead?: () => void | Promise<void>;
}

export async function runAgent(lens: Lens, opts: AgentOptions): Promise<AgentRun> {
  const face: NegotiatingFace = {
    // The lens's reads look for gesture targets as the MCP face's do (a double-click label gets
    // an ID of its own). The 15 s stall once seen after that search was the renderer's GC hang
    // the search caused by asking about isolated-world handles (src/browser/gestures.ts inPageWorld).
    snapshot: async () => {
      await opts.beforeRead?.();
      const t0 = performance.now();
      const snap = await lens.snapshot();
      await opts.onRead?.(snap, performance.now() - t0);
      return snap;
    },
    hybrid: async () => {
      const h = await lens.snapshot({ mode: 'hybrid' });
      return { skeletonDom: h.skeletonDom, screenshot: h.screenshot, screenshotHash: h.screenshotHash, interactive_tree: h.interactive_tree };
    },
    skeleton: async () => (await lens.snapshot({ mode: 'skeleton' })).skeletonDom,
    fullDom: async () => (await lens.snapshot({ mode: 'full' })).dom,
    act: (action, o) => lens.act(action, o),
    url: async () => lens.page.url(),
  };
  const run = await negotiate(face, {
    task: opts.task, interact: (r) => opts.backend.interact(r), sessionId: opts.sessionId ?? `agent-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    ...(opts.maxSteps !== undefined && { maxSteps: opts.maxSteps }), ...(opts.onStep && { onStep: opts.onStep }), ...(opts.stopped && { stopped: opts.stopped }),
  });
  return { task: opts.task, status: run.status, message: run.message, success: run.success, steps: run.steps };
}
