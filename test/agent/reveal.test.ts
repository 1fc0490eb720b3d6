// What the offline planner does when the target is not simply in view (issue 23, on the project's
// own markup): it opens closed tabs and tree folders one by one and looks again; it takes a quoted
// name verbatim; it fills a value given by a constraint from the field's suggestions and hands it
// in; it presses a covered button with the keyboard. Each ends in the state the page reports.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runAgent } from '../../src/agent/loop.js';
import { startHarness, type Harness } from '../support/harness.js';
import { offlineBackend, stepsSaid } from '../support/agent-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const inProcess = offlineBackend;
const said = stepsSaid;

test('a link in a hidden tab panel: the tabs are opened one by one until the exact name is in view', async () => {
  const { page, lens } = await h.open('agent-tabs.html');
  const run = await runAgent(lens, { task: 'Switch between the tabs to find and click on the link "Quarterly report.".', backend: inProcess(), maxSteps: 6 });
  // The first tab's "quarterly report" is a near name, not the one asked for.
  assert.equal(await page.textContent('#out'), 'clicked Quarterly report.', said(run));
  assert.equal(run.success, true, said(run));
});

test('a target in no tab: every tab is looked in once, then the task is refused saying so', async () => {
  const { page, lens } = await h.open('agent-tabs.html');
  const run = await runAgent(lens, { task: 'Click on the link "Payroll".', backend: inProcess(), maxSteps: 8 });
  assert.equal(await page.textContent('#out'), 'nothing yet', said(run));
  assert.equal(run.status, 'failed', said(run));
  assert.match(run.message, /nothing on the page fits it, nor behind the 2 closed elements opened \("Sales", "Archive"\)/);
});

test('a target in the last of five tabs on a long page: one look further down, back up to the tabs, then no scroll between them', async () => {
  const { page, lens } = await h.open('agent-tabs-long.html');
  const run = await runAgent(lens, { task: 'Click on the link "Payroll".', backend: inProcess(), maxSteps: 10 });
  assert.equal(await page.textContent('#out'), 'clicked Payroll', said(run));
  const actions = run.steps.map((s) => (s.response as { action?: string }).action ?? '');
  // Below the fold there is nothing; the tabs are above it, out of view, so the look goes back up once.
  assert.deepEqual(actions.filter((a) => a.startsWith('scroll')), ['scroll(down)', 'scroll(top)'], said(run));
  assert.ok(actions.findIndex((a) => a.startsWith('click')) > actions.indexOf('scroll(top)'), said(run));
  assert.equal(run.success, true, said(run));
});

test('a file two folders deep in a tree without ARIA: its folders are opened, no other file is clicked', async () => {
  const { page, lens } = await h.open('agent-tree.html');
  const run = await runAgent(lens, { task: 'Navigate through the file tree. Find and click on the file named "budget.xlsx".', backend: inProcess(), maxSteps: 8 });
  assert.equal(await page.textContent('#out'), 'opened budget.xlsx', said(run));
  assert.equal(run.success, true, said(run));
});

test('"an item that starts with … and ends with …": the start typed, the fitting suggestion picked, then handed in', async () => {
  const { page, lens } = await h.open('agent-autocomplete.html');
  const run = await runAgent(lens, { task: 'Enter an item that starts with "Ca" and ends with "da".', backend: inProcess(), maxSteps: 6 });
  assert.equal(await page.textContent('#out'), 'submitted Canada', said(run));
  assert.equal(run.success, true, said(run));
});

test('a constraint no suggestion meets is refused, and nothing is handed in', async () => {
  const { page, lens } = await h.open('agent-autocomplete.html');
  const run = await runAgent(lens, { task: 'Enter an item that starts with "Ca" and ends with "xx".', backend: inProcess(), maxSteps: 6 });
  assert.equal(await page.textContent('#out'), 'nothing yet', said(run));
  assert.equal(run.status, 'failed', said(run));
  assert.match(run.message, /none of the 4 suggestions starts with "Ca" and ends with "xx"/);
});

test('a button covered by another is pressed with the keyboard, in the order asked', async () => {
  const { page, lens } = await h.open('agent-covered.html');
  const run = await runAgent(lens, { task: 'Click button ONE, then click button TWO.', backend: inProcess(), maxSteps: 6 });
  assert.equal(await page.textContent('#out'), 'ONE,TWO', said(run));
  assert.equal(run.success, true, said(run));
});
