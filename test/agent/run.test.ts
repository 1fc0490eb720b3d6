// The agent loop against the backend, end to end on real Chromium: semantic first, the backend
// asks for exactly the artifact it needs (skeleton for duplicated labels, hybrid for colours),
// uses it, and the task ends done with its verification passed. Also through a real HTTP server,
// and with the OpenAI-compatible planner against a loopback Chat Completions server.
import { DEMO_TASK } from '../../src/model/tasks/demo.js';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { join } from 'node:path';
import { stepLine } from '../../src/cli/agent.js';
import { appBackend, httpBackend, runAgent } from '../../src/agent/loop.js';
import { HeuristicPlanner } from '../../src/agent/heuristic.js';
import { OpenAIPlanner } from '../../src/agent/openaiPlanner.js';
import { gotoSettled } from '../../src/browser/goto.js';
import { serveFolder } from '../../src/browser/static.js';
import { createApp } from '../../src/server/app.js';
import { startServer } from '../../src/server/serve.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';
import { offlineBackend } from '../support/agent-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const inProcess = offlineBackend;

test('the demo checkout: four steps, each verified, then done; semantic_v3 only', async () => {
  const { lens, page } = await openDemo();
  const run = await runAgent(lens, {
    task: DEMO_TASK,
    backend: inProcess(),
  });
  assert.equal(run.status, 'done', JSON.stringify(run, null, 1));
  assert.equal(run.success, true);
  assert.deepEqual(run.steps.map((s) => ('action' in s.response ? s.response.action.replace(/\d+/, 'N') : '')).slice(0, 4),
    ['setValue(N, "ada@example.com")', 'setValue(N, "12 Analytical Way")', 'select(N, "Standard (3–5 days)")', 'click(N)']);
  assert.ok(run.steps.every((s) => s.mode === 'semantic_v3' && s.negotiated.length === 0), 'nothing heavier was needed');
  assert.ok(run.steps.slice(0, 4).every((s) => s.result?.verification?.success), 'every step verified');
  assert.match(await page.textContent('#confirmation') ?? '', /Thank you! Your order is placed \(Standard \(3–5 days\), to 12 Analytical Way\)/);
});

test('a password typed by the agent reaches the field, and the transcript never repeats it', async () => {
  const { lens, page } = await openDemo();
  const lines: string[] = [];
  const run = await runAgent(lens, { task: 'Type "n3w-s3cret" into Password', backend: inProcess(), onStep: (s) => lines.push(stepLine(s)) });
  assert.equal(run.success, true, JSON.stringify(run, null, 1));
  assert.equal(await page.inputValue('input[type=password]'), 'n3w-s3cret');
  const acted = run.steps.filter((s) => s.result);
  assert.ok(acted.length >= 1);
  for (const s of acted) {
    assert.ok(!JSON.stringify(s.response).includes('n3w-s3cret'), JSON.stringify(s.response));
    assert.ok(!JSON.stringify(s.result).includes('n3w-s3cret'), JSON.stringify(s.result));
  }
  assert.ok(lines.length && lines.every((l) => !l.includes('n3w-s3cret')), lines.join('\n'));
});

/** The built-in demo page (assets/demo.html), served from loopback and opened with a lens. */
async function openDemo() {
  const server = await serveFolder(join(FIXTURES, '../../assets'));
  after(() => server.close());
  const opened = await h.open('todo-app.html');
  await gotoSettled(opened.page, server.url + 'demo.html');
  return opened;
}

test('duplicated labels: the backend asks for the skeleton and clicks the one the task places', async () => {
  const { page, lens } = await h.open('agent-lookalikes.html');
  const run = await runAgent(lens, { task: 'Click Delete in the Shipping address section', backend: inProcess(), maxSteps: 4 });
  assert.equal(run.success, true, JSON.stringify(run, null, 1));
  const first = run.steps[0];
  assert.deepEqual(first.negotiated.map((n) => 'requestedDomMode' in n && n.requestedDomMode), ['skeleton']);
  assert.equal(first.mode, 'skeleton');
  assert.equal(await page.textContent('#out'), 'deleted shipping');
});

test('a region the task names that is not on the page is a refusal, not the other region\'s button', async () => {
  const { page, lens } = await h.open('agent-lookalikes.html');
  // Only the Billing address is left: "Delete in Shipping" must not delete it.
  await page.evaluate(() => document.querySelectorAll('section')[1].remove());
  const run = await runAgent(lens, { task: 'Click Delete in Shipping', backend: inProcess(), maxSteps: 4 });
  assert.equal(run.success, false, JSON.stringify(run.steps.map((s) => s.response)));
  assert.match(run.message ?? '', /no "Shipping" section/, JSON.stringify(run.steps.map((s) => s.response)));
  assert.equal(await page.textContent('#out'), 'nothing yet');
});

