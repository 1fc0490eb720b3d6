// Generated pages with many interactive elements: how extraction time and the page's JS heap
// grow with page size, flat and in the harder shapes (deep nesting, shadow roots, iframes).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { Lens } from '../src/browser/lens.js';
import { serveFolder } from '../src/browser/static.js';
import { countTokens } from '../src/model/tokens.js';
import { openTask } from './measurePage.js';
import type { Progress } from './progress.js';
import type { ScaleResult } from './schema.js';
import { median, round, timeWarm } from './stats.js';

export type Variant = 'flat' | 'deep' | 'shadow' | 'iframes';
export interface ScalePlan { variant: Variant; elements: number }

export const DEFAULT_SIZES = [1000, 5000, 20000, 50000];
/** Every shape is measured up to this size (each stops earlier once it gets too slow, see STOP_MS). */
const VARIANT_MAX = 50000;
/** Playwright's snapshot gets slow on big pages: up to this size it is timed; beyond, only until PLAYWRIGHT_LIMIT_MS. */
const PLAYWRIGHT_MAX = 5000;
const PLAYWRIGHT_LIMIT_MS = 20_000;
const PER_ROW = 5;
/** Beyond this, a warm extraction is timed once, not `runs` times. */
const SLOW_MS = 1500;
/** Beyond this (first or warm extraction), the variant's larger sizes are skipped. */
const STOP_MS = 20_000;
const IFRAMES = 8;

export const VARIANTS: Variant[] = ['flat', 'deep', 'shadow', 'iframes'];

export function planScale(sizes: number[], variants: Variant[] = VARIANTS): ScalePlan[] {
  const plans: ScalePlan[] = [];
  for (const variant of variants) {
    for (const elements of [...sizes].sort((a, b) => a - b)) if (variant === 'flat' || elements <= VARIANT_MAX) plans.push({ variant, elements });
  }
  return plans;
}

/** Five interactive elements per row, each with a distinct name. */
function rows(from: number, count: number): string {
  let out = '';
  for (let r = from; r < from + count; r++) {
    out += `<div class="row"><button>Save ${r}</button><a href="#r${r}">Item ${r}</a><input name="q${r}" placeholder="Note ${r}">`
      + `<label><input type="checkbox"> Pick ${r}</label><select aria-label="Size ${r}"><option>S</option><option>M</option></select></div>\n`;
  }
  return out;
}

const STYLE = '<style>body{font:13px sans-serif;margin:8px} .row{height:26px;display:flex;gap:8px;align-items:center}</style>';

