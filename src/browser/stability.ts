// Waiting for a page to settle: no DOM change for a while in any frame (the in-page mutation log
// keeps the time of the last one) and no request in flight for a while (CDP Network events).
import { z } from 'zod';
import { frameActivity } from './events.js';
import type { Lens } from './lens.js';
import type { Target } from './target.js';

export const StabilityOptions = z.object({
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
}

const POLL_MS = 50;
// Long-lived connections never "finish" and would keep a page busy forever.
const IGNORED_TYPES = new Set(['EventSource', 'WebSocket', 'Ping', 'CSPViolationReport']);
/** A request open longer than this is a long poll or a stream, not loading. */
const STALE_REQUEST_MS = 10_000;

class NetworkTracker {
  readonly inflight = new Map<string, { url: string; since: number }>();
  lastActivity = 0;
  private started: Promise<void> | null = null;

  constructor(private readonly target: Target) {}

  start(): Promise<void> {
    this.started ??= (async () => {
      const cdp = this.target.cdp;
      cdp.on('Network.requestWillBeSent', (e: { requestId: string; type?: string; request: { url: string } }) => {
        if (IGNORED_TYPES.has(e.type ?? '') || e.request.url.startsWith('data:')) return;
        this.inflight.set(e.requestId, { url: e.request.url, since: performance.now() });
        this.lastActivity = performance.now();
      });
      const done = (e: { requestId: string }) => {
        if (this.inflight.delete(e.requestId)) this.lastActivity = performance.now();
      };
      cdp.on('Network.loadingFinished', done);
      cdp.on('Network.loadingFailed', done);
      await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }).catch(() => {});
    })();
    return this.started;
  }

  /** Requests still loading, stale ones dropped. */
  pending(now: number): string[] {
    for (const [id, r] of this.inflight) if (now - r.since > STALE_REQUEST_MS) this.inflight.delete(id);
    return [...this.inflight.values()].map((r) => r.url);
  }
}

const trackers = new WeakMap<Target, NetworkTracker>();

/** Starts watching the network of every known target (the page first); idempotent. */
export async function trackNetwork(lens: Lens): Promise<NetworkTracker[]> {
  const targets = new Set<Target>([lens.pageInput]);
  for (const f of await lens.knownFrames()) if (!f.target.closed) targets.add(f.target);
  return Promise.all([...targets].map(async (t) => {
    let tr = trackers.get(t);
    if (!tr) { tr = new NetworkTracker(t); trackers.set(t, tr); }
    await tr.start();
    return tr;
  }));
}

export async function waitForDomStability(lens: Lens, options: StabilityOptionsInput = {}): Promise<StabilityResult> {
  const o = StabilityOptions.parse(options);
  const t0 = performance.now();
  const trackersNow = o.waitForNetwork ? await trackNetwork(lens) : [];
  let busy = 'nothing read yet';
  for (;;) {
    const now = performance.now();
    const waited = Math.round(now - t0);
    const activity = await frameActivity(lens);
    const quietMs = Math.min(o.quietFromStart ? waited : Infinity, ...activity.map((a) => a.activity?.quietMs ?? 0));
    const loading = activity.find((a) => a.activity?.readyState === 'loading' || !a.activity);
    const pending = trackersNow.flatMap((t) => t.pending(now));
    const lastNet = Math.max(0, ...trackersNow.map((t) => t.lastActivity));
    const netQuietMs = Math.min(lastNet ? now - lastNet : Infinity, o.quietFromStart ? waited : Infinity);
    const domQuiet = !loading && quietMs >= o.stabilityThreshold;
    const netIdle = !o.waitForNetwork || (pending.length === 0 && netQuietMs >= o.networkIdleThreshold);
    if (domQuiet && netIdle) {
      return { stable: true, waitedMs: waited, reason: `DOM quiet for ${o.stabilityThreshold} ms${o.waitForNetwork ? ' and network idle' : ''}` };
    }
    if (loading) busy = loading.activity ? `frame ${loading.frame.ordinal} still loading` : `frame ${loading.frame.ordinal} not answering (navigating)`;
    else if (!domQuiet) busy = `DOM still changing (last change ${quietMs} ms ago)`;
    else busy = pending.length ? `${pending.length} request(s) in flight (${pending.slice(0, 2).join(', ')})` : `network active ${Math.round(netQuietMs)} ms ago`;
    if (waited >= o.timeout) return { stable: false, waitedMs: waited, reason: `timeout after ${o.timeout} ms: ${busy}` };
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(1, o.timeout - waited))));
  }
}
