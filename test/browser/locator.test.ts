// lens.locator(id): a Playwright Locator for a pagelens ID, in the main frame, an open shadow root
// and a cross-origin iframe, scoped to the document that issued the ID.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('a locator reaches the element in the main frame, an open shadow root and a cross-origin iframe', async () => {
  const { page, lens } = await h.open('actions-frames.html');
  const snap = await lens.snapshot({ fullPage: true });
  const pay = await lens.locator(idOf(snap, 'Pay'));
  await pay.click();
  const inner = page.frames().find((f) => f.url().includes('actions-frame-inner'))!;
  assert.equal(await inner.textContent('#out'), 'paid trusted');
  await assert.rejects(lens.locator(idOf(snap, 'Shadow action')), (e: any) => e.code === 'NOT_ACTIONABLE' && /closed shadow root/.test(e.message));

  const shadow = await h.open('engine-shadow.html');
  const s = await shadow.lens.snapshot();
  const open = await shadow.lens.locator(idOf(s, 'Open shadow button'));
  assert.equal(await open.textContent(), 'Open shadow button');
  const light = await shadow.lens.locator(idOf(s, 'Light button'));
  assert.equal(await light.getAttribute('id'), 'light');
});

test('a locator matches nothing once the page shows another document, and old IDs are refused', async () => {
  const { page, lens } = await h.open('trust-a.html');
  const snap = await lens.snapshot();
  const stayId = idOf(snap, 'Stay here');
  const stay = await lens.locator(stayId);
  assert.equal(await stay.count(), 1);
  await page.goto(h.originA + 'trust-b.html');
  await page.waitForSelector('button[data-llm-id]');
  // Page B numbers its buttons from 1 too, but the locator is bound to page A's document.
  assert.equal(await page.locator(`[data-llm-id="${stayId}"]`).count(), 1, 'B has an element with the same ID attribute');
  assert.equal(await stay.count(), 0, 'the old locator does not reach it');
  await assert.rejects(lens.locator(stayId), { code: 'NAVIGATED' });
});
