// Acting on real pages: self-healing of re-rendered IDs, refusing to click through a cover,
// controlled inputs, sentinel verification against errors that flash and vanish, navigation.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { coreOf } from '../../src/browser/lens.js';
import { counter, idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => {
  // Quotable figures: how often self-healing was needed, and how often verification caught a
  // failure that the bare action (which "succeeded") would have hidden.
  console.log(`actions: ${counts.actions} run, ${counts.recovered} needed recovery, ${counts.caught} verification(s) caught a failure a plain click would have hidden`);
  await h?.close();
});

const { counts, tally } = counter();

test('a node replaced by a re-render between snapshot and click is recovered, and says so', async () => {
  const { page, lens } = await h.open('actions-rerender.html');
  const snap = await lens.snapshot();
  const save = idOf(snap, 'Save');
  await page.evaluate(() => (window as any).rerender());
  const r = tally(await lens.act(`click(${save})`));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.method, 'mouse');
  assert.ok(r.recovered, 'reported as recovered');
  assert.equal(r.recovered.from, save);
  assert.notEqual(r.recovered.to, save);
  assert.equal(r.recovered.confidence, 1);
  assert.match(r.recovered.message, new RegExp(`^recovered element \\(ID ${save} → ID ${r.recovered.to}, confidence 1\\)$`));
  assert.match(r.detail ?? '', /recovered element/);
  assert.equal(await page.textContent('#status'), 'Saved 1 times');

  // Renamed and moved: nothing matches well enough, and nothing is clicked.
  const snap2 = await lens.snapshot();
  const discard = idOf(snap2, 'Discard');
  await page.evaluate(() => (window as any).rerenderRenamed());
  const refused = tally(await lens.act(`click(${discard})`));
  assert.equal(refused.ok, false);
  assert.equal(refused.error?.code, 'UNKNOWN_ID');
  // "Throw away" stands where "Discard" was, but another name is another element.
  assert.match(refused.error!.message, /\(button "Discard"\) is gone and could not be recovered: no element on the page has the same role and name/);
  assert.equal(await page.textContent('#status'), 'Saved 1 times');
});

test('a cookie banner over the button: the click is refused and the cover is named', async () => {
  const { page, lens } = await h.open('actions-cookie.html');
  const snap = await lens.snapshot();
  const buy = idOf(snap, 'Buy now');
  const r = tally(await lens.act(`click(${buy})`));
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'COVERED');
  assert.match(r.error!.message, /covered by div\.cookie-banner "Accept all"/);
  const accept = /its control (\d+) "Accept all"/.exec(r.error!.message)?.[1];
  assert.ok(accept, r.error!.message);
  assert.equal(await page.textContent('#result'), 'Nothing bought', 'nothing was clicked through the banner');
  assert.equal(tally(await lens.act(`click(${accept})`)).ok, true);
  const ok = tally(await lens.act(`click(${buy})`, { expect: 'element_appears:Bought!' }));
  assert.equal(ok.ok, true, JSON.stringify(ok));
  assert.equal(ok.verification?.success, true, ok.verification?.feedback);
  assert.equal(await page.textContent('#result'), 'Bought!');
});

test('a React-style controlled input takes the value, and the framework state follows', async () => {
  const { page, lens } = await h.open('actions-react.html');
  const snap = await lens.snapshot();
  const company = idOf(snap, 'Company');
  const r = tally(await lens.act(`setValue(${company}, "SpaceX")`, { expect: { type: 'value_changes' } }));
  assert.equal(r.ok, true, JSON.stringify(r));
  // Trusted text input, as a person's typing: the framework sees it like any other input.
  assert.equal(r.method, 'keyboard');
  assert.equal(r.verification?.success, true, r.verification?.feedback);
  assert.equal(await page.evaluate(() => (window as any).appState.company), 'SpaceX', 'framework state updated');
  assert.equal(await page.inputValue('#company'), 'SpaceX', 'the value stuck through a re-render');
  assert.equal(await page.textContent('#echo'), 'Hello, SpaceX');
  // A page-world `input.value = x` would have been reverted by the next render: show that the fixture really does that.
  await page.evaluate(() => { const i = document.getElementById('company') as HTMLInputElement; i.value = 'naive'; i.dispatchEvent(new Event('input', { bubbles: true })); });
  assert.equal(await page.inputValue('#company'), 'SpaceX', 'the fixture reverts values its state does not know');
  // Real keystrokes reach the framework too.
  const typed = tally(await lens.act(`type(${company}, "Blue Origin")`));
  assert.equal(typed.ok, true, JSON.stringify(typed));
  assert.equal(typed.method, 'keyboard');
  assert.equal(await page.evaluate(() => (window as any).appState.company), 'Blue Origin');
  const after = await lens.snapshot();
  assert.equal(after.interactive_tree.find((n) => n.i === company)?.v, 'Blue Origin');
});

