// The run record of `pagelens agent --trace`: the offline agent on a sign-in fixture (the archive
// matches its schema, every step has what the model saw and how it went, its token counts are
// those the agent printed, the typed password is in no byte of it), then a scripted planner whose
// run has a refused step, opened in the viewer in real Chromium the way a person looks at it.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../src/browser/chromium.js';
import { readTrace } from '../../src/trace/readTrace.js';
import { readZip } from '../../src/trace/zip.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
const PAGE = join(FIXTURES, 'agent-signin-pair.html');
const SECRET = 'tr0ub4dor';

let tmp: string;
let browser: Browser;
before(async () => { tmp = await mkdtemp(join(tmpdir(), 'pagelens-trace-')); });
after(async () => { await browser?.close(); await rm(tmp, { recursive: true, force: true }); });

/** The secret in no byte of the archive, stored or deflated. */
async function assertNoSecret(file: string, secret: string): Promise<void> {
  const bytes = await readFile(file);
  assert.equal(bytes.includes(secret), false, 'the secret is in the archive bytes');
  for (const [name, data] of readZip(bytes).entries) assert.equal(data.includes(secret), false, `the secret is in ${name}`);
  // Independent of our reader: every deflated local entry inflated by zlib directly.
  for (let p = bytes.indexOf('PK\x03\x04'); p >= 0; p = bytes.indexOf('PK\x03\x04', p + 4)) {
    if (bytes.readUInt16LE(p + 8) !== 8) continue;
    const start = p + 30 + bytes.readUInt16LE(p + 26);
    assert.equal(inflateRawSync(bytes.subarray(start, start + bytes.readUInt32LE(p + 18))).includes(secret), false);
  }
}

test('the offline agent with --trace: schema, every step whole, the printed token counts, no typed secret', { timeout: 60_000 }, async () => {
  const file = join(tmp, 'run.zip');
  const r = await runCli(['agent', `Enter the username "ada" and the password "${SECRET}" into the text fields and press login.`, '--url', PAGE, '--trace', file, '--max-steps', '6']);
  assert.equal(r.code, 0, r.stderr);
  const printed = [...r.stderr.matchAll(/^step (\d+) .* (\d+) tok/gm)].map((m) => Number(m[2]));
  const { record, images } = await readTrace(file);
  assert.equal(record.meta.face, 'agent');
  assert.equal(record.end?.status, 'done');
  assert.deepEqual(record.steps.map((s) => s.observation?.tokens), printed, 'token counts as printed');
  assert.equal(record.end?.tokens, printed.reduce((a, b) => a + b, 0));
  assert.ok(record.steps.length >= 3, r.stderr);
  for (const s of record.steps) {
    assert.ok(s.observation?.text.startsWith('{'), `step ${s.step} has its observation`);
    assert.ok(s.screenshot && images.get(s.screenshot.file)?.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])), `step ${s.step} has a JPEG`);
    assert.ok(s.boxes.length >= 3 && s.boxes.every((b) => b.box[2] > 0), `step ${s.step} has boxes`);
    assert.ok(s.action?.text, `step ${s.step} has its action`);
    assert.ok(s.verdict.outcome, `step ${s.step} has its verdict`);
  }
  const typed = record.steps.find((s) => s.masked.length);
  assert.ok(typed, 'the record says what was masked');
  assert.ok(typed.boxes.some((b) => b.secret), 'the password field is marked secret');
  assert.match(record.meta.task ?? '', /\*\*\*/);
  await assertNoSecret(file, SECRET);
});

/** A planner that plays a fixed script, one answer a request, choosing IDs by name from the tree. */
function scriptedBackend(): Promise<{ url: string; server: Server }> {
  const script: Array<(tree: Array<{ i: string; n: string }>) => object> = [
    (t) => ({ thought: 'the username first', action: `setValue(${t.find((n) => n.n === 'Username')!.i}, "ada")` }),
    (t) => ({ thought: `now the password ${SECRET}`, action: `setValue(${t.find((n) => n.n === 'Password')!.i}, "${SECRET}")` }),
    () => ({ thought: 'an element that never was', action: 'click(9999)' }),
    (t) => ({ thought: 'log in', action: `click(${t.find((n) => n.n === 'Login')!.i})`, expected_outcome: { type: 'element_appears', text: 'user "ada"' } }),
    () => ({ thought: 'finished', action: 'done("logged in")' }),
  ];
  let n = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET') return res.end(JSON.stringify({ ok: true }));
      const r = JSON.parse(body) as { interactiveTree?: Array<{ i: string; n: string }> };
      if (!r.interactiveTree) { res.statusCode = 400; return res.end(JSON.stringify({ error: 'bad request' })); }
      res.end(JSON.stringify(script[Math.min(n++, script.length - 1)](r.interactiveTree)));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server })));
}

