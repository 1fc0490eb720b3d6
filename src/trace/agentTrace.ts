// The trace of an agent run (`pagelens agent … --trace run.zip`): it sits between the loop and its
// backend, so it sees every request exactly as the planner got it and the planner's raw answer,
// takes the step's screenshot as soon as the page was read, and writes the archive when the run
// ends. It is written at the end, not step by step, because a secret the run learns late (a
// password typed at step 3) may already be in an earlier entry (the task itself may say it): at
// the end every entry is masked with every secret the run learnt.
import type { Page } from 'playwright-core';
import type { AgentStep } from '../core/negotiate.js';
import type { SemanticV3Result } from '../model/contracts/schema.js';
import type { ActionResult } from '../model/contracts/outcome.js';
import type { InteractRequestInput } from '../model/negotiation/interact.js';
import { countTokens } from '../model/renderers/tokens.js';
import { TraceSecrets } from '../model/trace/mask.js';
import { secretIds } from '../model/trace/observation.js';
import type { TraceStep, TraceVerdict } from '../model/trace/runRecord.js';
import { captureStep, type Capture, type CoverSource } from './capture.js';
import type { PlaywrightTrace, PlaywrightTraceReport } from './playwrightTrace.js';
import { TraceWriter } from './writer.js';

/** The loop's backend, as far as the trace needs it (src/agent/loop.ts Backend). */
export interface TracedBackend {
  interact(request: InteractRequestInput): Promise<unknown>;
  check?(): Promise<void>;
}

interface Pending {
  at: string;
  snap?: SemanticV3Result;
  readMs?: number;
  capture?: Capture;
  rounds: Array<{ mode: string; tokens: number; text: string }>;
  askMs: number;
  answeredAt?: number;
  answer?: { thought?: string; action?: string };
}

export interface AgentTrace {
  /** The backend the loop should call: the same answers, each request recorded. */
  backend(inner: TracedBackend): TracedBackend;
  /** For the loop's onRead: the step's page read, and its screenshot taken now. */
  read(snapshot: SemanticV3Result, ms: number): Promise<void>;
  /** For the loop's beforeRead: the step begins (its Playwright group opens). */
  beforeRead(): Promise<void>;
  /** For the loop's onStep. */
  step(step: AgentStep): void;
  /**
   * Writes the archive (when there is a path) and the Playwright trace (when there is one);
   * `run` absent: the run ended in an error (said in `error`).
   */
  close(run: { status: string; message?: string; success?: boolean } | undefined, error?: string): Promise<{ playwright?: PlaywrightTraceReport; playwrightError?: string }>;
}

/**
 * `path`: the run record's archive (none: only the Playwright trace is written, its secrets
 * learnt the same way). `playwright`: the Playwright trace, one group a step, numbered as the record's.
 * `covers`: the page's lens's secret covers, painted over each screenshot.
 */
