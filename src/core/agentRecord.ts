// The run record of an agent run, host-free: what the negotiation loop (./negotiate.ts) did each
// step, in the record's fields, for every host that runs it (the CLI's agent over CDP,
// src/trace/agentTrace.ts; the extension's side panel, extension/src/runTrace.ts). It sits between
// the loop and its backend, so it sees every request exactly as the planner got it (its o200k
// count, screenshot aside) and the planner's raw answer, and it learns the run's secrets the way
// every transcript does (the host reported the action with "***" where the planner's had the
// value). The host takes the screenshot (its own way) and hands it over with the read. Nothing is
// written here: the steps are kept until the run ends, then written, every entry masked with
// every secret the run learnt (a password typed at step 3 may already be in step 1's task).
import type { SemanticV3Result } from '../model/contracts/schema.js';
import type { InteractRequestInput } from '../model/negotiation/interact.js';
import { countTokens } from '../model/renderers/tokens.js';
import { TraceSecrets } from '../model/trace/mask.js';
import { secretIds } from '../model/trace/observation.js';
import type { RecordWriter } from '../model/trace/recordWriter.js';
import type { TraceBox, TraceStep, TraceVerdict } from '../model/trace/runRecord.js';
import { verdictOfResult } from '../model/trace/verdict.js';
import type { AgentStep } from './negotiate.js';

/** A step's screenshot with the boxes of the IDs the model was shown, as a host took it. */
export interface StepCapture {
  jpeg?: Uint8Array;
  width: number;
  height: number;
  viewport: { width: number; height: number };
  boxes: TraceBox[];
  frames: number;
  ms: number;
  warnings: string[];
}

/** An ID the observation listed, with what the host needs to find its box. */
export interface ListedId {
  id: string;
  role?: string;
  name?: string;
  /** The centre the observation gave, and its box when it had one. */
  xy?: [number, number];
  box?: [number, number, number, number];
  secret?: boolean;
}

/** The IDs a semantic_v3 read lists, for the host's capture. */
export const listedOf = (snapshot: SemanticV3Result): ListedId[] =>
  snapshot.interactive_tree.map((n) => ({ id: n.i, role: n.r, name: n.n, xy: n.xy, ...(n.box && { box: n.box }), ...(n.v === '***' && { secret: true }) }));

interface Pending {
  at: string;
  snap?: SemanticV3Result;
  readMs?: number;
  capture?: StepCapture;
  rounds: Array<{ mode: string; tokens: number; text: string }>;
  askMs: number;
  answeredAt?: number;
  answer?: { thought?: string; action?: string };
}

export type RecordedStep = Omit<TraceStep, 'step' | 'screenshot'>;

export interface AgentRecorderOptions {
  /**
   * Bytes of screenshots and observation text the recorder keeps at most (a host that keeps the
   * run in memory); past it steps keep neither, and the writer's ceiling (no larger) marks them.
   */
  keepBytes?: number;
}

export class AgentRecorder {
  readonly secrets = new TraceSecrets();
  readonly steps: Array<{ step: RecordedStep; capture?: StepCapture }> = [];
  private pending: Pending | undefined;
  private kept = 0;

  constructor(private readonly opts: AgentRecorderOptions = {}) {}

  /** Whether the recorder still keeps screenshots and observation text (false past keepBytes). */
  get keeping(): boolean {
    return this.opts.keepBytes === undefined || this.kept <= this.opts.keepBytes;
  }

  /** The loop's interact, each request recorded with its count and the raw answer kept. */
  interact(inner: (request: InteractRequestInput) => Promise<unknown>): (request: InteractRequestInput) => Promise<unknown> {
    return async (request) => {
      const p = this.pending ??= fresh();
      const { screenshot: _s, ...text } = request;
      const json = JSON.stringify(text);
      p.rounds.push({ mode: request.domMode ?? 'semantic_v3', tokens: await countTokens(json), text: json });
      const t0 = performance.now();
      const answer = await inner(request);
      p.askMs += performance.now() - t0;
      p.answeredAt = performance.now();
      if (answer && typeof answer === 'object' && 'action' in answer) p.answer = answer as Pending['answer'];
      return answer;
    };
  }

  /** The step's page read (and how long it took), with the screenshot the host took right after it. */
  read(snapshot: SemanticV3Result, ms: number, capture?: StepCapture): void {
    // The step's time is the read's end, before the screenshot.
    this.pending = { ...fresh(), at: new Date(Date.now() - (capture?.ms ?? 0)).toISOString(), snap: snapshot, readMs: Math.round(ms), ...(capture && this.keeping && { capture }) };
  }

