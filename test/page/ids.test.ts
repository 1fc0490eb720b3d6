// Element IDs: stable for the same element, fresh for a new one, never reused, never taken from
// the page's word (a forged or cloned data-llm-id), and extraction unaffected by a page that
// sabotages the built-ins of its main world.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ElementHandle, Page } from 'playwright-core';
import { engineCall } from '../../src/browser/engine.js';
import { coreOf } from '../../src/browser/lens.js';
import { startHarness, type Harness } from '../support/harness.js';
import { ID_ATTR, llmId, v3Node, validSemantic, validV3 } from '../support/engine-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** Every tagged element in the light DOM, by ID; fails when two elements carry the same one. */
async function taggedElements(page: Page): Promise<Map<string, ElementHandle>> {
  const out = new Map<string, ElementHandle>();
  for (const el of await page.$$(`[${ID_ATTR}]`)) {
    const id = (await el.getAttribute(ID_ATTR))!;
    assert.ok(!out.has(id), `two elements in the DOM carry ${ID_ATTR}="${id}"`);
    out.set(id, el);
  }
  return out;
}

test('a re-render keeps IDs of untouched elements, gives re-created ones new IDs, and reuses none', async () => {
  const { page, lens } = await h.open('engine-rerender.html');
  const first = validV3(await lens.snapshot());
  const before = await taggedElements(page);
  const staticId = await llmId(page, '#static');
  const oldBuy = first.interactive_tree.filter((n) => n.n.startsWith('Buy ')).map((n) => n.i);
  assert.equal(oldBuy.length, 2);

  await page.evaluate(() => (window as any).rerender());
  const second = validV3(await lens.snapshot());
  const after = await taggedElements(page);

  assert.equal(await llmId(page, '#static'), staticId);
  assert.equal(second.interactive_tree.find((n) => n.i === staticId)?.n, 'Static header button');
  const newBuy = second.interactive_tree.filter((n) => n.n.startsWith('Buy ')).map((n) => n.i);
  assert.deepEqual(second.interactive_tree.filter((n) => n.n.startsWith('Buy ')).map((n) => n.n), ['Buy apples', 'Buy pears']);
  for (const id of newBuy) assert.ok(!oldBuy.includes(id), `re-created element got an old ID ${id}`);

  // One ID, one element: an ID present before and after names the very same DOM node.
  for (const [id, el] of after) {
    const old = before.get(id);
    if (old) assert.ok(await page.evaluate(([a, b]) => a === b, [old, el] as const), `ID ${id} moved to another element`);
  }
  const allIds = [...first.interactive_tree, ...second.interactive_tree].map((n) => n.i);
  const nameOf = new Map<string, string>();
  for (const n of [...first.interactive_tree, ...second.interactive_tree]) {
    if (nameOf.has(n.i)) assert.equal(nameOf.get(n.i), n.n, `ID ${n.i} names two different elements`);
    nameOf.set(n.i, n.n);
  }
  assert.equal(new Set(allIds).size, 7, 'four elements first, then one kept and three new');
});

test('elements added by script are tagged by the auto-tagger before the next snapshot', async () => {
  const { page, lens } = await h.open('engine-rerender.html');
  const first = validV3(await lens.snapshot());
  await page.evaluate(() => (window as any).addLate());
  // Tagged by the debounced auto-tagger, before and without any snapshot.
  await page.waitForSelector('#late[data-llm-id]');
  await page.waitForSelector('#late-clickable[data-llm-id]');
  const lateId = await llmId(page, '#late');
  const clickableId = await llmId(page, '#late-clickable');
  assert.match(lateId ?? '', /^\d+$/);
  assert.match(clickableId ?? '', /^\d+$/);
  assert.ok(!first.interactive_tree.some((n) => n.i === lateId || n.i === clickableId));
  const second = validV3(await lens.snapshot());
  assert.equal(second.interactive_tree.find((n) => n.i === lateId)?.n, 'Added later');
  assert.equal(second.interactive_tree.find((n) => n.i === clickableId)?.r, 'clickable');
});

test('the auto-tagger runs from the start of the document, before any snapshot', async () => {
  const { page } = await h.open('engine-rerender.html');
  await page.waitForSelector('#static[data-llm-id]', { timeout: 3000 });
  assert.match(await llmId(page, '#static') ?? '', /^\d+$/, 'elements parsed with the page are tagged');
  await page.evaluate(() => (window as any).addLate());
  await page.waitForSelector('#late[data-llm-id]', { timeout: 3000 });
  assert.match(await llmId(page, '#late') ?? '', /^\d+$/, 'elements added later are tagged');
});

