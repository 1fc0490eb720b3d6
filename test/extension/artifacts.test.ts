// The MV3 extension's heavier artifacts (issue 15): `full` and `hybrid` produced by the service
// worker (self.pagelens.snapshot) in headless Chromium with extension/dist loaded unpacked,
// compared with the CDP host's on the same pages; and the agent loop serving a backend that asks
// for them.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import jpeg from 'jpeg-js';
import type { Worker } from 'playwright-core';
import { FullResult, HybridResult } from '../../src/model/renderers/artifacts.js';
import { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { layoutMarks, MARK_COLOURS } from '../../src/model/renderers/setOfMark.js';
import { untemplatize } from '../../src/model/renderers/templatize.js';
import { launchWithExtension, openTab as openTabIn, sameStartAs, type ExtensionBrowser } from '../support/extension-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

const VIEWPORT = { width: 1280, height: 800 };

let harness: Harness;
let worker: Worker;
let ext: ExtensionBrowser;

before(async () => {
  harness = await startHarness();
  ext = await launchWithExtension('pagelens-ext-art-', VIEWPORT);
  worker = ext.worker;
});

after(async () => {
  await ext?.close();
  await harness?.close();
});

const openTab = (url: string) => openTabIn(ext, url);

const extSnapshot = (tabId: number, options: Record<string, unknown>) =>
  worker.evaluate(([id, o]) => (self as any).pagelens.snapshot(id, o), [tabId, options] as const) as Promise<unknown>;

const dataIds = (html: string) => [...html.matchAll(/\sdata-id="([^"]+)"/g)].map((m) => m[1]).sort();

/**
 * The extension's perceptual hash (extension/src/image.ts), recomputed here from its documented
 * rule over another decoder's pixels: grey = round(.299R + .587G + .114B), 17×16 grid of rounded
 * cell means, bit = cell brighter than its right neighbour, row-major, hex.
 */
function referenceHash(img: { data: Uint8Array; width: number; height: number }): string {
  const cells: number[] = [];
  for (let r = 0; r < 16; r++) {
    const y0 = Math.floor((r * img.height) / 16), y1 = Math.max(y0 + 1, Math.floor(((r + 1) * img.height) / 16));
    for (let c = 0; c < 17; c++) {
      const x0 = Math.floor((c * img.width) / 17), x1 = Math.max(x0 + 1, Math.floor(((c + 1) * img.width) / 17));
      let sum = 0, n = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
        const at = (y * img.width + x) * 4;
        sum += Math.round(0.299 * img.data[at] + 0.587 * img.data[at + 1] + 0.114 * img.data[at + 2]);
        n++;
      }
      cells.push(Math.round(sum / n));
    }
  }
  let bits = '';
  for (let r = 0; r < 16; r++) for (let c = 0; c < 16; c++) bits += cells[r * 17 + c] > cells[r * 17 + c + 1] ? '1' : '0';
  return bits.match(/.{4}/g)!.map((b) => parseInt(b, 2).toString(16)).join('');
}

function hamming(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) { let x = parseInt(a[i], 16) ^ parseInt(b[i], 16); while (x) { d += x & 1; x >>= 1; } }
  return d;
}

function decode(b64: string) {
  const bytes = Buffer.from(b64, 'base64');
  assert.ok(bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])), 'a JPEG');
  return jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
}

/** Pixels within 40 of `rgb` on every channel. */
function pixelsNear(img: { data: Uint8Array }, rgb: [number, number, number]): number {
  let n = 0;
  for (let i = 0; i < img.data.length; i += 4) {
    if (Math.abs(img.data[i] - rgb[0]) < 40 && Math.abs(img.data[i + 1] - rgb[1]) < 40 && Math.abs(img.data[i + 2] - rgb[2]) < 40) n++;
  }
  return n;
}

