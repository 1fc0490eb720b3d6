// One page, one load, one page state: every representation is extracted from the same DOM,
// timed warm from Node, counted in o200k tokens, then checked against Chrome's own tree.
import { readdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { blockExternalRequests } from '../src/browser/chromium.js';
import { Lens } from '../src/browser/lens.js';
import { gotoSettled } from '../src/browser/goto.js';
import { serveFolder } from '../src/browser/static.js';
import { countTokens } from '../src/model/renderers/tokens.js';
import type { SemanticV3Result } from '../src/model/contracts/schema.js';
import { axOutline, compareWithChrome, fullAxTree } from './chromeAx.js';
import type { PageResult } from './schema.js';
import { round, share, timeWarm } from './stats.js';

export const VIEWPORT = { width: 1280, height: 800 };

export interface PageTask {
  set: string;
  name: string;
  url: string;
  /** Abort every request that is not to loopback (saved pages). */
  offline: boolean;
  /** Form field names the labels call visible, when the set has labels. */
  formFields?: Set<string>;
}

// The floor: the least any extractor must do, one walk that reads every element's box.
const FLOOR = () => {
  let n = 0, sum = 0;
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT);
  for (let el = walker.currentNode as Element | null; el; el = walker.nextNode() as Element | null) {
    const r = el.getBoundingClientRect();
    sum += r.width;
    n++;
  }
  return { n, sum };
};

/** The engine stamps data-llm-id on what it tags; raw HTML is counted as the site sent it. */
export function stripIds(html: string): string {
  return html.replace(/ data-llm-id="[^"]*"/g, '');
}

type Extractor = () => Promise<string | null>;

export interface OpenedPage { page: Page; lens: Lens; close: () => Promise<void> }

/** A fresh context per page, not yet navigated: its own routes, dialog handler and lens. */
export async function blankPage(browser: Browser, offline: boolean): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    if (offline) await blockExternalRequests(context);
    const page = await context.newPage();
    page.on('dialog', (d) => { void d.dismiss().catch(() => {}); });
    const lens = await Lens.attach(page);
    return { page, lens, close: async () => { await lens.close().catch(() => {}); await context.close().catch(() => {}); } };
  } catch (e) {
    await context.close().catch(() => {});
    throw e;
  }
}

/** Loads a page into a blank one and lets it settle; closes it when that fails. */
export async function navigate(blank: OpenedPage, url: string, loadTimeoutMs = 20_000): Promise<OpenedPage> {
  try {
    await gotoSettled(blank.page, url, loadTimeoutMs);
    return blank;
  } catch (e) {
    await blank.close();
    throw e;
  }
}

export async function openTask(browser: Browser, task: PageTask, loadTimeoutMs?: number): Promise<OpenedPage> {
  return navigate(await blankPage(browser, task.offline), task.url, loadTimeoutMs);
}

/**
 * Measures an opened page (the caller closes it). `timed` is called once nothing timed is left,
 * so that the caller can start loading the next page while this one is checked and counted.
 */
