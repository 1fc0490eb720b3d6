// Sessions of the backend, keyed by sessionId (or taskId): the history of what was answered and
// how it went, so that a failed action is not retried blindly and an artifact is not asked for
// twice in a row. Bounded: a fixed number of sessions (least recently used go first), a fixed
// number of steps each, and an expiry.
import type { InteractRequest, InteractResponse } from '../model/negotiation/interact.js';
import type { SessionStep, SessionView } from '../agent/planner.js';

export interface SessionLimits {
  maxSessions: number;
  maxSteps: number;
  ttlMs: number;
}

const DEFAULTS: SessionLimits = { maxSessions: 1000, maxSteps: 50, ttlMs: 30 * 60_000 };

interface Session {
  id: string;
  touched: number;
  steps: SessionStep[];
  failures: Map<string, number>;
}

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  readonly limits: SessionLimits;

  constructor(limits: Partial<SessionLimits> = {}, private readonly now: () => number = Date.now) {
    this.limits = { ...DEFAULTS, ...limits };
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The session of a request, with the outcome of its previous action recorded (none without an ID). */
  open(request: InteractRequest): Session | null {
    const id = request.sessionId ?? request.taskId;
    if (!id) return null;
    this.expire();
    let s = this.sessions.get(id);
    if (s) this.sessions.delete(id); // re-inserted last: Map order is recency order
    else s = { id, touched: 0, steps: [], failures: new Map() };
    s.touched = this.now();
    this.sessions.set(id, s);
    while (this.sessions.size > this.limits.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    const last = s.steps[s.steps.length - 1];
    if (last?.action && !last.outcome && request.lastActionStatus) {
      last.outcome = { status: request.lastActionStatus, ...(request.lastActionError && { error: request.lastActionError.message, code: request.lastActionError.code }) };
      if (request.lastActionStatus === 'failure') s.failures.set(last.action, (s.failures.get(last.action) ?? 0) + 1);
    }
    return s;
  }

  view(s: Session | null): SessionView {
    if (!s) return { id: null, steps: [], failures: new Map() };
    const last = s.steps[s.steps.length - 1];
    return { id: s.id, steps: s.steps, failures: s.failures, ...(last?.requested && { lastRequested: last.requested }) };
  }

  record(s: Session | null, request: InteractRequest, response: InteractResponse): void {
    if (!s) return;
    const step: SessionStep = { at: this.now(), url: request.url, domMode: request.domMode };
    if ('action' in response) { step.action = response.action; step.thought = response.thought; }
    else step.requested = response.status === 'needs_full_dom' ? 'full' : response.requestedDomMode;
    s.steps.push(step);
    if (s.steps.length > this.limits.maxSteps) s.steps.splice(0, s.steps.length - this.limits.maxSteps);
  }

  private expire(): void {
    const cutoff = this.now() - this.limits.ttlMs;
    for (const [id, s] of this.sessions) {
      if (s.touched >= cutoff) break; // recency order: the rest are newer
      this.sessions.delete(id);
    }
  }
}
