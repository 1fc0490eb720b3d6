// The MV3 extension (issue 15), end to end: extension/dist loaded unpacked into headless Chromium,
// driven through its service worker (self.pagelens), compared with the CDP host on the same page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Worker } from 'playwright-core';
import { HeuristicPlanner } from '../../src/agent/heuristic.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { DEMO_TASK } from '../../src/model/tasks/demo.js';
import type { ActionResult, ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { launchWithExtension, openTab as openTabIn, restartServiceWorker, ROOT, sameStartAs, type ExtensionBrowser } from '../support/extension-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

const SCREENSHOT = '/tmp/pagelens-extension-sidepanel.png';


interface TaskRunShape { status: string; message: string; success: boolean; steps: Array<{ action: string; mode: string; tokensSent: number; result?: ActionResult }> }

let harness: Harness;
let context: BrowserContext;
let worker: Worker;
let ext: ExtensionBrowser;
let demo: StaticServer;
let backend: RunningServer;

before(async () => {
  harness = await startHarness();
  demo = await serveFolder(join(ROOT, 'assets'));
  backend = await startServer({ port: 0, planner: new HeuristicPlanner(), token: 'ext-test-token' });
  ext = await launchWithExtension('pagelens-ext-');
  context = ext.context;
  worker = ext.worker;
});

after(async () => {
  await ext?.close();
  await harness?.close();
  await demo?.close();
  await backend?.close();
});

const openTab = (url: string) => openTabIn(ext, url);

// The service worker's API, called inside it.
const extSnapshot = (tabId: number) => worker.evaluate((id) => (self as any).pagelens.snapshot(id), tabId) as Promise<SemanticV3Result>;
const extAct = (tabId: number, action: string, options: { trusted?: boolean; expect?: ExpectedOutcome } = {}) =>
  worker.evaluate(([id, a, o]) => (self as any).pagelens.act(id, a, o), [tabId, action, options] as const) as Promise<ActionResult>;

const essentials = (s: SemanticV3Result) => s.interactive_tree.map((n) => ({ i: n.i, r: n.r, n: n.n }));

test('the service worker snapshot equals the CDP host snapshot: cross-origin iframe and closed shadow root', async () => {
  const path = 'actions-frames.html';
  const reference = await (await harness.open(path, { numbering: await sameStartAs({ worker }) })).lens.snapshot();
  const { page, tabId } = await openTab(harness.originA + path);
  const ext = await extSnapshot(tabId);
  await page.close();
  assert.equal(ext.mode, 'semantic_v3');
  assert.deepEqual(essentials(ext), essentials(reference));
  // The page really has both hard cases, so the equality above covers them.
  const names = ext.interactive_tree.map((n) => `${n.i} ${n.n}`);
  assert.ok(ext.interactive_tree.some((n) => n.i.startsWith('f1_') && n.n === 'Pay'), `the cross-origin iframe's button is in: ${names.join(' | ')}`);
  assert.ok(ext.interactive_tree.some((n) => n.n === 'Shadow action'), `the closed shadow root's button is in: ${names.join(' | ')}`);
  sameGeometry(ext, reference);
  assert.deepEqual(ext.frames, reference.frames);
  assert.ok(ext.meta.estimatedTokens > 0);
});

test('the same snapshot on nested frames: same-origin, cross-origin in it, a leaf below, sandboxed srcdoc, a frame that failed', async () => {
  const path = 'frames-main.html';
  const reference = await (await harness.open(path, { numbering: await sameStartAs({ worker }) })).lens.snapshot();
  const { page, tabId } = await openTab(harness.originA + path);
  const ext = await extSnapshot(tabId);
  await page.close();
  assert.deepEqual(essentials(ext), essentials(reference));
  assert.ok(ext.interactive_tree.some((n) => n.n === 'Closed in cross'), 'a closed shadow root inside a cross-origin frame');
  assert.ok(ext.interactive_tree.some((n) => /^f\d+_/.test(n.i) && n.n === 'Scripted sandbox button'), 'a sandboxed srcdoc frame');
  sameGeometry(ext, reference);
  assert.deepEqual(ext.frames?.map(({ url: _u, ...f }) => f), reference.frames?.map(({ url: _u, ...f }) => f));
});

test('the same viewport snapshot of an iframe the page shows only part of, or none of', async () => {
  for (const [path, listed] of [['frames-scrolled.html', ['Top button', 'Visible in frame']], ['frames-below.html', ['Top button']]] as const) {
    const reference = await (await harness.open(path, { numbering: await sameStartAs({ worker }) })).lens.snapshot();
    const { page, tabId } = await openTab(harness.originA + path);
    const ext = await extSnapshot(tabId);
    await page.close();
    assert.deepEqual(ext.interactive_tree.map((n) => n.n).sort(), [...listed].sort(), path);
    assert.deepEqual(essentials(ext), essentials(reference), path);
    assert.equal(ext.meta.totalElements, reference.meta.totalElements, path);
  }
});

test('skeleton: the same artifact as the CDP host (structure, select options, frames inlined)', async () => {
  for (const path of ['actions-select.html', 'frames-main.html']) {
    const reference = await (await harness.open(path, { numbering: await sameStartAs({ worker }) })).lens.snapshot({ mode: 'skeleton' });
    const { page, tabId } = await openTab(harness.originA + path);
    const ext = await worker.evaluate((id) => (self as any).pagelens.snapshot(id, { mode: 'skeleton' }), tabId) as typeof reference;
    await page.close();
    assert.equal(ext.mode, 'skeleton');
    assert.ok(ext.skeletonDom.includes('data-llm-id'), ext.skeletonDom.slice(0, 300));
    assert.equal(ext.skeletonDom, reference.skeletonDom, path);
    assert.deepEqual(ext.warnings, reference.warnings, path);
  }
});

/** Top-level geometry as the CDP host computes it (the same layout code path, so within a pixel). */
function sameGeometry(ext: SemanticV3Result, reference: SemanticV3Result): void {
  ext.interactive_tree.forEach((a, k) => {
    const b = reference.interactive_tree[k];
    assert.ok(Math.abs(a.xy[0] - b.xy[0]) <= 1 && Math.abs(a.xy[1] - b.xy[1]) <= 1, `${a.i} at ${a.xy} vs ${b.xy}`);
    assert.equal(a.occ, b.occ, `${a.i} occluded alike`);
  });
}

interface ModelShape { nodes: Array<{ gid: string; role: string; name: string; box: number[]; occ?: boolean }>; docs: Record<string, string>; engine: { bytes?: number; crossed?: number; deltas?: number; whole?: string[] } }
const extModel = (tabId: number, options: { fullPage?: boolean; fresh?: boolean }) =>
  worker.evaluate(([id, o]) => (self as any).pagelens.model(id, o), [tabId, options] as const) as Promise<ModelShape>;
const listed = (m: ModelShape) => m.nodes.map((n) => ({ gid: n.gid, role: n.role, name: n.name, box: n.box, occ: n.occ }));

test('the extension reads as the CDP host does (issue 21): after one change only the delta crosses, the patched read equals a cold one; a new document crosses whole', async () => {
  const { page, tabId } = await openTab(harness.originA + 'viewport-census.html');
  // Options are checked as lens.model() checks them; one the extension cannot honour is refused, not ignored.
  await assert.rejects(extModel(tabId, { fullPage: 'yes' } as never), /Invalid model options: fullPage/);
  await assert.rejects(extModel(tabId, { fullPage: true, structure: true } as never), /Invalid model options: .*structure/);
  const first = await extModel(tabId, { fullPage: true });
  assert.ok(first.nodes.length > 500, `a page of many targets: ${first.nodes.length}`);
  assert.equal(first.engine.deltas, 0, 'nothing held yet: the first read crosses whole');
  assert.equal(first.engine.crossed, first.nodes.length);
  const rename = () => { document.querySelector('button')!.textContent = 'Renamed in place'; };
  await page.evaluate(rename);
  const warm = await extModel(tabId, { fullPage: true });
  assert.equal(warm.engine.deltas, 1, JSON.stringify(warm.engine));
  // What crosses is what the change touched (the button and the strip's buttons it pushes), as in the CDP host.
  const { page: cdpPage, lens } = await harness.open('viewport-census.html');
  await lens.model({ fullPage: true });
  await cdpPage.evaluate(rename);
  const cdpWarm = await lens.model({ fullPage: true });
  assert.equal(warm.engine.crossed, cdpWarm.engine.crossed, `crossed: extension ${warm.engine.crossed}, CDP host ${cdpWarm.engine.crossed}`);
  assert.ok(warm.engine.crossed! < 10, `crossed ${warm.engine.crossed} of ${warm.nodes.length}`);
  assert.ok(warm.engine.bytes! * 20 < first.engine.bytes!, `the delta is a small part of the whole: ${warm.engine.bytes} of ${first.engine.bytes} bytes`);
  assert.ok(warm.nodes.some((n) => n.name === 'Renamed in place'));
  const cold = await extModel(tabId, { fullPage: true, fresh: true });
  assert.deepEqual(listed(warm), listed(cold), 'the patched read is the cold read, node for node');
  // A reload is another document: the held read is of the one before, so nothing is patched onto it.
  await page.reload({ waitUntil: 'load' });
  await page.waitForTimeout(300);
  const after = await extModel(tabId, { fullPage: true });
  assert.equal(after.engine.deltas, 0, JSON.stringify(after.engine));
  assert.ok(after.engine.whole?.some((w) => /another document/.test(w)), JSON.stringify(after.engine.whole));
  assert.notEqual(after.docs[0], warm.docs[0]);
  assert.ok(!after.nodes.some((n) => n.name === 'Renamed in place'), 'nothing of the old document survives');
  await page.close();
});

test('what the service worker knows of a tab outlives the worker: after a restart, an ID whose element changed is still refused as stale', async () => {
  const { page, tabId } = await openTab(harness.originA + 'viewport-census.html');
  const snap = await extSnapshot(tabId);
  const all = snap.interactive_tree.find((n) => n.n === 'All');
  assert.ok(all, 'the strip\'s first button is listed');
  await worker.evaluate(() => { (self as any).__pagelensMarker = 1; });
  worker = await restartServiceWorker(ext);
  assert.equal(await worker.evaluate(() => (self as any).__pagelensMarker), undefined, 'a new worker, with nothing in memory');
  await page.evaluate(() => { document.querySelector('button')!.textContent = 'Delete everything'; });
  const r = await extAct(tabId, `click(${all!.i})`);
  assert.equal(r.error?.code, 'STALE_ID', JSON.stringify(r));
  assert.match(r.error!.message, /Delete everything/);
  await page.close();
});

test('closed shadow roots made after the first read are found, however the page makes them, as the CDP host finds them', async () => {
  const { page, tabId } = await openTab(harness.originA + 'closed-later.html');
  const { page: cdpPage, lens } = await harness.open('closed-later.html');
  const names = (s: SemanticV3Result) => s.interactive_tree.map((n) => n.n);
  assert.deepEqual(names(await extSnapshot(tabId)), ['Present from the start']);
  assert.deepEqual(names(await lens.snapshot()), ['Present from the start']);
  for (const [how, name] of [['detached', 'Made detached'], ['inPlace', 'Attached in place'], ['declared', 'Declared later'], ['upgraded', 'Upgraded later']] as const) {
    for (const p of [page, cdpPage]) await p.evaluate((h) => (window as any).makeLater[h](), how);
    assert.ok(names(await extSnapshot(tabId)).includes(name), `the extension finds the root made ${how}: ${names(await extSnapshot(tabId))}`);
    assert.ok(names(await lens.snapshot()).includes(name), `the CDP host finds the root made ${how}`);
  }
  await page.close();
});

test('act: a trusted click inside the cross-origin iframe and one in the closed shadow root', async () => {
  const { page, tabId } = await openTab(harness.originA + 'actions-frames.html');
  const snap = await extSnapshot(tabId);
  const pay = snap.interactive_tree.find((n) => n.n === 'Pay')!;
  // Verified because an outcome is expected (as on the CDP host, nothing is verified by default).
  const result = await extAct(tabId, `click(${pay.i})`, { expect: { type: 'any_change' } });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(result.method, 'mouse');
  assert.equal(result.verification?.success, true, JSON.stringify(result.verification));
  const inner = page.frames().find((f) => f.url().includes('actions-frame-inner.html'))!;
  assert.equal(await inner.locator('#out').textContent(), 'paid trusted');

  const shadow = snap.interactive_tree.find((n) => n.n === 'Shadow action')!;
  const r2 = await extAct(tabId, `click(${shadow.i})`);
  assert.equal(r2.ok, true, JSON.stringify(r2));
  assert.equal(await page.locator('#shadow-out').textContent(), 'shadow: clicked');

  // An ID the page never issued is refused, not guessed.
  const r3 = await extAct(tabId, 'click(f1_999999)');
  assert.equal(r3.ok, false);
  assert.equal(r3.error?.code, 'UNKNOWN_ID');

  // Without trusted input the result says so, and the page indeed sees an untrusted click.
  const r4 = await extAct(tabId, `click(${pay.i})`, { trusted: false });
  assert.equal(r4.ok, true, JSON.stringify(r4));
  assert.equal(r4.method, 'js');
  assert.ok(r4.warnings?.some((w) => /no trusted input/.test(w)), JSON.stringify(r4.warnings));
  assert.equal(await inner.locator('#out').textContent(), 'paid untrusted');

  // After a reload the old IDs belong to a document that is gone: refused, not reused.
  await page.reload({ waitUntil: 'load' });
  const r5 = await extAct(tabId, `click(${pay.i})`);
  assert.equal(r5.ok, false);
  assert.equal(r5.error?.code, 'NAVIGATED', JSON.stringify(r5));
  await page.close();
});

test('act two frames deep (cross-origin, then same-site leaf): uncheck, verified by the state change', async () => {
  const { page, tabId } = await openTab(harness.originA + 'frames-main.html');
  const snap = await extSnapshot(tabId);
  const check = snap.interactive_tree.find((n) => n.n === 'Leaf check')!;
  assert.match(check.i, /^f\d+_\d+$/);
  const result = await extAct(tabId, `uncheck(${check.i})`, { expect: { type: 'state_changes' } });
  assert.equal(result.ok, true, JSON.stringify(result));
  assert.equal(result.method, 'mouse');
  assert.equal(result.verification?.verifiedOutcome, 'state_changes', JSON.stringify(result.verification));
  const leaf = page.frames().find((f) => f.url().includes('frames-leaf.html'))!;
  assert.equal(await leaf.locator('#c').isChecked(), false);
  await page.close();
});

test('runTask: the demo checkout through `pagelens serve` (heuristic planner) to a verified done', async () => {
  const { page, tabId } = await openTab(demo.url + 'demo.html');
  const run = await worker.evaluate(([id, task, url]) => (self as any).pagelens.runTask(id, task, { backend: url, token: 'ext-test-token' }),
    [tabId, DEMO_TASK, backend.url] as const) as TaskRunShape;
  assert.equal(run.status, 'done', JSON.stringify(run, null, 1).slice(0, 3000));
  assert.equal(run.success, true);
  const acted = run.steps.filter((s) => s.result);
  assert.ok(acted.length >= 4, `four actions before done: ${run.steps.map((s) => s.action).join(' ; ')}`);
  for (const s of acted) {
    assert.equal(s.result?.verification?.success, true, `${s.action}: ${JSON.stringify(s.result)}`);
    assert.equal(s.result?.warnings, undefined, `${s.action}: nothing to warn about with trusted input`);
  }
  assert.deepEqual(acted.map((s) => s.result?.method), ['keyboard', 'keyboard', 'js', 'mouse']);
  assert.ok(run.steps.every((s) => s.mode === 'semantic_v3' && s.tokensSent > 0));
  assert.equal(await page.locator('input[type=email], #email').first().inputValue(), 'ada@example.com');
  await page.close();
});

test('runTask negotiation: a backend that asks for the skeleton gets exactly that, semantic_v3 still sent', async () => {
  const requests: Array<Record<string, unknown>> = [];
  const fake = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      requests.push(JSON.parse(body));
      const answer = requests.length === 1
        ? { status: 'needs_context', requestedDomMode: 'skeleton', reason: 'which form is which?' }
        : { thought: 'seen enough', action: 'done("looked")' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const { page, tabId } = await openTab(harness.originA + 'actions-select.html');
  try {
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const run = await worker.evaluate(([id, u]) => (self as any).pagelens.runTask(id, 'look at the page', { backend: u }), [tabId, url] as const) as TaskRunShape;
    assert.equal(run.status, 'done', run.message);
    assert.equal(requests.length, 2);
    assert.equal(requests[0].domMode, 'semantic_v3');
    assert.equal(requests[0].skeletonDom, undefined);
    assert.equal(requests[1].domMode, 'skeleton');
    assert.match(String(requests[1].skeletonDom), /data-llm-id/);
    assert.deepEqual(requests[1].interactiveTree, requests[0].interactiveTree);
    assert.equal(run.steps[0].mode, 'skeleton');
  } finally {
    await page.close();
    await new Promise<void>((r) => fake.close(() => r()));
  }
});

test('side panel: renders, runs a task on a tab and lists the steps live; screenshot saved', async () => {
  const { page: target, tabId } = await openTab(demo.url + 'demo.html');
  const extId = new URL(worker.url()).host;
  const panel = await context.newPage();
  await panel.setViewportSize({ width: 420, height: 800 });
  await panel.goto(`chrome-extension://${extId}/sidepanel.html?tab=${tabId}`);
  await panel.locator('#task').waitFor({ state: 'visible' });
  await panel.fill('#backend', backend.url);
  await panel.fill('#token', 'ext-test-token');
  await panel.fill('#task', DEMO_TASK);
  await panel.click('#run');
  await panel.locator('#status.ok, #status.bad').waitFor({ timeout: 60_000 });
  const status = await panel.locator('#status').textContent();
  assert.match(status ?? '', /^done: .*\(verified\)$/);
  const steps = await panel.locator('#steps li').allTextContents();
  assert.ok(steps.length >= 5, steps.join('\n'));
  assert.match(steps[0], /step 1 · semantic_v3 · \d+ tok/);
  assert.match(steps[0], /verified/);
  if (existsSync(SCREENSHOT)) rmSync(SCREENSHOT);
  await panel.screenshot({ path: SCREENSHOT, fullPage: true });
  assert.ok(statSync(SCREENSHOT).size > 5_000, 'the screenshot has content');
  // Settings persist in chrome.storage: a reopened panel shows the backend.
  await panel.reload();
  await assert.doesNotReject(panel.waitForFunction((u) => (document.getElementById('backend') as HTMLInputElement).value === u, backend.url, { timeout: 5000 }));
  await panel.close();
  await target.close();
});

test('side panel: Stop ends a run before the task is finished', async () => {
  const { page: target, tabId } = await openTab(demo.url + 'demo.html');
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${new URL(worker.url()).host}/sidepanel.html?tab=${tabId}`);
  await panel.locator('#backend').waitFor();
  await panel.fill('#backend', backend.url);
  await panel.fill('#token', 'ext-test-token');
  await panel.fill('#task', DEMO_TASK);
  await panel.click('#run');
  await panel.click('#stop');
  await panel.locator('#status.bad').waitFor({ timeout: 30_000 });
  assert.match(await panel.locator('#status').textContent() ?? '', /^stopped: stopped by the user/);
  assert.ok(await panel.locator('#steps li').count() < 5, 'stopped before done');
  assert.equal(await panel.locator('#run').isEnabled(), true);
  await panel.close();
  await target.close();
});
