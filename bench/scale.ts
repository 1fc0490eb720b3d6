// Generated pages with many interactive elements: how extraction time and the page's JS heap
// grow with page size, flat and in the harder shapes (deep nesting, shadow roots, iframes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { Lens } from '../src/browser/lens.js';
import { serveFolder } from '../src/browser/static.js';
import { countTokens } from '../src/model/renderers/tokens.js';
import { openTask } from './measurePage.js';
import { installCdpMeter, meterCdp } from './cdpBytes.js';
import type { Progress } from './progress.js';
import type { ScaleResult } from './schema.js';
import { median, round, timeWarm } from './stats.js';

import { VARIANTS, waitForVariant, writeVariantPage, type ScalePlan, type Variant } from './scaleVariants.js';

export { VARIANTS, type ScalePlan, type Variant };

export const DEFAULT_SIZES = [1000, 5000, 20000, 50000];
/** Every shape is measured up to this size (each stops earlier once it gets too slow, see STOP_MS). */
const VARIANT_MAX = 50000;
/** Playwright's snapshot gets slow on big pages: up to this size it is timed; beyond, only until PLAYWRIGHT_LIMIT_MS. */
const PLAYWRIGHT_MAX = 5000;
const PLAYWRIGHT_LIMIT_MS = 20_000;
/** Beyond this, a warm extraction is timed once, not `runs` times. */
const SLOW_MS = 1500;
/** Beyond this (first or warm extraction), the variant's larger sizes are skipped. */
const STOP_MS = 20_000;
/** Opening a generated page (not timed). */
const LOAD_TIMEOUT_MS = 180_000;

export function planScale(sizes: number[], variants: Variant[] = VARIANTS): ScalePlan[] {
  const plans: ScalePlan[] = [];
  for (const variant of variants) {
    for (const elements of [...sizes].sort((a, b) => a - b)) if (variant === 'flat' || elements <= VARIANT_MAX) plans.push({ variant, elements });
  }
  return plans;
}

async function timeAdaptive(runs: number, fn: () => Promise<unknown>): Promise<{ ms: number }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
    if (times[0] > SLOW_MS) break;
  }
  return { ms: round(median(times), 2) };
}

/**
 * The re-read ratio end to end (Node included): a full-page model after one element's text
 * changed, against a cold one (`fresh: true`: everything derived again) in the same session.
 */
/** Sets the text of a note at the top of the page (in view), made the first time. */
function setNote(page: Page, text: string): Promise<void> {
  return page.evaluate((t) => {
    let p = document.getElementById('bench-note');
    if (!p) { p = document.createElement('p'); p.id = 'bench-note'; document.body.prepend(p); }
    p.textContent = t;
  }, text);
}

/**
 * A viewport snapshot after one text in view changed, once the page has rendered the change (as
 * after an action, which waits for the page to settle): what maintaining the viewport's members
 * costs, where a read of an unchanged page (`viewportMs`) can take much from the last one.
 */
async function viewportAfterOneChange(page: Page, lens: Lens, runs: number): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    await setNote(page, `Shown ${i % 10}`);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const t0 = performance.now();
    await lens.snapshot({ mode: 'semantic_v3' });
    ms.push(performance.now() - t0);
    if (ms[0] > SLOW_MS) break;
  }
  return round(median(ms), 1);
}

async function rereadAfterOneChange(page: Page, lens: Lens, runs: number): Promise<{ rereadMs: number; coldMs: number; rereadRatio: number; cdpBytesReread: number }> {
  const warm: number[] = [];
  const cold: number[] = [];
  // The note is inserted (pushing every row down) and read once before timing: the timed change
  // is then a text change only, of the same length, that moves nothing else.
  await setNote(page, 'Changed -');
  await lens.model({ fullPage: true });
  for (let i = 0; i < runs; i++) {
    await setNote(page, `Changed ${i % 10}`);
    let t0 = performance.now();
    await lens.model({ fullPage: true });
    warm.push(performance.now() - t0);
    t0 = performance.now();
    await lens.model({ fullPage: true, fresh: true });
    cold.push(performance.now() - t0);
    if (cold[0] > SLOW_MS * 4) break;
  }
  // One more, metered (outside the timed ones: metering serializes every answer): what a re-read moves over CDP.
  await setNote(page, 'Changed +');
  const { bytes: cdpBytesReread } = await meterCdp(() => lens.model({ fullPage: true }));
  return { rereadMs: round(median(warm), 1), coldMs: round(median(cold), 1), rereadRatio: round(median(warm) / median(cold), 3), cdpBytesReread };
}

async function heapUsage(cdp: CDPSession): Promise<{ used: number; total: number }> {
  const h = await cdp.send('Runtime.getHeapUsage') as { usedSize: number; totalSize: number };
  return { used: h.usedSize, total: h.totalSize };
}