function doc(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${STYLE}</head><body>\n${body}</body></html>`;
}

/** Writes the page (and its frames) for one plan; returns the file to open. */
function writePage(dir: string, plan: ScalePlan, crossOrigin: string): string {
  const nRows = Math.ceil(plan.elements / PER_ROW);
  const base = `${plan.variant}-${plan.elements}`;
  if (plan.variant === 'flat') {
    writeFileSync(join(dir, `${base}.html`), doc(base, rows(0, nRows)));
  } else if (plan.variant === 'deep') {
    // Every ten rows sit 60 levels down: long ancestor chains for every walk and style lookup.
    let body = '';
    for (let r = 0; r < nRows; r += 10) body += '<div>'.repeat(60) + rows(r, Math.min(10, nRows - r)) + '</div>'.repeat(60) + '\n';
    writeFileSync(join(dir, `${base}.html`), doc(base, body));
  } else if (plan.variant === 'shadow') {
    // Ten rows per host, hosts alternating open and closed roots (closed ones are fetched over CDP).
    const hosts = Math.ceil(nRows / 10);
    const script = `<script>
const tpl = (from) => { let s = ''; for (let r = from; r < from + 10 && r < ${nRows}; r++) s += \`<div class="row" style="height:26px;display:flex;gap:8px"><button>Save \${r}</button><a href="#r\${r}">Item \${r}</a><input name="q\${r}" placeholder="Note \${r}"><label><input type="checkbox"> Pick \${r}</label><select aria-label="Size \${r}"><option>S</option><option>M</option></select></div>\`; return s; };
for (let h = 0; h < ${hosts}; h++) { const host = document.createElement('div'); document.body.appendChild(host); host.attachShadow({ mode: h % 2 ? 'closed' : 'open' }).innerHTML = tpl(h * 10); }
</script>`;
    writeFileSync(join(dir, `${base}.html`), doc(base, script));
  } else {
    // Half the frames same-origin, half from another site (out-of-process).
    const perFrame = Math.ceil(nRows / IFRAMES);
    let body = '';
    for (let f = 0; f < IFRAMES; f++) {
      const name = `${base}-frame${f}.html`;
      writeFileSync(join(dir, name), doc(name, rows(f * perFrame, Math.min(perFrame, nRows - f * perFrame))));
      const src = f % 2 ? crossOrigin + name : name;
      body += `<iframe src="${src}" style="width:1200px;height:${Math.min(perFrame * 26 + 20, 4000)}px;border:0;display:block"></iframe>\n`;
    }
    writeFileSync(join(dir, `${base}.html`), doc(base, body));
  }
  return `${base}.html`;
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
async function rereadAfterOneChange(page: Page, lens: Lens, runs: number): Promise<{ rereadMs: number; coldMs: number; rereadRatio: number }> {
  const warm: number[] = [];
  const cold: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.evaluate((n) => {
      let p = document.getElementById('bench-note');
      if (!p) { p = document.createElement('p'); p.id = 'bench-note'; document.body.prepend(p); }
      p.textContent = `Changed ${n}`;
    }, i);
    let t0 = performance.now();
    await lens.model({ fullPage: true });
    warm.push(performance.now() - t0);
    t0 = performance.now();
    await lens.model({ fullPage: true, fresh: true });
    cold.push(performance.now() - t0);
    if (cold[0] > SLOW_MS * 4) break;
  }
  return { rereadMs: round(median(warm), 1), coldMs: round(median(cold), 1), rereadRatio: round(median(warm) / median(cold), 3) };
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
      const file = writePage(dir, plan, cross);
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
  const { page, lens, close } = await openTask(browser, { set: 'scale', name: url, url, offline: true });
  try {
    // The shadow variant builds its DOM in a script: wait until every host is there.
    await page.waitForFunction((n) => document.body.children.length >= n, plan.variant === 'shadow' ? Math.ceil(plan.elements / PER_ROW / 10) : 0);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const before = await heapUsage(cdp);
    const t0 = performance.now();
    const first = await lens.snapshot({ mode: 'semantic_v3', fullPage: true });
    const firstMs = performance.now() - t0;
    const after = await heapUsage(cdp);
    // The first snapshot warmed the engine up: every call after it is a timed one, repeated
    // unless a single warm call is already slow.
    const full = await timeAdaptive(runs, () => lens.snapshot({ mode: 'semantic_v3', fullPage: true }));
    const model = await timeAdaptive(runs, () => lens.model({ fullPage: true }));
    const viewport = await timeAdaptive(runs, () => lens.snapshot({ mode: 'semantic_v3' }));
    const bytesFull = (await lens.model({ fullPage: true })).engine.bytes;
    const bytesViewport = (await lens.model({ fullPage: false })).engine.bytes;
    const reread = await rereadAfterOneChange(page, lens, runs);
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
      playwrightAiMs = (await timeWarm(1, () => page.ariaSnapshot({ mode: 'ai', timeout: limit }))).ms;
    } catch (e) {
      if (!/Timeout/i.test((e as Error).message)) throw e;
      playwrightAiOverMs = limit;
    }
    await cdp.detach().catch(() => {});
    return {
      variant: plan.variant,
      elements: plan.elements,
      listedFull: first.interactive_tree.length,
      firstMs: round(firstMs, 1),
      fullMs: full.ms,
      viewportMs: viewport.ms,
      modelMs: model.ms,
      playwrightAiMs,
      ...(playwrightAiFirstMs !== undefined && { playwrightAiFirstMs }),
      ...(playwrightAiOverMs !== undefined && { playwrightAiOverMs }),
      ...(bytesFull !== undefined && { bytesFull }),
      ...(bytesViewport !== undefined && { bytesViewport }),
      ...reread,
      tokensFull: await countTokens(JSON.stringify(first)),
      heapGrowthMb: round((after.used - before.used) / 2 ** 20, 1),
      heapTotalMb: round(after.total / 2 ** 20, 1),
    };
  } finally {
    await close();
  }
}
