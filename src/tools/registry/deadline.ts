// Every tool call has a deadline (issue 20, "No input blocks the server"): a hostile page can keep
// the browser busy forever (a history.pushState flood drowns every CDP answer), and one call that
// never returns would hold a server's one-call-at-a-time queue for good. Work on a page cannot be
// cancelled from here, so the call is answered TIMEOUT at its deadline and the caller moves on; the
// abandoned work runs out in the background and the next answers say the page may still be busy.
// `giveUp` tells the host the moment that happens, so the abandoned work acts no more (a click sent
// after the TIMEOUT answer would land unreported; src/browser/callScope.ts).
import type { ToolResult } from './types.js';

/** What `pagelens mcp` allows one tool call by default (--call-timeout). */
export const DEFAULT_CALL_TIMEOUT_S = 60;

/** A tool that waits on purpose for a time it is given gets that time on top of the deadline. */
export function deadlineSeconds(tool: string, args: unknown, baseSeconds: number): number {
  const time = tool === 'browser_wait_for' && args && typeof args === 'object' ? (args as { time?: unknown }).time : undefined;
  return typeof time === 'number' && Number.isFinite(time) && time > 0 ? baseSeconds + Math.min(time, 60) : baseSeconds;
}

interface Abandoned { tool: string; since: number }

/** Runs tool calls under a deadline, remembering the ones that ran past it and are still at work. */
export class CallDeadline {
  private readonly abandoned = new Set<Abandoned>();

  constructor(readonly baseSeconds = DEFAULT_CALL_TIMEOUT_S) {}

  /**
   * `probe`: asked when the call ran past its deadline, whether the page still answers at all (a
   * renderer whose main thread never yields answers nothing, however long one waits): a line naming
   * that, or undefined when the page answered. It bounds its own wait. `giveUp`: called the moment
   * the call is given up, before anything else.
   */
  async run(tool: string, args: unknown, work: () => Promise<ToolResult>, probe?: () => Promise<string | undefined>, giveUp?: () => void): Promise<ToolResult> {
    const busy = this.busyNote();
    const seconds = deadlineSeconds(tool, args, this.baseSeconds);
    const promise = work();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), seconds * 1000); });
    const r = await Promise.race([promise, late]).finally(() => clearTimeout(timer));
    if (r === 'late') {
      giveUp?.();
      const entry = { tool, since: Date.now() };
      this.abandoned.add(entry);
      // Settles unobserved: a late failure must not become an unhandled rejection.
      void promise.then(() => this.abandoned.delete(entry), () => this.abandoned.delete(entry));
      const stuck = await probe?.().catch(() => undefined);
      const next = stuck
        ? `${stuck}. A fresh tab works in a renderer of its own: browser_tabs new (then browser_tabs close the stuck one, by its index); its IDs are not the old page's.`
        : 'The page may still be busy: take page_snapshot to see where it stands.';
      const message = `${tool} did not finish within ${seconds} s (${describeWait(tool, args)}); it was given up and the next call does not wait for it. ${next}`;
      return withNote({ text: `TIMEOUT: ${message}`, data: { error: { code: 'TIMEOUT', message } }, isError: true }, busy);
    }
    return withNote(r, busy);
  }

  /** Whether a call given up on is still at work (the page may be stuck behind it). */
  get busy(): boolean {
    return this.abandoned.size > 0;
  }

  /** A line for the next answer while a call given up on is still at work on the page. */
  private busyNote(): string {
    if (!this.abandoned.size) return '';
    const now = Date.now();
    const list = [...this.abandoned].map((a) => `${a.tool} (given up ${Math.round((now - a.since) / 1000)} s ago)`).join(', ');
    return `warning: an earlier call is still at work on the page in the background: ${list}; this answer may mix with its effects.`;
  }
}

function withNote(r: ToolResult, note: string): ToolResult {
  return note ? { ...r, notes: [...(r.notes ?? []), note] } : r;
}

/** What the call was waiting for, as far as its arguments say. */
function describeWait(tool: string, args: unknown): string {
  const a = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  if (typeof a.url === 'string') return `waiting for ${JSON.stringify(a.url.slice(0, 200))} to load and settle`;
  if (tool === 'browser_wait_for') return 'waiting on the page';
  return 'waiting for the browser to answer';
}
