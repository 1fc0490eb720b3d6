// Input as a person gives it: setValue types (trusted input, no faked change), type goes key by
// key, select handles multiple selects and custom ARIA dropdowns, and secrets stay secret.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const items = (page: import('playwright-core').Page, list: string) => page.$$eval(`${list} li`, (lis) => lis.map((l) => l.textContent));

test('setValue then Enter adds one item, whether the app listens to change or to Enter', async () => {
  const { page, lens } = await h.open('actions-todo.html');
  const snap = await lens.snapshot();
  for (const [name, list] of [['What needs to be done?', '#list-change'], ['Add a task', '#list-enter']] as const) {
    const field = idOf(snap, name);
    const typed = await lens.act(`setValue(${field}, "Buy milk")`);
    assert.equal(typed.ok, true, JSON.stringify(typed));
    assert.equal(typed.method, 'keyboard');
    assert.match(typed.detail ?? '', /typed "Buy milk" into \d+ \(not committed/);
    assert.deepEqual(await items(page, list), [], `${name}: nothing is added before the field is committed`);
    const enter = await lens.act(`press(${field}, "Enter")`);
    assert.equal(enter.ok, true, JSON.stringify(enter));
    assert.deepEqual(await items(page, list), ['Buy milk'], `${name}: exactly one item`);
  }
});

test('setValue is one trusted input; type is key by key; neither fakes a change event', async () => {
  const { page, lens } = await h.open('actions-todo.html');
  const search = idOf(await lens.snapshot(), 'Search');
  await lens.act(`setValue(${search}, "shoes")`);
  let counts = await page.evaluate(() => ({ ...(window as any).counts }));
  assert.deepEqual(counts, { keyups: 2, inputs: 1, changes: 0, trusted: 1 }, 'one trusted input (the keyups are Control+A\'s)');
  await lens.act(`type(${search}, "Red Hat")`);
  counts = await page.evaluate(() => ({ ...(window as any).counts }));
  assert.equal(await page.inputValue('#search'), 'Red Hat');
  assert.equal(counts.changes, 0, 'no change until the field is committed');
  assert.ok(counts.keyups >= 2 + 2 + 7, `a keyup per character: ${JSON.stringify(counts)}`);
  assert.equal(counts.trusted, counts.inputs, 'every input event is the browser\'s own');
  // Leaving the field commits it: the browser fires change itself.
  await lens.act(`focus(${idOf(await lens.snapshot(), 'What needs to be done?')})`);
  assert.equal((await page.evaluate(() => (window as any).counts.changes)), 1);
});

test('a value the field refuses is reported, pickers are set in one step, secrets never echo', async () => {
  const { page, lens } = await h.open('actions-todo.html');
  const snap = await lens.snapshot({ fullPage: true });
  const code = idOf(snap, 'Code');
  const long = await lens.act(`setValue(${code}, "ABCDEF")`);
  assert.equal(long.ok, false);
  assert.equal(long.error?.code, 'NOT_ACTIONABLE');
  assert.match(long.error!.message, /did not keep the value: it shows "ABC"/);
  const notAList = await lens.act(`select(${idOf(snap, 'Search')}, "shoes")`);
  assert.equal(notAList.error?.code, 'NOT_ACTIONABLE');
  assert.match(notAList.error!.message, /is a textbox, not a select, listbox or combobox/);
  const date = await lens.act(`setValue(${idOf(snap, 'Date')}, "2026-11-23")`);
  assert.equal(date.ok, true, JSON.stringify(date));
  assert.equal(date.method, 'js');
  assert.equal(await page.inputValue('#when'), '2026-11-23');
  const pw = idOf(snap, 'Password');
  const secret = await lens.act(`setValue(${pw}, "hunter2")`);
  assert.equal(secret.ok, true, JSON.stringify(secret));
  assert.equal(await page.inputValue('#pw'), 'hunter2');
  assert.ok(!JSON.stringify(secret).includes('hunter2'), `the result never repeats the password: ${JSON.stringify(secret)}`);
  assert.equal(secret.action, `setValue(${pw}, "***")`);
  assert.equal((await lens.snapshot({ fullPage: true })).interactive_tree.find((n) => n.i === pw)?.v, '***');
});

test('select on a multiple select takes several options and says which ended selected', async () => {
  const { page, lens } = await h.open('actions-select.html');
  const snap = await lens.snapshot();
  const countries = idOf(snap, 'Countries');
  const r = await lens.act(`select(${countries}, ["Taiwan", "Tajikistan"])`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.match(r.detail ?? '', /now selected: "Taiwan", "Tajikistan"$/);
  assert.equal(await page.textContent('#out'), 'countries: Taiwan+Tajikistan');
  const again = await lens.act({ type: 'select', id: countries, option: ['Thailand'] });
  assert.match(again.detail ?? '', /now selected: "Thailand"$/);
  const single = await lens.act(`select(${idOf(snap, 'Shipping')}, ["Standard", "Express (1 day)"])`);
  assert.equal(single.ok, false);
  assert.match(single.error!.message, /takes one option, not 2/);
  const missing = await lens.act(`select(${countries}, ["Taiwan", "Narnia"])`);
  assert.match(missing.error!.message, /no option "Narnia" \(options: "Taiwan", "Tajikistan", "Tanzania", "Thailand"\)/);
});

test('custom dropdowns: opened, the option found by its name and clicked with real input', async () => {
  const { page, lens } = await h.open('actions-select.html');
  const snap = await lens.snapshot();
  // A popup that appears late, named by aria-controls.
  const fruit = await lens.act(`select(${idOf(snap, 'Fruit')}, "Cherry")`);
  assert.equal(fruit.ok, true, JSON.stringify(fruit));
  assert.equal(fruit.method, 'mouse');
  assert.match(fruit.detail ?? '', /selected "Cherry" in \d+ \(opened it, clicked option \d+ "Cherry"\)/);
  assert.equal(await page.textContent('#out'), 'fruit: Cherry');
  assert.equal(fruit.warnings, undefined, JSON.stringify(fruit.warnings));
  // A popup in a portal that names nothing: the listbox shown on the page.
  const color = await lens.act(`select(${idOf(snap, 'Colour')}, "blue")`);
  assert.equal(color.ok, true, JSON.stringify(color));
  assert.equal(await page.textContent('#out'), 'colour: Blue');
  // A listbox that is always open.
  const size = await lens.act(`select(${idOf(snap, 'Size')}, "Large")`);
  assert.equal(size.ok, true, JSON.stringify(size));
  assert.equal(await page.getAttribute('#size [role=option]:nth-child(3)', 'aria-selected'), 'true');
  // An autocomplete that shows options only once typed into.
  const city = await lens.act(`select(${idOf(snap, 'City')}, "Lisbon")`);
  assert.equal(city.ok, true, JSON.stringify(city));
  assert.match(city.detail ?? '', /typed "Lisbon" to filter, clicked option/);
  assert.equal(await page.inputValue('#city'), 'Lisbon');
});

test('custom dropdowns refuse with the options they saw, and refuse to guess between look-alikes', async () => {
  const { page, lens } = await h.open('actions-select.html');
  const snap = await lens.snapshot();
  const fruit = idOf(snap, 'Fruit');
  const missing = await lens.act(`select(${fruit}, "Durian")`);
  assert.equal(missing.ok, false);
  assert.equal(missing.error?.code, 'NOT_ACTIONABLE');
  assert.match(missing.error!.message, /no option "Durian" \(options seen: "Apple", "Banana", "Cherry", "Banana split"\)/);
  await page.keyboard.press('Escape');
  await page.evaluate(() => { document.getElementById('fruit-list')?.remove(); document.getElementById('fruit')!.setAttribute('aria-expanded', 'false'); });
  const vague = await lens.act(`select(${fruit}, "Ban")`);
  assert.equal(vague.error?.code, 'AMBIGUOUS', JSON.stringify(vague));
  assert.equal(await page.textContent('#out'), 'nothing chosen', 'nothing was picked');
  const native = await lens.act(`select(${idOf(await lens.snapshot(), 'Shipping')}, "Overnight")`);
  assert.match(native.error!.message, /no option "Overnight" \(options: "Standard", "Express \(1 day\)"\)/);
});
