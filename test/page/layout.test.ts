// Geometry: what covers what, what is inside the viewport, and scroll containers, on real layouts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from '../support/harness.js';
import { llmId, v3Node, validSemantic, validV3 } from '../support/engine-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('a modal overlay marks the button under it as occluded, and only that one', async () => {
  const { page, lens } = await h.open('engine-occlusion.html');
  const result = validV3(await lens.snapshot());
  assert.equal((await v3Node(page, result, '#covered'))?.occ, true);
  const free = await v3Node(page, result, '#free');
  assert.ok(free);
  assert.equal('occ' in free, false);
  const close = await v3Node(page, result, '#close');
  assert.ok(close);
  assert.equal('occ' in close, false, 'the modal\'s own button is on top');
  assert.equal(result.meta.occludedElements, 1);

  const semantic = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  const coveredId = await llmId(page, '#covered');
  assert.equal(semantic.nodes.find((n) => n.id === coveredId)?.occluded, true);

  // Once the modal is gone, nothing is covered.
  await page.click('#close').catch(() => {});
  await page.evaluate(() => document.getElementById('backdrop')!.remove());
  const clear = validV3(await lens.snapshot());
  assert.equal(clear.meta.occludedElements, 0);
  assert.equal((await v3Node(page, clear, '#covered'))?.occ, undefined);
});

test('a long page is pruned to the viewport; fullPage keeps everything; scrolling changes the set', async () => {
  const { page, lens } = await h.open('engine-long.html');
  const top = validV3(await lens.snapshot());
  assert.equal(top.meta.totalElements, 15);
  assert.ok(top.meta.prunedElements > 0);
  assert.equal(top.meta.totalElements, top.meta.viewportElements + top.meta.prunedElements);
  assert.equal(top.meta.viewportElements, top.interactive_tree.length);
  assert.equal(top.scroll_position, '0%');
  assert.ok(top.interactive_tree.every((n) => n.xy[1] >= 0 && n.xy[1] < 800), 'every kept node is in the viewport');

  const full = validV3(await lens.snapshot({ fullPage: true }));
  assert.equal(full.interactive_tree.length, 15);
  assert.equal(full.meta.prunedElements, 0);
  assert.deepEqual(full.interactive_tree.map((n) => n.n), Array.from({ length: 15 }, (_, i) => `Item ${i}`));

  await page.evaluate(() => window.scrollTo(0, 1500));
  const scrolled = validV3(await lens.snapshot());
  assert.notEqual(scrolled.scroll_position, '0%');
  const before = new Set(top.interactive_tree.map((n) => n.i));
  assert.ok(scrolled.interactive_tree.length > 0);
  assert.ok(scrolled.interactive_tree.every((n) => !before.has(n.i)), 'after scrolling 1500px none of the first screen is in view');
  assert.equal(scrolled.meta.totalElements, scrolled.meta.viewportElements + scrolled.meta.prunedElements);
  // The same element keeps its ID whether it is reached by scrolling or by fullPage.
  for (const n of scrolled.interactive_tree) assert.equal(full.interactive_tree.find((f) => f.i === n.i)?.n, n.n);

  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  assert.equal(validV3(await lens.snapshot()).scroll_position, '100%');
});

test('an overflowing list reports its scroll depth and prunes what it hides', async () => {
  const { page, lens } = await h.open('engine-scroll.html');
  const first = validV3(await lens.snapshot());
  const listId = await llmId(page, '#list');
  assert.ok(listId, 'the scroll container is tagged');
  const list = first.interactive_tree.find((n) => n.i === listId);
  assert.deepEqual(list?.scr, { depth: '0%', h: true });
  assert.deepEqual(first.scrollable_containers, [{ id: listId, depth: '0%', hasMore: true }]);
  assert.ok(first.interactive_tree.some((n) => n.n === 'Message 0'));
  assert.ok(!first.interactive_tree.some((n) => n.n === 'Message 29'), 'items below the fold of the list are pruned');

  await page.evaluate(() => { const l = document.getElementById('list')!; l.scrollTop = l.scrollHeight; });
  const bottom = validV3(await lens.snapshot());
  assert.deepEqual(bottom.interactive_tree.find((n) => n.i === listId)?.scr, { depth: '100%', h: false });
  assert.deepEqual(bottom.scrollable_containers, [{ id: listId, depth: '100%', hasMore: false }]);
  assert.ok(bottom.interactive_tree.some((n) => n.n === 'Message 29'));
  assert.ok(!bottom.interactive_tree.some((n) => n.n === 'Message 0'), 'items scrolled out of the list are pruned');
  assert.ok(bottom.interactive_tree.some((n) => n.n === 'After the list'));
  assert.equal(bottom.meta.totalElements, bottom.meta.viewportElements + bottom.meta.prunedElements);

  const full = validV3(await lens.snapshot({ fullPage: true }));
  const items = full.interactive_tree.filter((n) => n.r === 'btn' && n.n.startsWith('Message '));
  assert.equal(items.length, 30, 'fullPage keeps items scrolled out of the list');
  assert.equal(new Set(items.map((n) => n.i)).size, 30);
});
