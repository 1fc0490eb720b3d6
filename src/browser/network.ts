// Requests in flight, per CDP target, from CDP Network events: what "network idle" is measured
// against. A target whose network cannot be watched says so, instead of looking idle.
import type { Target } from './target.js';

// Long-lived connections never "finish" and would keep a page busy forever.
const IGNORED_TYPES = new Set(['EventSource', 'WebSocket', 'Ping', 'CSPViolationReport']);
/** A request open longer than this is a long poll or a stream, not loading. */
const STALE_REQUEST_MS = 10_000;

export class NetworkTracker {
  readonly inflight = new Map<string, { url: string; since: number }>();
  lastActivity = 0;
  /** Why this target's requests are not being watched, if they are not. */
  failure: string | undefined;
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
      // A document's body goes to the renderer of its frame; for an out-of-process iframe that is
      // another target, and this session never hears loadingFinished (every action on a page
      // with a cross-site iframe waited for it until the settle deadline). A document counts as
      // loaded once its response is here; what it loads next is tracked as requests of its own.
      cdp.on('Network.responseReceived', (e: { requestId: string; type?: string }) => {
        if (e.type === 'Document') done(e);
      });
      try {
        await cdp.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
      } catch (e) {
        this.failure = (e as Error).message;
      }
    })();
    return this.started;
  }

  /** Requests still loading, stale ones dropped. */
  pending(now: number): string[] {
    for (const [id, r] of this.inflight) if (now - r.since > STALE_REQUEST_MS) this.inflight.delete(id);
    return [...this.inflight.values()].map((r) => r.url);
  }
}

/** One tracker per target, started on first use. */
export class NetworkWatch {
  private readonly trackers = new WeakMap<Target, NetworkTracker>();

  async watch(targets: Iterable<Target>): Promise<NetworkTracker[]> {
    return Promise.all([...new Set(targets)].map(async (t) => {
      let tr = this.trackers.get(t);
      if (!tr) { tr = new NetworkTracker(t); this.trackers.set(t, tr); }
      await tr.start();
      return tr;
    }));
  }
}
