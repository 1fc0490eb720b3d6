// Shadow DOM: open roots are walked directly; closed roots, which no page script can reach,
// are handed to the engine over CDP, including those the page creates after a snapshot.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness.js';
import { validSemantic } from './engine-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const byName = <T extends { name: string }>(nodes: T[], name: string): T | undefined => nodes.find((n) => n.name === name);

test('open and closed shadow content is listed and marked isInShadow', async () => {
  const { lens } = await h.open('engine-shadow.html');
  const result = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  for (const name of ['Open shadow button', 'Open shadow field', 'Closed shadow button', 'Closed shadow link']) {
    const node = byName(result.nodes, name);
    assert.ok(node, `"${name}" is listed`);
    assert.equal(node.isInShadow, true, `"${name}" is marked as shadow content`);
  }
  assert.equal(byName(result.nodes, 'Closed shadow link')?.role, 'link');
  assert.equal(byName(result.nodes, 'Light button')?.isInShadow, undefined);
  // Shadow content keeps document order: the host stands where its content renders.
  const order = result.nodes.map((n) => n.name);
  assert.ok(order.indexOf('Light button') < order.indexOf('Open shadow button'));
  assert.ok(order.indexOf('Open shadow field') < order.indexOf('Closed shadow button'));
  assert.ok(order.indexOf('Closed shadow link') < order.indexOf('Add late widget'));
});

test('closed shadow roots created after a snapshot show up in the next one', async () => {
  const { page, lens } = await h.open('engine-shadow.html');
  const first = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  assert.equal(byName(first.nodes, 'Late closed button'), undefined);

  await page.click('#make-late');
  await page.evaluate(() => (window as any).addTimerWidget());
  // The page tells us of a new closed root through a CDP binding, an event of its own: read until it is in.
  let second = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  for (let i = 0; i < 30 && !byName(second.nodes, 'Timer closed button'); i++) {
    await new Promise((r) => setTimeout(r, 50));
    second = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  }
  for (const name of ['Late closed button', 'Timer closed button']) {
    const node = byName(second.nodes, name);
    assert.ok(node, `"${name}" is listed after its closed root appeared`);
    assert.equal(node.isInShadow, true);
  }
  // Nothing already known was renumbered by the new adoption.
  for (const name of ['Light button', 'Closed shadow button']) assert.equal(byName(second.nodes, name)?.id, byName(first.nodes, name)?.id);
});

test('elements added inside an adopted closed root are auto-tagged before any snapshot', async () => {
  const { page, lens } = await h.open('engine-shadow.html');
  await lens.snapshot();
  await page.evaluate(() => (window as any).addToClosed());
  await page.waitForFunction(() => (window as any).closedIds().every((id: string | null) => id !== null));
  const ids: Array<string | null> = await page.evaluate(() => (window as any).closedIds());
  assert.equal(ids.length, 3);
  assert.ok(ids.every((id) => id !== null && /^\d+$/.test(id)), `every control in the closed root has an ID: ${JSON.stringify(ids)}`);
  assert.equal(new Set(ids).size, 3);
  const result = validSemantic(await lens.snapshot({ mode: 'semantic' }));
  assert.equal(byName(result.nodes, 'Added inside closed root')?.id, ids[2]);
});
