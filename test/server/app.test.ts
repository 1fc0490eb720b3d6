// The negotiation backend over real HTTP: every request and response example of the contract
// (seed 001, seed 000 §13) round-trips; bad input is a 400 saying what, oversized bodies 413,
// unknown routes 404, planner failures 502; bearer tokens, CORS and log hygiene; bounded sessions.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Planner, SessionView } from '../../src/agent/planner.js';
import { InteractRequest, InteractResponse, type InteractRequestInput } from '../../src/model/negotiation/interact.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { MemorySessionStore } from '../../src/server/sessions.js';

/** Answers with what the test queued, and keeps what it was asked. */
class ScriptedPlanner implements Planner {
  readonly name = 'scripted';
  readonly seen: Array<{ request: InteractRequest; session: SessionView }> = [];
  queue: unknown[] = [];
  async plan(request: InteractRequest, session: SessionView) {
    this.seen.push({ request, session: { ...session, steps: [...session.steps], failures: new Map(session.failures) } });
    const next = this.queue.shift();
    if (next instanceof Error) throw next;
    return (next ?? { thought: 'nothing queued', action: 'done("nothing queued")' }) as never;
  }
}

const planner = new ScriptedPlanner();
const logs: string[] = [];
let server: RunningServer;
let secured: RunningServer;
before(async () => {
  server = await startServer({ port: 0, planner, noAuth: true, maxBodyBytes: 64 * 1024, log: (l) => logs.push(l) });
  secured = await startServer({ port: 0, planner, token: 's3cret-token', corsOrigin: 'chrome-extension://abcdef', compat: true, log: (l) => logs.push(l) });
});
after(async () => { await server?.close(); await secured?.close(); });

