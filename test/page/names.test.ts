// What the engine says about each element: names from every labelling pattern, values, states,
// redaction of secrets, and which hidden things are left out. Real Chromium, real output.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { startHarness, type Harness } from '../support/harness.js';
import { llmId, names, semNode, v3Node, validSemantic, validV3 } from '../support/engine-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const LABELS: Array<[selector: string, name: string]> = [
  ['#f-for', 'Email address'],
  ['#f-wrap', 'Full name'],
  ['#f-aria', 'Search query'],
  ['#f-labelledby', 'Phone number'],
  ['#f-placeholder', 'Enter coupon'],
  ['#f-prevlabel', 'Username'],
  ['#f-span', 'City'],
  ['#f-cell', 'Postal code'],
  ['#f-data', 'Company'],
  ['#f-title', 'Promo code'],
  ['#f-name', 'first name'],
  ['#f-check', 'Subscribe to newsletter'],
  ['#f-select', 'Country'],
  ['#f-area', 'Message'],
];

test('every label pattern gives the field the name a person reads', async () => {
  const { page, lens } = await h.open('engine-labels.html');
  const result = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  const wrong: string[] = [];
  for (const [selector, expected] of LABELS) {
    const node = await semNode(page, result, selector);
    if (node?.name !== expected) wrong.push(`${selector}: expected "${expected}", got ${node ? `"${node.name}"` : 'no node'}`);
  }
  assert.deepEqual(wrong, []);
  assert.equal((await semNode(page, result, '#f-check'))?.role, 'checkbox');
  assert.equal((await semNode(page, result, '#f-placeholder'))?.placeholder, 'Enter coupon');
});

test('icon-only buttons are named by title and by aria-label', async () => {
  const { page, lens } = await h.open('engine-labels.html');
  const result = validV3(await lens.snapshot());
  assert.equal((await v3Node(page, result, '#b-title'))?.n, 'Close dialog');
  assert.equal((await v3Node(page, result, '#b-aria'))?.n, 'Open menu');
  const div = await v3Node(page, result, '#b-div');
  assert.equal(div?.n, 'Settings');
  assert.equal(div?.r, 'btn');
});

test('an element that only looks clickable is named by its visible text, blocks apart', async () => {
  const { page, lens } = await h.open('engine-labels.html');
  const result = validV3(await lens.snapshot());
  const card = await v3Node(page, result, '#c-card');
  assert.equal(card?.r, 'clickable');
  assert.equal(card?.n, 'Pro plan $10/month');
});

test('the text form carries the same names', async () => {
  const { page, lens } = await h.open('engine-labels.html');
  await lens.snapshot();
  const text = await lens.text();
  const id = await llmId(page, '#f-for');
  // Only what the names promise: the text layout itself belongs to the renderer's own tests.
  const line = text.split('\n').find((l) => l.startsWith(`${id} `));
  assert.ok(line?.includes('Email address'), `line for ${id}: ${line}`);
  assert.ok(text.split('\n').some((l) => /^\d+ /.test(l) && l.includes('Close dialog')));
});

test('select value is the selected label and states come in the fixed order', async () => {
  const { page, lens } = await h.open('engine-states.html');
  const result = validV3(await lens.snapshot());
  const select = await v3Node(page, result, '#country');
  assert.equal(select?.r, 'sel');
  assert.equal(select?.v, 'Canada');
  assert.equal((await v3Node(page, result, '#terms'))?.s, 'disabled,checked,required');
  assert.equal((await v3Node(page, result, '#code'))?.s, 'required,readonly');
  assert.equal((await v3Node(page, result, '#code'))?.v, 'ABC-123');
  assert.equal((await v3Node(page, result, '#menu-open'))?.s, 'expanded');
  assert.equal((await v3Node(page, result, '#menu-shut'))?.s, 'collapsed');
  assert.equal((await v3Node(page, result, '#more summary'))?.s, 'collapsed');
  assert.equal((await v3Node(page, result, '#focus-me'))?.s, 'required,readonly,focused');
  assert.equal((await v3Node(page, result, '#bio'))?.v, 'Plain text');

  // States follow the page as it changes.
  await page.click('#more summary');
  await page.focus('#bio');
  const after = validV3(await lens.snapshot());
  assert.equal((await v3Node(page, after, '#more summary'))?.s, 'expanded');
  assert.equal((await v3Node(page, after, '#bio'))?.s, 'focused');
  assert.equal((await v3Node(page, after, '#focus-me'))?.s, 'required,readonly');
  assert.ok(await v3Node(page, after, '#in-details'), 'a button inside an opened <details> is listed');
});

test('passwords and card numbers never leave the page', async () => {
  const { page, lens } = await h.open('engine-states.html');
  await page.fill('#pw', 'typed-secret-value');
  await page.fill('#cc', '5500000000000004');
  for (const mode of ['semantic_v3', 'semantic'] as const) {
    const result = await lens.snapshot({ mode, fullPage: true });
    const json = JSON.stringify(result);
    for (const secret of ['typed-secret-value', 'hunter2', '5500000000000004', '4111111111111111']) {
      assert.ok(!json.includes(secret), `${mode} output leaks "${secret}"`);
    }
  }
  const v3 = validV3(await lens.snapshot());
  assert.equal((await v3Node(page, v3, '#pw'))?.v, '***');
  assert.equal((await v3Node(page, v3, '#cc'))?.v, '***');
  const sem = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  assert.equal((await semNode(page, sem, '#pw'))?.value, '***');
  assert.equal((await semNode(page, sem, '#pw'))?.type, 'password');
  assert.ok(!(await lens.text()).includes('typed-secret-value'));
});

