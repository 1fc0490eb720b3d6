// A thin, typed layer over a Playwright CDP session: every command has a deadline, and every
// failure becomes a PagelensError whose code says what went wrong.
import { refuseIfGivenUp } from './callScope.js';
import type { CDPSession } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';

/**
 * How long one CDP command may stay unanswered. A loaded machine can need more (a renderer that is
 * still starting answers its first commands late), so PAGELENS_CDP_TIMEOUT_MS raises it; a value
 * that is not a positive number is ignored with a warning rather than turned into "no deadline".
 */
export const DEFAULT_CDP_TIMEOUT_MS = cdpTimeoutFromEnv(process.env.PAGELENS_CDP_TIMEOUT_MS);

function cdpTimeoutFromEnv(raw: string | undefined): number {
  const fallback = 15_000;
  if (raw === undefined || raw === '') return fallback;
  const ms = Number(raw);
  if (Number.isFinite(ms) && ms > 0) return ms;
  process.stderr.write(`pagelens: PAGELENS_CDP_TIMEOUT_MS=${JSON.stringify(raw)} is not a positive number of ms; using ${fallback}\n`);
  return fallback;
}
/** PAGELENS_DEBUG=1 reports slow CDP commands on stderr. */
const DEBUG = !!process.env.PAGELENS_DEBUG;

export function classifyCdpError(message: string): PagelensError {
  if (/Execution context was destroyed|Cannot find context with specified id|Inspected target navigated|context.*(destroyed|not found)/i.test(message)) {
    return new PagelensError('NAVIGATED', `The page navigated while pagelens was reading it (${message}). Take a new snapshot.`);
  }
  if (/Target closed|Session closed|has been closed|detached|No frame (with|for) given id|Frame.*not found/i.test(message)) {
    return new PagelensError('FRAME_DETACHED', `The frame went away while pagelens was reading it (${message}).`);
  }
  return new PagelensError('CDP_ERROR', message);
}

/** How long a command may take: its own deadline, and whether it is a long one others queue behind. */
export interface SendOptions {
  timeoutMs?: number;
  /**
   * A command known to keep the renderer busy for long (reading a huge page). Commands sent
   * meanwhile wait in the renderer's queue behind it: they are not hung, so their deadline
   * restarts instead of failing while a long command is still running.
   */
  long?: boolean;
}

export class Cdp {
  /** Commands made to fail on purpose (tests force each failure path with these). */
  private readonly faults = new Map<string, string>();
  /** Commands made slow on purpose, in ms (tests of what a read does when a step is slow). */
  private readonly delays = new Map<string, number>();
  /** Long commands (see SendOptions.long) still waiting for their answer, and when the last one was answered. */
  private longInFlight = 0;
  private longEndedAt = -Infinity;

  constructor(readonly session: CDPSession, private readonly timeoutMs = DEFAULT_CDP_TIMEOUT_MS) {}

  /** Makes every later `method` call fail with `message` (null: work again). For tests of failure paths. */
  injectFault(method: string, message: string | null): void {
    if (message === null) this.faults.delete(method);
    else this.faults.set(method, message);
  }

  /** Makes every later `method` call answer `ms` later than Chrome does (null: on time again). For tests of slow steps. */
  injectDelay(method: string, ms: number | null): void {
    if (ms === null) this.delays.delete(method);
    else this.delays.set(method, ms);
  }

  async send<T = any>(method: string, params: Record<string, unknown> = {}, opts: SendOptions = {}): Promise<T> {
    // Input of a call given up at its deadline never reaches the page (callScope.ts).
    if (method.startsWith('Input.')) refuseIfGivenUp(method);
    const fault = this.faults.get(method);
    if (fault !== undefined) throw classifyCdpError(fault);
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      const expire = () => {
        // A command queued behind a long one gets a whole deadline once that one is answered, not
        // what is left of a period that happened to start while it ran.
        const sinceLong = performance.now() - this.longEndedAt;
        if (!opts.long && (this.longInFlight > 0 || sinceLong < timeoutMs)) { timer = setTimeout(expire, this.longInFlight > 0 ? timeoutMs : timeoutMs - sinceLong); return; }
        reject(new PagelensError('CDP_TIMEOUT', `${method} got no answer within ${timeoutMs} ms`));
      };
      timer = setTimeout(expire, timeoutMs);
    });
    const started = DEBUG ? performance.now() : 0;
    if (opts.long) this.longInFlight++;
    try {
      const delay = this.delays.get(method);
      const answer = delay === undefined
        ? this.session.send(method as any, params as any) as Promise<T>
        : new Promise((r) => setTimeout(r, delay)).then(() => this.session.send(method as any, params as any) as Promise<T>);
      return await Promise.race([answer, deadline]);
    } catch (e) {
      if (e instanceof PagelensError) throw e;
      throw classifyCdpError((e as Error).message);
    } finally {
      if (opts.long) { this.longInFlight--; this.longEndedAt = performance.now(); }
      clearTimeout(timer);
      if (DEBUG && performance.now() - started > 200) process.stderr.write(`pagelens: slow CDP ${method} ${Math.round(performance.now() - started)} ms\n`);
    }
  }

  on(event: string, handler: (params: any) => void): void {
    this.session.on(event as any, handler as any);
  }

  off(event: string, handler: (params: any) => void): void {
    this.session.off(event as any, handler as any);
  }

  async detach(): Promise<void> {
    await this.session.detach().catch(() => {});
  }
}