  /** For the loop's onStep: the step in the record's fields. */
  step(s: AgentStep): RecordedStep {
    const p = this.pending ?? fresh();
    this.pending = undefined;
    const masked: string[] = [];
    const asked = p.answer?.action;
    const performed = 'action' in s.response ? s.response.action : undefined;
    if (asked && performed !== undefined) {
      const said = this.secrets.learnAction(asked, s.result?.action ?? performed);
      if (said) masked.push(said);
    }
    const last = p.rounds.at(-1);
    const snap = p.snap;
    const meta = snap?.meta;
    const warnings = [...snap?.warnings ?? [], ...s.result?.warnings ?? [], ...s.result?.verification?.uncertain ?? [], ...p.capture?.warnings ?? []];
    const action = 'action' in s.response ? s.response.action : '';
    const id = /^\s*\w+\s*\(\s*(f\d+_\d+|\d+)/.exec(action)?.[1];
    const keep = this.keeping;
    const obsText = keep ? last?.text ?? '' : '';
    this.kept += obsText.length + (p.capture?.jpeg?.length ?? 0);
    const shownSecret = new Set(secretIds(last?.text ?? ''));
    const step: RecordedStep = {
      at: p.at, url: s.url, ...(snap?.title !== undefined && { title: snap.title }), frames: p.capture?.frames ?? snap?.frames?.length ?? 1,
      observation: {
        mode: s.mode ?? 'semantic_v3', format: 'json', text: obsText, tokens: s.tokensSent, rounds: p.rounds.map(({ mode, tokens }) => ({ mode, tokens })),
        ...(s.imageBytes && { imageBytes: s.imageBytes }),
        ...(meta && { pruned: { total: meta.totalElements, shown: meta.viewportElements, pruned: meta.prunedElements, occluded: meta.occludedElements, why: 'semantic_v3 lists what is in the viewport; pruned elements are outside it (scroll to reach them), occluded ones are covered' } }),
        omitted: [
          ...(s.imageBytes ? [`the marked screenshot sent to the model (${Math.round(s.imageBytes / 1024)} KB JPEG) is not in the text; the step's screenshot shows the same view`] : []),
          ...(p.rounds.length > 1 ? [`${p.rounds.length - 1} earlier request(s) of the step (the planner asked for more context): their counts are in rounds, the text is the last request`] : []),
          ...(!keep ? [`the request's text and the screenshot: the run's record reached the ${this.opts.keepBytes} bytes it keeps`] : []),
        ],
      },
      boxes: (p.capture?.boxes ?? []).map((b) => (shownSecret.has(b.id) ? { ...b, secret: true as const } : b)),
      ...(s.response.thought && { thought: s.response.thought }),
      ...(action && { action: { text: action, ...(id && { id }) } }),
      verdict: verdictOf(s), warnings, masked,
      timings: {
        ...(p.readMs !== undefined && { readMs: p.readMs }), askMs: Math.round(p.askMs),
        ...(p.answeredAt !== undefined && { actMs: Math.round(performance.now() - p.answeredAt) }), ...(p.capture && { captureMs: p.capture.ms }),
      },
    };
    this.steps.push({ step, capture: p.capture });
    return step;
  }

  /** Every step into `writer` (which masks each with every secret learnt), then the end: `run` absent, the run ended in an error. */
  writeTo(writer: RecordWriter, run: { status: string; message?: string; success?: boolean } | undefined, error?: string): void {
    for (const d of this.steps) {
      const c = d.capture;
      writer.add(d.step, c?.jpeg ? { jpeg: c.jpeg, width: c.width, height: c.height, viewport: c.viewport } : undefined);
    }
    writer.close(run ? { status: run.status, ...(run.message && { message: run.message }), ...(run.success !== undefined && { success: run.success }) } : { status: 'error', ...(error && { message: error }), success: false });
  }
}

const fresh = (): Pending => ({ at: new Date().toISOString(), rounds: [], askMs: 0 });

/** How a step went, in the record's words. */
function verdictOf(s: AgentStep): TraceVerdict {
  const r = s.result;
  if (!r) {
    const action = 'action' in s.response ? s.response.action : '';
    return { outcome: 'done', detail: action };
  }
  return verdictOfResult(r);
}