async function post(body: unknown, opts: { base?: string; headers?: Record<string, string>; raw?: string } = {}) {
  const res = await fetch(`${opts.base ?? server.url}/api/agent/interact`, {
    method: 'POST', headers: { 'content-type': 'application/json', ...opts.headers }, body: opts.raw ?? JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() as any };
}

// The contract's own examples (seed 001 §2.1, §2.2; seed 000 §13).
const EXAMPLES: Record<string, InteractRequestInput> = {
  'default semantic_v3 (001 §2.1)': { url: 'https://example.com', query: 'Click the Save button', tabId: 123, domMode: 'semantic_v3', pageTitle: 'Example', viewport: { width: 1280, height: 800 }, interactiveTree: [{ i: '12', r: 'btn', n: 'Save', xy: [900, 40] }] },
  'hybrid retry (001 §2.2)': { url: 'https://example.com', query: 'Click the blue button', tabId: 123, domMode: 'hybrid', pageTitle: 'Example', viewport: { width: 1280, height: 800 }, interactiveTree: [{ i: '12', r: 'btn', n: 'Button', xy: [900, 40], box: [850, 20, 100, 40] }], skeletonDom: '<button data-llm-id="12">Button</button>', screenshot: '/9j/4AAQSkZJRgABAQEASABIAAD', screenshotHash: 'a1b2c3' },
  'V3 semantic with dom (000 §13)': { url: 'https://www.google.com', query: 'Search for SpaceX', dom: '<html>...</html>', domMode: 'semantic_v3', viewport: { width: 1280, height: 800 }, interactiveTree: [{ i: '1', r: 'inp', n: 'Search', v: '', xy: [400, 300] }, { i: '2', r: 'btn', n: 'Google Search', xy: [400, 350] }], pageTitle: 'Google' },
  'V2 semantic (000 §13)': { url: 'https://www.google.com', query: 'Search for SpaceX', dom: '<html>...</html>', domMode: 'semantic', semanticNodes: [{ id: '1', role: 'searchbox', name: 'Search', value: '' }, { id: '2', role: 'button', name: 'Google Search' }], pageTitle: 'Google' },
  'skeleton (000 §13)': { url: 'https://www.google.com', query: 'Search for SpaceX', dom: '<html>...</html>', domMode: 'skeleton', skeletonDom: '<input id="1" name="q" type="text" />\n<button id="2">Google Search</button>' },
  'hybrid (000 §13)': { url: 'https://example.com/dashboard', query: 'Click the gear icon in the top right corner', dom: '<html>...</html>', domMode: 'hybrid', skeletonDom: '<button id="1" aria-label="Settings">⚙️</button>', screenshot: '/9j/4AAQSkZJRgABAQEASABIAAD...', screenshotHash: '1010101010101010' },
  'after an action (000 §13 session fields)': {
    url: 'https://example.com', query: 'Click the Save button', interactiveTree: [], taskId: 't-1', sessionId: 's-1', lastActionStatus: 'failure',
    lastActionError: { message: 'covered', code: 'COVERED', action: 'click(12)', elementId: 12 }, lastActionResult: { success: false, actualState: 'covered' },
    domChanges: { addedCount: 1, removedCount: 0, dropdownDetected: false, stabilizationTime: 300, previousUrl: 'https://example.com', urlChanged: false, didNetworkOccur: false },
    clientObservations: { didNetworkOccur: false, didDomMutate: true, didUrlChange: false },
  },
};
const ANSWERS: unknown[] = [
  { thought: 'Click Save', action: 'click(12)' },
  { status: 'needs_context', requestedDomMode: 'hybrid', needsScreenshot: true, needsSkeletonDom: true, reason: "User asked about the 'blue' button; semantic tree doesn't encode color reliably." },
  { thought: 'Type the query', action: 'setValue(1, "SpaceX")', expected_outcome: { type: 'value_changes' } },
  { thought: 'done', action: 'done("Searched")' },
];

test('every request example of the contract is accepted and every answer comes back as sent', async () => {
  for (const [name, request] of Object.entries(EXAMPLES)) {
    for (const answer of ANSWERS) {
      planner.queue = [answer];
      const r = await post(request);
      assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(InteractResponse.parse(r.body), InteractResponse.parse(answer), name);
      const seen = planner.seen.at(-1)!.request;
      assert.deepEqual(seen, InteractRequest.parse(request), `${name}: the planner got the request as the schema reads it`);
    }
  }
});

test('bad input is a 400 naming what was wrong; sizes, routes and planner failures have their own answers', async () => {
  const base = EXAMPLES['default semantic_v3 (001 §2.1)'];
  const cases: Array<[string, Parameters<typeof post>, number, RegExp]> = [
    ['invalid JSON', [null, { raw: '{"url": ' }], 400, /BAD_INPUT.*(JSON|json)/],
    ['no query', [{ ...base, query: undefined }], 400, /"path":"query"/],
    ['no url', [{ ...base, url: undefined }], 400, /"path":"url"/],
    ['wrong type', [{ ...base, viewport: { width: 'wide', height: 800 } }], 400, /"path":"viewport\.width"/],
    ['unknown domMode', [{ ...base, domMode: 'everything' }], 400, /"path":"domMode"/],
    ['no page state at all', [{ url: 'https://a', query: 'q' }], 400, /"path":"interactiveTree".*page state is required/],
    ['hybrid without screenshot', [{ ...base, domMode: 'hybrid', skeletonDom: '<a/>' }], 400, /"path":"screenshot"/],
    ['too large', [{ ...base, dom: 'x'.repeat(70 * 1024) }], 413, /PAYLOAD_TOO_LARGE/],
  ];
  for (const [name, args, status, pattern] of cases) {
    const r = await post(...args);
    assert.equal(r.status, status, `${name}: ${JSON.stringify(r.body)}`);
    assert.match(JSON.stringify(r.body), pattern, name);
    assert.doesNotMatch(JSON.stringify(r.body), /at .*\.js:\d+/, `${name}: no stack`);
  }
  const missing = await fetch(`${server.url}/api/agent/elsewhere`, { method: 'POST', body: '{}' });
  assert.equal(missing.status, 404);
  planner.queue = [new Error('the model is down')];
  const failed = await post(base);
  assert.equal(failed.status, 502);
  assert.deepEqual(failed.body, { error: 'PLANNER_FAILED', message: 'the model is down' });
  planner.queue = [{ thought: 'oops', action: '' }];
  assert.equal((await post(base)).status, 502, 'an answer off the contract is the planner\'s failure, not the client\'s');
  const health = await fetch(`${server.url}/healthz`);
  assert.deepEqual(await health.json(), { ok: true, planner: 'scripted' });
});

test('bearer token, one CORS origin, compatibility mode, and logs without secrets', async () => {
  const request = { ...EXAMPLES['default semantic_v3 (001 §2.1)'], interactiveTree: [{ i: '9', r: 'inp', n: 'Password', v: '***', xy: [1, 1] }] };
  assert.equal((await post(request, { base: secured.url })).status, 401);
  assert.equal((await post(request, { base: secured.url, headers: { authorization: 'Bearer wrong' } })).status, 401);
  const auth = { authorization: 'Bearer s3cret-token', origin: 'chrome-extension://abcdef' };
  planner.queue = [{ status: 'needs_context', requestedDomMode: 'full', reason: 'an attribute is not in the tree' }];
  const legacy = await post(request, { base: secured.url, headers: auth });
  assert.equal(legacy.status, 200);
  assert.deepEqual(legacy.body, { status: 'needs_full_dom', needsFullDomReason: 'an attribute is not in the tree' }, 'compatibility mode answers in the legacy form');
  assert.equal(legacy.headers.get('access-control-allow-origin'), 'chrome-extension://abcdef');
  const stranger = await fetch(`${secured.url}/api/agent/interact`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
  assert.notEqual(stranger.headers.get('access-control-allow-origin'), 'https://evil.example');
  planner.queue = [{ thought: 'log in', action: 'setValue(9, "hunter2-typed")' }];
  await post({ ...request, domMode: 'hybrid', skeletonDom: '<input type=password>', screenshot: 'SCREENSHOT-BYTES-'.repeat(20), screenshotHash: 'ff' }, { base: secured.url, headers: auth });
  const all = logs.join('\n');
  assert.match(all, /setValue\(9, …\)/, 'the log says what was answered');
  for (const secret of ['hunter2-typed', 'SCREENSHOT-BYTES', 's3cret-token']) assert.ok(!all.includes(secret), `the log leaks ${secret}`);
});

test('sessions keep the history, count failures, stay bounded and expire', async () => {
  planner.queue = [{ thought: 'a', action: 'click(3)' }, { thought: 'b', action: 'click(4)' }];
  const base = { ...EXAMPLES['default semantic_v3 (001 §2.1)'], sessionId: 'sess-hist' };
  await post(base);
  await post({ ...base, lastActionStatus: 'failure', lastActionError: { message: 'covered by a banner', code: 'COVERED', action: 'click(3)' } });
  const view = planner.seen.at(-1)!.session;
  assert.equal(view.id, 'sess-hist');
  assert.deepEqual(view.steps.map((s) => [s.action, s.outcome?.status, s.outcome?.code]), [['click(3)', 'failure', 'COVERED']]);
  assert.equal(view.failures.get('click(3)'), 1, 'what failed is known to the planner');

  let now = 0;
  const store = new MemorySessionStore({ maxSessions: 3, maxSteps: 2, ttlMs: 1000 }, () => now);
  const req = (id: string) => InteractRequest.parse({ ...base, sessionId: id });
  for (const id of ['a', 'b', 'c', 'd']) await store.record(await store.open(req(id)), req(id), { thought: '', action: 'click(1)' });
  assert.equal(store.size, 3, 'the least recently used session went first');
  const s = (await store.open(req('d')))!;
  for (let i = 0; i < 5; i++) await store.record(s, req('d'), { thought: '', action: `click(${i})` });
  assert.equal(s.steps.length, 2, 'steps are capped');
  now = 5000;
  await store.open(req('e'));
  assert.equal(store.size, 1, 'sessions idle past their time are gone');
});
