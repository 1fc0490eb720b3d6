// Negotiation sessions in Redis, so that every `serve` replica answers every request of every
// session. A session is three keys: its steps (a list of JSON steps, trimmed to maxSteps), its
// failures (a hash action → count) and its step count, all expiring after the session idle time and renewed on use.
//
// Each of the store's two calls is one Lua script, and Redis runs a script whole before any other
// command: two replicas racing on one session each append their step (none lost), and an outcome
// reported twice (a retried request, two replicas given the same report) is recorded once (none
// repeated). A store that cannot be reached is StoreUnavailableError: the request is answered 503
// and nothing of the session changed, so the client's retry continues it where it was.
import type { Redis } from 'ioredis';
import type { SessionStep } from '../agent/planner.js';
import type { InteractRequest, InteractResponse } from '../model/negotiation/interact.js';
import { connectStore, storeProblem, type StoreConnection } from '../store/redis.js';
import { DEFAULT_SESSION_LIMITS, StoreUnavailableError, reportedAction, reportedOutcome, sessionIdOf, stepOf, type OpenSession, type SessionLimits, type SessionStore } from './sessions.js';

/**
 * KEYS: steps, failures, count. ARGV: idle ms, the reported outcome (JSON, or empty), the action it is
 * about (or empty). The outcome goes on the last step when that was an action (that one, when the
 * report names it) and has none yet.
 */
const OPEN_SCRIPT = `
if ARGV[2] ~= '' then
  local last = redis.call('LINDEX', KEYS[1], -1)
  if last then
    local step = cjson.decode(last)
    if type(step.action) == 'string' and step.outcome == nil and (ARGV[3] == '' or string.sub(step.action, 1, #ARGV[3]) == ARGV[3]) then
      local outcome = cjson.decode(ARGV[2])
      step.outcome = outcome
      redis.call('LSET', KEYS[1], -1, cjson.encode(step))
      if outcome.status == 'failure' then redis.call('HINCRBY', KEYS[2], step.action, 1) end
    end
  end
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return { redis.call('LRANGE', KEYS[1], 0, -1), redis.call('HGETALL', KEYS[2]) }
`;

/**
 * KEYS: steps, failures, count. ARGV: idle ms, the step (JSON), max steps. The count is every step
 * the session ever took (the list keeps the last max steps): what is answered can be counted back.
 */
const RECORD_SCRIPT = `
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
local n = redis.call('INCR', KEYS[3])
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
return n
`;

type Scripted = Redis & {
  pagelensOpen(steps: string, failures: string, count: string, idleMs: number, outcome: string, about: string): Promise<[string[], string[]]>;
  pagelensRecord(steps: string, failures: string, count: string, idleMs: number, step: string, maxSteps: number): Promise<number>;
};

/** The keys of a session; `{id}` is a hash tag, so that both land on one node of a Redis Cluster. */
export function sessionKeys(id: string, prefix = 'pagelens:serve:'): { steps: string; failures: string; count: string } {
  return { steps: `${prefix}{${id}}:steps`, failures: `${prefix}{${id}}:failures`, count: `${prefix}{${id}}:count` };
}

export class RedisSessionStore implements SessionStore {
  readonly limits: SessionLimits;
  private readonly redis: Scripted;

  private constructor(private readonly conn: StoreConnection, limits: Partial<SessionLimits>, private readonly now: () => number) {
    this.limits = { ...DEFAULT_SESSION_LIMITS, ...limits };
    conn.redis.defineCommand('pagelensOpen', { numberOfKeys: 3, lua: OPEN_SCRIPT });
    conn.redis.defineCommand('pagelensRecord', { numberOfKeys: 3, lua: RECORD_SCRIPT });
    this.redis = conn.redis as Scripted;
  }

  /** Connected (a store that cannot be reached at start is said then, not on the first request). */
  static async connect(url: string, limits: Partial<SessionLimits> = {}, now: () => number = Date.now): Promise<RedisSessionStore> {
    return new RedisSessionStore(await connectStore(url, 'pagelens-serve'), limits, now);
  }

  get where(): string {
    return this.conn.shown;
  }

  async open(request: InteractRequest): Promise<OpenSession | null> {
    const id = sessionIdOf(request);
    if (!id) return null;
    const keys = sessionKeys(id);
    const outcome = reportedOutcome(request);
    const [steps, failures] = await this.guard(() => this.redis.pagelensOpen(keys.steps, keys.failures, keys.count, this.limits.ttlMs, outcome ? JSON.stringify(outcome) : '', reportedAction(request) ?? ''));
    const failed = new Map<string, number>();
    for (let i = 0; i + 1 < failures.length; i += 2) failed.set(failures[i], Number(failures[i + 1]));
    return { id, steps: steps.map((s) => JSON.parse(s) as SessionStep), failures: failed };
  }

  async record(s: OpenSession | null, request: InteractRequest, response: InteractResponse): Promise<void> {
    if (!s) return;
    const keys = sessionKeys(s.id);
    const step = stepOf(request, response, this.now());
    await this.guard(() => this.redis.pagelensRecord(keys.steps, keys.failures, keys.count, this.limits.ttlMs, JSON.stringify(step), this.limits.maxSteps));
    s.steps.push(step);
  }

  async close(): Promise<void> {
    await this.conn.close();
  }

  private async guard<T>(run: () => Promise<T>): Promise<T> {
    const down = this.conn.down();
    if (down) throw new StoreUnavailableError(down);
    try {
      return await run();
    } catch (e) {
      throw new StoreUnavailableError(storeProblem(this.conn, e));
    }
  }
}
