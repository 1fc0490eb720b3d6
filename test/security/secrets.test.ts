// Issue 20, "secrets never leave": one secret-field rule (src/model/safety/secrets.ts) in every mode and
// on every face. A field is secret when it is a password or when its autofill tokens name a
// credential or card secret (current-password, new-password, one-time-code, cc-number, cc-csc,
// cc-exp…); its value never appears, neither as its own value (Chrome's AX tree included) nor
// inside another element's accessible name (aria-labelledby pointing at it). The transcripts of
// agent runs (CDP loop and extension) keep no value a secret field hid, not even in later thoughts.
// A password field read-only until focused (an anti-autofill pattern) is focused, then typed
// into; and a value meant for a secret field that refuses it is typed into no other field.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { runAgent, type Backend } from '../../src/agent/loop.js';
import { isSecretAutocomplete, isSecretFieldFacts } from '../../src/model/safety/secrets.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { launchWithExtension, openTab, type ExtensionBrowser } from '../support/extension-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';
import { offlineBackend } from '../support/agent-helpers.js';

let h: Harness;
let extension: ExtensionBrowser | undefined;
before(async () => { h = await startHarness(); });
after(async () => { await extension?.close(); await h?.close(); });

/** One Chromium with the extension for the tests that need it, launched on first use. */
async function ext(): Promise<ExtensionBrowser> {
  extension ??= await launchWithExtension('pagelens-sec-');
  return extension;
}

/** Values the fixture's secret fields hold (in markup, or typed by the test). */
const SECRETS = ['PWvalue1111', 'CURvalue2222', 'NEWvalue3333', 'OTP444444', '4111555566667777', 'CSC987', 'EXP1299', 'EXPM0707', '5500CARD0000', 'LABELLEDBY7777', 'TYPEDotp9090', 'AREA5555'];

function leaks(label: string, output: unknown): void {
  const text = typeof output === 'string' ? output : JSON.stringify(output);
  const found = SECRETS.filter((s) => text.includes(s));
  assert.deepEqual(found, [], `${label} shows secret values: ${found.join(', ')}`);
}

test('the rule: password inputs and autofill secret tokens, any case, among other tokens; names and addresses stay readable', () => {
  for (const token of ['current-password', 'new-password', 'one-time-code', 'cc-number', 'cc-csc', 'cc-exp', 'cc-exp-month', 'cc-exp-year']) {
    assert.ok(isSecretAutocomplete(token), token);
    assert.ok(isSecretAutocomplete(`section-pay billing ${token.toUpperCase()}`), `${token} among other tokens`);
  }
  for (const open of ['cc-name', 'email', 'username', 'street-address', 'off', 'x-cc-number', '']) assert.ok(!isSecretAutocomplete(open), open);
  assert.ok(isSecretFieldFacts({ tag: 'input', type: 'PASSWORD' }));
  assert.ok(isSecretFieldFacts({ tag: 'TEXTAREA', autocomplete: 'one-time-code' }));
  assert.ok(!isSecretFieldFacts({ tag: 'div', autocomplete: 'cc-number' }));
});

test('every mode of the CDP lens masks autocomplete secret fields and every name that embeds one', async () => {
  const { page, lens } = await h.open('security-secrets.html');
  await page.fill('#otp2', 'TYPEDotp9090');
  for (const mode of ['semantic_v3', 'semantic', 'skeleton', 'full', 'hybrid'] as const) leaks(mode, await lens.snapshot({ mode }));
  leaks('text', await lens.text());
  const ax = await lens.axtree();
  leaks('axtree', ax);
  // The fields are still there, shown as redacted, and so is the name that pointed at one.
  assert.match(ax.outline, /textbox: Code = "\*\*\*"/);
  assert.match(ax.outline, /textbox: Card = "\*\*\*"/);
  assert.match(ax.outline, /button: Send code \*\*\*/);
  leaks('dom_overview', await lens.overview());
  leaks('regions', await lens.regions());
  leaks('expandRegion', await lens.expandRegion('R0'));
  leaks('search', await lens.search('card'));
  leaks('elementContext', await lens.elementContext('#confirm'));
  leaks('observe', await lens.observe('click confirm'));
  leaks('extract', await lens.extract('the form values'));
  leaks('query', await lens.snapshot({ query: 'confirm the code' }));
  const v3 = await lens.snapshot();
  const confirm = v3.interactive_tree.find((n) => n.n.startsWith('Send code'));
  assert.equal(confirm?.n, 'Send code ***', 'the labelled-by name keeps its shape, the value is masked');
});

test('the extension masks the same fields in every mode it produces', async () => {
  const { worker } = await ext();
  const { page, tabId } = await openTab(await ext(), h.originA + 'security-secrets.html');
  await page.fill('#otp2', 'TYPEDotp9090');
  for (const mode of ['semantic_v3', 'skeleton', 'full', 'hybrid']) {
    leaks(`extension ${mode}`, await worker.evaluate(([id, m]) => (self as any).pagelens.snapshot(id, { mode: m }), [tabId, mode] as const));
  }
  await page.close();
});

