// The extension host holds the same lines as the CDP host (issue 20): a press lands where it was
// checked (a frame slid under the pointer on pointermove is refused as COVERED), and a value meant
// for a password field is masked in the result whatever the outcome.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { ActionResult } from '../../src/model/contracts/outcome.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { launchWithExtension, openTab, type ExtensionBrowser } from '../support/extension-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

const SECRET = 'hunter2-Secret!';
let harness: Harness;
let ext: ExtensionBrowser;

before(async () => {
  harness = await startHarness();
  ext = await launchWithExtension('pagelens-ext-sec-');
});

after(async () => {
  await ext?.close();
  await harness?.close();
});

const snapshot = (tabId: number) => ext.worker.evaluate((id) => (self as any).pagelens.snapshot(id), tabId) as Promise<SemanticV3Result>;
const act = (tabId: number, action: unknown) =>
  ext.worker.evaluate(([id, a]) => (self as any).pagelens.act(id, a, {}), [tabId, action] as const) as Promise<ActionResult>;
const idOf = (s: SemanticV3Result, name: string) => {
  const n = s.interactive_tree.find((x) => x.n === name);
  assert.ok(n, `no "${name}" in ${JSON.stringify(s.interactive_tree)}`);
  return n.i;
};

test('extension: a frame slid under the pointer on pointermove is refused as COVERED, nothing authorised', async () => {
  const { page, tabId } = await openTab(ext, harness.originA + 'sec-pointer-swap.html');
  const snap = await snapshot(tabId);
  const r = await act(tabId, `click(${idOf(snap, 'Cancel')})`);
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error?.code, 'COVERED', JSON.stringify(r));
  assert.equal(await page.evaluate(() => (window as any).authorized), 0, 'the payment was not authorised');
});

test('extension: a password value is masked when the action is refused (unknown ID, read-only field)', async () => {
  const { tabId } = await openTab(ext, harness.originA + 'sec-login.html');
  const snap = await snapshot(tabId);
  const unknown = await act(tabId, { type: 'setValue', id: '9999', value: SECRET });
  const readOnly = await act(tabId, { type: 'setValue', id: idOf(snap, 'Read-only secret'), value: SECRET });
  for (const r of [unknown, readOnly]) {
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.ok(!JSON.stringify(r).includes(SECRET), `the value is not echoed: ${JSON.stringify(r)}`);
  }
});

test('extension: a new document continues the numbering, and the sign-in page\'s IDs are refused on the next page', async () => {
  const { page, tabId } = await openTab(ext, harness.originA + 'sec-login.html?numbering');
  const a = await snapshot(tabId);
  const pw = idOf(a, 'Password');
  const go = await act(tabId, `click(${idOf(a, 'Continue')})`);
  assert.equal(go.ok, true, JSON.stringify(go));
  await page.waitForURL(/sec-comment\.html$/, { timeout: 5000 }).catch((e) => { throw new Error(`${e}: ${JSON.stringify(go)} ${page.url()}`); });
  await page.waitForSelector('textarea');
  const b = await snapshot(tabId);
  idOf(b, 'Public comment');
  for (const n of b.interactive_tree) assert.ok(!a.interactive_tree.some((o) => o.i === n.i), `${n.i} (${n.n}) was issued by the sign-in page`);
  for (let attempt = 1; attempt <= 3; attempt++) {
    const r = await act(tabId, { type: 'setValue', id: pw, value: SECRET });
    assert.equal(r.error?.code, 'NAVIGATED', `attempt ${attempt}: ${JSON.stringify(r)}`);
    assert.ok(!JSON.stringify(r).includes(SECRET), JSON.stringify(r));
  }
  assert.equal(await page.textContent('#posted'), 'nothing posted');
});

test('extension: element_disappears on an ID that never existed is BAD_INPUT, and the action is not done', async () => {
  const { page, tabId } = await openTab(ext, harness.originA + 'verify-defects.html');
  const snap = await snapshot(tabId);
  const r = await ext.worker.evaluate(([id, a, o]) => (self as any).pagelens.act(id, a, o),
    [tabId, `click(${idOf(snap, 'Does nothing visible')})`, { expect: { type: 'element_disappears', id: '9999' } }] as const) as ActionResult;
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error?.code, 'BAD_INPUT', JSON.stringify(r));
  assert.equal(await page.evaluate(() => (window as any).pressed ?? 0), 0, 'refused before acting');
});
