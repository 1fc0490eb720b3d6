// The extension's images paint over secret fields that show their value as the CDP host's do
// (test/browser/secret-covers.test.ts): the set-of-mark view and the plain PNG of the visible tab
// (chrome.tabs.captureVisibleTab) cover a password the page turned into text after it was typed,
// a card number, and a shown password in a cross-origin frame; an ordinary field stays legible.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ToolResult } from '../../src/tools/registry/types.js';
import { launchWithExtension, openTab, type ExtensionBrowser } from '../support/extension-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';
import { region } from '../support/secret-pixels.js';

let harness: Harness;
let ext: ExtensionBrowser;
before(async () => { harness = await startHarness(); ext = await launchWithExtension('pagelens-ext-covers-', { width: 900, height: 700 }); });
after(async () => { await ext?.close(); await harness?.close(); });

const extCall = (tabId: number, name: string, args: object = {}) =>
  ext.worker.evaluate(([id, n, a]) => (self as any).pagelens.tools.call(id, n, a), [tabId, name, args] as const) as Promise<ToolResult>;

test('the extension\'s set-of-mark view and plain PNG paint over secret fields shown in clear, frames included', { timeout: 60_000 }, async () => {
  const { page, tabId } = await openTab(ext, `${harness.originA}secret-shown.html`);
  await page.fill('#pw', 'HUNTER2SECRET');
  await page.click('#show');
  const inner = page.frameLocator('#inner');
  await inner.locator('#pw2').fill('INNERSECRET9');
  await inner.locator('#show2').click();
  const boxes = { pw: (await page.locator('#pw').boundingBox())!, card: (await page.locator('#card').boundingBox())!, inner: (await inner.locator('#pw2').boundingBox())!, name: (await page.locator('#name').boundingBox())! };
  const width = await page.evaluate(() => innerWidth);
  for (const args of [{}, { type: 'png' }]) {
    const r = await extCall(tabId, 'browser_take_screenshot', args);
    assert.ok(!r.isError, r.text);
    const image = Buffer.from(r.images![0].data, 'base64');
    const scale = (r.data as { width?: number }).width ? (r.data as { width: number }).width / width : 1;
    for (const k of ['pw', 'card', 'inner'] as const) {
      const got = await region(image, boxes[k], { scale });
      assert.equal(got.text, 0, `${JSON.stringify(args)}: the ${k} field's value shows (${got.text} text pixels)`);
      assert.ok(got.cover > got.total * 0.8, `${JSON.stringify(args)}: the ${k} field is not painted over (${got.cover}/${got.total})`);
    }
    assert.ok((await region(image, boxes.name, { scale })).text > 20, 'the ordinary field stays legible');
  }
});
