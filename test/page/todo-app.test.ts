// An agent must see what it is asked to act on: a to-do app built like the classic one (transparent
// checkboxes stretched over the row, labels not tied to them, handlers delegated by script, a
// delete button shown on hover, double-click to edit), operated through the library API alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { runAgent } from '../../src/agent/loop.js';
import { idOf } from '../support/action-helpers.js';
import { offlineBackend, stepsSaid } from '../support/agent-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** The node right after `id` in the listing (a row's controls follow its item). */
function after_(snap: SemanticV3Result, id: string, role: string) {
  const i = snap.interactive_tree.findIndex((n) => n.i === id);
  return snap.interactive_tree.slice(i + 1).find((n) => n.r === role);
}

test('to-dos are listed with their text and controls; complete, edit, delete and toggle-all by ID', async () => {
  const { page, lens } = await h.open('todo-app.html');
  const todos = () => page.evaluate(() => (window as any).todos());
  const field = idOf(await lens.snapshot(), 'What needs to be done?');
  for (const title of ['Buy milk', 'Walk dog', 'Pay rent']) {
    assert.equal((await lens.act(`setValue(${field}, "${title}")`)).ok, true);
    assert.equal((await lens.act(`press(${field}, "Enter")`)).ok, true);
  }
  assert.deepEqual((await todos()).map((t: any) => t.title), ['Buy milk', 'Walk dog', 'Pay rent']);

  let snap = await lens.snapshot();
  for (const title of ['Buy milk', 'Walk dog', 'Pay rent']) {
    const item = snap.interactive_tree.find((n) => n.r === 'item' && n.n === title);
    assert.ok(item, `the row "${title}" is listed as an item: ${JSON.stringify(snap.interactive_tree)}`);
    // The transparent checkbox over the row is a target, named by the label that follows it.
    const check = after_(snap, item.i, 'chk');
    assert.equal(check?.n, title);
  }

  // Complete: the checkbox that is visible only through its styled row.
  const milkCheck = after_(snap, idOf(snap, 'Buy milk', 'item'), 'chk')!;
  const done = await lens.act(`check(${milkCheck.i})`);
  assert.equal(done.ok, true, JSON.stringify(done));
  assert.equal(done.method, 'mouse');
  assert.deepEqual((await todos()).map((t: any) => t.completed), [true, false, false]);

  // Edit: double-click the text (the framework listens on the list), type, commit with Enter.
  snap = await lens.snapshot();
  const dog = idOf(snap, 'Walk dog', 'item');
  const edit = await lens.act(`dblclick(${dog})`);
  assert.equal(edit.ok, true, JSON.stringify(edit));
  snap = await lens.snapshot();
  const editor = snap.interactive_tree.find((n) => n.r === 'inp' && n.v === 'Walk dog' && n.s?.includes('focused'));
  assert.ok(editor, `the edit field is listed: ${JSON.stringify(snap.interactive_tree)}`);
  assert.equal((await lens.act(`setValue(${editor.i}, "Walk the dog")`)).ok, true);
  assert.equal((await lens.act(`press(${editor.i}, "Enter")`)).ok, true);
  assert.deepEqual((await todos()).map((t: any) => t.title), ['Buy milk', 'Walk the dog', 'Pay rent']);

  // Delete: hover the row's text to reveal its delete button, then click it.
  snap = await lens.snapshot();
  const rent = idOf(snap, 'Pay rent', 'item');
  const rowOfRent = () => { const i = snap.interactive_tree.findIndex((n) => n.i === rent); return snap.interactive_tree.slice(i + 1, i + 3); };
  assert.ok(!rowOfRent().some((n) => n.n === '×'), `no delete button in the row before hovering it: ${JSON.stringify(rowOfRent())}`);
  assert.equal((await lens.act(`hover(${rent})`)).ok, true);
  snap = await lens.snapshot();
  const destroy = after_(snap, rent, 'btn');
  assert.equal(destroy?.n, '×', `the revealed delete button, named by its CSS content: ${JSON.stringify(snap.interactive_tree)}`);
  const removed = await lens.act(`click(${destroy!.i})`, { expect: { type: 'element_disappears', text: 'Pay rent' } });
  assert.equal(removed.verification?.success, true, removed.verification?.feedback);
  assert.deepEqual((await todos()).map((t: any) => t.title), ['Buy milk', 'Walk the dog']);

  // Toggle all.
  snap = await lens.snapshot();
  const all = snap.interactive_tree.find((n) => n.r === 'chk' && /Mark all as complete/.test(n.n))!;
  const toggled = await lens.act(`check(${all.i})`);
  assert.equal(toggled.ok, true, JSON.stringify(toggled));
  assert.deepEqual((await todos()).map((t: any) => t.completed), [true, true]);
});

