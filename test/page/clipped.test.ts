// Targets an overflow: hidden container cuts off are not listed, and not silently lost either:
// the container says how many it hides and where, so an agent knows to scroll or open it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('a carousel and a collapsed menu say how many targets they hide and where', async () => {
  const { page, lens } = await h.open('todo-app.html');
  await page.setContent(`<body style="font:14px sans-serif;margin:20px">
    <div class="carousel" aria-label="Deals" style="width:320px;overflow:hidden;white-space:nowrap">
      <div style="display:flex;gap:10px;width:max-content">${[1, 2, 3, 4, 5, 6].map((i) => `<div style="width:150px"><button>Deal ${i}</button></div>`).join('')}</div>
    </div>
    <nav><button id="toggle" aria-expanded="false">Menu</button>
      <ul id="menu" style="max-height:0;overflow:hidden;margin:0">${['Home', 'Shop', 'About'].map((x) => `<li><a href="#${x}">${x}</a></li>`).join('')}</ul></nav>
    <button>Outside</button></body>`);
  const snap = await lens.snapshot({ fullPage: true });
  const names = snap.interactive_tree.map((n) => n.n);
  assert.ok(names.includes('Deal 1') && names.includes('Deal 2'), JSON.stringify(names));
  assert.ok(!names.includes('Deal 3') && !names.includes('Home'), 'what is cut off is not listed as a target');
  const carousel = snap.interactive_tree.find((n) => n.hid && n.n === 'Deals');
  assert.deepEqual(carousel?.hid, { n: 4, why: 'clipped right' }, JSON.stringify(snap.interactive_tree));
  assert.equal(carousel?.r, 'region');
  const menu = snap.interactive_tree.find((n) => n.hid && n.hid.why === 'clipped below');
  assert.equal(menu?.hid?.n, 3, JSON.stringify(snap.interactive_tree));
  // In order: the carousel's container comes before the deals it holds.
  assert.ok(snap.interactive_tree.indexOf(carousel!) < names.indexOf('Deal 1'));
  assert.match(await lens.text({ fullPage: true }), /region Deals \(hides 4: clipped right\)/);
  // Opening the menu reveals its links; the account is gone with the clipping.
  await page.evaluate(() => { document.getElementById('menu')!.style.maxHeight = 'none'; });
  const open = await lens.snapshot({ fullPage: true });
  assert.ok(open.interactive_tree.some((n) => n.n === 'Home'));
  assert.ok(!open.interactive_tree.some((n) => n.hid?.why === 'clipped below'));
});

test('the container that actually cuts a target off reports it, not a card around the target', async () => {
  const { page, lens } = await h.open('todo-app.html');
  // A strip two rows tall holding cards that clip their own content: the third row's links lie
  // inside their cards but below the strip.
  await page.setContent(`<body style="margin:10px;font:14px sans-serif">
    <div id="strip" aria-label="Sponsored" style="height:120px;overflow:hidden">
      ${[1, 2, 3].map((r) => `<div style="display:flex;gap:8px">${[1, 2].map((c) => `<div style="width:200px;height:60px;overflow:hidden"><a href="#${r}${c}">Story ${r}.${c}</a></div>`).join('')}</div>`).join('')}
    </div></body>`);
  const snap = await lens.snapshot({ fullPage: true });
  const names = snap.interactive_tree.map((n) => n.n);
  assert.ok(names.includes('Story 2.2') && !names.includes('Story 3.1'), JSON.stringify(names));
  const holders = snap.interactive_tree.filter((n) => n.hid);
  assert.deepEqual(holders.map((n) => [n.n, n.hid]), [['Sponsored', { n: 2, why: 'clipped below' }]], JSON.stringify(snap.interactive_tree));
});