test('same-named look-alikes: the button of the form the task fills in, not the navigation link', async () => {
  const { page, lens } = await h.open('agent-login.html');
  const run = await runAgent(lens, { task: 'Type "ada" into Brugernavn, type "hemmelig" into Adgangskode, then click Log ind', backend: inProcess(), maxSteps: 8 });
  assert.equal(await page.textContent('#out'), 'logged in as ada', JSON.stringify(run.steps.map((s) => s.response)));
  assert.equal(run.success, true);
});

test('colour words: the backend asks for the screenshot and reads the pixels in each box', async () => {
  for (const [colour, expected] of [['green', 'chose green'], ['red', 'chose red'], ['blue', 'chose blue']]) {
    const { page, lens } = await h.open('agent-lookalikes.html');
    const run = await runAgent(lens, { task: `Click the ${colour} Choose button`, backend: inProcess(), maxSteps: 4 });
    assert.equal(run.success, true, JSON.stringify(run.steps.map((s) => s.response)));
    assert.equal(run.steps[0].mode, 'hybrid');
    assert.ok(run.steps[0].imageBytes > 1000, 'a JPEG went out');
    assert.equal(await page.textContent('#out'), expected, colour);
  }
});

test('through a real HTTP server and the CLI: the transcript, and a failing task exits non-zero', async () => {
  const server = await startServer({ port: 0, planner: new HeuristicPlanner(), noAuth: true });
  try {
    const { page, lens } = await h.open('agent-lookalikes.html');
    const run = await runAgent(lens, { task: 'Click Delete in the Billing address section', backend: httpBackend(server.url), maxSteps: 4 });
    assert.equal(run.success, true);
    assert.equal(await page.textContent('#out'), 'deleted billing');
    const file = join(FIXTURES, 'agent-lookalikes.html');
    const cli = await runCli(['agent', 'Click the Pro Choose button', '--url', file, '--backend', server.url, '--json', '--max-steps', '4']);
    assert.equal(cli.code, 0, cli.stderr);
    const transcript = JSON.parse(cli.stdout);
    assert.equal(transcript.status, 'done');
    assert.match(cli.stderr, /^step 1 {2}http:\/\/127\.0\.0\.1:\d+\/agent-lookalikes\.html {2}semantic_v3 {2}\d+ tok {2}click\(\d+\) {2}→ verified$/m);
    const impossible = await runCli(['agent', 'Type "x" into the fax number field', '--url', file, '--backend', server.url, '--max-steps', '3']);
    assert.notEqual(impossible.code, 0);
    assert.match(impossible.stderr, /Could not Type "x" into the fax number field: nothing on the page fits it|NOT verified/);
  } finally {
    await server.close();
  }
});

test('the OpenAI-compatible planner: the protocol over loopback, an invalid answer retried once', async () => {
  const answers = [
    'not json at all',
    JSON.stringify({ thought: 'Delete the shipping address', action: 'click(2)', expected_outcome: { type: 'any_change' } }),
    JSON.stringify({ thought: 'finished', action: 'done("deleted it")' }),
  ];
  const seen: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];
  const llm = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const parsed = JSON.parse(body);
    seen.push(parsed);
    assert.equal(req.headers.authorization, 'Bearer test-key');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: answers.shift() ?? '{}' }, finish_reason: 'stop' }] }));
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  try {
    const planner = new OpenAIPlanner({ baseUrl: `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`, apiKey: 'test-key', model: 'test-model' });
    const { page, lens } = await h.open('agent-lookalikes.html');
    const run = await runAgent(lens, { task: 'Delete the shipping address', backend: appBackend(createApp({ planner })), maxSteps: 3 });
    assert.equal(run.status, 'done', JSON.stringify(run, null, 1));
    assert.equal(run.message, 'deleted it');
    assert.equal(await page.textContent('#out'), 'deleted shipping');
    assert.equal(seen.length, 3, 'two requests for the first step (one retry), one for the second');
    assert.equal(seen[0].model, 'test-model');
    assert.match(seen[0].messages[0].content, /LEGEND for interactive_tree/);
    assert.match(seen[1].messages.at(-1)!.content, /not valid/);
    assert.match(seen[2].messages[1].content, /"history":\[\{"action":"click\(2\)","outcome":"success"/);
  } finally {
    await new Promise((r) => llm.close(r));
  }
  assert.throws(() => new OpenAIPlanner(null), /needs an endpoint: set OPENAI_BASE_URL/);
});
