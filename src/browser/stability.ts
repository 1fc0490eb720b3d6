// Waiting for a page to settle: no DOM change for a while in any frame (the in-page mutation log
// keeps the time of the last one) and no request in flight for a while (CDP Network events).
import { z } from 'zod';
import { parseInput } from '../model/contracts/validate.js';
import type { LensCore } from './lensCore.js';
import { frameActivity } from './events.js';
import type { NetworkTracker } from './network.js';

export const StabilityOptions = z.strictObject({
  timeout: z.number().int().nonnegative().default(3000),
  stabilityThreshold: z.number().int().nonnegative().default(300),
  waitForNetwork: z.boolean().default(true),
  networkIdleThreshold: z.number().int().nonnegative().default(500),
  /**
   * Count quiet time from the start of the wait, not from the last change: after an action the
   * page has not reacted yet (scroll handlers, debounced fetches), and earlier quiet proves nothing.
   */
  quietFromStart: z.boolean().default(false),
});
export type StabilityOptionsInput = z.input<typeof StabilityOptions>;

export interface StabilityResult {
  stable: boolean;
  /** Why it returned: what was quiet, or what was still busy at the timeout. */
  reason: string;
  waitedMs: number;
  /** What could not be watched (a target's network), so "stable" may be premature. */
  uncertain?: string[];
}

const POLL_MS = 50;

/** Starts watching the network of every known target (the page first); idempotent. */
export async function trackNetwork(core: LensCore): Promise<NetworkTracker[]> {
  const targets = [core.pageTarget];
  for (const f of await core.frames.known()) if (!f.target.closed) targets.push(f.target);
  return core.network.watch(targets);
}

export async function waitForDomStability(core: LensCore, options: StabilityOptionsInput = {}): Promise<StabilityResult> {
  const o = parseInput(StabilityOptions, options, 'stability options');
  const t0 = performance.now();
  const navigationsAtStart = core.navigations;
  const trackers = o.waitForNetwork ? await withinMs(trackNetwork(core), o.timeout) : [];
  if (!trackers) return { stable: false, waitedMs: Math.round(performance.now() - t0), reason: neverSettled(core, navigationsAtStart, t0, 'the page did not answer (its frames could not be listed)') };
  const unwatched = trackers.filter((t) => t.failure).map((t) => `the network of one target is not watched (${t.failure})`);
  const done = (r: StabilityResult): StabilityResult => (unwatched.length ? { ...r, uncertain: unwatched } : r);
  let busy = 'nothing read yet';
  for (;;) {
    const waited = Math.round(performance.now() - t0);
    // A page that keeps the browser busy (a history.pushState flood) can leave a read unanswered
    // for good: each read gets only the time left, so the wait ends at its bound, never later.
    const activity = await withinMs(frameActivity(core), Math.max(POLL_MS, o.timeout - waited));
    if (!activity) {
      // The wait is over even though this read is not: say so with what is known without the page
      // (requests still in flight), so a busy machine does not erase the reason the page was busy.
      const inFlight = sayInFlight(trackers.flatMap((t) => t.pending(performance.now())));
      const why = `timeout after ${o.timeout} ms: ${inFlight ? `${inFlight}; ` : ''}the page did not answer the activity read in time`;
      return done({ stable: false, waitedMs: Math.round(performance.now() - t0), reason: neverSettled(core, navigationsAtStart, t0, why) });
    }
    const now = performance.now();
    const quietMs = Math.min(o.quietFromStart ? waited : Infinity, ...activity.map((a) => a.activity?.quietMs ?? 0));
    const loading = activity.find((a) => a.activity?.readyState === 'loading' || !a.activity);
    const pending = trackers.flatMap((t) => t.pending(now));
    const lastNet = Math.max(0, ...trackers.map((t) => t.lastActivity));
    const netQuietMs = Math.min(lastNet ? now - lastNet : Infinity, o.quietFromStart ? waited : Infinity);
    const domQuiet = !loading && quietMs >= o.stabilityThreshold;
    const netIdle = !o.waitForNetwork || (pending.length === 0 && netQuietMs >= o.networkIdleThreshold);
    if (domQuiet && netIdle) {
      return done({ stable: true, waitedMs: waited, reason: `DOM quiet for ${o.stabilityThreshold} ms${o.waitForNetwork ? ' and network idle' : ''}` });
    }
    if (loading) busy = loading.activity ? `frame ${loading.frame.ordinal} still loading` : `frame ${loading.frame.ordinal} not answering (${loading.failure ?? 'navigating'})`;
    else if (!domQuiet) busy = `DOM still changing (last change ${quietMs} ms ago)`;
    else busy = sayInFlight(pending) ?? `network active ${Math.round(netQuietMs)} ms ago`;
    if (waited >= o.timeout) return done({ stable: false, waitedMs: waited, reason: neverSettled(core, navigationsAtStart, t0, `timeout after ${o.timeout} ms: ${busy}`) });
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(1, o.timeout - waited))));
  }
}

/** The requests still in flight, said the one way every reason says them; undefined when none. */
function sayInFlight(pending: string[]): string | undefined {
  return pending.length ? `${pending.length} request(s) in flight (${pending.slice(0, 2).join(', ')})` : undefined;
}

/** The promise's value, or undefined when it has not come within `ms` (a late failure is swallowed). */
async function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => {});
  const late = new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Why a wait ended unsettled, with the URL changes seen meanwhile (a page that rewrites its URL never settles). */
function neverSettled(core: LensCore, navigationsAtStart: number, t0: number, why: string): string {
  const changes = core.navigations - navigationsAtStart;
  if (!changes) return why;
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  return `the page never settled (${changes} URL change${changes === 1 ? '' : 's'} in ${seconds} s); ${why}`;
}
