// Pages that move under the reader: a snapshot either describes the page it ends on or fails
// with a NAVIGATED error an agent can act on; it never hangs and never mixes two documents.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PagelensError } from '../../src/model/contracts/errors.js';
import { startHarness, type Harness } from '../support/harness.js';
import { validV3 } from '../support/engine-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('a page that navigates whenever it is tagged: snapshots succeed or reject with NAVIGATED', { timeout: 60_000 }, async () => {
  const { page, lens } = await h.open('engine-navloop.html');
  let succeeded = 0;
  let navigated = 0;
  for (let i = 0; i < 6; i++) {
    try {
      const result = validV3(await lens.snapshot());
      assert.match(result.url, /engine-navloop\.html/);
      // A document caught early in its parse may not have its title yet.
      assert.ok(['', 'Navigates when tagged'].includes(result.title), result.title);
      // One document per snapshot: never two copies of the page's two controls.
      assert.ok(result.interactive_tree.length <= 2, JSON.stringify(result.interactive_tree));
      succeeded++;
    } catch (e) {
      assert.ok(e instanceof PagelensError, `a plain error escaped: ${String(e)}`);
      assert.equal(e.code, 'NAVIGATED', e.message);
      assert.match(e.message, /navigat/i);
      navigated++;
    }
  }
  assert.equal(succeeded + navigated, 6);
  // A reader that always gives up under navigation would pass the checks above: it must not.
  assert.ok(succeeded >= 1, `no snapshot succeeded in 6 tries (${navigated} NAVIGATED)`);
  assert.ok(/n=\d+/.test(page.url()), 'the page really did navigate');
});

test('a page that redirects once while loading snapshots the page it lands on', { timeout: 30_000 }, async () => {
  const { page, lens } = await h.open('engine-redirect.html');
  // Straight away: whichever document is current, the snapshot works.
  const early = validV3(await lens.snapshot());
  assert.match(early.url, /engine-redirect(-target)?\.html$/);
  await page.waitForURL(/engine-redirect-target\.html/);
  const result = validV3(await lens.snapshot());
  assert.match(result.url, /engine-redirect-target\.html$/);
  assert.deepEqual(result.interactive_tree.map((n) => n.n), ['Arrived button']);
  assert.equal(result.meta.totalElements, 1);
});

test('a page that navigates itself after load is read on its new document', { timeout: 30_000 }, async () => {
  const { page, lens } = await h.open('engine-labels.html');
  await lens.snapshot();
  await page.evaluate(() => { location.href = 'engine-redirect-target.html'; });
  await page.waitForURL(/engine-redirect-target\.html/);
  const result = validV3(await lens.snapshot());
  assert.deepEqual(result.interactive_tree.map((n) => n.n), ['Arrived button']);
  assert.equal(result.title, 'Redirect target');
});
