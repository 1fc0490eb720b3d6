// Common widget markups from real pages, acted on by ID: what the agent is shown must be what it can operate.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('a tab whose text sits in a link inside it (jQuery UI, Bootstrap) is clicked as the tab, and listed once', async () => {
  const { page, lens } = await h.open('widgets-tabs.html');
  const snap = await lens.snapshot();
  const tree = snap.interactive_tree;
  const tab2 = tree.find((n) => n.n === 'Tab #2');
  assert.ok(tab2, `Tab #2 is listed: ${JSON.stringify(tree)}`);
  assert.equal(tab2.r, 'tab');
  const r = await lens.act(`click(${tab2.i})`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await page.textContent('#out'), 'shown: tabs-2, home');
  // The link that fills the tab does what the tab does: it is not a second target.
  assert.deepEqual(tree.filter((n) => /^Tab #/.test(n.n)).map((n) => n.r), ['tab', 'tab', 'tab'], JSON.stringify(tree));
  const profile = tree.find((n) => n.n === 'Profile')!;
  assert.equal((await lens.act(`click(${profile.i})`)).ok, true);
  assert.equal(await page.textContent('#out'), 'shown: tabs-2, profile');
});

test('a control inside a target that does something else is listed apart, never pressed for it, and the refusal names its ID', async () => {
  const { page, lens } = await h.open('widgets-tabs.html');
  const snap = await lens.snapshot();
  const remove = snap.interactive_tree.find((n) => n.n === 'Remove');
  const card = snap.interactive_tree.find((n) => n.n === 'Trail shoes');
  assert.ok(remove && card, JSON.stringify(snap.interactive_tree));
  const r = await lens.act(`click(${card.i})`);
  assert.equal(r.ok, false, 'the card is covered by its button wherever it can be clicked');
  assert.equal(r.error?.code, 'NOT_ACTIONABLE');
  assert.match(r.error!.message, new RegExp(`act on ${remove.i} instead`), r.error!.message);
  assert.equal(await page.evaluate(() => (window as any).removed), 0);
  // The advice can be followed.
  assert.equal((await lens.act(`click(${remove.i})`)).ok, true);
  assert.equal(await page.evaluate(() => (window as any).removed), 1);
});