test('the auto-tagger works in slices, so a read need not wait for it; what a whole-page read walked, it does not walk again', async () => {
  // A page with no timers of its own: the tagger's next round starts with the rows added here.
  const { page, lens } = await h.open('no-landmarks.html');
  await lens.snapshot();
  const main = (await coreOf(lens).frames.known()).find((f) => f.ordinal === 0)!;
  const stats = () => engineCall(main, 'taggerStats');
  const addRows = (id: string) => page.evaluate((id) => {
    const bulk = document.createElement('div');
    bulk.id = id;
    bulk.innerHTML = Array.from({ length: 8000 }, (_, i) => `<p><button>Row ${i}</button> <a href="#r${i}">Item ${i}</a></p>`).join('');
    document.body.append(bulk);
  }, id);
  // One insertion of 24,000 elements: the tagger gets to it alone, and gives the page back between slices.
  const before = await stats();
  await addRows('first');
  await page.waitForFunction(() => !document.querySelector('#first button:not([data-llm-id])'));
  const tagged = await stats();
  assert.ok(tagged.inspected - before.inspected >= 24_000, JSON.stringify([before, tagged]));
  assert.ok(tagged.slices - before.slices >= 2, `one insertion tagged in ${tagged.slices - before.slices} slice(s)`);
  // Another, read by a whole-page read before the tagger's turn comes (in the same task as the
  // insertion, in the engine's world): the read tags it all, and the tagger is left nothing.
  const target = coreOf(lens).pageTarget;
  const contextId = target.currentContext(main.frameId)!;
  const read = await target.cdp.send<{ result: { value?: string } }>('Runtime.evaluate', { contextId, returnByValue: true, expression: `(() => {
    const bulk = document.createElement('div');
    bulk.id = 'second';
    bulk.innerHTML = Array.from({ length: 8000 }, (_, i) => '<p><button>Row ' + i + '</button> <a href="#r' + i + '">Item ' + i + '</a></p>').join('');
    document.body.append(bulk);
    return globalThis.__pagelens.read({ viewportOnly: false }, null);
  })()` });
  assert.ok(read.result.value?.includes('Row 7999'), 'the read lists the new rows');
  const afterRead = await stats();
  assert.equal(afterRead.pending, 0, 'nothing is left for the tagger');
  await page.waitForTimeout(400); // past the tagger's debounce
  assert.equal((await stats()).inspected, afterRead.inspected, 'the tagger walked nothing the read had walked');
  assert.equal(await page.evaluate(() => document.querySelectorAll('#second [data-llm-id]').length), 16_000);
});

test('a hostile main world changes nothing: names, boxes and states are right', async () => {
  const { page, lens } = await h.open('engine-hostile.html');
  const result = validV3(await lens.snapshot({ boxes: true }));
  const button = await v3Node(page, result, '#target');
  assert.equal(button?.n, 'Real button');
  assert.equal(button?.r, 'btn');
  assert.deepEqual(button?.box, [100, 200, 120, 30]);
  assert.deepEqual(button?.xy, [160, 215]);
  assert.equal(button?.occ, undefined);
  const field = await v3Node(page, result, '#field');
  assert.equal(field?.n, 'Real field');
  assert.deepEqual(field?.box?.slice(0, 2), [100, 260]);
  assert.equal(result.interactive_tree.length, 2);
  assert.equal(result.meta.estimatedTokens > 0, true);
  validSemantic(await lens.snapshot({ mode: 'semantic', fullPage: true }));
  assert.ok((await lens.text()).includes("Real button"));
});

test('forged and cloned data-llm-id attributes are never believed', async () => {
  const { page, lens } = await h.open('engine-hostile.html');
  const first = validV3(await lens.snapshot());
  assert.ok(!first.interactive_tree.some((n) => /forged/i.test(n.n)), 'plain divs are not listed');
  assert.equal(await llmId(page, '#forged'), null, 'a forged ID on a plain div is removed');
  assert.equal(await llmId(page, '#forged-big'), null);
  const realId = (await llmId(page, '#target'))!;

  // The page clones the tagged button (attribute and all) and stamps the real ID on a plain div.
  await page.evaluate(() => (window as any).forgeLater());
  const second = validV3(await lens.snapshot());
  const copyId = await llmId(page, '#copy');
  assert.ok(copyId && copyId !== realId, `the clone gets its own ID (real ${realId}, clone ${copyId})`);
  assert.equal(second.interactive_tree.find((n) => n.i === realId)?.n, 'Real button');
  assert.equal(second.interactive_tree.find((n) => n.i === copyId)?.n, 'Cloned button');
  assert.equal(second.interactive_tree.filter((n) => n.i === realId).length, 1);
  assert.equal(await llmId(page, '#forged-late'), null, 'a copied ID on a plain div is removed');
  assert.deepEqual([...(await taggedElements(page)).keys()].sort(), [realId, copyId, await llmId(page, '#field')].sort());
});
