// `pagelens serve` replicas sharing their sessions, with the real parts: Debian's redis-server and
// haproxy on loopback ports, two `pagelens serve --store` processes behind the balancer. One
// negotiation alternating replicas keeps one history; replicas racing on a session lose no step;
// a replica killed mid-session leaves the session to the other; Redis stopped is a 503 with the
// reason, and the session resumes where it was once Redis is back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { fleetMissing, startHaproxy, startRedis, startReplica, type Balancer, type RedisServer, type Replica } from '../../bench/fleet.js';
import { sessionKeys } from '../../src/server/redisSessions.js';

const missing = fleetMissing();
if (missing) process.stdout.write(`# scale-serve skipped: ${missing}\n`);

const TOKEN = 'scale-test-token';
const TREE = [{ i: '1', r: 'inp', n: 'Name', v: '', xy: [100, 100] }, { i: '2', r: 'btn', n: 'Save', xy: [100, 200] }];
const TWO_STEPS = 'Type "Ada" into Name, then click Save';

async function interact(base: string, body: Record<string, unknown>) {
  const res = await fetch(`${base}/api/agent/interact`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: JSON.stringify({ url: 'http://shop.test/', interactiveTree: TREE, ...body }) });
  return { status: res.status, replica: res.headers.get('pagelens-replica'), body: await res.json() as Record<string, any> };
}

describe('serve replicas sharing sessions in Redis behind HAProxy', { skip: missing }, () => {
  let redis: RedisServer;
  let a: Replica;
  let b: Replica;
  let lb: Balancer;
  let peek: Redis;
  const history = async (id: string) => (await peek.lrange(sessionKeys(id).steps, 0, -1)).map((s) => JSON.parse(s));

  before(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([startReplica('A', redis.url, TOKEN), startReplica('B', redis.url, TOKEN)]);
    lb = await startHaproxy([a, b]);
    peek = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await peek.connect();
  });
  after(async () => {
    peek?.disconnect();
    await lb?.close();
    await a?.kill();
    await b?.kill();
    await redis?.close();
  });

  test('a negotiation whose requests alternate replicas keeps one history', async () => {
    const asked = await interact(lb.url, { query: 'Click the Zebra link', sessionId: 'nego-1' });
    assert.equal(asked.body.status, 'needs_context', JSON.stringify(asked.body));
    const answered = await interact(lb.url, { query: 'Click the Zebra link', sessionId: 'nego-1', domMode: 'skeleton', skeletonDom: '<input id="1" name="Name"><button id="2">Save</button>' });
    assert.notEqual(answered.replica, asked.replica, 'round robin: the answer went to the other replica');
    assert.ok(answered.body.action, JSON.stringify(answered.body));
    assert.deepEqual((await history('nego-1')).map((s) => s.requested ?? s.action), ['skeleton', answered.body.action], 'the request for context asked on one replica and its answer on the other are one history');

    // Step 2 is only known to come next from the history: the page still shows Name empty.
    const first = await interact(lb.url, { query: TWO_STEPS, sessionId: 'nego-2' });
    const second = await interact(lb.url, { query: TWO_STEPS, sessionId: 'nego-2', lastActionStatus: 'success' });
    assert.notEqual(first.replica, second.replica);
    assert.match(first.body.thought, /^Step 1\/2/);
    assert.match(second.body.thought, /^Step 2\/2/, `the second replica carries on from the first one's step: ${second.body.thought}`);
    assert.equal((await history('nego-2'))[0].outcome?.status, 'success', 'the outcome reported to B is on the step A answered');
  });

  test('two replicas racing on one session lose no step and repeat none', async () => {
    const N = 24;
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => interact(i % 2 ? a.url : b.url, { query: 'Click Save', sessionId: 'race' })));
    assert.deepEqual(answers.map((r) => r.status), Array(N).fill(200));
    assert.equal((await history('race')).length, N, 'every answered step is in the session');
    // A failure reported to A, and the client's retry of that report on B, count once.
    const acted = await interact(a.url, { query: 'Click Save', sessionId: 'race-fail' });
    assert.equal(acted.body.action, 'click(2)');
    const report = { query: 'Click Save', sessionId: 'race-fail', lastActionStatus: 'failure', lastActionError: { message: 'covered', code: 'COVERED', action: 'click(2)' } };
    for (const u of [a.url, b.url]) assert.equal((await interact(u, report)).status, 200);
    assert.deepEqual(await peek.hgetall(sessionKeys('race-fail').failures), { 'click(2)': '1' });
    assert.deepEqual((await history('race-fail')).map((s) => s.outcome?.status), ['failure', undefined, undefined], 'the retried report is not taken for a report on the step answered since');
  });

  test('a replica killed mid-session: the session continues on the other', async () => {
    const first = await interact(lb.url, { query: TWO_STEPS, sessionId: 'survivor' });
    assert.match(first.body.thought, /^Step 1\/2/);
    const victim = first.replica === 'A' ? a : b;
    await victim.kill();
    const next = await interact(lb.url, { query: TWO_STEPS, sessionId: 'survivor', lastActionStatus: 'success' });
    assert.equal(next.status, 200, JSON.stringify(next.body));
    assert.notEqual(next.replica, victim.name);
    assert.match(next.body.thought, /^Step 2\/2/, 'the surviving replica knows step 1 was done');
  });

  test('Redis stopped: 503 with the reason; the session resumes once Redis is back', async () => {
    const first = await interact(lb.url, { query: TWO_STEPS, sessionId: 'outage' });
    assert.match(first.body.thought, /^Step 1\/2/);
    await redis.stop();
    const down = await interact(lb.url, { query: TWO_STEPS, sessionId: 'outage', lastActionStatus: 'success' });
    assert.equal(down.status, 503);
    assert.equal(down.body.error, 'STORE_UNAVAILABLE');
    assert.match(down.body.message, /session store at redis:\/\/127\.0\.0\.1:\d+\/0/);
    assert.match(down.body.message, /unchanged: retry/);
    await redis.start();
    // The replica reconnects by itself (within a second): the client's retry is answered then.
    let back = down;
    for (let i = 0; i < 100 && back.status === 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await interact(lb.url, { query: TWO_STEPS, sessionId: 'outage', lastActionStatus: 'success' });
    }
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.match(back.body.thought, /^Step 2\/2/, 'the history from before the outage is there');
    await peek.ping();
    assert.equal((await history('outage')).length, 2, 'no step lost, none forked');
  });
});
