// How the offline planner reads common task wordings (the ones MiniWoB++ task pages use, on the
// project's own markup): a list of choices is a choice each, two fields with their own values are
// two steps, "both fields" is two targets, "in lower case" shapes the value, the "x" of a dialog is
// its Close button. Each ends in the state the page reports, not just in `done`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runAgent } from '../../src/agent/loop.js';
import { startHarness, type Harness } from '../support/harness.js';
import { offlineBackend, stepsSaid } from '../support/agent-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const inProcess = offlineBackend;
/** The actions the agent took and whether each was carried out, for the assertion messages. */
const said = stepsSaid;

test('a list of choices: every one is ticked before the task moves on', async () => {
  const { page, lens } = await h.open('agent-checklist.html');
  const run = await runAgent(lens, { task: 'Select Apples, Plums, Figs and click Submit.', backend: inProcess(), maxSteps: 8 });
  assert.equal(await page.textContent('#out'), 'Apples,Plums,Figs', said(run));
  // Submitted once, after the three choices: not as the end of the choosing step, then again as its own.
  assert.equal(await page.textContent('#count'), '1', said(run));
  assert.equal(run.success, true, said(run));
});

test('a list that asks for nothing ticks nothing and goes on', async () => {
  const { page, lens } = await h.open('agent-checklist.html');
  const run = await runAgent(lens, { task: 'Select nothing and click Submit.', backend: inProcess(), maxSteps: 4 });
  assert.equal(await page.textContent('#out'), 'none ticked', said(run));
  assert.equal(run.success, true, said(run));
});

test('two fields each named with its own value: each value in its own field, never the username in the password field', async () => {
  const { page, lens } = await h.open('agent-signin-pair.html');
  const run = await runAgent(lens, { task: 'Enter the username "ada" and the password "tr0ub4dor" into the text fields and press login.', backend: inProcess(), maxSteps: 6 });
  assert.equal(await page.textContent('#out'), 'user "ada", password of 9 characters (right)', said(run));
  assert.equal(run.success, true);
  assert.ok(!said(run).includes('tr0ub4dor') && !JSON.stringify(run.steps.map((s) => s.response)).includes('tr0ub4dor'), 'the password is never repeated');
});

test('"into both fields": the value goes into each of the two, then the task goes on', async () => {
  const { page, lens } = await h.open('agent-twofields.html');
  const run = await runAgent(lens, { task: 'Enter the password "M8x" into both text fields and press submit.', backend: inProcess(), maxSteps: 6 });
  assert.equal(await page.textContent('#out'), 'passwords match; code ""', said(run));
  assert.equal(run.success, true);
});

test('"in all lower case letters" is how the value is written', async () => {
  const { page, lens } = await h.open('agent-twofields.html');
  const run = await runAgent(lens, { task: 'Type "KENDA" in all lower case letters in the Code input and press Submit.', backend: inProcess(), maxSteps: 6 });
  assert.equal(await page.textContent('#out'), 'no password; code "kenda"', said(run));
  assert.equal(run.success, true);
});

test('the "x" of a dialog is its Close button, whichever way the task says it', async () => {
  for (const task of ['Close the dialog box by clicking the "x".', 'Click the button in the dialog box labeled "x".']) {
    const { page, lens } = await h.open('agent-dialog.html');
    const run = await runAgent(lens, { task, backend: inProcess(), maxSteps: 4 });
    assert.equal(await page.textContent('#out'), 'closed with the x', `${task}: ${said(run)}`);
    assert.equal(run.success, true);
  }
});

test('a target named only by its kind ("the text field") is the one element of that kind, named or not', async () => {
  const { page, lens } = await h.open('agent-kindonly.html');
  const run = await runAgent(lens, { task: 'Enter "Michel" into the text field and press Submit.', backend: inProcess(), maxSteps: 6 });
  assert.equal(await page.textContent('#out'), 'Michel', said(run));
  assert.equal(run.success, true, said(run));
});

test('an option chosen "from the list": the one list, whether the option must be chosen or is already shown', async () => {
  for (const [fruit, steps] of [['Figs', 6], ['Plums', 4]] as const) {
    const { page, lens } = await h.open('agent-list.html');
    const run = await runAgent(lens, { task: `Select ${fruit} from the list and click Submit.`, backend: inProcess(), maxSteps: steps });
    assert.equal(await page.textContent('#out'), fruit, `${fruit}: ${said(run)}`);
    assert.equal(run.success, true, said(run));
  }
});