export async function measurePage(opened: OpenedPage, task: PageTask, runs: number, timed: () => void = () => {}): Promise<PageResult> {
  const debug = process.env.BENCH_DEBUG ? (() => { let t = performance.now(); return (l: string) => { const x = performance.now(); process.stderr.write(`  ${task.name} ${l} ${(x - t).toFixed(0)}ms\n`); t = x; }; })() : () => {};
  const { page, lens } = opened;
  const axtree = (lens as unknown as { axtree?: (o?: unknown) => Promise<{ outline: string }> }).axtree;
  const extractors: Record<string, Extractor> = {
    v3Viewport: async () => JSON.stringify(await lens.snapshot({ mode: 'semantic_v3' })),
    v3Full: async () => JSON.stringify(await lens.snapshot({ mode: 'semantic_v3', fullPage: true })),
    textFull: () => lens.text({ fullPage: true }),
    html: () => page.content(),
    playwrightAi: () => page.ariaSnapshot({ mode: 'ai' }),
    floor: async () => { await page.evaluate(FLOOR); return null; },
  };
  // Warm-up round (also the outputs that are counted), then rounds that alternate methods so
  // that drift in the machine's load spreads over all of them alike.
  const outputs: Record<string, string | null> = {};
  for (const [k, fn] of Object.entries(extractors)) outputs[k] = await fn();
  // semantic mode reads the same page model as v3 and only renders it differently: one warm
  // sample (the engine has just run) is enough, and saves a second per heavy page.
  const t0 = performance.now();
  outputs.semanticFull = JSON.stringify(await lens.snapshot({ mode: 'semantic', fullPage: true }));
  const semanticMs = performance.now() - t0;
  debug('warm-up');
  const times: Record<string, number[]> = {};
  for (let r = 0; r < runs; r++) {
    for (const [k, fn] of Object.entries(extractors)) {
      const t0 = performance.now();
      await fn();
      (times[k] ??= []).push(performance.now() - t0);
    }
  }
  const timeMs: Record<string, number> = {};
  for (const [k, t] of Object.entries(times)) timeMs[k] = round(t.sort((a, b) => a - b)[t.length >> 1], 2);
  timeMs.semanticFull = round(semanticMs, 2);

  debug('timed runs');
  const incremental = await timeIncremental(page, lens, runs);
  // Chrome's tree last: asking for it switches the renderer into accessibility mode, which
  // would slow everything measured after it.
  // lens.axtree() reads Chrome's tree too, so it belongs to this phase.
  const cdp = await page.context().newCDPSession(page);
  const ax = await timeWarm(runs, async () => { const nodes = await fullAxTree(cdp); return { nodes, outline: axOutline(nodes) }; });
  timeMs.chromeAx = ax.ms;
  outputs.chromeAx = ax.value.outline;
  if (typeof axtree === 'function') {
    const lensAx = await timeWarm(runs, async () => (await axtree.call(lens)).outline);
    timeMs.axtree = lensAx.ms;
    outputs.axtree = lensAx.value;
  }
  timed();
  if (outputs.html !== null) outputs.html = stripIds(outputs.html);

  debug('chrome ax');
  const tokens: Record<string, number> = {};
  for (const [k, text] of Object.entries(outputs)) if (text !== null) tokens[k] = await countTokens(text);

  debug('tokens');
  const v3 = JSON.parse(outputs.v3Full!) as SemanticV3Result;
  const v3vp = JSON.parse(outputs.v3Viewport!) as SemanticV3Result;
  const doc = await page.evaluate(() => ({
    width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
    elements: document.getElementsByTagName('*').length,
  }));
  const mainFrame = v3.interactive_tree.filter((n) => n.f === undefined);
  // Names the label hunt gave (Chrome leaves those elements unnamed): left out of the accname-only agreement.
  const hunted = new Set((await lens.model({ fullPage: true })).nodes.filter((n) => n.frame === 0 && n.nameFrom === 'hunt').map((n) => n.gid));
  const agreement = await compareWithChrome(cdp, ax.value.nodes, mainFrame, doc, task.formFields, hunted);
  await cdp.detach().catch(() => {});
  debug('compare');

  const result: PageResult = {
    set: task.set,
    page: task.name,
    url: task.url,
    elements: { dom: doc.elements, axNodes: ax.value.nodes.length, listedFull: v3.interactive_tree.length, listedViewport: v3vp.interactive_tree.length },
    tokens,
    timeMs,
    coverage: { ...agreement.coverage, share: share(agreement.coverage.covered, agreement.coverage.candidates) },
    names: { ...agreement.names, share: share(agreement.names.agree, agreement.names.compared) },
    ...(incremental && { incremental }),
  };
  if (agreement.forms) {
    const f = agreement.forms.fields;
    const named = f.filter((x) => x.listed && x.ours.trim() !== '').length;
    result.forms = {
      fields: f.length, listed: f.filter((x) => x.listed).length, named,
      chromeNamed: f.filter((x) => x.chrome !== '').length, share: share(named, f.length), fieldList: f,
    };
  }
  return result;
}