test('a card whose name is its link gets an item with its price; a row of one link gets none', async () => {
  const { page, lens } = await h.open('todo-app.html');
  await page.setContent(`<main><ul class="nav"><li><a href="#a">Home</a></li><li><a href="#b">About</a></li></ul>
    <div class="grid">
      <div class="card"><h3><a href="#g7">Samsung Odyssey G7</a></h3><span class="price">$299</span><button>Add to cart</button></div>
      <div class="card"><h3><a href="#u2">Dell UltraSharp U2723</a></h3><span class="price">$549.99</span><button>Add to cart</button></div>
      <div class="card"><h3><a href="#lg">LG UltraGear 27</a></h3><span class="price">€329,00</span><button>Add to cart</button></div>
    </div></main>`);
  const snap = await lens.snapshot({ fullPage: true });
  const items = snap.interactive_tree.filter((n) => n.r === 'item').map((n) => [n.n, n.v]);
  assert.deepEqual(items, [['Samsung Odyssey G7', '$299'], ['Dell UltraSharp U2723', '$549.99'], ['LG UltraGear 27', '€329,00']]);
  assert.ok(!snap.interactive_tree.some((n) => n.r === 'item' && (n.n === 'Home' || n.n === 'About')), 'a nav link is its own description');
  // Clicking a card aims at the card, never at the button inside it.
  const card = snap.interactive_tree.find((n) => n.r === 'item' && n.n === 'Samsung Odyssey G7')!;
  await page.evaluate(() => { (window as any).added = 0; for (const b of document.querySelectorAll('button')) b.addEventListener('click', () => (window as any).added++); });
  const r = await lens.act(`click(${card.i})`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(await page.evaluate(() => (window as any).added), 0, 'the nested "Add to cart" was not clicked');
});

// TodoMVC's families of markup, with its stylesheet: the classic template (label not tied to the
// checkbox), React's (label htmlFor the checkbox, with its own double-click handler), a custom
// checkbox with no name at all, and the older stylesheet's toggle-all.
for (const app of ['vanilla', 'react', 'nameless', 'legacy']) {
  test(`TodoMVC (${app}): each row's text is an item, its toggle is named for it and follows it; complete, edit, delete, toggle all`, async () => {
    const { page, lens } = await h.open(`todomvc.html?app=${app}`);
    const todos = () => page.evaluate(() => (window as any).todos());
    let snap = await lens.snapshot();
    const tree = () => JSON.stringify(snap.interactive_tree.map((n) => [n.i, n.r, n.n]));
    for (const title of ['feed the cat', 'water the plants', 'call mum']) {
      const item = snap.interactive_tree.find((n) => n.r === 'item' && n.n === title);
      assert.ok(item, `the row "${title}" is listed as an item: ${tree()}`);
      // Read top to bottom, the toggle right after the row's text is that row's, and says so.
      const check = after_(snap, item.i, 'chk');
      assert.ok(check && (check.n === title || check.n === `Toggle · ${title}`), `the toggle after "${title}": ${tree()}`);
    }
    const plants = after_(snap, idOf(snap, 'water the plants', 'item'), 'chk')!;
    const done = await lens.act(`check(${plants.i})`);
    assert.equal(done.ok, true, JSON.stringify(done));
    assert.deepEqual((await todos()).map((t: any) => t.completed), [false, true, false]);

    snap = await lens.snapshot();
    const edit = await lens.act(`dblclick(${idOf(snap, 'call mum', 'item')})`);
    assert.equal(edit.ok, true, JSON.stringify(edit));
    snap = await lens.snapshot();
    const editor = snap.interactive_tree.find((n) => n.r === 'inp' && n.v === 'call mum' && n.s?.includes('focused'));
    assert.ok(editor, `double-clicking the text opened its edit field: ${tree()}`);
    assert.equal((await lens.act(`setValue(${editor.i}, "call dad")`)).ok, true);
    assert.equal((await lens.act(`press(${editor.i}, "Enter")`)).ok, true);
    assert.deepEqual((await todos()).map((t: any) => t.title), ['feed the cat', 'water the plants', 'call dad']);

    snap = await lens.snapshot();
    const cat = idOf(snap, 'feed the cat', 'item');
    assert.equal((await lens.act(`hover(${cat})`)).ok, true);
    snap = await lens.snapshot();
    const destroy = after_(snap, cat, 'btn');
    assert.equal(destroy?.n, '×', tree());
    assert.equal((await lens.act(`click(${destroy!.i})`)).ok, true);
    assert.deepEqual((await todos()).map((t: any) => t.title), ['water the plants', 'call dad']);

    snap = await lens.snapshot();
    const all = snap.interactive_tree.find((n) => n.r === 'chk' && /Toggle All/i.test(n.n));
    assert.ok(all, `toggle all is listed: ${tree()}`);
    const toggled = await lens.act(`check(${all.i})`);
    assert.equal(toggled.ok, true, JSON.stringify(toggled));
    assert.deepEqual((await todos()).map((t: any) => t.completed), [true, true]);
  });
}

test('the offline agent double-clicks when the task says so: a to-do opens for editing', async () => {
  for (const app of ['vanilla', 'react']) {
    const { page, lens } = await h.open(`todomvc.html?app=${app}`);
    const run = await runAgent(lens, { task: 'Double-click "call mum"', backend: offlineBackend(), maxSteps: 3 });
    assert.match((run.steps[0].response as { action?: string }).action ?? '', /^dblclick\(/, `${app}: ${stepsSaid(run)}`);
    const editing = await page.evaluate(() => [...document.querySelectorAll('li.editing label')].map((l) => l.textContent));
    assert.deepEqual(editing, ['call mum'], `${app}: ${stepsSaid(run)}`);
    assert.equal(run.success, true, `${app}: ${stepsSaid(run)}`);
  }
});

test('a list of options (a checkbox and its label per row, nothing else) lists no item beside each checkbox', async () => {
  const { page, lens } = await h.open('todo-app.html');
  await page.setContent(`<fieldset><legend>Toppings</legend><ul>
    <li><input type="checkbox" id="o1"><label for="o1">Olives</label></li>
    <li><input type="checkbox" id="o2"><label for="o2">Capers</label></li>
    <li><input type="checkbox" id="o3"><label for="o3">Basil</label></li></ul></fieldset>`);
  const snap = await lens.snapshot();
  assert.deepEqual(snap.interactive_tree.map((n) => [n.r, n.n]), [['chk', 'Olives'], ['chk', 'Capers'], ['chk', 'Basil']]);
});
