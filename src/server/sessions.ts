// Sessions of the backend, keyed by sessionId (or taskId): the history of what was answered and
// how it went, so that a failed action is not retried blindly and an artifact is not asked for
// twice in a row. Bounded: a fixed number of steps each, and an expiry (the session idle time).
//
// One interface, two stores: in this process's memory (one replica, the default), or in Redis
// (redisSessions.ts), where every replica of a fleet reads and writes the same sessions. The
// interface is asynchronous for the second: each of its two calls is one atomic step there.
import type { InteractRequest, InteractResponse } from '../model/negotiation/interact.js';
import type { SessionStep, SessionView } from '../agent/planner.js';

export interface SessionLimits {
  /** Sessions kept at most (memory store; Redis is bounded by its TTLs and its own maxmemory). */
  maxSessions: number;
  maxSteps: number;
  ttlMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = { maxSessions: 1000, maxSteps: 50, ttlMs: 30 * 60_000 };

/** A session as opened for one request: its history up to now. */
export interface OpenSession {
  id: string;
  steps: SessionStep[];
  failures: Map<string, number>;
}

export interface SessionStore {
  /** Where sessions are kept, for the start line ("memory", "redis://host:6379/0"). */
  readonly where: string;
  readonly limits: SessionLimits;
  /**
   * The session of a request (null without an ID), with the outcome its client reports of the
   * previous action recorded first. Recording it is idempotent: a request retried, or two
   * replicas given the same report, count a failure once.
   */
  open(request: InteractRequest): Promise<OpenSession | null>;
  /** Appends the step answered (one atomic append: racing requests each keep theirs). */
  record(session: OpenSession | null, request: InteractRequest, response: InteractResponse): Promise<void>;
  close(): Promise<void>;
}

/**
 * The store cannot be reached (Redis down, a timeout): the request is answered 503 with the
 * reason, and nothing of the session is changed by it, so the client's retry continues it.
 */
export class StoreUnavailableError extends Error {}

/** What the planner sees of a session. */
export function sessionView(s: OpenSession | null): SessionView {
  if (!s) return { id: null, steps: [], failures: new Map() };
  const last = s.steps[s.steps.length - 1];
  return { id: s.id, steps: s.steps, failures: s.failures, ...(last?.requested && { lastRequested: last.requested }) };
}

export function sessionIdOf(request: InteractRequest): string | undefined {
  return request.sessionId ?? request.taskId;
}

/** The step a response adds to its session. */
export function stepOf(request: InteractRequest, response: InteractResponse, at: number): SessionStep {
  const step: SessionStep = { at, url: request.url, domMode: request.domMode };
  if ('action' in response) { step.action = response.action; step.thought = response.thought; }
  else step.requested = response.status === 'needs_full_dom' ? 'full' : response.requestedDomMode;
  return step;
}

/**
 * The action a request's report is about, when it names one: the report then only goes on a last
 * step that answered that action (a report that arrives twice, or late, finds another step last).
 */
export function reportedAction(request: InteractRequest): string | undefined {
  // The verb and target only ("setValue(2,"): the step keeps a secret value masked, and the
  // client may report it as it sent it, so the whole text cannot be compared.
  const action = request.lastActionError?.action;
  return action ? /^[A-Za-z_]+\([^,)]*[,)]/.exec(action)?.[0] ?? action : undefined;
}

/** The outcome a request reports of its session's previous action, if any. */
export function reportedOutcome(request: InteractRequest): SessionStep['outcome'] | undefined {
  if (!request.lastActionStatus) return undefined;
  return { status: request.lastActionStatus, ...(request.lastActionError && { error: request.lastActionError.message, code: request.lastActionError.code }) };
}

interface MemorySession extends OpenSession {
  touched: number;
}

/** Sessions in this process: least recently used go first past maxSessions. */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, MemorySession>();
  readonly limits: SessionLimits;
  readonly where = 'memory';

  constructor(limits: Partial<SessionLimits> = {}, private readonly now: () => number = Date.now) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...limits };
  }

  get size(): number {
    return this.sessions.size;
  }

  async open(request: InteractRequest): Promise<OpenSession | null> {
    const id = sessionIdOf(request);
    if (!id) return null;
    this.expire();
    let s = this.sessions.get(id);
    if (s) this.sessions.delete(id); // re-inserted last: Map order is recency order
    else s = { id, touched: 0, steps: [], failures: new Map() };
    s.touched = this.now();
    this.sessions.set(id, s);
    while (this.sessions.size > this.limits.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    const last = s.steps[s.steps.length - 1];
    const outcome = reportedOutcome(request);
    const about = reportedAction(request);
    if (last?.action && !last.outcome && outcome && (about === undefined || last.action.startsWith(about))) {
      last.outcome = outcome;
      if (outcome.status === 'failure') s.failures.set(last.action, (s.failures.get(last.action) ?? 0) + 1);
    }
    return s;
  }

  async record(s: OpenSession | null, request: InteractRequest, response: InteractResponse): Promise<void> {
    if (!s) return;
    s.steps.push(stepOf(request, response, this.now()));
    if (s.steps.length > this.limits.maxSteps) s.steps.splice(0, s.steps.length - this.limits.maxSteps);
  }

  async close(): Promise<void> {}

  private expire(): void {
    const cutoff = this.now() - this.limits.ttlMs;
    for (const [id, s] of this.sessions) {
      if (s.touched >= cutoff) break; // recency order: the rest are newer
      this.sessions.delete(id);
    }
  }
}
