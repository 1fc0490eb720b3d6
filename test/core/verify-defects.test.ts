// Verification says what happened, never more (issue 19): each defect the review proved is a test
// that failed before its fix — an element that never existed does not "disappear", no_change means
// nothing changed, a short timeout is no reason for doubt, an unreadable frame is not "text gone",
// and a transport error while resolving an accessibility-tree ID is not "certainly gone".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { coreOf } from '../../src/browser/lens.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import { idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('element_disappears on an ID that never existed is BAD_INPUT, and the action is not done', async () => {
  const { page, lens } = await h.open('verify-defects.html');
  const snap = await lens.snapshot();
  const r = await lens.act(`click(${idOf(snap, 'Does nothing visible')})`, { expect: { type: 'element_disappears', id: '9999' } });
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error?.code, 'BAD_INPUT', JSON.stringify(r));
  assert.match(r.error!.message, /element 9999 is not on the page before the action/);
  assert.equal(await page.evaluate(() => (window as any).pressed ?? 0), 0, 'refused before acting');
  await assert.rejects(lens.capturePreActionState({ type: 'element_disappears', id: '9999' }), /BAD_INPUT|not on the page before the action/);
  // An element that is there and goes away still passes.
  const gone = await lens.act(`click(${idOf(snap, 'Dismiss banner')})`, { expect: { type: 'element_disappears', id: idOf(snap, 'Banner action') } });
  assert.equal(gone.verification?.success, true, JSON.stringify(gone.verification));
});

test('no_change is met only when nothing changed, and says what changed when something did', async () => {
  const { lens } = await h.open('verify-defects.html');
  const snap = await lens.snapshot();
  const changed = await lens.act(`click(${idOf(snap, 'Save draft')})`, { expect: 'no_change' });
  assert.equal(changed.ok, true);
  assert.equal(changed.verification?.success, false, JSON.stringify(changed.verification));
  assert.match(changed.verification!.actualOutcome, /the page changed \(.*Saved draft/);
  const quiet = await lens.act(`click(${idOf(snap, 'Does nothing visible')})`, { expect: 'no_change' });
  assert.equal(quiet.verification?.success, true, JSON.stringify(quiet.verification));
  assert.equal(quiet.verification?.actualOutcome, 'nothing changed');
});

test('a verification with a short timeout is not marked uncertain for a fractional wait', async () => {
  const { lens } = await h.open('verify-defects.html');
  const snap = await lens.snapshot();
  const r = await lens.act(`click(${idOf(snap, 'Save draft')})`, { expect: { type: 'element_appears', text: 'Saved draft', timeout: 1000 } });
  assert.equal(r.verification?.success, true, JSON.stringify(r.verification));
  assert.equal(r.verification?.uncertain, undefined, JSON.stringify(r.verification));
  assert.equal(r.verification?.confidence, 0.9);
});

test('browser_wait_for textGone: an unreadable frame is not "gone", and the page\'s main world cannot fake the text', async () => {
  const { page, lens } = await h.open('verify-defects.html');
  await lens.snapshot();
  // The frame's main world hides its body from scripts: its text is still there for a person.
  const inner = page.frames().find((f) => f.url().includes('verify-defects-frame.html'))!;
  await inner.evaluate(() => { Object.defineProperty(Document.prototype, 'body', { get() { throw new Error('no body for you'); } }); });
  const hidden = await runTool(lens, 'browser_wait_for', { textGone: 'Pending review' });
  assert.equal((hidden.data as { action: { ok: boolean } }).action.ok, false, `the text still shows: ${hidden.text}`);
  // The frame's engine is broken: its text cannot be searched, so "Pending review" is not known to be gone.
  const frame = (await coreOf(lens).frames.known()).find((f) => f.ordinal !== 0)!;
  await frame.target.callFunction(frame.frameId, 'function () { globalThis.__pagelens.findOnPage = () => { throw new Error("search sabotaged"); }; }', []);
  const gone = await runTool(lens, 'browser_wait_for', { textGone: 'Pending review' });
  const answer = gone.data as { action: { ok: boolean; error?: { message: string } } };
  assert.equal(answer.action.ok, false, gone.text);
  assert.match(answer.action.error!.message, /could not be searched.*search sabotaged/);
  // The main world fakes innerText: the text it claims is not on the page is not found.
  await page.evaluate(() => {
    Object.defineProperty(HTMLElement.prototype, 'innerText', { get() { return 'Payment approved'; } });
  });
  const fake = await runTool(lens, 'browser_wait_for', { text: 'Payment approved' });
  const faked = fake.data as { action: { ok: boolean } };
  assert.equal(faked.action.ok, false, fake.text);
});

test('a transport error while resolving an accessibility-tree ID is uncertain, not "certainly gone"', async () => {
  const { lens } = await h.open('verify-defects.html');
  const ax = await lens.axtree();
  // The banner's heading carries no data-llm-id: it is known by its EncodedId only.
  const axId = Object.keys(ax.xpathMap).find((k) => k.startsWith('0-') && /\/div(\[1\])?\/h2(\[1\])?$/.test(ax.xpathMap[k]));
  assert.ok(axId, JSON.stringify(ax.xpathMap));
  const node = { id: axId };
  const core = coreOf(lens);
  // Resolved by its backend node: the path is not there to fall back on.
  delete core.ax.xpathMap[node.id];
  core.pageTarget.cdp.injectFault('DOM.resolveNode', 'Internal error');
  try {
    const pre = await lens.capturePreActionState({ type: 'element_disappears', id: node.id });
    const v = await lens.verifyOutcome({ type: 'element_disappears', id: node.id, timeout: 300 }, pre);
    assert.equal(v.success, false, JSON.stringify(v));
    assert.ok(v.uncertain?.some((u) => /Internal error/.test(u)), JSON.stringify(v));
  } finally {
    core.pageTarget.cdp.injectFault('DOM.resolveNode', null);
  }
  // A node that really is gone still reads as gone.
  const pre = await lens.capturePreActionState({ type: 'element_disappears', id: node.id });
  await lens.page.evaluate(() => document.getElementById('banner')!.remove());
  const v = await lens.verifyOutcome({ type: 'element_disappears', id: node.id, timeout: 1000 }, pre);
  assert.equal(v.success, true, JSON.stringify(v));
});