export function startAgentTrace(page: Page, opts: { path?: string; task: string; ceilingBytes?: number; pagelens?: string; playwright?: PlaywrightTrace; covers?: CoverSource }): AgentTrace {
  const secrets = new TraceSecrets();
  const startedAt = new Date().toISOString();
  const done: Array<{ step: Omit<TraceStep, 'step' | 'screenshot'>; capture?: Capture }> = [];
  let pending: Pending | undefined;
  let closed = false;
  const fresh = (): Pending => ({ at: new Date().toISOString(), rounds: [], askMs: 0 });
  return {
    backend(inner) {
      return {
        ...(inner.check && { check: () => inner.check!() }),
        async interact(request) {
          pending ??= fresh();
          const { screenshot: _s, ...text } = request;
          const json = JSON.stringify(text);
          pending.rounds.push({ mode: request.domMode ?? 'semantic_v3', tokens: await countTokens(json), text: json });
          const t0 = performance.now();
          const answer = await inner.interact(request);
          const p = pending;
          p.askMs += performance.now() - t0;
          p.answeredAt = performance.now();
          if (answer && typeof answer === 'object' && 'action' in answer) p.answer = answer as Pending['answer'];
          return answer;
        },
      };
    },
    async beforeRead() {
      await opts.playwright?.begin(done.length + 1, undefined, page).catch(() => {});
    },
    async read(snapshot, ms) {
      pending = { ...fresh(), snap: snapshot, readMs: Math.round(ms) };
      const listed = snapshot.interactive_tree.map((n) => ({ id: n.i, role: n.r, name: n.n, xy: n.xy, ...(n.box && { box: n.box }), ...(n.v === '***' && { secret: true }) }));
      pending.capture = await captureStep(page, listed, opts.covers).catch(() => undefined);
    },
    step(s) {
      const p = pending ?? fresh();
      pending = undefined;
      const masked: string[] = [];
      const asked = p.answer?.action;
      const performed = 'action' in s.response ? s.response.action : undefined;
      if (asked && performed !== undefined) {
        const said = secrets.learnAction(asked, s.result?.action ?? performed);
        if (said) masked.push(said);
      }
      const last = p.rounds.at(-1);
      const snap = p.snap;
      const meta = snap?.meta;
      const verdict = verdictOf(s);
      const warnings = [...snap?.warnings ?? [], ...s.result?.warnings ?? [], ...s.result?.verification?.uncertain ?? [], ...p.capture?.warnings ?? []];
      const action = 'action' in s.response ? s.response.action : '';
      const id = /^\s*\w+\s*\(\s*(f\d+_\d+|\d+)/.exec(action)?.[1];
      const obsText = last?.text ?? '';
      const shownSecret = new Set(secretIds(obsText));
      const step: Omit<TraceStep, 'step' | 'screenshot'> = {
        at: p.at, url: s.url, ...(snap?.title !== undefined && { title: snap.title }), frames: p.capture?.frames ?? snap?.frames?.length ?? 1,
        observation: {
          mode: s.mode ?? 'semantic_v3', format: 'json', text: obsText, tokens: s.tokensSent, rounds: p.rounds.map(({ mode, tokens }) => ({ mode, tokens })),
          ...(s.imageBytes && { imageBytes: s.imageBytes }),
          ...(meta && { pruned: { total: meta.totalElements, shown: meta.viewportElements, pruned: meta.prunedElements, occluded: meta.occludedElements, why: 'semantic_v3 lists what is in the viewport; pruned elements are outside it (scroll to reach them), occluded ones are covered' } }),
          omitted: [
            ...(s.imageBytes ? [`the marked screenshot sent to the model (${Math.round(s.imageBytes / 1024)} KB JPEG) is not in the text; the step's screenshot shows the same view`] : []),
            ...(p.rounds.length > 1 ? [`${p.rounds.length - 1} earlier request(s) of the step (the planner asked for more context): their counts are in rounds, the text is the last request`] : []),
          ],
        },
        boxes: (p.capture?.boxes ?? []).map((b) => (shownSecret.has(b.id) ? { ...b, secret: true as const } : b)),
        ...(s.response.thought && { thought: s.response.thought }),
        ...(action && { action: { text: action, ...(id && { id }) } }),
        verdict, warnings, masked,
        timings: {
          ...(p.readMs !== undefined && { readMs: p.readMs }), askMs: Math.round(p.askMs),
          ...(p.answeredAt !== undefined && { actMs: Math.round(performance.now() - p.answeredAt) }), ...(p.capture && { captureMs: p.capture.ms }),
        },
      };
      done.push({ step, capture: p.capture });
      void opts.playwright?.end(page).catch(() => {});
    },
    async close(run, error) {
      if (closed) return {};
      closed = true;
      // The Playwright trace first: its scrubbing needs every secret, and they are all known now.
      let playwright: PlaywrightTraceReport | undefined;
      let playwrightError: string | undefined;
      try {
        playwright = await opts.playwright?.stop(secrets.secretValues());
      } catch (e) {
        playwrightError = (e as Error).message.split('\n')[0];
      }
      if (opts.path) writeRecord(opts.path, run, error);
      return { ...(playwright && { playwright }), ...(playwrightError && { playwrightError }) };
    },
  };

  function writeRecord(path: string, run: { status: string; message?: string; success?: boolean } | undefined, error?: string): void {
    const writer = new TraceWriter(path, { face: 'agent', task: opts.task, secrets, startedAt, ...(opts.ceilingBytes && { ceilingBytes: opts.ceilingBytes }), ...(opts.pagelens && { pagelens: opts.pagelens }) });
    for (const d of done) {
      const c = d.capture;
      writer.add(d.step, c?.jpeg ? { jpeg: c.jpeg, width: c.width, height: c.height, viewport: c.viewport } : undefined);
    }
    writer.close(run ? { status: run.status, ...(run.message && { message: run.message }), ...(run.success !== undefined && { success: run.success }) } : { status: 'error', ...(error && { message: error }), success: false });
  }
}

/** How a step went, in the record's words. */
function verdictOf(s: AgentStep): TraceVerdict {
  const r = s.result;
  if (!r) {
    const action = 'action' in s.response ? s.response.action : '';
    return { outcome: 'done', detail: action };
  }
  return verdictOfResult(r);
}

/** An action's result in the record's words: refused with its code, verified or not, or ran. */
export function verdictOfResult(r: ActionResult): TraceVerdict {
  const v = r.verification;
  const delta = v ? [v.pageState.urlChanged ? `navigated to ${v.pageState.url}` : '', ...v.pageState.recentMutations].filter(Boolean).join('\n') || (v.pageState.domChanged ? 'the page changed' : 'no change seen') : undefined;
  if (!r.ok) return { outcome: 'refused', detail: r.detail ?? r.error?.message ?? r.action, refusal: { code: r.error?.code ?? 'FAILED', reason: r.error?.message ?? r.detail ?? 'the action failed' }, ...(delta && { delta }) };
  if (v) return { outcome: v.success ? 'verified' : 'not_verified', detail: v.actualOutcome, verification: { success: v.success, actualOutcome: v.actualOutcome, confidence: v.confidence, feedback: v.feedback }, ...(delta && { delta }) };
  return { outcome: 'ok', ...(r.detail && { detail: r.detail }) };
}
