// A refused ID stays refused, and a secret never comes back (issue 20). IDs are never reused within
// a session: a new document, in the page or in a frame, continues the numbering, so the ID an agent
// holds for the sign-in page's password field can never name the next page's public comment box;
// and a value meant for a password field is masked whatever the outcome of the action.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseGlobalId } from '../../src/model/pagemodel/page.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const SECRET = 'hunter2-Secret!';
const locals = (s: SemanticV3Result) => s.interactive_tree.map((n) => Number(parseGlobalId(n.i)!.local));

test('a new document continues the numbering: the sign-in page\'s IDs are refused on the next page, every time', async () => {
  const { page, lens } = await h.open('sec-login.html');
  const a = await lens.snapshot();
  const pw = idOf(a, 'Password');
  const go = idOf(a, 'Continue');
  assert.equal((await lens.act({ type: 'setValue', id: pw, value: SECRET })).ok, true);
  const nav = await lens.act(`click(${go})`, { expect: 'navigation' });
  assert.equal(nav.verification?.success, true, nav.verification?.feedback);
  // What every face does after a navigation: read the new page and hand its IDs out.
  const b = await lens.snapshot();
  assert.ok(b.interactive_tree.some((n) => n.n === 'Public comment'), JSON.stringify(b.interactive_tree));
  const highestOfA = Math.max(...locals(a));
  for (const n of locals(b)) assert.ok(n > highestOfA, `page B's ID ${n} continues after page A's last (${highestOfA}): ${JSON.stringify(b.interactive_tree.map((x) => x.i))}`);
  for (let attempt = 1; attempt <= 3; attempt++) {
    for (const action of [{ type: 'setValue' as const, id: pw, value: SECRET }, { type: 'click' as const, id: go }]) {
      const r = await lens.act(action);
      assert.equal(r.ok, false, `attempt ${attempt}: ${JSON.stringify(r)}`);
      assert.equal(r.error?.code, 'NAVIGATED', `attempt ${attempt}: ${JSON.stringify(r)}`);
      assert.ok(!JSON.stringify(r).includes(SECRET), `the password is not echoed: ${JSON.stringify(r)}`);
    }
  }
  assert.equal(await page.textContent('#posted'), 'nothing posted', 'nothing reached the public comment box');
  assert.equal(await page.evaluate(() => (window as any).deleted ?? false), false);
  // B's own IDs act on B.
  const comment = idOf(b, 'Public comment');
  assert.equal((await lens.act({ type: 'setValue', id: comment, value: 'hello' })).ok, true);
  assert.equal(await page.textContent('#posted'), 'posted: hello');
});

test('back on the first page after a round trip, its old IDs stay refused and its new ones are new', async () => {
  const { page, lens } = await h.open('sec-login.html');
  const a = await lens.snapshot();
  await lens.act(`click(${idOf(a, 'Continue')})`, { expect: 'navigation' });
  const b = await lens.snapshot();
  await lens.act(`click(${idOf(b, 'Back to sign in')})`, { expect: 'navigation' });
  const again = await lens.snapshot();
  const seen = new Set([...a.interactive_tree, ...b.interactive_tree].map((n) => n.i));
  for (const n of again.interactive_tree) assert.ok(!seen.has(n.i), `${n.i} was issued before: ${JSON.stringify(again.interactive_tree.map((x) => x.i))}`);
  const r = await lens.act({ type: 'setValue', id: idOf(a, 'Password'), value: SECRET });
  assert.equal(r.error?.code, 'NAVIGATED', JSON.stringify(r));
  assert.equal(await page.inputValue('#pw'), '', 'the reloaded sign-in page was not typed into');
});

test('an ID numbered before the document began is refused with NAVIGATED even where no ledger remembers it', async () => {
  const { page, lens } = await h.open('sec-login.html');
  const a = await lens.snapshot();
  await lens.act(`click(${idOf(a, 'Continue')})`, { expect: 'navigation' });
  await lens.snapshot();
  // A second lens on the same page has handed nothing out: only the document itself can tell.
  const { Lens } = await import('../../src/browser/lens.js');
  const other = await Lens.attach(page);
  for (const n of a.interactive_tree) {
    const r = await other.act({ type: 'setValue', id: n.i, value: SECRET });
    assert.equal(r.error?.code, 'NAVIGATED', `${n.i} (${n.n}): ${JSON.stringify(r)}`);
  }
  assert.equal(await page.textContent('#posted'), 'nothing posted');
});