test('"Invalid email" shown for one second fails the verification; the snapshot still reports it', async () => {
  const { page, lens } = await h.open('actions-form.html');
  const snap = await lens.snapshot();
  const email = idOf(snap, 'Email');
  const signUp = idOf(snap, 'Sign up');
  assert.equal(tally(await lens.act(`setValue(${email}, "not-an-email")`)).ok, true);
  const r = tally(await lens.act(`click(${signUp})`, { expect: { type: 'navigation', orOutcome: { type: 'element_appears', text: 'Thank you' }, timeout: 1500 } }));
  assert.equal(r.ok, true, 'the click itself happened');
  const v = r.verification!;
  assert.equal(v.success, false, JSON.stringify(v));
  assert.deepEqual(v.errorsDetected, ['Invalid email']);
  assert.equal(v.pageState.urlChanged, false);
  assert.match(v.feedback, /Expected navigation or "Thank you" to appear within 1500 ms, but URL unchanged .*Error shown: 'Invalid email'/);
  assert.ok(v.pageState.recentMutations.some((m) => /Added: 'Invalid email'/.test(m)), JSON.stringify(v.pageState.recentMutations));
  // Gone from the page, still in the record.
  await page.waitForSelector('.field-error', { state: 'detached' });
  const later = await lens.snapshot();
  assert.ok(later.recent_events?.some((e) => /^\[\d+s ago\] Added: 'Invalid email'$/.test(e)), JSON.stringify(later.recent_events));
  assert.ok(later.recent_events?.some((e) => /Removed: 'Invalid email'/.test(e)));
  const summary = await lens.mutationSummary();
  assert.equal(summary.has_errors, true);

  // Fixed input: navigation verified.
  tally(await lens.act(`setValue(${email}, "ada@example.com")`));
  const ok = tally(await lens.act(`click(${signUp})`, { expect: 'navigation' }));
  assert.equal(ok.verification?.success, true, ok.verification?.feedback);
  assert.equal(ok.verification?.verifiedOutcome, 'navigation');
  assert.match(page.url(), /actions-thanks\.html$/);
  // IDs restart in the new document, where the old ID of "Email" names the thank-you page's link:
  // every retry is refused, however often, and the link is never touched.
  for (let attempt = 0; attempt < 3; attempt++) {
    const again = tally(await lens.act(`setValue(${email}, "x")`));
    assert.equal(again.ok, false);
    assert.equal(again.error?.code, 'NAVIGATED', JSON.stringify(again));
    assert.match(again.error!.message, /changed from .*actions-form\.html to .*actions-thanks\.html; take a new snapshot/);
  }
});