test('full through the extension: the CDP host\'s data-id set, frames inlined, templatized, sizes in meta', async () => {
  const path = 'actions-frames.html';
  const reference = await (await harness.open(path, { numbering: await sameStartAs({ worker }) })).lens.snapshot({ mode: 'full' });
  const { page, tabId } = await openTab(harness.originA + path);
  const ext = FullResult.parse(await extSnapshot(tabId, { mode: 'full' }));
  await page.close();
  const dom = untemplatize(ext.dom);
  const ids = dataIds(dom);
  assert.ok(ids.length >= 3, `tagged elements: ${ids.join(' ')}`);
  assert.deepEqual(ids, dataIds(untemplatize(reference.dom)));
  // The cross-origin frame's document is inlined in its iframe, with frame-prefixed IDs; the closed root as declarative shadow DOM.
  assert.match(dom, /<iframe [^>]*title="Payment"[^>]*data-frame-id="1"[^>]*><html [^>]*data-frame-id="1"[^>]*>.*data-id="f1_\d+"[^>]*>Pay<\/button>.*<\/html><\/iframe>/s);
  assert.match(dom, /<closed-widget[^>]*><template shadowrootmode="closed"><button[^>]*data-id="\d+"[^>]*>Shadow action<\/button><\/template><\/closed-widget>/);
  assert.doesNotMatch(dom, /<script|<style|<!--/i);
  assert.equal(ext.meta.rawChars, dom.length);
  assert.equal(ext.meta.templatizedChars, ext.dom.length);
  assert.ok(ext.meta.rawTokens > 0 && ext.meta.estimatedTokens > 0 && ext.meta.estimatedTokens <= ext.meta.rawTokens);
  assert.equal(ext.meta.taggedElements, ids.length);
  assert.equal(ext.meta.elements, reference.meta.elements);
});

