// The hierarchical index and dom_overview on the shared corpus, side by side with Playwright's AI
// snapshot on the same pages in the same run: o200k tokens and time of L0 (with the snapshot it
// reads), L1, a typical L2 (the region with the most controls), L3 (its first element) and
// dom_overview with its defaults (cold: a fresh snapshot; warm: from the cache), whether regions
// were found (more than one, not a single page-wide block), and the tokens grouping saves on the
// whole page's controls.  Run: node dist/bench/exploreIndex.js [--limit N] [--sets news,shop]
import { dirname } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../src/browser/chromium.js';
import { serveFolder, type StaticServer } from '../src/browser/static.js';
import { countTokens } from '../src/model/renderers/tokens.js';
import { defaultSets, type PageSet } from './inputs.js';
import { blankPage, navigate, type OpenedPage } from './measurePage.js';
import { median, round } from './stats.js';

export interface ExploreMeasure {
  set: string;
  page: string;
  error?: string;
  tokens: { l0: number; l1: number; l2: number; l2Typical: number; l3: number; overview: number; playwright: number; wholeGrouped: number; wholeFlat: number };
  /** Controls the whole-page listings show (grouped: members of groups count). */
  shown: { grouped: number; flat: number };
  ms: { l0: number; l1: number; l2: number; l3: number; overviewCold: number; overviewWarm: number; playwright: number };
  regions: number;
  /** More than one region, and not one block standing for the whole page. */
  regionsFound: boolean;
  l2Region: string;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await fn();
  return [value, round(performance.now() - t0, 1)];
}

/** Warm median of three calls (after one that is not counted). */
async function warm<T>(fn: () => Promise<T>): Promise<[T, number]> {
  let value: T = await fn();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) { const [v, ms] = await timed<T>(fn); value = v; times.push(ms); }
  return [value, round(median(times), 1)];
}

/** Measures one opened page (the caller closes it). */
export async function measureExplore(opened: OpenedPage, set: string, name: string): Promise<ExploreMeasure> {
  const { page, lens } = opened;
  const [l0, l0Ms] = await timed(() => lens.pageOverview());
  const [l1, l1Ms] = await timed(() => lens.regions());
  const target = [...l1.regions].sort((a, b) => b.interactive - a.interactive)[0];
  const [l2, l2Ms] = target ? await timed(() => lens.expandRegion(target.id)) : [undefined, 0];
  const first = l2?.elements.find((e) => 'ref' in e);
  const [l3, l3Ms] = first && 'ref' in first ? await timed(() => lens.elementContext(first.ref)) : [undefined, 0];
  const [overview, coldMs] = await timed(() => lens.overview({}, { refresh: true }));
  const [, warmMs] = await warm(() => lens.overview());
  const whole = { viewport: false, max_rows: 100, filters: { interactives: true } };
  const grouped = await lens.overview(whole);
  const flat = await lens.overview(whole, { group: false });
  // A typical L2: the median over the page's regions (the first 12).
  const everyL2: number[] = [];
  for (const r of l1.regions.slice(0, 12)) everyL2.push(await countTokens((await lens.expandRegion(r.id)).text));
  const [ai, aiMs] = await warm(() => page.ariaSnapshot({ mode: 'ai' }));
  const regions = l1.regions;
  return {
    set, page: name,
    tokens: {
      l0: await countTokens(l0.text), l1: await countTokens(l1.text), l2: l2 ? await countTokens(l2.text) : 0, l2Typical: everyL2.length ? median(everyL2) : 0, l3: l3 ? await countTokens(l3.text) : 0,
      overview: await countTokens(overview.text), playwright: await countTokens(ai),
      wholeGrouped: await countTokens(grouped.text), wholeFlat: await countTokens(flat.text),
    },
    shown: { grouped: grouped.summary.shown, flat: flat.summary.shown },
    ms: { l0: l0Ms, l1: l1Ms, l2: l2Ms, l3: l3Ms, overviewCold: coldMs, overviewWarm: warmMs, playwright: aiMs },
    regions: regions.length,
    regionsFound: regions.length > 1 || (regions.length === 1 && regions[0].landmark !== 'block' && regions[0].landmark !== 'page'),
    l2Region: target ? `${target.id} ${target.landmark}` : '',
  };
}

function args(): { limit: number; sets?: string[] } {
  const a = process.argv.slice(2);
  const at = (flag: string) => { const i = a.indexOf(flag); return i >= 0 ? a[i + 1] : undefined; };
  const limit = at('--limit');
  return { limit: limit === 'all' ? Infinity : Number(limit ?? 10), sets: at('--sets')?.split(',') };
}

async function runSet(browser: Browser, set: PageSet, limit: number): Promise<ExploreMeasure[]> {
  const files = set.pages.filter((p) => p.file).slice(0, limit);
  if (!files.length) return [];
  const server: StaticServer = await serveFolder(dirname(files[0].file!));
  const out: ExploreMeasure[] = [];
  try {
    for (const p of files) {
      const blank = await blankPage(browser, true);
      try {
        const opened = await navigate(blank, server.url + encodeURIComponent(p.name));
        out.push(await measureExplore(opened, set.name, p.name));
        process.stderr.write('.');
      } catch (e) {
        process.stderr.write('x');
        out.push({ set: set.name, page: p.name, error: (e as Error).message.split('\n')[0], tokens: { l0: 0, l1: 0, l2: 0, l2Typical: 0, l3: 0, overview: 0, playwright: 0, wholeGrouped: 0, wholeFlat: 0 }, shown: { grouped: 0, flat: 0 }, ms: { l0: 0, l1: 0, l2: 0, l3: 0, overviewCold: 0, overviewWarm: 0, playwright: 0 }, regions: 0, regionsFound: false, l2Region: '' });
      } finally {
        await blank.close();
      }
    }
  } finally {
    await server.close();
  }
  return out;
}

