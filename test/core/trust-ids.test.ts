// An ID never acts on a stranger: an ID issued by one document is refused in every later one,
// however often it is retried and whatever the new page holds; recovery stays in the document
// the ID came from; a same-document re-render still recovers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('retrying an old ID after a navigation is refused every time, and page B is never touched', async () => {
  const { page, lens } = await h.open('trust-a.html');
  const a = await lens.snapshot();
  const go = idOf(a, 'Continue', 'btn');
  const stay = idOf(a, 'Stay here');
  const first = await lens.act(`click(${go})`, { expect: 'navigation' });
  assert.equal(first.verification?.success, true, first.verification?.feedback);
  assert.match(page.url(), /trust-b\.html$/);
  // B's auto-tagger has numbered B's buttons from 1 by now, just like A's.
  await page.waitForSelector('button[data-llm-id]');
  for (let attempt = 1; attempt <= 4; attempt++) {
    for (const id of [go, stay]) {
      const r = await lens.act(`click(${id})`);
      assert.equal(r.ok, false, `attempt ${attempt}: ${JSON.stringify(r)}`);
      assert.equal(r.error?.code, 'NAVIGATED', `attempt ${attempt}: ${JSON.stringify(r)}`);
      assert.match(r.error!.message, /belongs to a document that is gone: the page changed from .*trust-a\.html to .*trust-b\.html; take a new snapshot/);
      assert.equal(r.recovered, undefined, 'no recovery across documents');
    }
  }
  assert.equal(await page.textContent('#out'), 'nothing deleted', 'no button on page B was clicked');
  assert.equal(await page.evaluate(() => (window as any).hits ?? 0), 0);

  // A snapshot of B hands out B's IDs: those act on B, as the agent now expects.
  const b = await lens.snapshot();
  const del = idOf(b, 'Delete account');
  const ok = await lens.act(`click(${del})`);
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.equal(await page.textContent('#out'), 'deleted 1');
  // An A-only ID that B's snapshot did not re-issue stays refused.
  const unissued = [go, stay].find((id) => !b.interactive_tree.some((n) => n.i === id));
  if (unissued) assert.equal((await lens.act(`click(${unissued})`)).error?.code, 'NAVIGATED');
});

test('a reload is a new document: the same-looking button there is not recovered into', async () => {
  const { page, lens } = await h.open('trust-a.html');
  const a = await lens.snapshot();
  const stay = idOf(a, 'Stay here');
  await page.reload();
  await page.waitForSelector('button[data-llm-id]');
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await lens.act(`click(${stay})`);
    assert.equal(r.error?.code, 'NAVIGATED', JSON.stringify(r));
    assert.match(r.error!.message, /to a new document at the same address \(reloaded\)/);
  }
  assert.equal(await page.title(), 'Page A', 'nothing was clicked on the reloaded page');
});

test('IDs in an iframe are bound to the frame\'s document; the rest of the page keeps working', async () => {
  const { page, lens } = await h.open('trust-frame-host.html');
  const snap = await lens.snapshot({ fullPage: true });
  const inner = idOf(snap, 'Stay here');
  const host = idOf(snap, 'Host button');
  assert.match(inner, /^f\d+_\d+$/);
  const frame = page.frames().find((f) => f.url().includes('trust-a.html'))!;
  await frame.evaluate(() => { location.href = 'trust-b.html'; });
  await page.waitForFunction(() => true);
  await frame.waitForURL(/trust-b\.html/).catch(() => {});
  const child = page.frames().find((f) => f.url().includes('trust-b.html'))!;
  await child.waitForSelector('button[data-llm-id]');
  for (let attempt = 0; attempt < 3; attempt++) {
    const r = await lens.act(`click(${inner})`);
    assert.equal(r.error?.code, 'NAVIGATED', JSON.stringify(r));
    assert.match(r.error!.message, /frame \d+ changed from .*trust-a\.html to .*trust-b\.html/);
  }
  assert.equal(await child.textContent('#out'), 'nothing deleted');
  assert.equal((await lens.act(`click(${host})`)).ok, true, 'IDs of the main document are unaffected');
});

test('a same-document re-render is still recovered, and only within that document', async () => {
  const { page, lens } = await h.open('actions-rerender.html');
  const snap = await lens.snapshot();
  const save = idOf(snap, 'Save');
  await page.evaluate(() => (window as any).rerender());
  const r = await lens.act(`click(${save})`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.recovered?.from, save);
  assert.equal(await page.textContent('#status'), 'Saved 1 times');
  // The same ID after the page moved on: refused, although the new page has a "Save" too.
  await page.reload();
  await page.waitForSelector('button[data-llm-id]');
  const again = await lens.act(`click(${save})`);
  assert.equal(again.error?.code, 'NAVIGATED', JSON.stringify(again));
  assert.equal(await page.textContent('#status'), 'Saved 0 times');
});

test('an element whose label changed since the snapshot is refused as stale; a live counter is not', async () => {
  const { page, lens } = await h.open('trust-a.html');
  const snap = await lens.snapshot();
  const stay = idOf(snap, 'Stay here');
  await page.evaluate(() => { document.querySelectorAll('button')[1].textContent = 'Stay here (3)'; });
  const counted = await lens.act(`click(${stay})`);
  assert.equal(counted.ok, true, JSON.stringify(counted));
  await lens.snapshot();
  await page.evaluate(() => { document.querySelectorAll('button')[1].textContent = 'Leave now'; });
  const stale = await lens.act(`click(${stay})`);
  assert.equal(stale.error?.code, 'STALE_ID', JSON.stringify(stale));
  assert.match(stale.error!.message, /is now button "Leave now", not the button "Stay here \(3\)" of the last snapshot/);
});
