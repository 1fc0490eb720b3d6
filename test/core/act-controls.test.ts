// Acting on form controls, scroll containers, cross-origin iframes and closed shadow roots,
// delta hashing of real snapshots, and the `pagelens run` command.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { computeTreeHash } from '../../src/model/renderers/hash.js';
import { counter, idOf } from '../support/action-helpers.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';
import { runCli } from '../support/cli-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => {
  console.log(`actions (controls): ${counts.actions} run, ${counts.recovered} needed recovery, ${counts.caught} verification(s) caught a failure a plain action would have hidden`);
  await h?.close();
});

const { counts, tally } = counter();

test('select by label or value, check/uncheck/toggle, press keys, scroll a feed that loads more', async () => {
  const { page, lens } = await h.open('actions-controls.html');
  const snap = await lens.snapshot();
  const ship = idOf(snap, 'Shipping');
  const sel = tally(await lens.act(`select(${ship}, "Express")`, { expect: 'value_changes' }));
  assert.equal(sel.ok, true, JSON.stringify(sel));
  assert.equal(sel.verification?.success, true, sel.verification?.feedback);
  assert.equal(await page.textContent('#ship-out'), 'Shipping: exp');
  assert.equal(tally(await lens.act(`select(${ship}, "std")`)).ok, true, 'by value');
  assert.equal(await page.textContent('#ship-out'), 'Shipping: std');
  const missing = tally(await lens.act(`select(${ship}, "Teleport")`));
  assert.equal(missing.ok, false);
  assert.match(missing.error!.message, /no option "Teleport" \(options: "Standard", "Express", "Overnight"\)/);
  assert.match(tally(await lens.act(`select(${ship}, "Overnight")`)).error!.message, /disabled/);

  const terms = idOf(snap, 'I accept the terms');
  const check = tally(await lens.act(`check(${terms})`, { expect: 'state_changes' }));
  assert.equal(check.ok, true, JSON.stringify(check));
  assert.equal(check.method, 'mouse');
  assert.equal(check.verification?.success, true);
  assert.equal(await page.textContent('#terms-out'), 'terms: yes');
  const again = tally(await lens.act(`check(${terms})`));
  assert.equal(again.method, 'none');
  assert.match(again.detail!, /already checked/);
  assert.equal(tally(await lens.act(`toggle(${terms})`)).ok, true);
  assert.equal(await page.textContent('#terms-out'), 'terms: no');
  assert.match(tally(await lens.act(`check(${ship})`)).error!.message, /not a checkbox/);

  const search = idOf(snap, 'Search');
  assert.equal(tally(await lens.act(`press(${search}, "Control+A")`)).ok, true);
  assert.equal(tally(await lens.act(`press("Backspace")`)).ok, true);
  assert.equal(await page.inputValue('#search'), '', 'Control+A selected the text, Backspace removed it');
  tally(await lens.act(`type(${search}, "rockets")`));
  const enter = tally(await lens.act(`press(${search}, "Enter")`));
  assert.equal(enter.method, 'keyboard');
  assert.equal(await page.textContent('#keys'), 'keys: Enter with rockets');

  const feed = snap.scrollable_containers[0]?.id;
  assert.ok(feed, 'the feed is a scrollable container');
  let loaded = await page.textContent('#loaded');
  for (let i = 0; i < 3 && loaded === 'loaded 10'; i++) {
    const s = tally(await lens.act(`scroll(${feed})`));
    assert.equal(s.ok, true, JSON.stringify(s));
    assert.match(s.detail!, new RegExp(`scrolled ${feed} down to \\d+%`));
    loaded = await page.textContent('#loaded');
  }
  assert.equal(loaded, 'loaded 20', 'scrolling the container loaded the next page');
  const after = await lens.snapshot();
  assert.ok(after.recent_events?.some((e) => /^\[\d+s ago\] Added: 10 elements: 'Item 11 \| Item 12/.test(e)), JSON.stringify(after.recent_events));
  assert.ok(after.recent_events?.some((e) => /Changed: 'loaded 10' → 'loaded 20'/.test(e)));
  const page2 = tally(await lens.act('scroll(down, 200)'));
  assert.equal(page2.ok, true);
});

test('a button in a cross-origin iframe and one in a closed shadow root are clicked with real input', async () => {
  const { page, lens } = await h.open('actions-frames.html', { viewport: { width: 1000, height: 400 } });
  const snap = await lens.snapshot({ fullPage: true });
  const pay = idOf(snap, 'Pay');
  assert.match(pay, /^f\d+_\d+$/, 'inside the iframe');
  const frame = page.frames().find((f) => f.url().includes('actions-frame-inner'))!;
  const r = tally(await lens.act(`click(${pay})`, { expect: 'element_appears:paid trusted' }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.method, 'mouse');
  assert.equal(r.verification?.success, true, r.verification?.feedback);
  assert.equal(await frame.textContent('#out'), 'paid trusted', 'a trusted click reached the out-of-process frame');
  const card = idOf(await lens.snapshot(), 'Card number');
  const typed = tally(await lens.act(`setValue(${card}, "4242")`));
  assert.equal(typed.ok, true, JSON.stringify(typed));
  assert.equal(await frame.inputValue('#card'), '4242');

  const shadowButton = idOf(await lens.snapshot({ fullPage: true }), 'Shadow action');
  const s = tally(await lens.act(`click(${shadowButton})`));
  assert.equal(s.ok, true, JSON.stringify(s));
  assert.equal(s.method, 'mouse');
  assert.equal(await page.textContent('#shadow-out'), 'shadow: clicked');
});

test('delta hash: two snapshots of an unchanged page hash the same; a change changes it', async () => {
  const { lens } = await h.open('actions-controls.html');
  const a = await lens.snapshot();
  const b = await lens.snapshot();
  assert.equal(computeTreeHash(a), computeTreeHash(b));
  const terms = idOf(b, 'I accept the terms');
  tally(await lens.act(`check(${terms})`));
  const c = await lens.snapshot();
  assert.notEqual(computeTreeHash(b), computeTreeHash(c));
});

const run = runCli;

test('pagelens run: each step\'s result and the snapshot after it; a failed verification fails the run', async () => {
  const form = join(FIXTURES, 'actions-form.html');
  // IDs are issued in document order, so the harness's snapshot of the same file names the same elements.
  const snap = await (await h.open('actions-form.html')).lens.snapshot();
  const email = idOf(snap, 'Email');
  const signUp = idOf(snap, 'Sign up');
  const r = await run(['run', form, '--do', `setValue(${email}, "nope")`, '--do', `click(${signUp})`, '--expect', 'navigation']);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.step, l.result ? 'result' : 'snapshot']), [[0, 'snapshot'], [1, 'result'], [1, 'snapshot'], [2, 'result'], [2, 'snapshot']]);
  assert.equal(lines[1].result.ok, true);
  assert.equal(lines[3].result.verification.success, false);
  assert.deepEqual(lines[3].result.verification.errorsDetected, ['Invalid email']);
  assert.equal(lines[4].snapshot.mode, 'semantic_v3');
  assert.match(r.stderr, /step 2 click\(\d+\): FAILED \(mouse\) Expected navigation .*'Invalid email'/);

  const bad = await run(['run', form, '--do', 'clik(3)']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /BAD_INPUT: Cannot read action "clik\(3\)": unknown action "clik"/);
});
