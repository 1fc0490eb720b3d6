// The side panel's "Export last run" (issue 39, face `extension`): the offline task run in the
// unpacked extension through `pagelens serve`, the archive downloaded by the panel's button, read
// back by src/trace/readTrace.ts against the schema (every step whole, the panel's token counts,
// the typed password in no byte of it) and opened in the trace viewer.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { HeuristicPlanner } from '../../src/agent/heuristic.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { readTrace } from '../../src/trace/readTrace.js';
import { serveViewer, viewerHtml } from '../../src/trace/viewer.js';
import { readZip } from '../../src/trace/zip.js';
import { launchWithExtension, openTab, type ExtensionBrowser } from '../support/extension-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

const SECRET = 'tr0ub4dor';
const TASK = `Enter the username "ada" and the password "${SECRET}" into the text fields and press login.`;
const SCREENSHOT = '/tmp/pagelens-extension-export.png';

let harness: Harness;
let backend: RunningServer;
let ext: ExtensionBrowser;
let tmp: string;

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pagelens-ext-trace-'));
  harness = await startHarness();
  backend = await startServer({ port: 0, planner: new HeuristicPlanner(), token: 'ext-trace-token' });
  ext = await launchWithExtension('pagelens-ext-trace-');
});

after(async () => {
  await ext?.close();
  await harness?.close();
  await backend?.close();
  await rm(tmp, { recursive: true, force: true });
});

interface RunShape { status: string; success: boolean; steps: Array<{ action: string; tokensSent: number }>; trace?: { name: string; bytes: number; steps: number }; traceError?: string }

test('Export last run: the panel downloads a trace archive that reads against the schema, holds no typed secret, and opens in the viewer', { timeout: 90_000 }, async () => {
  const { page: target, tabId } = await openTab(ext, harness.originA + 'agent-signin-pair.html');
  const run = await ext.worker.evaluate(([id, task, url]) => (self as any).pagelens.runTask(id, task, { backend: url, token: 'ext-trace-token', maxSteps: 6 }),
    [tabId, TASK, backend.url] as const) as RunShape;
  assert.equal(run.status, 'done', JSON.stringify(run, null, 1).slice(0, 2000));
  assert.equal(run.traceError, undefined);
  assert.match(run.trace?.name ?? '', /^pagelens-run-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.zip$/);
  assert.equal(run.trace?.steps, run.steps.length);

  // The button, as a person uses it: the panel page, its Export button, the browser's download.
  const panel = await ext.context.newPage();
  await panel.setViewportSize({ width: 420, height: 520 });
  await panel.goto(`chrome-extension://${new URL(ext.worker.url()).host}/sidepanel.html?tab=${tabId}`);
  await panel.locator('#export:enabled').waitFor();
  assert.match(await panel.locator('#trace').textContent() ?? '', new RegExp(`Last run: ${run.steps.length} steps`));
  const [download] = await Promise.all([panel.waitForEvent('download'), panel.click('#export')]);
  assert.equal(download.suggestedFilename(), run.trace!.name);
  const file = join(tmp, download.suggestedFilename());
  await download.saveAs(file);
  await panel.screenshot({ path: SCREENSHOT });

  const { record, images } = await readTrace(file);
  assert.equal(record.meta.face, 'extension');
  assert.equal(record.meta.version, 3);
  assert.equal(record.end?.status, 'done');
  assert.deepEqual(record.steps.map((s) => s.observation?.tokens), run.steps.map((s) => s.tokensSent), 'token counts as the panel shows them');
  assert.equal(record.end?.tokens, run.steps.reduce((n, s) => n + s.tokensSent, 0));
  assert.ok(record.steps.length >= 3, JSON.stringify(run.steps.map((s) => s.action)));
  for (const s of record.steps) {
    assert.ok(s.observation?.text.startsWith('{"url":'), `step ${s.step} has the request the backend received`);
    assert.equal(s.observation?.mode, 'semantic_v3');
    assert.ok(s.screenshot && images.get(s.screenshot.file)?.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])), `step ${s.step} has a JPEG`);
    assert.ok(s.screenshot.width > 100 && s.screenshot.viewport.width > 100, JSON.stringify(s.screenshot));
    assert.ok(s.boxes.length >= 3 && s.boxes.every((b) => b.box[2] > 0 && !b.approx), `step ${s.step} has boxes: ${JSON.stringify(s.boxes)}`);
    assert.ok(s.action?.text, `step ${s.step} has its action`);
    assert.ok(s.verdict.outcome, `step ${s.step} has its verdict`);
    assert.ok(s.timings.readMs !== undefined && s.timings.askMs !== undefined, JSON.stringify(s.timings));
  }
  assert.ok(record.steps.filter((s) => s.verdict.outcome === 'verified').length >= 2, record.steps.map((s) => s.verdict.outcome).join(' '));
  const typed = record.steps.find((s) => s.masked.length);
  assert.ok(typed, 'the record says what was masked');
  assert.ok(record.steps.some((s) => s.boxes.some((b) => b.secret)), 'the password field is marked secret');
  assert.match(record.meta.task ?? '', /\*\*\*/);

  // The secret in no byte of the archive, stored or deflated (inflated by zlib, not by our reader).
  const bytes = await readFile(file);
  assert.equal(bytes.includes(SECRET), false);
  const { entries } = readZip(bytes);
  for (const [name, data] of entries) assert.equal(data.includes(SECRET), false, name);
  let deflated = 0;
  for (let p = bytes.indexOf('PK\x03\x04'); p >= 0; p = bytes.indexOf('PK\x03\x04', p + 4)) {
    if (bytes.readUInt16LE(p + 8) !== 8) continue;
    deflated++;
    const start = p + 30 + bytes.readUInt16LE(p + 26);
    assert.equal(inflateRawSync(bytes.subarray(start, start + bytes.readUInt32LE(p + 18))).includes(SECRET), false);
  }
  assert.ok(deflated > 0, 'the JSON entries are deflated (CompressionStream in the service worker)');

  // In the viewer (served on loopback, the only origin the test browser reaches): the step list, a screenshot with its boxes.
  const viewer = await serveViewer(viewerHtml(await readTrace(file), run.trace!.name));
  try {
    const page = await ext.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(viewer.url);
    const items = page.locator('#timeline .tl');
    assert.equal(await items.count(), record.steps.length);
    assert.match(await page.locator('#top').textContent() ?? '', /extension/);
    await items.nth(1).click();
    await page.locator('.shot img').waitFor();
    assert.ok(await page.locator('.shot img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100));
    assert.equal(await page.locator('.shot .box').count(), record.steps[1].boxes.length);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await viewer.close();
  }
  await panel.close();
  await target.close();
});
