// The scale bench's pages are the shapes they claim to be, and its runner measures each of them
// end to end (pagelens first/warm/viewport, Playwright first/warm, heap, CDP bytes per read) at a
// tiny size. No timing assertions: figures must exist and be sane, not fast.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../src/browser/chromium.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { installCdpMeter, meterCdp, uninstallCdpMeter } from '../../bench/cdpBytes.js';
import { Progress } from '../../bench/progress.js';
import { planScale, runScale } from '../../bench/scale.js';
import { DEEP_LEVELS, VARIANTS, waitForVariant, writeVariantPage, type ScalePlan } from '../../bench/scaleVariants.js';
import type { ScaleResult } from '../../bench/schema.js';
import { goals } from '../../bench/summary.js';

const SIZE = 200;
let browser: Browser;
let dir: string;
let server: StaticServer;
before(async () => {
  browser = await launchChromium();
  dir = mkdtempSync(join(tmpdir(), 'pagelens-scale-test-'));
  server = await serveFolder(dir);
});
after(async () => {
  uninstallCdpMeter();
  await server?.close();
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What a variant page holds, seen from inside: closed roots are kept by an init script that wraps attachShadow. */
interface Shape { origin: string; frames: string[]; interactive: number; open: number; closed: number; maxDepth: number }

async function shapeOf(plan: ScalePlan): Promise<Shape> {
  const file = writeVariantPage(dir, plan, `http://localhost:${server.port}/`);
  const context = await browser.newContext();
  try {
    await context.addInitScript(() => {
      const roots: ShadowRoot[] = [];
      (window as unknown as { __roots: ShadowRoot[] }).__roots = roots;
      const attach = Element.prototype.attachShadow;
      Element.prototype.attachShadow = function (init: ShadowRootInit) { const r = attach.call(this, init); roots.push(r); return r; };
    });
    const page = await context.newPage();
    await page.goto(server.url + file);
    await waitForVariant(page, plan, 30_000);
    const shape: Shape = { origin: new URL(page.url()).origin, frames: [], interactive: 0, open: 0, closed: 0, maxDepth: 0 };
    for (const f of page.frames()) {
      if (f !== page.mainFrame()) shape.frames.push(new URL(f.url()).origin);
      const s = await f.evaluate(() => {
        const sel = 'button, a[href], input, select';
        const roots = (window as unknown as { __roots: ShadowRoot[] }).__roots;
        const all = [document, ...roots].flatMap((r) => Array.from(r.querySelectorAll(sel)));
        let maxDepth = 0;
        for (const el of all) { let d = 0; for (let p = el.parentElement; p; p = p.parentElement) d++; maxDepth = Math.max(maxDepth, d); }
        return { interactive: all.length, open: roots.filter((r) => r.mode === 'open').length, closed: roots.filter((r) => r.mode === 'closed').length, maxDepth };
      });
      shape.interactive += s.interactive;
      shape.open += s.open;
      shape.closed += s.closed;
      shape.maxDepth = Math.max(shape.maxDepth, s.maxDepth);
    }
    return shape;
  } finally {
    await context.close();
  }
}

test('every variant page holds the planned number of interactive elements, in its own shape', async () => {
  const flat = await shapeOf({ variant: 'flat', elements: SIZE });
  assert.equal(flat.interactive, SIZE);
  assert.deepEqual(flat.frames, []);

  const deep = await shapeOf({ variant: 'deep', elements: SIZE });
  assert.equal(deep.interactive, SIZE);
  // html > body > DEEP_LEVELS divs > row > (label >) input
  assert.ok(deep.maxDepth >= DEEP_LEVELS + 3, `deepest element sits ${deep.maxDepth} levels down`);
  assert.ok(deep.maxDepth >= flat.maxDepth + DEEP_LEVELS, `deep ${deep.maxDepth} vs flat ${flat.maxDepth}`);

  const shadow = await shapeOf({ variant: 'shadow', elements: SIZE });
  assert.equal(shadow.interactive, SIZE);
  assert.ok(shadow.open > 0 && shadow.closed > 0, `open ${shadow.open}, closed ${shadow.closed}`);

  const iframes = await shapeOf({ variant: 'iframes', elements: SIZE });
  assert.equal(iframes.interactive, SIZE);
  // The page on 127.0.0.1, every frame on localhost: all cross-origin, out of process.
  assert.match(iframes.origin, /^http:\/\/127\.0\.0\.1:/);
  assert.ok(iframes.frames.length > 1 && iframes.frames.every((o) => /^http:\/\/localhost:/.test(o)), JSON.stringify(iframes.frames));
});

test('the CDP meter counts the answers received while it is open, and only then', async () => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await installCdpMeter(page);
    const cdp = await context.newCDPSession(page);
    const big = 'x'.repeat(50_000);
    const outside = await cdp.send('Runtime.evaluate', { expression: `'${big}'`, returnByValue: true });
    assert.equal((outside.result as { value: string }).value.length, big.length);
    const { bytes } = await meterCdp(() => cdp.send('Runtime.evaluate', { expression: `'${big}'`, returnByValue: true }));
    assert.ok(bytes > big.length && bytes < big.length + 200, `metered ${bytes}`);
    const { bytes: none } = await meterCdp(async () => 1);
    assert.equal(none, 0);
    await cdp.detach();
  } finally {
    await context.close();
  }
});

test('the scale runner measures every variant end to end at a tiny size, and the goals read its rows', async () => {
  const plans = planScale([SIZE], VARIANTS);
  const results: ScaleResult[] = await runScale(browser, plans, 1, new Progress(plans.length, true));
  assert.deepEqual(results.map((r) => r.variant), VARIANTS);
  for (const r of results) {
    const at = `${r.variant}: ${JSON.stringify(r)}`;
    assert.equal(r.error, undefined, at);
    // Every planned element is listed (what the engine lists besides, e.g. labels, is the engine's business, not the bench's).
    assert.ok(r.listedFull >= SIZE, at);
    for (const k of ['firstMs', 'fullMs', 'viewportMs', 'viewportChangedMs', 'modelMs', 'heapGrowthMb', 'heapTotalMb', 'rereadRatio'] as const) assert.ok(Number.isFinite(r[k]), `${k} ${at}`);
    assert.ok(r.playwrightAiFirstMs! > 0 && r.playwrightAiMs! > 0, at);
    assert.equal(r.playwrightAiOverMs, undefined, at);
    // The first read carries at least the engine's full answer (a later warm one may carry only a delta).
    assert.ok(r.bytesFull! > 0 && r.bytesViewport! > 0 && r.cdpBytesFirst! >= r.bytesFull!, at);
    assert.ok(r.cdpBytesFull! > 0 && r.cdpBytesViewport! > 0, at);
    // The per-command split adds up to the total it splits.
    const sum = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
    assert.equal(sum(r.cdpMethods!.first), r.cdpBytesFirst, at);
    assert.equal(sum(r.cdpMethods!.viewport), r.cdpBytesViewport, at);
    assert.equal(r.listedWarm, r.listedFull, at);
    assert.ok(Number.isFinite(r.heapRetainedMb), at);
  }
  // The goals pick the flat rows of their size; a 20k row measured here feeds the 20k goals.
  const twentyK = { ...results[0], elements: 20000 };
  const g = goals({}, null, [twentyK]);
  const row = g.find((x) => x.goal === '20k elements: warm full-page snapshot')!;
  assert.equal(row.value, twentyK.fullMs);
  assert.equal(row.pass, twentyK.fullMs <= 400);
  assert.equal(g.find((x) => x.goal === '50k elements: warm full-page snapshot')!.measured, 'not run');
});
