// `pagelens agent` against real conditions: a backend that is down or refuses the token is found
// out before a browser starts; a submit that lands on a page with no controls is a page like any
// other (the contract takes its empty tree and empty skeleton); `--json` prints a result whatever
// happens, an error included.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runAgent } from '../../src/agent/loop.js';
import { HeuristicPlanner } from '../../src/agent/heuristic.js';
import { InteractRequest } from '../../src/model/negotiation/interact.js';
import { startServer } from '../../src/server/serve.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';
import { offlineBackend } from '../support/agent-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

// A Chromium that cannot start: a command that reached the browser would fail with NO_BROWSER.
const NO_BROWSER_ENV = { PAGELENS_CHROMIUM: '/nonexistent/chromium', PAGELENS_DEBUG: '' };
const FORM = join(FIXTURES, 'agent-form-empty.html');
// The third step names a control the "thank you" page does not have.
const TASK = 'Type "ada@example.com" into Email, then click Subscribe, then click Unsubscribe';

/** A loopback port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('an empty skeleton is a page state the contract accepts (a page with no controls)', () => {
  const empty = { url: 'http://127.0.0.1/done.html', query: 'Click Unsubscribe', interactiveTree: [] };
  assert.equal(InteractRequest.safeParse(empty).success, true);
  const skeleton = InteractRequest.safeParse({ ...empty, domMode: 'skeleton', skeletonDom: '' });
  assert.equal(skeleton.success, true, JSON.stringify(skeleton.error?.issues));
  // Leaving the artifact out is still refused.
  assert.equal(InteractRequest.safeParse({ ...empty, domMode: 'skeleton' }).success, false);
});

test('a submit that lands on a page with no controls: the run goes on there and ends with the reason', async () => {
  const { lens, page } = await h.open('agent-form-empty.html');
  const run = await runAgent(lens, { task: TASK, backend: offlineBackend(), maxSteps: 8 });
  assert.match(page.url(), /agent-form-empty-done\.html\?email=ada%40example\.com$/);
  assert.equal(run.status, 'failed', JSON.stringify(run, null, 1));
  assert.equal(run.success, false);
  assert.match(run.message, /Unsubscribe/);
  const onEmpty = run.steps.filter((s) => /agent-form-empty-done\.html/.test(s.url));
  assert.ok(onEmpty.length >= 1, 'steps were taken on the page without controls');
  // The skeleton the backend asked for was sent, empty, and accepted.
  assert.ok(onEmpty.some((s) => s.negotiated.some((n) => 'requestedDomMode' in n && n.requestedDomMode === 'skeleton') && s.mode === 'skeleton'), JSON.stringify(onEmpty, null, 1));
});

test('pagelens agent --json on the same form prints the transcript and exits 1', { timeout: 90_000 }, async () => {
  const r = await runCli(['agent', TASK, '--url', FORM, '--json', '--max-steps', '8']);
  assert.equal(r.code, 1, r.stderr);
  const run = JSON.parse(r.stdout);
  assert.equal(run.status, 'failed');
  assert.equal(run.success, false);
  assert.ok(run.steps.length >= 3);
  assert.match(r.stderr, /^pagelens agent: failed — .*Unsubscribe/m);
});

test('--backend that is down: refused before any browser starts, and --json still prints a result', { timeout: 60_000 }, async () => {
  const backend = `http://127.0.0.1:${await closedPort()}`;
  const r = await runCli(['agent', 'Click Subscribe', '--url', FORM, '--backend', backend, '--json'], { env: NO_BROWSER_ENV });
  assert.equal(r.code, 1);
  assert.match(r.stderr, new RegExp(`^pagelens: BACKEND_ERROR: the backend at ${backend} could not be reached \\(ECONNREFUSED\\)`, 'm'));
  assert.doesNotMatch(r.stderr, /NO_BROWSER/);
  const result = JSON.parse(r.stdout);
  assert.equal(result.status, 'error');
  assert.equal(result.success, false);
  assert.equal(result.error.code, 'BACKEND_ERROR');
  assert.deepEqual(result.steps, []);
});

test('--backend with a wrong or missing token: refused before any browser starts; the right token gets through', { timeout: 60_000 }, async () => {
  const server = await startServer({ port: 0, planner: new HeuristicPlanner(), token: 's3cret-token' });
  try {
    const agent = (...extra: string[]) => runCli(['agent', 'Click Subscribe', '--url', FORM, '--backend', server.url, ...extra], { env: NO_BROWSER_ENV });
    const wrong = await agent('--token', 'not-it');
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^pagelens: BACKEND_ERROR: the backend at .* refused the token \(invalid bearer token\): check --token\.$/m);
    assert.doesNotMatch(wrong.stderr, /not-it|s3cret/, 'no token is repeated');
    const missing = await agent('--json');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^pagelens: BACKEND_ERROR: the backend at .* requires a token .*: give it with --token\.$/m);
    assert.equal(JSON.parse(missing.stdout).error.code, 'BACKEND_ERROR');
    // With the right token the probe passes and the command goes on to start the browser (which cannot start here).
    const right = await agent('--token', 's3cret-token');
    assert.equal(right.code, 1);
    assert.match(right.stderr, /^pagelens: NO_BROWSER: /m);
  } finally {
    await server.close();
  }
});

test('--backend that is not a pagelens backend: said so, before any browser starts', { timeout: 60_000 }, async () => {
  // The fixtures' own static server answers 404 on /healthz.
  const r = await runCli(['agent', 'Click Subscribe', '--url', FORM, '--backend', h.originA], { env: NO_BROWSER_ENV });
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^pagelens: BACKEND_ERROR: .* does not answer as a pagelens backend: GET .*\/healthz answered 404/m);
});