test('a plain link: navigation verified; the sentinel API by hand; back and reload', async () => {
  const { page, lens } = await h.open('actions-form.html');
  const snap = await lens.snapshot();
  const link = idOf(snap, 'Continue to the thank-you page');
  await lens.capturePreActionState({ type: 'navigation' });
  const r = tally(await lens.act(`click(${link})`, { settle: false }));
  assert.equal(r.ok, true);
  const v = await lens.quickVerify('navigate');
  assert.equal(v.success, true, v.feedback);
  assert.equal(v.pageState.urlChanged, true);
  assert.match(v.feedback, /^Verified: navigated to .*actions-thanks\.html/);
  const back = tally(await lens.act('back()', { expect: 'navigation' }));
  assert.equal(back.verification?.success, true, back.verification?.feedback);
  assert.match(page.url(), /actions-form\.html$/);
  const reload = tally(await lens.act('reload()'));
  assert.equal(reload.method, 'navigation');
  // A click that changes nothing: a bare click reports success, quickVerify does not.
  const again = await lens.snapshot();
  const heading = again.interactive_tree.find((n) => n.n === 'Email');
  assert.ok(heading);
  const quiet = tally(await lens.act(`click(${heading.i})`, { expect: { type: 'navigation', timeout: 500 } }));
  assert.equal(quiet.ok, true);
  assert.equal(quiet.verification?.success, false);
  assert.match(quiet.verification!.feedback, /URL unchanged/);
});

test('DOM stability: waits for a burst of changes and a slow request, and says when it gave up', async () => {
  const { page, lens } = await h.open('actions-controls.html');
  await lens.snapshot();
  // Network tracking starts with the first wait or action: requests already in flight before it are not seen.
  await lens.waitForDomStability({ timeout: 3000 });
  await page.evaluate(() => new Promise<void>((resolve) => {
    let n = 0;
    const t = setInterval(() => { document.body.append(document.createElement('span')); resolve(); if (++n === 8) clearInterval(t); }, 50);
  }));
  const settled = await lens.waitForDomStability({ timeout: 3000, stabilityThreshold: 300 });
  assert.equal(settled.stable, true, settled.reason);
  assert.match(settled.reason, /DOM quiet for 300 ms and network idle/);
  // A request that takes a while: the DOM is quiet, the network is not.
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route('**/slow.json', async (route) => { await held; await route.fulfill({ body: '{}', contentType: 'application/json' }); });
  await page.evaluate(() => { void fetch('slow.json'); });
  const waiting = await lens.waitForDomStability({ timeout: 400, stabilityThreshold: 100, networkIdleThreshold: 100 });
  assert.equal(waiting.stable, false);
  assert.match(waiting.reason, /^timeout after 400 ms: 1 request\(s\) in flight \(.*slow\.json\)/);
  // On a loaded machine the page's own activity read can outlast a short wait: the reason still
  // names the request in flight, which the Node side knows without the page.
  const cdp = coreOf(lens).pageTarget.cdp;
  cdp.injectDelay('Runtime.evaluate', 1000);
  try {
    const slowRead = await lens.waitForDomStability({ timeout: 400, stabilityThreshold: 100, networkIdleThreshold: 100 });
    assert.equal(slowRead.stable, false);
    assert.match(slowRead.reason, /^timeout after 400 ms: 1 request\(s\) in flight \(.*slow\.json\); the page did not answer the activity read in time$/);
  } finally {
    cdp.injectDelay('Runtime.evaluate', null);
  }
  release();
  const idle = await lens.waitForDomStability({ timeout: 3000, stabilityThreshold: 100, networkIdleThreshold: 100 });
  assert.equal(idle.stable, true, idle.reason);
  // A DOM that never stops changing.
  await page.evaluate(() => new Promise<void>((resolve) => { setInterval(() => { document.body.append(document.createElement('i')); resolve(); }, 40); }));
  // Long enough for the page's activity read to answer on a loaded machine (a 400 ms wait once ended
  // before it did); the DOM changes every 40 ms, so it never goes quiet for 300 ms.
  // On a machine loaded enough that the page's activity read itself outlasts the wait, the wait
  // says that instead (also not stable); asked again, until a read answers in time.
  let busy = await lens.waitForDomStability({ timeout: 2000, stabilityThreshold: 300 });
  for (let tries = 0; tries < 5 && /did not answer the activity read/.test(busy.reason); tries++) {
    assert.equal(busy.stable, false);
    busy = await lens.waitForDomStability({ timeout: 2000, stabilityThreshold: 300 });
  }
  assert.equal(busy.stable, false);
  assert.match(busy.reason, /^timeout after 2000 ms: DOM still changing/);
});
