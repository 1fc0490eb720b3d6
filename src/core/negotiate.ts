// The client loop of the negotiation, written once for every host (issue 19): read semantic_v3, ask
// the backend, add exactly the artifacts it asks for when it asks, act (with verification when an
// outcome is expected), report how it went in the next request, until the backend says done or the
// step limit is reached. The transcript is redacted here, in use, for both hosts: a value typed into
// a secret field never comes back in a thought, an action or the closing message.
import { asPagelensError, PagelensError } from '../model/contracts/errors.js';
import type { ActionResult, ExpectedOutcome } from '../model/contracts/outcome.js';
import type { SemanticV3Result } from '../model/contracts/schema.js';
import { describeIssues } from '../model/contracts/validate.js';
import { actionReport, doneMessage, InteractResponse, requestedArtifacts, type ActionResponse, type InteractRequestInput, type NeedsContext, type NeedsFullDom } from '../model/negotiation/interact.js';
import { countTokens } from '../model/renderers/tokens.js';
import { transcriptRedactor } from '../model/safety/transcript.js';

/** What the loop needs from a host's face: its reads, its act, its address. */
export interface NegotiatingFace {
  snapshot(): Promise<SemanticV3Result>;
  /** The artifacts a needs-context answer names (hybrid, skeleton, full). */
  hybrid(): Promise<{ skeletonDom: string; screenshot: string; screenshotHash: string; interactive_tree?: InteractRequestInput['interactiveTree'] }>;
  skeleton(): Promise<string>;
  fullDom(): Promise<string>;
  act(action: string, opts: { expect?: ExpectedOutcome }): Promise<ActionResult>;
  url(): Promise<string>;
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
  /** The backend's answer as the transcript keeps it (redacted). */
  response: ActionResponse;
  result?: ActionResult;
}

export interface Negotiation {
  status: 'done' | 'max_steps' | 'failed' | 'stopped';
  /** done: the backend's closing message; otherwise why it stopped (redacted). */
  message: string;
  /** Ended done, and the last action's verification (if any) passed. */
  success: boolean;
  steps: AgentStep[];
}

export interface NegotiationOptions {
  task: string;
  interact(request: InteractRequestInput): Promise<unknown>;
  maxSteps?: number;
  sessionId: string;
  /** Extra fields of every request (the extension's tabId). */
  extra?: Partial<InteractRequestInput>;
  onStep?: (step: AgentStep) => void;
  /** Checked before every step: true stops the run. */
  stopped?: () => boolean;
  /** A failure (the page unreadable, the backend down or off-contract) ends the run as `failed` instead of throwing. */
  failSoft?: boolean;
}

/** A failure with its code kept and what the loop was doing said first. */
const rethrow = (doing: string) => (e: unknown): never => {
  const err = asPagelensError(e);
  throw new PagelensError(err.code, `${doing}: ${err.message}`, err.details);
};

/** Rounds of "needs context" one step may take before it is an error. */
const MAX_NEGOTIATION = 3;

export async function negotiate(face: NegotiatingFace, opts: NegotiationOptions): Promise<Negotiation> {
  const redactor = transcriptRedactor();
  const steps: AgentStep[] = [];
  const end = (status: Negotiation['status'], message: string, success = false): Negotiation => ({ status, message: redactor.text(message), success, steps });
  try {
    return await loop(face, opts, steps, redactor, end);
  } catch (e) {
    if (!opts.failSoft) throw e;
    return end('failed', e instanceof Error ? e.message : String(e));
  }
}

async function loop(face: NegotiatingFace, opts: NegotiationOptions, steps: AgentStep[], redactor: ReturnType<typeof transcriptRedactor>,
  end: (status: Negotiation['status'], message: string, success?: boolean) => Negotiation): Promise<Negotiation> {
  const maxSteps = opts.maxSteps ?? 20;
  let report: Partial<InteractRequestInput> = {};
  let lastVerified = true;
  for (let n = 1; n <= maxSteps; n++) {
    if (opts.stopped?.()) return end('stopped', 'stopped by the user');
    const snap = await face.snapshot().catch(rethrow('the page could not be read'));
    const base: InteractRequestInput = {
      url: snap.url, query: opts.task, domMode: 'semantic_v3', interactiveTree: snap.interactive_tree, viewport: snap.viewport,
      pageTitle: snap.title, scrollPosition: snap.scroll_position, scrollableContainers: snap.scrollable_containers, ...opts.extra,
      ...(snap.recent_events && { recentEvents: snap.recent_events }), ...(snap.frames && { frames: snap.frames }), sessionId: opts.sessionId, ...report,
    };
    let request = base;
    let tokensSent = 0;
    let imageBytes = 0;
    const negotiated: Array<NeedsContext | NeedsFullDom> = [];
    let response: ActionResponse;
    for (let round = 0; ; round++) {
      const { screenshot, ...text } = request;
      tokensSent += await countTokens(JSON.stringify(text));
      if (screenshot) imageBytes += Math.floor(screenshot.length * 3 / 4);
      const answer = InteractResponse.safeParse(await opts.interact(request));
      if (!answer.success) throw new PagelensError('BACKEND_ERROR', `the backend answered off-contract: ${describeIssues(answer.error).map((i) => `${i.path || 'answer'}: ${i.message}`).join('; ')}`);
      if ('action' in answer.data) { response = answer.data; break; }
      if (round >= MAX_NEGOTIATION) throw new PagelensError('INTERNAL', `the backend asked for context ${round + 1} times in one step`);
      negotiated.push(answer.data);
      const more = await artifactsFor(face, answer.data).catch(rethrow('the context the backend asked for could not be read'));
      request = { ...base, ...more };
    }
    const step: AgentStep = { step: n, url: snap.url, mode: request.domMode, tokensSent, imageBytes, negotiated, response };
    steps.push(step);
    const done = doneMessage(response.action);
    if (done !== null) {
      step.response = redactor.keep(response);
      opts.onStep?.(step);
      const achieved = response.success !== false;
      return end(achieved ? 'done' : 'failed', done, achieved && lastVerified);
    }
    const result = await face.act(response.action, response.expected_outcome ? { expect: response.expected_outcome } : {});
    step.result = result;
    // The transcript keeps the action as the host reports it: a value typed into a secret field
    // is "***" there, so a printed or saved transcript never repeats it (model/safety/transcript.ts).
    step.response = redactor.keep(response, result.action);
    opts.onStep?.(step);
    lastVerified = result.ok && (result.verification?.success ?? true);
    report = actionReport(result, snap.url, await face.url());
  }
  return end('max_steps', `stopped after ${maxSteps} steps without the backend saying done`);
}

/** Exactly what a needs-context answer asked for, semantic_v3 still primary (the request's tree comes from hybrid when a screenshot is sent, so the IDs drawn are the IDs listed). */
async function artifactsFor(face: NegotiatingFace, ask: NeedsContext | NeedsFullDom): Promise<Partial<InteractRequestInput>> {
  const want = requestedArtifacts(ask);
  const out: Partial<InteractRequestInput> = { domMode: want.mode };
  if (want.mode === 'hybrid' || want.screenshot) {
    const h = await face.hybrid();
    out.skeletonDom = h.skeletonDom;
    out.screenshot = h.screenshot;
    out.screenshotHash = h.screenshotHash;
    if (Array.isArray(h.interactive_tree)) out.interactiveTree = h.interactive_tree;
  } else if (want.skeleton) {
    out.skeletonDom = await face.skeleton();
  }
  if (want.dom) out.dom = await face.fullDom();
  return out;
}
