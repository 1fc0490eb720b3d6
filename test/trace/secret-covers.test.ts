// A trace's screenshot paints over what the engine knows is secret, not only what a field's type
// says now: a password field the page turned into a text field after it was typed into, here and
// in a cross-origin iframe, is covered in the step's JPEG (src/trace/capture.ts with the lens's
// secretCovers), as in every image the model gets (test/browser/secret-covers.test.ts).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTrace } from '../../src/trace/library.js';
import { readTrace } from '../../src/trace/readTrace.js';
import { region } from '../support/secret-pixels.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let tmp: string;
before(async () => { h = await startHarness(); tmp = await mkdtemp(join(tmpdir(), 'pagelens-covers-')); });
after(async () => { await h?.close(); await rm(tmp, { recursive: true, force: true }); });

test('the library trace: a password shown in clear after it was typed, in the page and in a cross-origin frame, is painted over in the step\'s screenshot', { timeout: 60_000 }, async () => {
  const { page, lens } = await h.open('secret-shown.html', { loaded: true, viewport: { width: 900, height: 700 } });
  const file = join(tmp, 'shown.zip');
  const trace = startTrace(lens);
  const pw = (await lens.snapshot()).interactive_tree.find((n) => n.n === 'Password')!;
  assert.equal((await lens.act(`setValue(${pw.i}, "HUNTER2SECRET")`)).ok, true);
  await page.click('#show');
  const inner = page.frameLocator('#inner');
  await inner.locator('#pw2').fill('INNERSECRET9');
  await inner.locator('#show2').click();
  const name = (await lens.snapshot()).interactive_tree.find((n) => n.n === 'Name')!;
  await lens.act(`click(${name.i})`);
  await trace.stop(file);
  const boxes = { pw: (await page.locator('#pw').boundingBox())!, inner: (await inner.locator('#pw2').boundingBox())!, name: (await page.locator('#name').boundingBox())! };
  const { record, images } = await readTrace(file);
  const last = record.steps.at(-1)!;
  const jpeg = images.get(last.screenshot!.file)!;
  for (const k of ['pw', 'inner'] as const) {
    // A JPEG: the cover's colour within a few levels.
    const r = await region(jpeg, boxes[k], { tolerance: 12 });
    assert.equal(r.text, 0, `the ${k} field's value shows in the trace (${r.text} text pixels)`);
    assert.ok(r.cover > r.total * 0.8, `the ${k} field is not painted over in the trace (${r.cover}/${r.total})`);
  }
  assert.ok((await region(jpeg, boxes.name)).text > 20, 'the ordinary field stays legible');
  assert.deepEqual(last.warnings.filter((w) => /secret/.test(w)), [], 'every frame was checked');
});