test('a frame\'s new document continues the frame\'s numbering', async () => {
  const { page, lens } = await h.open('trust-frame-host.html');
  const snap = await lens.snapshot({ fullPage: true });
  const inner = snap.interactive_tree.filter((n) => /^f\d+_/.test(n.i));
  assert.ok(inner.length, JSON.stringify(snap.interactive_tree));
  const frame = page.frames().find((f) => f.url().includes('trust-a.html'))!;
  await frame.evaluate(() => { location.href = 'trust-b.html'; });
  await frame.waitForURL(/trust-b\.html/).catch(() => {});
  const child = page.frames().find((f) => f.url().includes('trust-b.html'))!;
  await child.waitForSelector('button[data-llm-id]');
  const after = await lens.snapshot({ fullPage: true });
  const old = new Set(snap.interactive_tree.map((n) => n.i));
  const fresh = after.interactive_tree.filter((n) => /^f\d+_/.test(n.i));
  assert.ok(fresh.length, JSON.stringify(after.interactive_tree));
  for (const n of fresh) assert.ok(!old.has(n.i), `${n.i} (${n.n}) was issued by the frame's earlier document`);
});

test('a password value is masked when the action is refused: unknown ID, read-only field, stale ID', async () => {
  const { page, lens } = await h.open('sec-login.html');
  const a = await lens.snapshot();
  const unknown = await lens.act({ type: 'setValue', id: '9999', value: SECRET });
  assert.equal(unknown.ok, false);
  const readOnly = await lens.act({ type: 'setValue', id: idOf(a, 'Read-only secret'), value: SECRET });
  assert.equal(readOnly.error?.code, 'NOT_ACTIONABLE', JSON.stringify(readOnly));
  const typed = await lens.act({ type: 'type', id: idOf(a, 'Read-only secret'), value: SECRET });
  assert.equal(typed.ok, false, JSON.stringify(typed));
  await page.evaluate(() => { document.querySelector('label')!.firstChild!.textContent = 'Passcode now '; });
  const stale = await lens.act({ type: 'setValue', id: idOf(a, 'Password'), value: SECRET });
  assert.equal(stale.error?.code, 'STALE_ID', JSON.stringify(stale));
  for (const r of [unknown, readOnly, typed, stale]) {
    assert.ok(!JSON.stringify(r).includes(SECRET), `the value is not echoed: ${JSON.stringify(r)}`);
    assert.match(r.action, /\*\*\*/, JSON.stringify(r));
  }
  // A field that is not secret still shows what was typed into it.
  const b = await h.open('sec-comment.html');
  const s = await b.lens.snapshot();
  const ok = await b.lens.act({ type: 'setValue', id: idOf(s, 'Public comment'), value: 'visible words' });
  assert.match(ok.action, /visible words/);
});

test('the click lands where it was checked: a frame slid under the pointer on pointermove is refused as COVERED', async () => {
  const { page, lens } = await h.open('sec-pointer-swap.html');
  const snap = await lens.snapshot();
  const cancel = idOf(snap, 'Cancel');
  for (const action of [`click(${cancel})`, `dblclick(${cancel})`]) {
    const r = await lens.act(action);
    assert.equal(r.ok, false, `${action}: ${JSON.stringify(r)}`);
    assert.equal(r.error?.code, 'COVERED', `${action}: ${JSON.stringify(r)}`);
    // The first press finds Cancel clear until the pointer arrives; the second finds the frame there already.
    if (action.startsWith('click')) assert.match(r.error!.message, /covered by iframe#pay.* once the pointer reached it/);
  }
  assert.equal(await page.evaluate(() => (window as any).authorized), 0, 'the payment was not authorised');
  const frame = page.frames().find((f) => f.url().includes('sec-authorize.html'))!;
  assert.equal(await frame.textContent('button'), 'Authorize payment');
});

test('the CLI never prints a password it was told to type, whether the action works or is refused', async () => {
  const { runCli } = await import('../support/cli-helpers.js');
  const { FIXTURES } = await import('../support/harness.js');
  const page = `${FIXTURES}/sec-login.html`;
  // 1: the password field (typed); 2: the read-only one (refused); 9999: no such element (refused).
  const r = await runCli(['run', page, '--keep-going', '--do', `setValue(1, "${SECRET}")`, '--do', `setValue(2, "${SECRET}")`, '--do', `type(9999, "${SECRET}")`]);
  assert.match(r.stderr, /step 1 .*ok/, r.stderr);
  assert.match(r.stderr, /step 2 .*FAILED/, r.stderr);
  assert.match(r.stderr, /step 3 .*FAILED/, r.stderr);
  assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), `printed the password:\n${r.stderr}\n${r.stdout.slice(0, 2000)}`);
});