/** A planner that types a one-time code into the field named Code, then says done repeating it in its thought. */
function otpPlanner(ids: () => string | undefined) {
  let step = 0;
  return (): unknown => {
    step++;
    return step === 1
      ? { thought: 'The code is TYPEDotp9090, typing it', action: `setValue(${ids()}, "TYPEDotp9090")` }
      : { thought: 'Typed TYPEDotp9090 into the code field', action: 'done("entered TYPEDotp9090")' };
  };
}

test('the CDP agent loop: a value a secret field hid stays out of that thought, every later thought and the final message', async () => {
  const { page, lens } = await h.open('security-secrets.html');
  let codeId: string | undefined;
  const answer = otpPlanner(() => codeId);
  const backend: Backend = {
    async interact(request) {
      codeId ??= (request.interactiveTree as SemanticV3Result['interactive_tree']).find((n) => n.n === 'Code (typed)')?.i;
      return answer();
    },
  };
  const run = await runAgent(lens, { task: 'enter the code', backend });
  assert.equal(run.status, 'done', run.message);
  assert.equal(await page.inputValue('#otp2'), 'TYPEDotp9090', 'the code reached the field');
  leaks('the CDP run', run);
});

test('the extension agent: the planner\'s thought is redacted like the CLI loop\'s', async () => {
  let codeId: string | undefined;
  const answer = otpPlanner(() => codeId);
  const fake = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const request = JSON.parse(body);
      codeId ??= (request.interactiveTree as Array<{ i: string; n: string }>).find((n) => n.n === 'Code (typed)')?.i;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer()));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  try {
    const { page, tabId } = await openTab(await ext(), h.originA + 'security-secrets.html');
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const run = await (await ext()).worker.evaluate(([id, u]) => (self as any).pagelens.runTask(id, 'enter the code', { backend: u }), [tabId, url] as const) as { status: string; message: string };
    assert.equal(run.status, 'done', run.message);
    assert.equal(await page.inputValue('#otp2'), 'TYPEDotp9090', 'the code reached the field');
    leaks('the extension run', run);
    await page.close();
  } finally {
    await new Promise<void>((r) => fake.close(() => r()));
  }
});

const offlineAgent = offlineBackend;
const LOGIN_TASK = 'Type "hunter2-pw" into Password, then click Sign in';

test('a password field read-only until focused is focused, then typed into: by the act pipeline and by the offline agent', async () => {
  const { page, lens } = await h.open('security-readonly-login.html');
  const pass = (await lens.snapshot()).interactive_tree.find((n) => n.n === 'Password')!;
  const typed = await lens.act({ type: 'setValue', id: pass.i, value: 'direct-pw' });
  assert.equal(typed.ok, true, JSON.stringify(typed.error));
  assert.equal(await page.inputValue('#pass'), 'direct-pw');
  assert.ok(!JSON.stringify(typed).includes('direct-pw'), JSON.stringify(typed));

  const fresh = await h.open('security-readonly-login.html');
  const run = await runAgent(fresh.lens, { task: LOGIN_TASK, backend: offlineAgent(), maxSteps: 6 });
  assert.equal(run.status, 'done', run.message);
  assert.equal(await fresh.page.inputValue('#pass'), 'hunter2-pw');
  assert.equal(await fresh.page.inputValue('#user'), '', 'nothing went into Username');
  assert.equal(await fresh.page.textContent('#result'), 'posted user= pass-length=10');
});

test('a value meant for a secret field that refuses it goes into no other field: the offline agent stops and says why', async () => {
  const { page, lens } = await h.open('security-readonly-login.html#stuck');
  const run = await runAgent(lens, { task: LOGIN_TASK, backend: offlineAgent(), maxSteps: 6 });
  assert.equal(run.status, 'failed', JSON.stringify(run.steps.map((s) => 'action' in s.response && s.response.action)));
  assert.match(run.message, /secret field refused it: .*read-only, and stays so after taking focus; it was not typed anywhere else/);
  assert.ok(!run.message.includes('hunter2-pw'), run.message);
  for (const s of run.steps) if ('thought' in s.response) assert.ok(!s.response.thought.includes('hunter2-pw'), s.response.thought);
  assert.equal(await page.inputValue('#user'), '', 'the password did not go into Username');
  assert.equal(await page.textContent('#result'), '', 'the form was not submitted');
  assert.ok(run.steps.every((s) => !('action' in s.response) || !/^click/.test(s.response.action)), 'Sign in was not clicked');
});

test('the extension focuses a read-only-until-focus password field, then types into it', async () => {
  const { page, tabId } = await openTab(await ext(), h.originA + 'security-readonly-login.html');
  const { worker } = await ext();
  const snap = await worker.evaluate((id) => (self as any).pagelens.snapshot(id, {}), tabId) as SemanticV3Result;
  const pass = snap.interactive_tree.find((n) => n.n === 'Password')!;
  const result = await worker.evaluate(([id, a]) => (self as any).pagelens.act(id, a), [tabId, `setValue(${pass.i}, "ext-pw-1")`] as const) as { ok: boolean; action: string; error?: unknown };
  assert.equal(result.ok, true, JSON.stringify(result.error));
  assert.equal(await page.inputValue('#pass'), 'ext-pw-1');
  assert.ok(!JSON.stringify(result).includes('ext-pw-1'), JSON.stringify(result));
  await page.close();
});
