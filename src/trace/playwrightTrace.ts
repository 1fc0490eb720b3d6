// The Playwright trace beside a pagelens run (docs/trace.md): context.tracing with screenshots and
// DOM snapshots, one group a pagelens step named after the step's number in the run record
// ("pagelens step 3: browser_click"), so `npx playwright show-trace` opens the network, console
// and DOM of the same steps. pagelens reads and acts through its own channels, which Playwright
// does not record as actions: each group opens and closes with a one-line evaluate, which
// Playwright records with a DOM snapshot before and after (the page as the step found and left it).
// Playwright writes the zip when tracing stops; it is then scrubbed of the run's secrets
// (playwrightScrub.ts) before it reaches its path. Nothing here fails the run it records: a page
// that stops answering costs a snapshot, and a trace that cannot be written says why.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { scrubPlaywrightTrace, type ScrubReport } from './playwrightScrub.js';

/** How long the snapshot evaluate at a group's edge may take. */
const MARK_TIMEOUT_MS = 2000;

export const groupName = (step: number, label?: string) => `pagelens step ${step}${label ? `: ${label}` : ''}`;

const within = <T>(p: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), ms); })]).finally(() => clearTimeout(timer));
};

export interface PlaywrightTraceReport extends ScrubReport {
  path: string;
}

export class PlaywrightTrace {
  private open = false;
  private stopped = false;
  /** Groups opened and closed one after another, whatever order their callers ask in. */
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(readonly context: BrowserContext, readonly path: string) {}

  /** Starts tracing on `context` (refused by Playwright when its tracing is already on). */
  static async start(context: BrowserContext, path: string, opts: { title?: string } = {}): Promise<PlaywrightTrace> {
    await context.tracing.start({ screenshots: true, snapshots: true, ...(opts.title && { title: opts.title }) });
    return new PlaywrightTrace(context, path);
  }

  get recording(): boolean {
    return !this.stopped;
  }

  /** Opens the group of step `step` (closing one still open), with a snapshot of the page as it begins. */
  begin(step: number, label?: string, page?: Page): Promise<void> {
    return this.queue(async () => {
      if (this.open) await this.closeGroup(page);
      await this.context.tracing.group(groupName(step, label));
      this.open = true;
      await this.mark(page);
    });
  }

  /** Closes the open group, with a snapshot of the page as the step left it. */
  end(page?: Page): Promise<void> {
    return this.queue(() => this.closeGroup(page));
  }

  /** Stops tracing and writes the zip, scrubbed of `secrets`, to its path. */
  async stop(secrets: Iterable<string>): Promise<PlaywrightTraceReport> {
    await this.chain;
    if (this.stopped) throw new Error('the Playwright trace was already stopped');
    this.stopped = true;
    if (this.open) await this.context.tracing.groupEnd().catch(() => {});
    this.open = false;
    // Unscrubbed, the zip lives only in a folder of our own, and only until it is scrubbed.
    const dir = await mkdtemp(join(tmpdir(), 'pagelens-pwtrace-'));
    try {
      const raw = join(dir, 'raw.zip');
      await this.context.tracing.stop({ path: raw });
      return { path: this.path, ...await scrubPlaywrightTrace(raw, this.path, [...secrets]) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private async closeGroup(page?: Page): Promise<void> {
    if (!this.open) return;
    await this.mark(page);
    this.open = false;
    await this.context.tracing.groupEnd();
  }

  /** A public evaluate: Playwright records it with a DOM snapshot before and after. */
  private async mark(page?: Page): Promise<void> {
    if (page && !page.isClosed()) await within(page.evaluate(() => document.readyState), MARK_TIMEOUT_MS);
  }

  private queue(fn: () => Promise<void>): Promise<void> {
    const next = this.chain.then(() => (this.stopped ? undefined : fn()));
    this.chain = next.catch(() => {});
    return next;
  }
}

/** What a face says once the Playwright trace is written. */
export function describePlaywrightTrace(r: PlaywrightTraceReport): string {
  const scrubbed = r.replaced ? `; ${r.replaced} secret value(s) replaced by ***` : '';
  const dropped = r.imagesDropped ? `; ${r.imagesDropped} screenshot(s) left out (${r.why})` : '';
  return `Playwright trace written to ${r.path} (open it with: npx playwright show-trace ${JSON.stringify(r.path)})${scrubbed}${dropped}`;
}
