// The scale-out part of `npm run bench:load`: N `pagelens serve` replicas (1, 2, 4) sharing their
// sessions in Redis behind HAProxy, under the same load (sessions × connections × seconds), and
// one run in which a replica is killed halfway. What each costs: req/s, latency p50/p99, errors;
// for the kill, the requests that failed and the steps lost (answered 2xx but not in the session's
// history: the goal is 0), counted against Redis itself.
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import { fleetMissing, startHaproxy, startRedis, startReplica, type Replica } from './fleet.js';
import { sessionKeys } from '../src/server/redisSessions.js';

export interface ScaleOutRun {
  replicas: number;
  /** A replica was SIGKILLed halfway through the run. */
  killed: boolean;
  requests: number;
  requestsPerS: number;
  latencyMs: { p50: number; p99: number };
  /** Connection errors and timeouts at the client, and non-2xx answers (HAProxy's 502 for a request cut by the kill). */
  errors: number;
  non2xx: number;
  /** Per session, steps answered 2xx beyond those its history counts: lost (the goal is 0). */
  lostSteps: number;
  /** Steps recorded whose answer the client did not count: in flight when the run ended, or cut by the kill (a client retries them). */
  unansweredSteps: number;
}

export interface ScaleOutOptions { connections: number; sessions: number; duration: number; replicas: number[] }

const TOKEN = 'bench-scale-out';

async function oneRun(base: Record<string, unknown>, n: number, kill: boolean, opts: ScaleOutOptions): Promise<ScaleOutRun> {
  const redis = await startRedis();
  const replicas: Replica[] = [];
  try {
    replicas.push(...await Promise.all(Array.from({ length: n }, (_, i) => startReplica(`r${i + 1}`, redis.url, TOKEN))));
    const lb = await startHaproxy(replicas);
    try {
      let i = 0;
      const run = `run${n}${kill ? 'k' : ''}`;
      const template = JSON.stringify({ ...base, sessionId: '' });
      const head = template.slice(0, template.length - 2);
      // Which session each connection's request was for, so its 2xx answers count per session.
      const answered = new Map<number, number>();
      const timer = kill ? setTimeout(() => void replicas[0].kill(), opts.duration * 500) : undefined;
      const r = await autocannon({
        url: `${lb.url}/api/agent/interact`, connections: opts.connections, duration: opts.duration, timeout: 10,
        requests: [{ method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, setupRequest: (req, context) => {
            context.session = i++ % opts.sessions;
            return { ...req, body: `${head}${run}-${context.session as number}"}` };
          },
          onResponse: (status, _body, context) => {
            if (status >= 200 && status < 300) answered.set(context.session as number, (answered.get(context.session as number) ?? 0) + 1);
          },
        }],
      });
      clearTimeout(timer);
      const peek = new Redis(redis.url);
      let lostSteps = 0;
      let unansweredSteps = 0;
      for (let s = 0; s < opts.sessions; s++) {
        const recorded = Number(await peek.get(sessionKeys(`${run}-${s}`).count) ?? 0);
        const got = answered.get(s) ?? 0;
        lostSteps += Math.max(0, got - recorded);
        unansweredSteps += Math.max(0, recorded - got);
      }
      peek.disconnect();
      return {
        replicas: n, killed: kill, requests: r.requests.total ?? r['2xx'] + r.non2xx, requestsPerS: Math.round(r.requests.average),
        latencyMs: { p50: r.latency.p50, p99: r.latency.p99 }, errors: r.errors + r.timeouts, non2xx: r.non2xx,
        lostSteps, unansweredSteps,
      };
    } finally {
      await lb.close();
    }
  } finally {
    for (const rep of replicas) await rep.kill();
    await redis.close();
  }
}

/** Every replica count, then the largest one with a replica killed halfway; skipped (with why) without redis-server and haproxy. */
export async function runScaleOut(base: Record<string, unknown>, opts: ScaleOutOptions): Promise<{ skipped: string } | ScaleOutRun[]> {
  const missing = fleetMissing();
  if (missing) return { skipped: missing };
  const runs: ScaleOutRun[] = [];
  for (const n of opts.replicas) runs.push(await oneRun(base, n, false, opts));
  const most = Math.max(...opts.replicas);
  if (most >= 2) runs.push(await oneRun(base, most, true, opts));
  return runs;
}

export function renderScaleOut(runs: ScaleOutRun[], opts: ScaleOutOptions): string {
  const lines = [
    `scale-out: serve replicas behind HAProxy, sessions in Redis; ${opts.sessions} sessions over ${opts.connections} connections for ${opts.duration} s each`,
    '| replicas | req/s | p50 ms | p99 ms | errors | non-2xx | lost steps | recorded, not received |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map((r) => `| ${r.replicas}${r.killed ? ' (one killed halfway)' : ''} | ${r.requestsPerS} | ${r.latencyMs.p50} | ${r.latencyMs.p99} | ${r.errors} | ${r.non2xx} | ${r.lostSteps} | ${r.unansweredSteps} |`),
  ];
  return lines.join('\n');
}