/**
 * The read that follows a small change: one listed element's text is changed, then the full-page
 * model is read reusing what nothing changed (warm) or reusing nothing (cold), alternately. The
 * text is put back afterwards. Null when the page lists nothing with text to change.
 */
async function timeIncremental(page: Page, lens: Lens, runs: number): Promise<PageResult['incremental'] | null> {
  const change = (text: string | null) => page.evaluate((t) => {
    const w = window as unknown as { __benchTarget?: Text; __benchOriginal?: string };
    if (!w.__benchTarget) {
      for (const el of Array.from(document.querySelectorAll('[data-llm-id]'))) {
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) if (/\S/.test(n.nodeValue ?? '')) { w.__benchTarget = n as Text; break; }
        if (w.__benchTarget) break;
      }
      if (!w.__benchTarget) return false;
      w.__benchOriginal = w.__benchTarget.data;
    }
    w.__benchTarget.data = t ?? w.__benchOriginal!;
    return true;
  }, text);
  if (!await change('Changed 0')) return null;
  await lens.model({ fullPage: true });
  const warm: number[] = [], cold: number[] = [], warmEngine: number[] = [], coldEngine: number[] = [], warmBytes: number[] = [], coldBytes: number[] = [];
  const same: number[] = [], sameEngine: number[] = [];
  const timed = async (fresh: boolean, ms: number[], engineMs: number[], bytes?: number[]) => {
    const t0 = performance.now();
    const model = await lens.model({ fullPage: true, fresh });
    ms.push(performance.now() - t0);
    engineMs.push(model.engine.ms);
    // What the engines' answers took over CDP: a warm read answers with what changed (issue 21).
    bytes?.push(model.engine.bytes ?? 0);
  };
  for (let r = 0; r < Math.max(3, runs); r++) {
    await change(`Changed ${r}a`);
    await timed(false, warm, warmEngine, warmBytes);
    // Nothing changed since: what a re-read costs whatever the change (every kept box read again, the round trips).
    await timed(false, same, sameEngine);
    await change(`Changed ${r}b`);
    await timed(true, cold, coldEngine, coldBytes);
  }
  await change(null);
  const mid = (xs: number[]) => round([...xs].sort((a, b) => a - b)[xs.length >> 1], 2);
  return {
    warmMs: mid(warm), coldMs: mid(cold), warmEngineMs: mid(warmEngine), coldEngineMs: mid(coldEngine), warmBytes: mid(warmBytes), coldBytes: mid(coldBytes),
    unchangedMs: mid(same), unchangedEngineMs: mid(sameEngine),
  };
}

export class TimeoutError extends Error {}

/** `p`, or a TimeoutError after `ms`. */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new TimeoutError(`took longer than ${ms / 1000} s`)), ms); }),
  ]);
}

/** A folder's .html pages in natural order (2.html before 10.html). */
export function htmlPagesIn(folder: string): string[] {
  return readdirSync(folder).filter((f) => /\.html?$/i.test(f)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/**
 * Serves `folder` on loopback and opens each of `files` on a fresh offline page for `visit`, until
 * `limit` visits counted (visit answers whether the page counted); a page that fails or takes
 * over two minutes is reported on stderr with `label` and skipped.
 */
export async function visitPages(browser: Browser, folder: string, files: string[], limit: number, label: string, visit: (opened: OpenedPage, file: string) => Promise<boolean>): Promise<void> {
  const server = await serveFolder(folder);
  try {
    let counted = 0;
    for (const file of files) {
      if (counted >= limit) break;
      const opened = await blankPage(browser, true);
      try {
        await navigate(opened, server.url + encodeURIComponent(file));
        if (await withTimeout(visit(opened, file), 120_000)) counted++;
      } catch (e) {
        process.stderr.write(`${label}/${file}: ${(e as Error).message.split('\n')[0]}\n`);
      } finally {
        await opened.close();
      }
    }
  } finally {
    await server.close();
  }
}