function table(results: ExploreMeasure[]): string {
  const sets = [...new Set(results.map((r) => r.set)), 'all'];
  const rows: Array<[string, (rs: ExploreMeasure[]) => string]> = [
    ['pages measured (errors)', (rs) => `${rs.filter((r) => !r.error).length} (${rs.filter((r) => r.error).length})`],
    ['L0 tokens / ms (ms: with the snapshot read)', (rs) => `${med(rs, (r) => r.tokens.l0)} / ${med(rs, (r) => r.ms.l0)}`],
    ['L1 tokens / ms (goal ≤ 500 tokens)', (rs) => `${med(rs, (r) => r.tokens.l1)} / ${med(rs, (r) => r.ms.l1)}`],
    ['L1 ≤ 500 tokens, share of pages', (rs) => share(rs, (r) => r.tokens.l1 <= 500)],
    ['L2 tokens, typical (median over the page\'s regions)', (rs) => `${med(rs, (r) => r.tokens.l2Typical)}`],
    ['L2 tokens / ms, the busiest region', (rs) => `${med(rs, (r) => r.tokens.l2)} / ${med(rs, (r) => r.ms.l2)}`],
    ['L3 tokens / ms', (rs) => `${med(rs, (r) => r.tokens.l3)} / ${med(rs, (r) => r.ms.l3)}`],
    ['L0+L1+L2 (typical)+L3 tokens', (rs) => `${med(rs, (r) => r.tokens.l0 + r.tokens.l1 + r.tokens.l2Typical + r.tokens.l3)}`],
    ['dom_overview tokens (goal < 300)', (rs) => `${med(rs, (r) => r.tokens.overview)}`],
    ['dom_overview < 300 tokens, share of pages', (rs) => share(rs, (r) => r.tokens.overview < 300)],
    ['dom_overview ms cold / warm (goal < 100)', (rs) => `${med(rs, (r) => r.ms.overviewCold)} / ${med(rs, (r) => r.ms.overviewWarm)}`],
    ['dom_overview warm < 100 ms, share of pages', (rs) => share(rs, (r) => r.ms.overviewWarm < 100)],
    ['Playwright AI snapshot tokens / ms', (rs) => `${med(rs, (r) => r.tokens.playwright)} / ${med(rs, (r) => r.ms.playwright)}`],
    ['regions per page', (rs) => `${med(rs, (r) => r.regions)}`],
    ['regions found (goal ≥ 95%)', (rs) => share(rs, (r) => r.regionsFound)],
    ['whole-page controls (≤ 100 rows): tokens per control grouped / one per line', (rs) => `${med(rs, (r) => perControl(r.tokens.wholeGrouped, r.shown.grouped))} / ${med(rs, (r) => perControl(r.tokens.wholeFlat, r.shown.flat))}`],
    ['grouping saves, tokens per control (median of pages)', (rs) => `${med(rs, (r) => saving(r))}%`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const cols = sets.map((s) => (s === 'all' ? results : results.filter((r) => r.set === s)));
  const cells = rows.map(([, f]) => cols.map((rs) => f(rs)));
  const colWidth = sets.map((s, i) => Math.max(s.length, ...cells.map((c) => c[i].length)));
  const line = (k: string, vs: string[]) => `${k.padEnd(width)} | ${vs.map((v, i) => v.padStart(colWidth[i])).join(' | ')}`;
  return [line('median over pages', sets), '-'.repeat(width + colWidth.reduce((a, b) => a + b + 3, 0)), ...rows.map(([k], i) => line(k, cells[i]))].join('\n');
}

function perControl(tokens: number, shown: number): number {
  return shown ? round(tokens / shown, 2) : 0;
}

/** What grouping saves per control shown: the grouped listing covers more controls in its 100 rows. */
function saving(r: ExploreMeasure): number {
  const g = perControl(r.tokens.wholeGrouped, r.shown.grouped);
  const f = perControl(r.tokens.wholeFlat, r.shown.flat);
  return f ? Math.round(100 * (1 - g / f)) : 0;
}

function med(rs: ExploreMeasure[], f: (r: ExploreMeasure) => number): string {
  const ok = rs.filter((r) => !r.error);
  return ok.length ? String(round(median(ok.map(f)), 1)) : '–';
}

function share(rs: ExploreMeasure[], f: (r: ExploreMeasure) => boolean): string {
  const ok = rs.filter((r) => !r.error);
  return ok.length ? `${Math.round((100 * ok.filter(f).length) / ok.length)}%` : '–';
}

async function main(): Promise<void> {
  const { limit, sets: only } = args();
  const sets = defaultSets(only);
  if (typeof sets === 'string') { process.stdout.write(`explore bench: ${sets}; nothing measured.\n`); return; }
  const browser = await launchChromium();
  const results: ExploreMeasure[] = [];
  try {
    for (const set of sets) results.push(...await runSet(browser, set, limit));
  } finally {
    await browser.close();
  }
  process.stderr.write('\n');
  for (const r of results.filter((x) => x.error)) process.stderr.write(`${r.set}/${r.page}: ${r.error}\n`);
  process.stdout.write(table(results) + '\n');
  if (process.argv.includes('--pages')) {
    for (const r of results.filter((x) => !x.error)) {
      process.stdout.write(`${r.set}/${r.page}: L1 ${r.tokens.l1} (${r.regions} regions${r.regionsFound ? '' : ', NOT FOUND'}), L2 ${r.tokens.l2} (${r.l2Region}), overview ${r.tokens.overview} tok ${r.ms.overviewCold}/${r.ms.overviewWarm} ms, PW ${r.tokens.playwright}\n`);
    }
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!)) await main();