test('full through the extension: no script or style, no secret value, templates collapse repeated rows', async () => {
  const numbering = await sameStartAs({ worker });
  const { page, tabId } = await openTab(harness.originA + 'artifacts-page.html');
  await page.fill('#pw', 'hunter2-typed');
  const ext = FullResult.parse(await extSnapshot(tabId, { mode: 'full' }));
  const reference = await (async () => { const o = await harness.open('artifacts-page.html', { numbering }); await o.page.fill('#pw', 'hunter2-typed'); return o.lens.snapshot({ mode: 'full' }); })();
  await page.close();
  const dom = untemplatize(ext.dom);
  for (const secret of ['hunter2', 'markup-secret']) assert.ok(!dom.includes(secret) && !ext.dom.includes(secret), `full has "${secret}"`);
  assert.match(dom, /<input id="pw" type="password" name="pw" data-id="\d+"[^>]*>/);
  for (const heavy of [/<script/i, /<style/i, /<noscript/i, /\sstyle="/i, /\sonclick=/i]) assert.doesNotMatch(dom, heavy);
  assert.ok(ext.meta.templates > 0 && ext.meta.instances > 0, JSON.stringify(ext.meta));
  assert.ok(ext.meta.templatizedChars < ext.meta.rawChars);
  assert.deepEqual(dataIds(dom), dataIds(untemplatize(reference.dom)));
});

test('hybrid through the extension: a decodable JPEG of the viewport, a mark per visible element, the hash rule', async () => {
  const { page, tabId } = await openTab(harness.originA + 'artifacts-page.html');
  try {
    const marked = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid', quality: 90 }));
    const plain = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid', quality: 90, marks: false }));
    const img = decode(marked.screenshot);
    assert.deepEqual({ width: img.width, height: img.height }, VIEWPORT);
    assert.deepEqual(marked.viewport, VIEWPORT);
    assert.equal(marked.meta.screenshotBytes, Buffer.from(marked.screenshot, 'base64').length);
    // Every node with a box; a mark for each one that is visible and not covered.
    assert.ok(marked.interactive_tree.length > 3 && marked.interactive_tree.every((n) => n.box), 'boxes on every node');
    const visible = marked.interactive_tree.filter((n) => !n.occ && n.box![0] + n.box![2] > 0 && n.box![1] + n.box![3] > 0 && n.box![0] < VIEWPORT.width && n.box![1] < VIEWPORT.height);
    assert.equal(marked.meta.marks, visible.length);
    assert.equal(marked.setOfMark, true);
    assert.equal(plain.setOfMark, false);
    assert.equal(plain.meta.marks, 0);
    assert.match(marked.skeletonDom, /data-llm-id/);
    assert.ok(marked.meta.estimatedTokens > 0 && marked.meta.estimatedTokens < 5000);
    // The labels are really drawn: a button's green appears where the plain image has none of it.
    const green = MARK_COLOURS.btn;
    const plainImg = decode(plain.screenshot);
    assert.ok(pixelsNear(img, green) > pixelsNear(plainImg, green) + 200, `${pixelsNear(img, green)} vs ${pixelsNear(plainImg, green)} green pixels`);
    // The hash: 256 bits in hex, as documented, and the documented rule over jpeg-js's decoding of the JPEG agrees (it hashes the pixels before encoding).
    assert.match(plain.screenshotHash, /^[0-9a-f]{64}$/);
    const recomputed = referenceHash(plainImg);
    assert.ok(hamming(recomputed, plain.screenshotHash) <= 8, `${recomputed} vs ${plain.screenshotHash}`);
    // The same view, the same hash; a visibly different page, another one.
    const again = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid', quality: 90, marks: false }));
    assert.equal(again.screenshotHash, plain.screenshotHash);
    await page.evaluate(() => { document.body.style.background = '#000'; document.body.style.color = '#fff'; });
    await page.waitForTimeout(100);
    const dark = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid', quality: 90, marks: false }));
    assert.ok(hamming(dark.screenshotHash, plain.screenshotHash) > 16, `${dark.screenshotHash} vs ${plain.screenshotHash}`);
    // Quality is honoured: a low one gives a smaller file.
    const low = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid', quality: 10, marks: false }));
    assert.ok(low.meta.screenshotBytes < dark.meta.screenshotBytes, `${low.meta.screenshotBytes} < ${dark.meta.screenshotBytes}`);
    // The CDP host's spelling of the same options is taken as well.
    const spelled = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid', screenshot: { quality: 10, setOfMark: false } }));
    assert.equal(spelled.meta.marks, 0);
    assert.ok(spelled.meta.screenshotBytes < dark.meta.screenshotBytes);
  } finally {
    await page.close();
  }
});

test('set-of-mark and hash: the same page gives the same marks and the same hash through both hosts', async () => {
  const path = 'actions-frames.html';
  const reference = await (await harness.open(path, { numbering: await sameStartAs({ worker }) })).lens.snapshot({ mode: 'hybrid', screenshot: { quality: 90 } });
  const { page, tabId } = await openTab(harness.originA + path);
  const ext = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid', quality: 90 }));
  await page.close();
  assert.deepEqual(ext.interactive_tree.map((n) => [n.i, n.r, n.box]), reference.interactive_tree.map((n) => [n.i, n.r, n.box]));
  // One layout (model/renderers/setOfMark.ts): the same labels at the same places, in the same colours.
  const marks = layoutMarks(ext.interactive_tree, VIEWPORT);
  assert.deepEqual(marks, layoutMarks(reference.interactive_tree, VIEWPORT));
  assert.ok(marks.length >= 3, `${marks.length} marks`);
  assert.equal(ext.meta.marks, marks.length);
  assert.equal(reference.meta.marks, marks.length);
  // The hash of the composed image, the same rule on the same pixels: equal.
  assert.equal(ext.screenshotHash, reference.screenshotHash);
  // And the drawn labels look the same in both JPEGs (two encoders: compare means, not bytes).
  const a = decode(ext.screenshot);
  const b = decode(reference.screenshot);
  for (const m of marks) {
    let diff = 0;
    let n = 0;
    for (let y = m.label[1]; y < m.label[1] + m.label[3]; y++) {
      for (let x = m.label[0]; x < m.label[0] + m.label[2]; x++) {
        const at = (y * VIEWPORT.width + x) * 4;
        for (let c = 0; c < 3; c++) diff += Math.abs(a.data[at + c] - b.data[at + c]);
        n += 3;
      }
    }
    assert.ok(diff / n < 12, `label ${m.id}: the hosts' pixels differ by ${(diff / n).toFixed(1)} on average`);
  }
});

test('engine answers are checked against the engine contract in the extension too: a bent answer is ENGINE_ERROR, never believed', async () => {
  const { page, tabId } = await openTab(harness.originA + 'frames-leaf.html');
  try {
    // Fault injection in the service worker: the main frame's read arrives with its document token bent.
    await worker.evaluate(() => {
      const tabs = (self as any).chrome.tabs;
      const real = tabs.sendMessage.bind(tabs);
      (self as any).__realSendMessage = tabs.sendMessage;
      tabs.sendMessage = async (tab: number, msg: any, opts: any) => {
        const reply = await real(tab, msg, opts);
        if (msg?.kind === 'read' && reply?.ok) reply.value.text = JSON.stringify({ ...JSON.parse(reply.value.text), doc: 42 });
        return reply;
      };
    });
    // The very words of the CDP host (one check, src/core/heldReads.ts).
    await assert.rejects(extSnapshot(tabId, {}), /The in-page engine answered read with something it never returns \(doc: .*the page may have tampered with it/);
  } finally {
    await worker.evaluate(() => { (self as any).chrome.tabs.sendMessage = (self as any).__realSendMessage; });
    await page.close();
  }
  // Untouched answers are believed as before.
  const again = await openTab(harness.originA + 'frames-leaf.html');
  try {
    assert.ok(SemanticV3Result.parse(await extSnapshot(again.tabId, {})).interactive_tree.length > 0);
  } finally {
    await again.page.close();
  }
});

test('hybrid through the extension: the same tree and skeleton as the CDP host\'s hybrid', async () => {
  const path = 'actions-frames.html';
  const reference = await (await harness.open(path, { numbering: await sameStartAs({ worker }) })).lens.snapshot({ mode: 'hybrid' });
  const { page, tabId } = await openTab(harness.originA + path);
  const ext = HybridResult.parse(await extSnapshot(tabId, { mode: 'hybrid' }));
  await page.close();
  assert.deepEqual(ext.interactive_tree.map((n) => [n.i, n.r, n.n]), reference.interactive_tree.map((n) => [n.i, n.r, n.n]));
  assert.equal(ext.skeletonDom, reference.skeletonDom);
  assert.equal(ext.meta.marks, reference.meta.marks);
});

test('options that do not apply to a mode are refused', async () => {
  const { page, tabId } = await openTab(harness.originA + 'frames-leaf.html');
  try {
    for (const [opts, re] of [[{ mode: 'full', fullPage: true }, /fullPage/], [{ mode: 'hybrid', fullPage: true }, /fullPage/], [{ mode: 'full', quality: 50 }, /quality/], [{ mode: 'hybrid', quality: 0 }, /quality/]] as const) {
      await assert.rejects(extSnapshot(tabId, opts), re);
    }
  } finally {
    await page.close();
  }
});

test('runTask: a backend that asks for hybrid gets domMode "hybrid" with a screenshot; one that asks for the full DOM gets it', async () => {
  const requests: Array<Record<string, any>> = [];
  const fake = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      requests.push(JSON.parse(body));
      const answers = [
        { status: 'needs_context', requestedDomMode: 'hybrid', reason: 'where is the blue button?' },
        { thought: 'seen it', action: 'scroll("down")' },
        { status: 'needs_full_dom', needsFullDomReason: 'need the whole document' },
        { thought: 'seen enough', action: 'done("looked")' },
      ];
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers[Math.min(requests.length - 1, answers.length - 1)]));
    });
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  const { page, tabId } = await openTab(harness.originA + 'artifacts-page.html');
  try {
    const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const run = await worker.evaluate(([id, u]) => (self as any).pagelens.runTask(id, 'look at the page', { backend: u }), [tabId, url] as const) as { status: string; message: string; steps: Array<{ mode: string; tokensSent: number }> };
    assert.equal(run.status, 'done', run.message);
    assert.equal(requests.length, 4);
    assert.equal(requests[0].domMode, 'semantic_v3');
    assert.equal(requests[0].screenshot, undefined);
    assert.equal(requests[1].domMode, 'hybrid');
    const img = decode(String(requests[1].screenshot));
    assert.deepEqual({ width: img.width, height: img.height }, VIEWPORT);
    assert.match(String(requests[1].screenshotHash), /^[0-9a-f]{64}$/);
    assert.match(String(requests[1].skeletonDom), /data-llm-id/);
    assert.ok(requests[1].interactiveTree.length > 0 && requests[1].interactiveTree.every((n: { box?: unknown }) => Array.isArray(n.box)), 'the hybrid tree, with boxes');
    assert.equal(requests[3].domMode, 'full');
    assert.match(untemplatize(String(requests[3].dom)), /<html[^>]* data-frame-id="0"[^>]*>.*data-id="\d+"/s);
    assert.deepEqual(run.steps.map((s) => s.mode), ['hybrid', 'full']);
    // The screenshot is not counted as text tokens.
    assert.ok(run.steps[0].tokensSent < String(requests[1].screenshot).length / 4, `${run.steps[0].tokensSent} tokens`);
  } finally {
    await page.close();
    await new Promise<void>((r) => fake.close(() => r()));
  }
});
