// The library's trace: `const trace = startTrace(lens)`, then the lens used as usual, then
// `await trace.stop('run.zip')`. Each act() is a step; its observation is the last read the caller
// got before it (the payload of lens.snapshot, as JSON), and its screenshot was taken as that read
// was made. The lens's own methods are wrapped on the instance and given back by stop().
// `playwrightTrace: 'pw.zip'` records a Playwright trace of the same steps beside it (one group a
// step, opened by the step's first read and closed when its act has answered), scrubbed of the
// values typed into secret fields.
import type { Page } from 'playwright-core';
import type { ActionResult } from '../model/contracts/outcome.js';
import { countTokens } from '../model/renderers/tokens.js';
import { TraceSecrets } from '../model/trace/mask.js';
import type { TraceStep } from '../model/trace/runRecord.js';
import { verdictOfResult } from './agentTrace.js';
import type { SecretCovers } from '../core/secretCovers.js';
import { captureStep, type Capture, type CoverSource, type Listed } from './capture.js';
import { PlaywrightTrace, type PlaywrightTraceReport } from './playwrightTrace.js';
import { TraceWriter } from './writer.js';

/** What the trace needs of a lens (src/browser/lens.ts Lens). */
export interface TraceableLens {
  readonly page: Page;
  snapshot(...args: never[]): Promise<unknown>;
  act(action: string, ...rest: never[]): Promise<ActionResult>;
  /** Where secret fields show their value (Lens.secretCovers), painted over in each screenshot. */
  secretCovers?(): Promise<SecretCovers>;
}

export interface LensTrace {
  /** Steps recorded so far. */
  readonly steps: number;
  /** Gives the lens its methods back, writes the archive, and the Playwright trace when one was asked for. */
  stop(path: string): Promise<{ playwright?: PlaywrightTraceReport }>;
}

export interface LensTraceOptions {
  ceilingBytes?: number;
  /**
   * Also record a Playwright trace of the same steps into this file (context.tracing of the lens's
   * page, which must not be tracing already). Written by stop(); it throws when the trace cannot be.
   */
  playwrightTrace?: string;
}

interface Read { payload: unknown; ms: number; at: string; capture?: Capture }

function listedOf(payload: unknown): Listed[] {
  const p = (payload ?? {}) as { interactive_tree?: Array<{ i: string; r?: string; n?: string; v?: string; xy?: [number, number]; box?: [number, number, number, number] }>; nodes?: Array<{ id: string; role?: string; name?: string; value?: string }> };
  if (Array.isArray(p.interactive_tree)) return p.interactive_tree.map((n) => ({ id: n.i, ...(n.r && { role: n.r }), ...(n.n && { name: n.n }), ...(n.xy && { xy: n.xy }), ...(n.box && { box: n.box }), ...(n.v === '***' && { secret: true }) }));
  if (Array.isArray(p.nodes)) return p.nodes.filter((n) => typeof n.id === 'string').map((n) => ({ id: n.id, ...(n.role && { role: n.role }), ...(n.name && { name: n.name }) }));
  return [];
}

export function startTrace(lens: TraceableLens, opts: LensTraceOptions = {}): LensTrace {
  const secrets = new TraceSecrets();
  const startedAt = new Date().toISOString();
  const own = lens as unknown as { snapshot: (...a: unknown[]) => Promise<unknown>; act: (action: string, ...a: unknown[]) => Promise<ActionResult> };
  const snapshot = own.snapshot;
  const act = own.act;
  const covers: CoverSource | undefined = lens.secretCovers ? () => lens.secretCovers!() : undefined;
  const steps: Array<{ step: Omit<TraceStep, 'step' | 'screenshot'>; capture?: Capture }> = [];
  let last: Read | undefined;
  // Started at once; a start that failed is said by stop(), and the steps are recorded regardless.
  const playwright = opts.playwrightTrace ? PlaywrightTrace.start(lens.page.context(), opts.playwrightTrace) : undefined;
  playwright?.catch(() => {});
  let grouped = false;
  const begin = async () => {
    if (grouped || !playwright) return;
    grouped = true;
    await (await playwright.catch(() => undefined))?.begin(steps.length + 1, undefined, lens.page).catch(() => {});
  };
  own.snapshot = async (...args: unknown[]) => {
    await begin();
    const t0 = performance.now();
    const payload = await snapshot.apply(lens, args);
    last = { payload, ms: Math.round(performance.now() - t0), at: new Date().toISOString() };
    last.capture = await captureStep(lens.page, listedOf(payload), covers).catch(() => undefined);
    return payload;
  };
  own.act = async (action: string, ...args: unknown[]) => {
    await begin();
    const t0 = performance.now();
    const result = await act.call(lens, action, ...args);
    const read = last;
    last = undefined;
    const masked = [secrets.learnAction(action, result.action)].filter((m): m is string => !!m);
    const text = read ? JSON.stringify(read.payload) : '';
    const capture = read?.capture ?? await captureStep(lens.page, [], covers).catch(() => undefined);
    const id = /^\s*\w+\s*\(\s*(f\d+_\d+|\d+)/.exec(result.action)?.[1];
    const mode = (read?.payload as { mode?: string } | undefined)?.mode ?? 'none';
    steps.push({
      capture,
      step: {
        at: read?.at ?? new Date().toISOString(), url: lens.page.url(), frames: capture?.frames ?? lens.page.frames().length,
        ...(read && { observation: { mode, format: 'json' as const, text, tokens: await countTokens(text) } }),
        boxes: capture?.boxes ?? [],
        action: { text: result.action, ...(id && { id }) },
        verdict: verdictOfResult(result), warnings: [...result.warnings ?? [], ...capture?.warnings ?? []], masked,
        timings: { ...(read && { readMs: read.ms }), actMs: Math.round(performance.now() - t0), ...(capture && { captureMs: capture.ms }) },
      },
    });
    grouped = false;
    if (playwright) await (await playwright.catch(() => undefined))?.end(lens.page).catch(() => {});
    return result;
  };
  return {
    get steps() { return steps.length; },
    async stop(path) {
      own.snapshot = snapshot;
      own.act = act;
      // The prototype's methods again (the instance's own wrappers go).
      delete (own as Partial<typeof own>).snapshot;
      delete (own as Partial<typeof own>).act;
      const writer = new TraceWriter(path, { face: 'library', secrets, startedAt, ...(opts.ceilingBytes && { ceilingBytes: opts.ceilingBytes }) });
      for (const s of steps) writer.add(s.step, s.capture?.jpeg ? { jpeg: s.capture.jpeg, width: s.capture.width, height: s.capture.height, viewport: s.capture.viewport } : undefined);
      writer.close({ status: 'stopped' });
      if (!playwright) return {};
      return { playwright: await (await playwright).stop(secrets.secretValues()) };
    },
  };
}