test('the viewer: steps, a screenshot with boxes, hover lights the box and the line, a refused step shown refused; served on loopback', { timeout: 90_000 }, async () => {
  const backend = await scriptedBackend();
  const file = join(tmp, 'scripted.zip');
  const r = await runCli(['agent', `Log in as ada with ${SECRET}`, '--url', PAGE, '--backend', backend.url, '--trace', file, '--max-steps', '6']).finally(() => backend.server.close());
  assert.match(r.stderr, /refused UNKNOWN_ID/, r.stderr);
  await assertNoSecret(file, SECRET);
  const { record } = await readTrace(file);
  assert.equal(record.steps.length, 5, r.stderr);
  const refused = record.steps.find((s) => s.verdict.outcome === 'refused');
  assert.equal(refused?.verdict.refusal?.code, 'UNKNOWN_ID');
  assert.ok(record.steps.every((s) => !s.thought?.includes(SECRET)), 'the thought that repeated the password is masked');

  const html = join(tmp, 'view.html');
  const out = await runCli(['trace', 'show', file, '--out', html]);
  assert.equal(out.code, 0, out.stderr);
  assert.equal((await readFile(html, 'utf8')).includes(SECRET), false);
  browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (q) => { if (!q.url().startsWith('file:') && !q.url().startsWith('data:')) errors.push(`fetched ${q.url()}`); });
  await page.goto('file://' + html);
  const items = page.locator('#timeline .tl');
  assert.equal(await items.count(), record.steps.length);
  assert.equal(await items.nth(refused!.step - 1).getAttribute('data-outcome'), 'refused');
  assert.match(await items.nth(refused!.step - 1).textContent() ?? '', /refused/);
  // Step 4, the login click: its screenshot has a box a person can see, marked as acted on.
  const login = record.steps[3];
  await items.nth(3).click();
  await page.locator('.shot img').waitFor();
  assert.ok(await page.locator('.shot img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100));
  assert.equal(await page.locator('.shot .box').count(), login.boxes.length);
  const acted = page.locator(`.shot .box[data-id="${login.action!.id}"]`);
  assert.match(await acted.getAttribute('class') ?? '', /acted/);
  const box = await acted.boundingBox();
  assert.ok(box && box.width > 10 && box.height > 5, 'the box is drawn at a visible size');
  const line = page.locator(`pre.obs .ln[data-id="${login.action!.id}"]`);
  await line.hover();
  assert.match(await acted.getAttribute('class') ?? '', /\blit\b/, 'hovering the observation line lights the box');
  const other = login.boxes.find((b) => b.id !== login.action!.id && !b.approx)!;
  await page.locator(`.shot .box[data-id="${other.id}"]`).hover();
  assert.match(await page.locator(`pre.obs .ln[data-id="${other.id}"]`).getAttribute('class') ?? '', /\blit\b/, 'hovering the box lights the line');
  // The refused step: red, with its code and reason.
  await items.nth(refused!.step - 1).click();
  assert.equal(await page.locator('.badge.refused').textContent(), 'refused');
  assert.match(await page.locator('.refusal').textContent() ?? '', /Refused UNKNOWN_ID: element 9999/);
  assert.equal(await page.locator('.refusal').evaluate((e) => getComputedStyle(e).color), 'rgb(143, 16, 25)');
  await page.locator('.tabs button', { hasText: 'diff' }).click();
  assert.ok(await page.locator('pre.obs .ln.add, pre.obs .ln.del, pre.obs .ln.gap').count() > 0, 'the diff against the step before');
  if (process.env.PAGELENS_TRACE_SCREENSHOT) {
    await items.nth(3).click();
    await page.locator('.tabs button', { hasText: 'observation' }).click();
    await line.hover();
    await page.screenshot({ path: process.env.PAGELENS_TRACE_SCREENSHOT });
  }
  assert.deepEqual(errors, []);

  // Served: the printed URL answers the same page; any other path is 404.
  const child = spawn(process.execPath, [BIN, 'trace', 'show', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (d) => { text += d; const m = /^(http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\/)$/m.exec(text); if (m) resolve(m[1]); });
      child.once('exit', (code) => reject(new Error(`trace show exited ${code}`)));
    });
    const served = await fetch(url);
    assert.equal(served.status, 200);
    assert.match(await served.text(), /<script id="trace-data"/);
    assert.equal((await fetch(new URL('/', url))).status, 404);
  } finally {
    child.kill('SIGTERM');
  }
});

test('the library: startTrace(lens) … stop(path), each act a step with the read before it', { timeout: 60_000 }, async () => {
  const { openPage } = await import('../../src/session/open.js');
  const { startTrace } = await import('../../src/trace/library.js');
  const opened = await openPage(PAGE);
  const file = join(tmp, 'library.zip');
  try {
    const trace = startTrace(opened.lens);
    const snap = await opened.lens.snapshot();
    const field = snap.interactive_tree.find((n) => n.n === 'Password')!;
    await opened.lens.act(`setValue(${field.i}, "${SECRET}")`);
    await opened.lens.snapshot();
    await opened.lens.act('click(9999)');
    await trace.stop(file);
    assert.equal(Object.hasOwn(opened.lens, 'act'), false, 'the lens has its own methods back');
  } finally {
    await opened.close();
  }
  const { record } = await readTrace(file);
  assert.equal(record.meta.face, 'library');
  assert.deepEqual(record.steps.map((s) => s.verdict.outcome), ['ok', 'refused']);
  assert.ok(record.steps.every((s) => s.observation?.text.includes('"interactive_tree"') && s.screenshot && s.boxes.length));
  assert.equal(record.steps[0].masked.length, 1);
  await assertNoSecret(file, SECRET);
});
