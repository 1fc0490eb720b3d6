// Secret values never leave the page in an image either: a password field the page turned into a
// text field after it was typed into ("show password"), a card number in a text field, and a
// password field shown in a cross-origin iframe are painted over in every screenshot the model
// gets (the hybrid snapshot, browser_take_screenshot with marks, plain, whole page, one element),
// while an ordinary field stays legible. The fixture draws the values in big black monospace, so
// "the value shows" is "near-black pixels inside the field's box".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runTool } from '../../src/browser/tools/runTool.js';
import { region } from '../support/secret-pixels.js';
import { startHarness, type Harness, type Opened } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const png = (b64: string) => Buffer.from(b64, 'base64');
type Box = { x: number; y: number; width: number; height: number };

/** The fixture with its secrets typed and then shown in clear; the boxes of its fields. */
async function shown(): Promise<Opened & { boxes: Record<'pw' | 'card' | 'name' | 'inner', Box> }> {
  const o = await h.open('secret-shown.html', { loaded: true, viewport: { width: 900, height: 700 } });
  const snap = await o.lens.snapshot();
  const pw = snap.interactive_tree.find((n) => n.n === 'Password');
  assert.ok(pw, JSON.stringify(snap.interactive_tree));
  assert.equal((await o.lens.act(`setValue(${pw.i}, "HUNTER2SECRET")`)).ok, true);
  await o.page.click('#show');
  // The inner field is typed by Playwright, not by pagelens: the engine learns it was secret from the type change alone.
  const inner = o.page.frameLocator('#inner');
  await inner.locator('#pw2').fill('INNERSECRET9');
  await inner.locator('#show2').click();
  await o.page.waitForFunction(() => (document.getElementById('pw') as HTMLInputElement).type === 'text');
  const box = async (l: ReturnType<typeof o.page.locator>) => (await l.boundingBox())!;
  return { ...o, boxes: { pw: await box(o.page.locator('#pw')), card: await box(o.page.locator('#card')), name: await box(o.page.locator('#name')), inner: await box(inner.locator('#pw2')) } };
}

/** Every secret field painted over, the ordinary one legible. */
async function assertCovered(label: string, image: Buffer, boxes: Record<string, Box>, origin: { x: number; y: number } = { x: 0, y: 0 }): Promise<void> {
  const at = (b: Box) => ({ ...b, x: b.x - origin.x, y: b.y - origin.y });
  for (const k of ['pw', 'card', 'inner']) {
    const r = await region(image, at(boxes[k]));
    assert.equal(r.text, 0, `${label}: the ${k} field's value shows (${r.text} text pixels)`);
    assert.ok(r.cover > r.total * 0.8, `${label}: the ${k} field is not painted over (${r.cover}/${r.total})`);
  }
  const name = await region(image, at(boxes.name));
  assert.ok(name.text > 20, `${label}: the ordinary field's value should stay legible`);
}

test('a shown password, a card number and a password in a cross-origin frame are painted over in every screenshot; an ordinary field is not', { timeout: 60_000 }, async () => {
  const o = await shown();
  // The page really draws the secrets in clear: a screenshot taken around pagelens shows them.
  const raw = await o.page.screenshot({ type: 'png' });
  for (const k of ['pw', 'card', 'inner'] as const) assert.ok((await region(raw, o.boxes[k])).text > 20, `the fixture shows ${k} in clear`);

  const hybrid = await o.lens.snapshot({ mode: 'hybrid', screenshot: { setOfMark: false, type: 'png' } });
  await assertCovered('hybrid', png(hybrid.screenshot), o.boxes);
  const marked = await runTool(o.lens, 'browser_take_screenshot');
  await assertCovered('set-of-mark', png(marked.images![0].data), o.boxes);
  const plain = await runTool(o.lens, 'browser_take_screenshot', { type: 'png' });
  assert.equal((plain.data as { secretFieldsCovered?: number }).secretFieldsCovered, 3, plain.text);
  await assertCovered('plain', png(plain.images![0].data), o.boxes);
  const covers = await o.lens.secretCovers();
  assert.equal(covers.boxes.length, 3, JSON.stringify(covers));
  assert.deepEqual(covers.warnings, []);

  // The whole page, scrolled: its boxes are in page coordinates.
  await o.page.evaluate(() => { document.body.style.paddingBottom = '1500px'; scrollTo(0, 120); });
  assert.equal(await o.page.evaluate(() => scrollY), 120);
  const full = await runTool(o.lens, 'browser_take_screenshot', { fullPage: true, type: 'png' });
  await assertCovered('full page', png(full.images![0].data), o.boxes);
  await o.page.evaluate(() => scrollTo(0, 0));

  // One element, the page scrolled past it (Playwright brings it into view): the password field alone is all cover.
  const pwId = (await o.lens.snapshot()).interactive_tree.find((n) => n.n === 'Password')!.i;
  await o.page.evaluate(() => scrollTo(0, 400));
  const one = await runTool(o.lens, 'browser_take_screenshot', { id: pwId, type: 'png' });
  const pwBox = (await o.page.locator('#pw').boundingBox())!;
  const r = await region(png(one.images![0].data), { x: 0, y: 0, width: pwBox.width, height: pwBox.height });
  assert.equal(r.text, 0, `the element image shows the password (${r.text} text pixels)`);
  assert.ok(r.cover > r.total * 0.8, `the element image is not painted over (${r.cover}/${r.total})`);
});