test('the agent transcript never repeats a password whose action was refused', async () => {
  const { runAgent } = await import('../../src/agent/loop.js');
  const { stepLine } = await import('../../src/cli/agent.js');
  const { lens } = await h.open('sec-login.html');
  const a = await lens.snapshot();
  const readOnly = idOf(a, 'Read-only secret');
  // A backend that types the password into a read-only field, then into an element that does not exist, then ends.
  const plan = [`setValue(${readOnly}, "${SECRET}")`, `type(9999, "${SECRET}")`, 'done("gave up")'];
  let turn = 0;
  const backend = { interact: async () => ({ thought: `I type ${SECRET} as the password`, action: plan[Math.min(turn++, plan.length - 1)] }) };
  const lines: string[] = [];
  const run = await runAgent(lens, { task: 'Sign in', backend, maxSteps: 3, onStep: (s) => lines.push(stepLine(s)) });
  const refused = run.steps.filter((s) => s.result);
  assert.equal(refused.length, 2, JSON.stringify(run));
  assert.ok(refused.every((s) => s.result?.ok === false), JSON.stringify(run));
  assert.ok(!JSON.stringify(refused).includes(SECRET), `the transcript repeats the password: ${JSON.stringify(refused)}`);
  assert.ok(lines.every((l) => !l.includes(SECRET)), lines.join('\n'));
});

test('tabs of one session never share an ID: one handed out in another tab is refused here', async () => {
  const { IdNumbering } = await import('../../src/browser/lens.js');
  const { Lens } = await import('../../src/browser/lens.js');
  const { gotoSettled } = await import('../../src/browser/goto.js');
  const session = new IdNumbering();
  const one = await h.open('sec-login.html');
  const two = await h.open('sec-comment.html');
  const lensOne = await Lens.attach(one.page, { numbering: session });
  const lensTwo = await Lens.attach(two.page, { numbering: session });
  const a = await lensOne.snapshot();
  await gotoSettled(two.page, `${h.originA}sec-tab-two.html`);
  const b = await lensTwo.snapshot();
  for (const n of b.interactive_tree) assert.ok(!a.interactive_tree.some((o) => o.i === n.i), `tab two's ${n.i} is tab one's too`);
  // Tab one grows and hands out more IDs, side by side with tab two's numbering.
  await one.page.evaluate(() => { for (let i = 0; i < 6; i++) { const b = document.createElement('button'); b.textContent = `Extra ${i}`; document.body.prepend(b); } });
  await one.page.waitForFunction(() => document.querySelectorAll('[data-llm-id]').length >= 10);
  const grown = await lensOne.snapshot();
  const handedHereOnly = grown.interactive_tree.filter((n) => !b.interactive_tree.some((o) => o.i === n.i) && !a.interactive_tree.some((o) => o.i === n.i));
  assert.ok(handedHereOnly.length, JSON.stringify(grown.interactive_tree));
  for (const n of handedHereOnly) {
    const r = await lensTwo.act(`click(${n.i})`);
    assert.equal(r.ok, false, `${n.i}: ${JSON.stringify(r)}`);
    assert.equal(r.error?.code, 'NAVIGATED', `${n.i}: ${JSON.stringify(r)}`);
  }
  assert.equal(await two.page.textContent('#out'), 'nothing done', 'nothing in tab two was clicked');
});