test('hidden elements are dropped; transparent targets are kept with their own box; a visually hidden checkbox borrows its label', async () => {
  const { page, lens } = await h.open('engine-states.html');
  const result = validV3(await lens.snapshot({ fullPage: true, boxes: true }));
  for (const selector of ['#h-display', '#h-visibility', '#h-inert', '#h-zero', '#h-input', '#in-details']) {
    assert.equal(await v3Node(page, result, selector), undefined, `${selector} should not be listed`);
  }
  for (const hidden of ['Hidden display', 'Hidden visibility', 'Inert ghost', 'Hidden zero', 'Hidden in details', 'csrf token', 'Faded inert link']) {
    assert.ok(!names(result).includes(hidden), `"${hidden}" is listed`);
  }
  // Transparent but taking the pointer: a click there lands on it, so it is a target, at its own place.
  // Also when a transparent ancestor does it (a footer faded in on scroll): Chrome and Playwright list it too.
  for (const [selector, name] of [['#h-opacity', 'Hidden opacity'], ['#styled', 'Dark mode'], ['#faded-link', 'Faded footer link']]) {
    const node = await v3Node(page, result, selector);
    assert.equal(node?.n, name, `${selector} is listed`);
    const r = (await page.locator(selector).boundingBox())!;
    assert.deepEqual(node!.box, [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)], `${selector} has its own box`);
  }
  for (const [input, label, name] of [['#styled-sr', 'label[for=styled-sr]', 'Compact view']]) {
    const node = await v3Node(page, result, input);
    assert.ok(node, `${input} is listed`);
    assert.equal(node.r, 'chk');
    assert.equal(node.n, name);
    const r = await page.locator(label).boundingBox();
    assert.ok(r && node.box);
    assert.deepEqual(node.box, [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)], `${input} has its label's box`);
    assert.equal(node.occ, undefined, `${input} is not covered by its own label`);
  }
});

test('results validate against the published schemas in both modes', async () => {
  // Every other test validates what it reads too; these two pages add scroll and cover fields.
  for (const fixture of ['engine-scroll.html', 'engine-occlusion.html']) {
    const { lens } = await h.open(fixture);
    validV3(await lens.snapshot({ fullPage: true, boxes: true }));
    validSemantic(await lens.snapshot({ mode: 'semantic' }));
  }
});

test('meta.estimatedTokens is the token count of the JSON it is part of', async () => {
  const { lens } = await h.open('engine-labels.html');
  for (const mode of ['semantic_v3', 'semantic'] as const) {
    const result = await lens.snapshot({ mode, fullPage: true });
    const actual = await countTokens(JSON.stringify(result));
    assert.ok(result.meta.estimatedTokens > 100, 'a page with 18 elements costs more than 100 tokens');
    assert.ok(Math.abs(actual - result.meta.estimatedTokens) <= 3, `${mode}: estimated ${result.meta.estimatedTokens}, actual ${actual}`);
  }
});

test('links without href are targets when onclick, a role or a tabindex makes them one', async () => {
  const { lens } = await h.open('engine-hrefless.html');
  const names = (await lens.snapshot()).interactive_tree.map((n) => [n.r, n.n]);
  assert.deepEqual(names, [['clickable', 'Beauté'], ['btn', 'Log in'], ['clickable', 'Menu']]);
});

test('::first-letter capitals reach a name only from the block that opens the text, however far up it sits', async () => {
  // Pinned on the names main gave before the first read stopped reading every ancestor's display
  // when no ::first-letter rule can apply (src/page/semantics/accname.ts firstLetterRuleUp).
  const { page, lens } = await h.open('engine-firstletter.html');
  const result = validSemantic(await lens.snapshot({ mode: 'semantic', fullPage: true }));
  const got: Record<string, string | undefined> = {};
  for (const id of ['plain', 'far', 'two', 'refs', 'btn', 'own']) got[id] = (await semNode(page, result, `#${id}`))?.name;
  assert.deepEqual(got, { plain: 'pick plain', far: 'Pick far', two: 'Alpha beta', refs: 'gamma Delta', btn: 'save draft', own: 'Open file' });
});

test('text above a box of several unlabelled fields names none of them; text above a wrapped lone field still names it', async () => {
  const { page, lens } = await h.open('engine-labels.html');
  await page.setContent(`
    <div id="query">Focus into the 2nd input textbox.</div>
    <div id="area"><input id="g1"><input id="g2"><input id="g3"></div>
    <div><span>Email</span><div class="wrap"><input id="lone"></div></div>`);
  const snap = await lens.snapshot({ mode: 'semantic_v3', fullPage: true });
  const ids = new Map<string, string | null>();
  for (const sel of ['#g1', '#g2', '#g3', '#lone']) ids.set(sel, await llmId(page, sel));
  const named = (sel: string) => snap.interactive_tree.find((n) => n.i === ids.get(sel))?.n;
  for (const sel of ['#g1', '#g2', '#g3']) assert.notEqual(named(sel), 'Focus into the 2nd input textbox.', `${sel}: ${JSON.stringify(snap.interactive_tree)}`);
  assert.equal(named('#lone'), 'Email', JSON.stringify(snap.interactive_tree));
});