export async function runScale(browser: Browser, plans: ScalePlan[], runs: number, progress: Progress): Promise<ScaleResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-scale-'));
  const server = await serveFolder(dir);
  const cross = `http://localhost:${server.port}/`;
  const out: ScaleResult[] = [];
  // A variant stops growing once an extraction fails or gets too slow: the next size would only
  // cost minutes to say the same thing.
  const stopped = new Map<Variant, string>();
  const failed = (plan: ScalePlan, error: string): ScaleResult =>
    ({ variant: plan.variant, elements: plan.elements, listedFull: 0, firstMs: NaN, fullMs: NaN, viewportMs: NaN, modelMs: NaN, playwrightAiMs: null, tokensFull: 0, heapGrowthMb: NaN, heapTotalMb: NaN, error });
  try {
    for (const plan of plans) {
      const label = `${plan.variant} ${plan.elements}`;
      const reason = stopped.get(plan.variant);
      if (reason) {
        out.push(failed(plan, `skipped: ${reason}`));
        progress.tick(label);
        continue;
      }
      const file = writeVariantPage(dir, plan, cross);
      try {
        const r = await measureScale(browser, server.url + file, plan, runs);
        out.push(r);
        const slowest = Math.max(r.fullMs, r.firstMs);
        // The flat page is measured at every size (the 50k goal needs its figure); the harder shapes stop early.
        if (slowest > STOP_MS && plan.variant !== 'flat') stopped.set(plan.variant, `${plan.elements} elements took ${(slowest / 1000).toFixed(1)} s`);
      } catch (e) {
        const error = (e as Error).message.split('\n')[0];
        progress.note(`scale: ${label} failed: ${error}`);
        out.push(failed(plan, error));
        stopped.set(plan.variant, `${plan.elements} elements failed`);
      }
      progress.tick(label);
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function measureScale(browser: Browser, url: string, plan: ScalePlan, runs: number): Promise<ScaleResult> {
  // Loading a 50k-element page is not what is measured, and takes over 20 s on a busy machine.
  const { page, lens, close } = await openTask(browser, { set: 'scale', name: url, url, offline: true }, LOAD_TIMEOUT_MS);
  try {
    await waitForVariant(page, plan);
    await installCdpMeter(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const before = await heapUsage(cdp);
    const t0 = performance.now();
    const { value: first, bytes: cdpBytesFirst, byMethod: cdpMethodsFirst } = await meterCdp(() => lens.snapshot({ mode: 'semantic_v3', fullPage: true }));
    const firstMs = performance.now() - t0;
    const after = await heapUsage(cdp);
    // The first snapshot warmed the engine up: every call after it is a timed one, repeated
    // unless a single warm call is already slow. One more metered call each gives the bytes
    // a warm read moves (outside the timed ones: metering serializes every answer).
    const full = await timeAdaptive(runs, () => lens.snapshot({ mode: 'semantic_v3', fullPage: true }));
    const { value: warm, bytes: cdpBytesFull, byMethod: cdpMethodsFull } = await meterCdp(() => lens.snapshot({ mode: 'semantic_v3', fullPage: true }));
    const model = await timeAdaptive(runs, () => lens.model({ fullPage: true }));
    const viewport = await timeAdaptive(runs, () => lens.snapshot({ mode: 'semantic_v3' }));
    const { bytes: cdpBytesViewport, byMethod: cdpMethodsViewport } = await meterCdp(() => lens.snapshot({ mode: 'semantic_v3' }));
    const bytesFull = (await lens.model({ fullPage: true })).engine.bytes;
    const bytesViewport = (await lens.model({ fullPage: false })).engine.bytes;
    const reread = await rereadAfterOneChange(page, lens, runs);
    const viewportChangedMs = await viewportAfterOneChange(page, lens, runs);
    // What the page keeps once pagelens has read it (its live model, caches), after a GC.
    await cdp.send('HeapProfiler.collectGarbage');
    const retained = await heapUsage(cdp);
    let playwrightAiMs: number | null = null;
    let playwrightAiFirstMs: number | undefined;
    let playwrightAiOverMs: number | undefined;
    // Beyond the sizes it is timed at, Playwright's snapshot only has to show it takes longer
    // than pagelens's first (cold) snapshot: it gets that long, and a little more, to finish.
    const limit = plan.elements <= PLAYWRIGHT_MAX ? 60_000 : Math.max(PLAYWRIGHT_LIMIT_MS, Math.ceil(firstMs * 1.5));
    try {
      // Its first call on the page, then a warm one, as for pagelens.
      const t1 = performance.now();
      await page.ariaSnapshot({ mode: 'ai', timeout: limit });
      playwrightAiFirstMs = round(performance.now() - t1, 1);
      playwrightAiMs = (await timeWarm(1, () => page.ariaSnapshot({ mode: 'ai', timeout: limit }), false)).ms;
    } catch (e) {
      if (!/Timeout/i.test((e as Error).message)) throw e;
      playwrightAiOverMs = limit;
    }
    await cdp.detach().catch(() => {});
    return {
      variant: plan.variant,
      elements: plan.elements,
      listedFull: first.interactive_tree.length,
      listedWarm: warm.interactive_tree.length,
      firstMs: round(firstMs, 1),
      fullMs: full.ms,
      viewportMs: viewport.ms,
      viewportChangedMs,
      modelMs: model.ms,
      playwrightAiMs,
      ...(playwrightAiFirstMs !== undefined && { playwrightAiFirstMs }),
      ...(playwrightAiOverMs !== undefined && { playwrightAiOverMs }),
      ...(bytesFull !== undefined && { bytesFull }),
      ...(bytesViewport !== undefined && { bytesViewport }),
      cdpBytesFirst,
      cdpBytesFull,
      cdpBytesViewport,
      cdpMethods: { first: cdpMethodsFirst, full: cdpMethodsFull, viewport: cdpMethodsViewport },
      ...reread,
      tokensFull: await countTokens(JSON.stringify(first)),
      heapGrowthMb: round((after.used - before.used) / 2 ** 20, 1),
      heapTotalMb: round(after.total / 2 ** 20, 1),
      heapRetainedMb: round((retained.used - before.used) / 2 ** 20, 1),
    };
  } finally {
    await close();
  }
}
