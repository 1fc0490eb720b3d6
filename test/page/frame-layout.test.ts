// The frame structure a lens keeps between reads (issue 21: a warm read asks CDP only about what
// may have changed): which frames exist and the handles on their iframe elements. Every change that
// can make it wrong (an iframe added, removed, moved in the document or on screen, navigated, its
// document replaced, the window resized) must show in the very next warm read; an unchanged page
// must not list the frames again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { coreOf, type Lens } from '../../src/browser/lens.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** Waits until the page has `n` frames besides the main one, each loaded. */
async function frameCount(page: Page, n: number): Promise<Frame[]> {
  for (let i = 0; i < 200; i++) {
    const kids = page.frames().filter((f) => f !== page.mainFrame());
    if (kids.length === n) {
      await Promise.all(kids.map((f) => f.waitForLoadState('load')));
      return kids;
    }
    await page.waitForFunction((want) => document.querySelectorAll('iframe').length === want, n).catch(() => {});
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`the page never had ${n} frames`);
}

/**
 * Each frame's url and every button's name and box in top-level coordinates, measured with the
 * page's own DOM (Playwright's boundingBox misses an out-of-process iframe's border).
 */
async function truth(page: Page): Promise<Array<{ url: string; name: string; box: number[] }>> {
  const out: Array<{ url: string; name: string; box: number[] }> = [];
  for (const frame of page.frames()) {
    let origin: [number, number] = [0, 0];
    if (frame !== page.mainFrame()) {
      const owner = await frame.frameElement();
      origin = await owner.evaluate((el: Element) => { const r = el.getBoundingClientRect(); return [r.left + el.clientLeft, r.top + el.clientTop] as [number, number]; });
    }
    const buttons = await frame.evaluate(() => [...document.querySelectorAll('button')].map((b) => {
      const r = b.getBoundingClientRect();
      return { name: b.textContent!.trim(), box: [r.x, r.y, r.width, r.height] };
    }));
    // The document's own URL: after document.open() it is the opener's, which Playwright's frame.url() does not follow.
    const url = await frame.evaluate(() => location.href);
    for (const b of buttons) out.push({ url, name: b.name, box: [b.box[0] + origin[0], b.box[1] + origin[1], b.box[2], b.box[3]].map(Math.round) });
  }
  return out.sort((a, b) => a.url.localeCompare(b.url) || a.box[1] - b.box[1]);
}

/** The same, from a warm pagelens read. */
function seen(model: PageModel): Array<{ url: string; name: string; box: number[] }> {
  const url = new Map(model.frames.map((f) => [f.id, f.url]));
  return model.nodes.filter((n) => n.role === 'button')
    .map((n) => ({ url: url.get(n.frame ?? 0)!, name: n.name, box: n.box.map(Math.round) }))
    .sort((a, b) => a.url.localeCompare(b.url) || a.box[1] - b.box[1]);
}

async function checkWarm(lens: Lens, page: Page, step: string): Promise<PageModel> {
  const model = await lens.model({ fullPage: true });
  assert.deepEqual(seen(model), await truth(page), `${step}: the warm read matches the page`);
  const urls = await Promise.all(page.frames().filter((f) => f !== page.mainFrame()).map((f) => f.evaluate(() => location.href)));
  assert.deepEqual(model.frames.filter((f) => f.id !== 0).map((f) => f.url).sort(), urls.sort(), `${step}: the frames listed are the page's`);
  return model;
}

test('a warm read of an unchanged page does not list the frames again, and any change to them shows in the next read', async () => {
  const { page, lens } = await h.open('frames-layout.html');
  await frameCount(page, 2);
  const frames = coreOf(lens).frames;
  await checkWarm(lens, page, 'first read');
  // Chrome may still report the load's last frame events after the first read: that read's structure is then listed again once.
  await checkWarm(lens, page, 'second read');
  const listed = frames.listings;
  await checkWarm(lens, page, 'unchanged');
  await checkWarm(lens, page, 'unchanged again');
  assert.equal(frames.listings, listed, 'warm reads of an unchanged page reuse the kept frame structure');

  // Moved on screen (no frame event at all): geometry is measured on every read.
  await page.evaluate(() => { document.getElementById('spacer')!.style.height = '120px'; });
  await checkWarm(lens, page, 'iframes pushed down');
  await page.evaluate(() => { document.getElementById('cross')!.style.marginLeft = '200px'; });
  await checkWarm(lens, page, 'cross-origin iframe moved right');
  assert.equal(frames.listings, listed, 'moving iframes on screen does not list the frames again');

  await page.setViewportSize({ width: 700, height: 500 });
  await checkWarm(lens, page, 'window resized');

  // Added.
  await page.evaluate((src) => { const f = document.createElement('iframe'); f.id = 'added'; f.srcdoc = '<button>Added button</button>'; document.body.append(f); void src; }, '');
  await frameCount(page, 3);
  let m = await checkWarm(lens, page, 'iframe added');
  assert.ok(m.nodes.some((n) => n.name === 'Added button'), 'the added frame is read');

  // Moved in the document (a move reloads it: detached and attached again).
  await page.evaluate(() => { document.body.insertBefore(document.getElementById('added')!, document.getElementById('same')); });
  await frameCount(page, 3);
  m = await checkWarm(lens, page, 'iframe moved before its sibling');

  // Navigated: same-origin to another page, cross-origin to another cross-origin page.
  await page.evaluate(() => { (document.getElementById('same') as HTMLIFrameElement).src = 'frames-leaf.html?second'; });
  await page.waitForFunction(() => (document.getElementById('same') as HTMLIFrameElement).contentWindow?.location.search === '?second' && (document.getElementById('same') as HTMLIFrameElement).contentDocument?.readyState === 'complete');
  m = await checkWarm(lens, page, 'same-origin iframe navigated');
  assert.ok(m.frames.some((f) => f.url.endsWith('?second')), `the navigated frame's new url is listed: ${JSON.stringify(m.frames.map((f) => f.url))}`);
  const crossFrame = page.frames().find((f) => f.url().endsWith('?cross'))!;
  await crossFrame.evaluate(() => { location.search = '?cross2'; });
  await crossFrame.waitForURL(/\?cross2$/);
  await crossFrame.waitForLoadState('load');
  m = await checkWarm(lens, page, 'cross-origin iframe navigated');
  assert.ok(m.frames.some((f) => f.url.endsWith('?cross2')), `the cross-origin frame's new url is listed: ${JSON.stringify(m.frames.map((f) => f.url))}`);

  // A frame's document replaced without a load (document.open/write).
  await page.evaluate(() => {
    const d = (document.getElementById('same') as HTMLIFrameElement).contentDocument!;
    d.open(); d.write('<button>Rewritten button</button>'); d.close();
  });
  m = await checkWarm(lens, page, 'same-origin document replaced');
  assert.ok(m.nodes.some((n) => n.name === 'Rewritten button'), 'the replaced document is read');
  assert.equal(m.nodes.filter((n) => n.name === 'Leaf button').length, 1, 'nothing of the old document is left (the cross-origin frame\'s button is the only leaf button)');

  // Removed.
  await page.evaluate(() => { document.getElementById('added')!.remove(); });
  await frameCount(page, 2);
  m = await checkWarm(lens, page, 'iframe removed');
  assert.ok(!m.nodes.some((n) => n.name === 'Added button'), 'the removed frame is gone');
  await page.evaluate(() => { document.getElementById('cross')!.remove(); });
  await frameCount(page, 1);
  await checkWarm(lens, page, 'cross-origin iframe removed');
});
