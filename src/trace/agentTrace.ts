// The trace of an agent run (`pagelens agent … --trace run.zip`): the host-free recorder of the
// negotiation loop (src/core/agentRecord.ts: every request exactly as the planner got it, the
// planner's raw answer, the secrets learnt) with this host's screenshot, taken as soon as the page
// was read (capture.ts), and the archive written when the run ends, every entry masked with every
// secret the run learnt (a password typed at step 3 may already be in an earlier entry: the task
// itself may say it).
import type { Page } from 'playwright-core';
import { AgentRecorder, listedOf } from '../core/agentRecord.js';
import type { AgentStep } from '../core/negotiate.js';
import type { SemanticV3Result } from '../model/contracts/schema.js';
import type { InteractRequestInput } from '../model/negotiation/interact.js';
import { captureStep, type CoverSource } from './capture.js';
import type { PlaywrightTrace, PlaywrightTraceReport } from './playwrightTrace.js';
import { TraceWriter } from './writer.js';

export { verdictOfResult } from '../model/trace/verdict.js';

/** The loop's backend, as far as the trace needs it (src/agent/loop.ts Backend). */
export interface TracedBackend {
  interact(request: InteractRequestInput): Promise<unknown>;
  check?(): Promise<void>;
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
  const recorder = new AgentRecorder();
  const startedAt = new Date().toISOString();
  let closed = false;
  return {
    backend(inner) {
      return { ...(inner.check && { check: () => inner.check!() }), interact: recorder.interact((r) => inner.interact(r)) };
    },
    async beforeRead() {
      await opts.playwright?.begin(recorder.steps.length + 1, undefined, page).catch(() => {});
    },
    async read(snapshot, ms) {
      const capture = await captureStep(page, listedOf(snapshot), opts.covers).catch(() => undefined);
      recorder.read(snapshot, ms, capture);
    },
    step(s) {
      recorder.step(s);
      void opts.playwright?.end(page).catch(() => {});
    },
    async close(run, error) {
      if (closed) return {};
      closed = true;
      // The Playwright trace first: its scrubbing needs every secret, and they are all known now.
      let playwright: PlaywrightTraceReport | undefined;
      let playwrightError: string | undefined;
      try {
        playwright = await opts.playwright?.stop(recorder.secrets.secretValues());
      } catch (e) {
        playwrightError = (e as Error).message.split('\n')[0];
      }
      if (opts.path) {
        const writer = new TraceWriter(opts.path, { face: 'agent', task: opts.task, secrets: recorder.secrets, startedAt, ...(opts.ceilingBytes && { ceilingBytes: opts.ceilingBytes }), ...(opts.pagelens && { pagelens: opts.pagelens }) });
        recorder.writeTo(writer, run, error);
      }
      return { ...(playwright && { playwright }), ...(playwrightError && { playwrightError }) };
    },
  };
}
