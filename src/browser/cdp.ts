// A thin, typed layer over a Playwright CDP session: every command has a deadline, and every
// failure becomes a PagelensError whose code says what went wrong.
import type { CDPSession } from 'playwright-core';
import { PagelensError } from '../model/errors.js';

export const DEFAULT_CDP_TIMEOUT_MS = 15_000;
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

export class Cdp {
  /** Commands made to fail on purpose (tests force each failure path with these). */
  private readonly faults = new Map<string, string>();

  constructor(readonly session: CDPSession, private readonly timeoutMs = DEFAULT_CDP_TIMEOUT_MS) {}

  /** Makes every later `method` call fail with `message` (null: work again). For tests of failure paths. */
  injectFault(method: string, message: string | null): void {
    if (message === null) this.faults.delete(method);
    else this.faults.set(method, message);
  }

  async send<T = any>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const fault = this.faults.get(method);
    if (fault !== undefined) throw classifyCdpError(fault);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new PagelensError('CDP_TIMEOUT', `${method} got no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    const started = DEBUG ? performance.now() : 0;
    try {
      return await Promise.race([this.session.send(method as any, params as any) as Promise<T>, deadline]);
    } catch (e) {
      if (e instanceof PagelensError) throw e;
      throw classifyCdpError((e as Error).message);
    } finally {
      clearTimeout(timer);
      if (DEBUG && performance.now() - started > 200) process.stderr.write(`pagelens: slow CDP ${method} ${Math.round(performance.now() - started)} ms\n`);
    }
  }

  on(event: string, handler: (params: any) => void): void {
    this.session.on(event as any, handler as any);
  }

  async detach(): Promise<void> {
    await this.session.detach().catch(() => {});
  }
}
