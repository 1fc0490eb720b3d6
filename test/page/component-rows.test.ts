// Lists built from web components, as real to-do apps build them: each row alone in its own
// shadow tree, text that listens for a double click inside it, a visually hidden label that says
// the same on every row, and a "complete all" whose input is a transparent pixel while the page
// listens on its label (bound to nothing). Operated through the library API alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const tree = (snap: SemanticV3Result) => JSON.stringify(snap.interactive_tree.map((n) => [n.i, n.r, n.n]));

/** The first node of `role` after `id`, before the next item (the row's own control). */
function inRowAfter(snap: SemanticV3Result, id: string, role: string) {
  const rest = snap.interactive_tree.slice(snap.interactive_tree.findIndex((n) => n.i === id) + 1);
  const end = rest.findIndex((n) => n.r === 'item');
  return (end < 0 ? rest : rest.slice(0, end)).find((n) => n.r === role);
}

test('a pixel-sized checkbox is pressed through the label beside it (bound to nothing), where the page listens', async () => {
  const { page, lens } = await h.open('component-rows.html');
  const errands = () => page.evaluate(() => (window as any).errands());
  const snap = await lens.snapshot();
  const all = idOf(snap, 'Complete every errand', 'chk');
  assert.equal(snap.interactive_tree.filter((n) => n.n === 'Complete every errand').length, 1, `the label stands in for the checkbox, not beside it: ${tree(snap)}`);
  const r = await lens.act(`check(${all})`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.method, 'mouse');
  assert.deepEqual((await errands()).map((e: any) => e.done), [true, true, true], `the page saw the press: ${JSON.stringify(r)}`);
  assert.ok(!r.warnings?.some((w) => /too small/.test(w)), JSON.stringify(r));
});

test('a checkbox no one can aim at and with no label: check says that only its own state was seen', async () => {
  const { lens } = await h.open('component-rows.html');
  const snap = await lens.snapshot();
  const digest = idOf(snap, 'Weekly digest', 'chk');
  const r = await lens.act(`check(${digest})`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.ok(r.warnings?.some((w) => /1×1 px, too small for a person to aim at/.test(w) && /only its own state/.test(w)), `the result says what it did not see: ${JSON.stringify(r)}`);
});

for (const kind of ['labelled', 'focusable']) {
  test(`rows in shadow trees (${kind}): each row's text is an item, its toggle follows it with the row's identity; complete, edit by double click`, async () => {
    const { page, lens } = await h.open(`component-rows.html?kind=${kind}`);
    const errands = () => page.evaluate(() => (window as any).errands());
    let snap = await lens.snapshot();
    for (const title of ['buy stamps', 'post letter', 'ring bank']) {
      const item = snap.interactive_tree.find((n) => n.r === 'item' && n.n === title);
      assert.ok(item, `the row "${title}" is listed as an item: ${tree(snap)}`);
      const check = inRowAfter(snap, item.i, 'chk');
      const expected = kind === 'labelled' ? title : `Mark done · ${title}`;
      assert.equal(check?.n, expected, `the toggle after "${title}" says whose it is: ${tree(snap)}`);
    }
    // The row's text is listed once, as its item.
    assert.equal(snap.interactive_tree.filter((n) => n.n === 'post letter').length, kind === 'labelled' ? 2 : 1, tree(snap));

    const toggle = inRowAfter(snap, idOf(snap, 'post letter', 'item'), 'chk')!;
    const done = await lens.act(`check(${toggle.i})`);
    assert.equal(done.ok, true, JSON.stringify(done));
    assert.deepEqual((await errands()).map((e: any) => e.done), [false, true, false]);

    snap = await lens.snapshot();
    const edit = await lens.act(`dblclick(${idOf(snap, 'ring bank', 'item')})`);
    assert.equal(edit.ok, true, JSON.stringify(edit));
    snap = await lens.snapshot();
    const editor = snap.interactive_tree.find((n) => n.r === 'inp' && n.v === 'ring bank');
    assert.ok(editor, `double-clicking the text opened its editor: ${tree(snap)}`);
    assert.equal((await lens.act(`setValue(${editor.i}, "ring the bank")`)).ok, true);
    assert.equal((await lens.act(`press(${editor.i}, "Enter")`)).ok, true);
    assert.deepEqual((await errands()).map((e: any) => e.title), ['buy stamps', 'post letter', 'ring the bank']);
  });
}

test('an app root that listens for every row\'s events is no target: its toggle-all is checked through its label, its rows edited', async () => {
  const { page, lens } = await h.open('todomvc.html?app=delegated');
  assert.deepEqual((await lens.markGestureTargets()).warnings, []);
  let snap = await lens.snapshot();
  // The root holds every control: it is where events are delegated, not something to press.
  assert.ok(!snap.interactive_tree.some((n) => n.n?.startsWith('todos')), tree(snap));
  const all = snap.interactive_tree.find((n) => n.r === 'chk' && /Toggle All/.test(n.n ?? ''));
  assert.ok(all, tree(snap));
  const checked = await lens.act(`check(${all.i})`);
  assert.equal(checked.ok, true, JSON.stringify(checked));
  assert.deepEqual((await page.evaluate(() => (window as any).todos())).map((t: any) => t.completed), [true, true, true]);
  snap = await lens.snapshot();
  assert.equal((await lens.act(`dblclick(${idOf(snap, 'call mum', 'item')})`)).ok, true);
  assert.equal(await page.evaluate(() => document.activeElement?.className), 'edit');
});

test('a drop zone that holds controls stays a target; a double-click listener that holds them is delegation', async () => {
  const { page, lens } = await h.open('todomvc.html');
  await page.setContent(`<div id="zone" style="width:300px;height:120px;border:1px solid">Drop files here <button>Browse</button></div>
    <div id="rows" style="width:300px;height:60px"><span>Row one</span> <button>Edit</button></div>`);
  await page.evaluate(() => {
    const zone = document.getElementById('zone')!;
    zone.addEventListener('dragover', (e) => e.preventDefault());
    zone.addEventListener('drop', (e) => e.preventDefault());
    document.getElementById('rows')!.addEventListener('dblclick', () => {});
  });
  await lens.markGestureTargets();
  const snap = await lens.snapshot();
  assert.ok(snap.interactive_tree.some((n) => n.n?.startsWith('Drop files here')), tree(snap));
  assert.ok(!snap.interactive_tree.some((n) => n.n?.startsWith('Row one')), tree(snap));
});

test('a double-click listener inside a shadow tree makes its element a target', async () => {
  const { page, lens } = await h.open('component-rows.html');
  const found = await lens.markGestureTargets();
  assert.deepEqual(found.warnings, []);
  const snap = await lens.snapshot();
  const title = snap.interactive_tree.find((n) => n.n === 'Untitled note');
  assert.ok(title, `the heading that listens for double clicks is listed: ${tree(snap)}`);
  assert.equal((await lens.act(`dblclick(${title.i})`)).ok, true);
  assert.equal(await page.evaluate(() => document.querySelector('note-title')!.shadowRoot!.querySelector('h2')!.textContent), 'Renamed note');
});
