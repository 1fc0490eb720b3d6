// The heavier artifacts (issue 10) on the shared corpus, side by side with raw HTML and Playwright's
// AI snapshot on the same pages in the same run: tokens (o200k) of the skeleton, of the full DOM
// before and after templatizing, and of the hybrid payload without its screenshot; warm time of
// each; screenshot bytes and time; and whether templatize round-trips on every page.
//   Run: node dist/bench/artifactSizes.js [--limit N per set, default 10] [--runs R, default 3] [--sets news,shop,forms]
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../src/browser/chromium.js';
import { serveFolder } from '../src/browser/static.js';
import { templatize, untemplatize } from '../src/model/renderers/templatize.js';
import { countTokens } from '../src/model/renderers/tokens.js';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { defaultSets, REPO_ROOT, type PageSet } from './inputs.js';
import { blankPage, navigate, stripIds, type OpenedPage } from './measurePage.js';
import { human, median, pct, quantile, round, timeWarm } from './stats.js';

/** The goals of issue 10. */
export const ARTIFACT_GOALS = {
  /** skeleton tokens ≤ 15% of Playwright's AI snapshot. */
  skeletonVsAi: 0.15,
  /** templatized full DOM tokens ≤ 25% of raw HTML. */
  fullVsHtml: 0.25,
  /** hybrid capture at 1280×800, ms. */
  hybridMs: 150,
};

export interface ArtifactFigures {
  tokens: { html: number; playwrightAi: number; skeleton: number; skeletonFullPage: number; fullRaw: number; fullTemplatized: number; hybridJson: number };
  timeMs: { html: number; playwrightAi: number; skeleton: number; full: number; hybrid: number; screenshot: number };
  screenshotBytes: number;
  templates: number;
  /** untemplatize(templatize(raw)) === raw on this page's full DOM. */
  roundTrip: boolean;
}

/** Every figure of one loaded page (warm: each extraction once before it is timed). */
export async function measureArtifacts(opened: OpenedPage, runs = 3): Promise<ArtifactFigures> {
  const { page, lens } = opened;
  const html = await timeWarm(runs, () => page.content());
  const ai = await timeWarm(runs, () => page.ariaSnapshot({ mode: 'ai' }));
  const skeleton = await timeWarm(runs, () => lens.snapshot({ mode: 'skeleton' }));
  const skeletonFull = await lens.snapshot({ mode: 'skeleton', fullPage: true });
  const full = await timeWarm(runs, () => lens.snapshot({ mode: 'full' }));
  const hybrid = await timeWarm(runs, () => lens.snapshot({ mode: 'hybrid' }));
  const raw = untemplatize(full.value.dom);
  return {
    tokens: {
      html: await countTokens(stripIds(html.value)),
      playwrightAi: await countTokens(ai.value),
      skeleton: skeleton.value.meta.estimatedTokens,
      skeletonFullPage: skeletonFull.meta.estimatedTokens,
      fullRaw: full.value.meta.rawTokens,
      fullTemplatized: full.value.meta.estimatedTokens,
      hybridJson: hybrid.value.meta.estimatedTokens,
    },
    timeMs: { html: html.ms, playwrightAi: ai.ms, skeleton: skeleton.ms, full: full.ms, hybrid: hybrid.ms, screenshot: hybrid.value.meta.screenshotMs },
    screenshotBytes: hybrid.value.meta.screenshotBytes,
    templates: full.value.meta.templates,
    roundTrip: raw.length === full.value.meta.rawChars && templatize(raw).html === full.value.dom,
  };
}

interface Row { set: string; page: string; f: ArtifactFigures }

function table(rows: Row[], sets: string[]): string {
  const groups = [...sets.map((s) => [s, rows.filter((r) => r.set === s)] as const), ['all', rows] as const].filter(([, rs]) => rs.length);
  const med = (rs: readonly Row[], fn: (f: ArtifactFigures) => number) => median(rs.map((r) => fn(r.f)));
  const lines: Array<[string, (rs: readonly Row[]) => string]> = [
    ['pages', (rs) => String(rs.length)],
    ['raw HTML tokens (page.content())', (rs) => human(med(rs, (f) => f.tokens.html))],
    ['Playwright AI snapshot tokens / time', (rs) => `${human(med(rs, (f) => f.tokens.playwrightAi))} / ${human(med(rs, (f) => f.timeMs.playwrightAi))} ms`],
    ['skeleton tokens (× Playwright AI) / time', (rs) => `${human(med(rs, (f) => f.tokens.skeleton))} (${pct(med(rs, (f) => f.tokens.skeleton / f.tokens.playwrightAi))}) / ${human(med(rs, (f) => f.timeMs.skeleton))} ms`],
    ['skeleton, full page (× Playwright AI)', (rs) => `${human(med(rs, (f) => f.tokens.skeletonFullPage))} (${pct(med(rs, (f) => f.tokens.skeletonFullPage / f.tokens.playwrightAi))})`],
    ['full DOM raw tokens (× HTML)', (rs) => `${human(med(rs, (f) => f.tokens.fullRaw))} (${pct(med(rs, (f) => f.tokens.fullRaw / f.tokens.html))})`],
    ['full DOM templatized (× HTML) / time', (rs) => `${human(med(rs, (f) => f.tokens.fullTemplatized))} (${pct(med(rs, (f) => f.tokens.fullTemplatized / f.tokens.html))}) / ${human(med(rs, (f) => f.timeMs.full))} ms`],
    ['templatize reduction (tokens)', (rs) => pct(med(rs, (f) => 1 - f.tokens.fullTemplatized / f.tokens.fullRaw))],
    ['hybrid JSON tokens (× Playwright AI)', (rs) => `${human(med(rs, (f) => f.tokens.hybridJson))} (${pct(med(rs, (f) => f.tokens.hybridJson / f.tokens.playwrightAi))})`],
    ['hybrid capture time (p50 / max)', (rs) => `${human(med(rs, (f) => f.timeMs.hybrid))} / ${human(Math.max(...rs.map((r) => r.f.timeMs.hybrid)))} ms`],
    ['screenshot KB / compose ms', (rs) => `${human(med(rs, (f) => f.screenshotBytes / 1024))} / ${human(med(rs, (f) => f.timeMs.screenshot))} ms`],
    ['raw HTML time (page.content())', (rs) => `${human(med(rs, (f) => f.timeMs.html))} ms`],
    ['templatize round-trips', (rs) => `${rs.filter((r) => r.f.roundTrip).length}/${rs.length}`],
  ];
  const header = `| | ${groups.map(([s]) => s).join(' | ')} |`;
  const rule = `|---|${groups.map(() => '---').join('|')}|`;
  return [header, rule, ...lines.map(([label, fn]) => `| ${label} | ${groups.map(([, rs]) => fn(rs)).join(' | ')} |`)].join('\n');
}

function goals(rows: Row[]): string[] {
  const f = rows.map((r) => r.f);
  const skeleton = median(f.map((x) => x.tokens.skeleton / x.tokens.playwrightAi));
  const fullShare = median(f.map((x) => x.tokens.fullTemplatized / x.tokens.html));
  const hybrid = median(f.map((x) => x.timeMs.hybrid));
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  return [
    `${verdict(skeleton <= ARTIFACT_GOALS.skeletonVsAi)} skeleton ≤ 15% of Playwright AI snapshot tokens: median ${pct(skeleton)}`,
    `${verdict(fullShare <= ARTIFACT_GOALS.fullVsHtml)} templatized full ≤ 25% of raw HTML tokens: median ${pct(fullShare)}`,
    `${verdict(hybrid <= ARTIFACT_GOALS.hybridMs)} hybrid capture ≤ 150 ms at 1280×800: median ${round(hybrid)} ms (p90 ${round([...f.map((x) => x.timeMs.hybrid)].sort((a, b) => a - b)[Math.ceil(0.9 * f.length) - 1])} ms)`,
  ];
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
  const limit = Number(arg('--limit') ?? 10);
  const runs = Number(arg('--runs') ?? 3);
  const sets = defaultSets(arg('--sets')?.split(','));
  if (typeof sets === 'string') { console.log(`bench/artifacts: ${sets}; nothing to measure.`); return; }
  const browser = await launchChromium();
  const rows: Row[] = [];
  const t0 = performance.now();
  try {
    for (const set of sets) {
      const folder = set.pages[0]?.file?.replace(/\/[^/]*$/, '');
      if (!folder) continue;
      const server = await serveFolder(folder);
      try {
        for (const p of set.pages.slice(0, limit)) {
          let opened: OpenedPage | undefined;
          try {
            opened = await navigate(await blankPage(browser, true), server.url + encodeURIComponent(p.name));
            const f = await measureArtifacts(opened, runs);
            rows.push({ set: set.name, page: p.name, f });
            process.stderr.write(`${set.name}/${p.name}: skeleton ${f.tokens.skeleton} tok, full ${f.tokens.fullRaw}→${f.tokens.fullTemplatized} tok (html ${f.tokens.html}), hybrid ${f.timeMs.hybrid} ms${f.roundTrip ? '' : ', ROUND-TRIP FAILED'}\n`);
          } catch (e) {
            process.stderr.write(`${set.name}/${p.name}: ${(e as Error).message.split('\n')[0]}\n`);
          } finally {
            await opened?.close();
          }
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`\nArtifacts (issue 10): ${rows.length} pages, ${runs} warm runs each, medians over pages, viewport 1280×800, ${round((performance.now() - t0) / 1000)} s\n`);
  console.log(table(rows, sets.map((s) => s.name)));
  console.log('');
  for (const line of goals(rows)) console.log(line);
}

// ---- the size goals of the seed contracts (issue 23), as rows of `npm run bench` ----

/** Templatized `full` ≤ 25% of the raw HTML (tokens, o200k), median over shop pages; dom_overview with the seed's defaults < 300 tokens. */
export const SIZE_GOALS = { fullVsHtml: 0.25, overviewTokens: 300 };

export interface SizeRow { set: string; page: string; html: number; full: number; overview: number; error?: string }

/** Tokens of the raw HTML, of templatized `full` and of dom_overview with its defaults, on one loaded page. */
export async function measureSizes(opened: OpenedPage): Promise<Omit<SizeRow, 'set' | 'page'>> {
  const { page, lens } = opened;
  const html = await countTokens(stripIds(await page.content()));
  const full = await lens.snapshot({ mode: 'full' });
  const overview = await lens.overview({}, { refresh: true });
  return { html, full: await countTokens(full.dom), overview: await countTokens(overview.text) };
}

/** The dashboard fixture the overview goal was first measured on (test/fixtures/dashboard.html). */
const DASHBOARD = join(REPO_ROOT, 'test', 'fixtures');

/** Every page of each set (up to `limit` per set), and the dashboard fixture. */
export async function runSizeGoals(browser: Browser, sets: PageSet[], limit = Infinity, quiet = false): Promise<{ rows: SizeRow[]; dashboard?: number }> {
  const rows: SizeRow[] = [];
  const folders: Array<[string, string, string[]]> = sets.map((set) => [set.name, set.pages[0]?.file?.replace(/\/[^/]*$/, '') ?? '', set.pages.filter((p) => p.file).slice(0, limit).map((p) => p.name)]);
  folders.push(['dashboard', DASHBOARD, ['dashboard.html']]);
  for (const [set, folder, pages] of folders) {
    if (!folder || !pages.length) continue;
    const server = await serveFolder(folder);
    try {
      for (const name of pages) {
        let opened: OpenedPage | undefined;
        try {
          opened = await navigate(await blankPage(browser, true), server.url + encodeURIComponent(name));
          rows.push({ set, page: name, ...await measureSizes(opened) });
          if (!quiet) process.stderr.write('.');
        } catch (e) {
          rows.push({ set, page: name, html: 0, full: 0, overview: 0, error: (e as Error).message.split('\n')[0] });
          if (!quiet) process.stderr.write('x');
        } finally {
          await opened?.close();
        }
      }
    } finally {
      await server.close();
    }
  }
  if (!quiet) process.stderr.write('\n');
  const dashboard = rows.find((r) => r.set === 'dashboard' && !r.error)?.overview;
  return { rows: rows.filter((r) => r.set !== 'dashboard'), ...(dashboard !== undefined && { dashboard }) };
}

/** Median and spread (p10–p90, min–max) of a figure over pages. */
function spread(values: number[], show: (v: number) => string): string {
  if (!values.length) return 'not measured';
  return `median ${show(median(values))} (p10–p90 ${show(quantile(values, 0.1))}–${show(quantile(values, 0.9))}, min–max ${show(Math.min(...values))}–${show(Math.max(...values))}, ${values.length} pages)`;
}

/** The rows `npm run bench` prints: per set, and the goals met or missed. */
export function renderSizeGoals(rows: SizeRow[], dashboard: number | undefined): string {
  const ok = rows.filter((r) => !r.error && r.html > 0);
  const sets = [...new Set(ok.map((r) => r.set))];
  const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
  const lines = ['SEED CONTRACT SIZES (issue 23; tokens, o200k)'];
  for (const set of sets) {
    const rs = ok.filter((r) => r.set === set);
    lines.push(`  ${set}: templatized full / raw HTML ${spread(rs.map((r) => r.full / r.html), (v) => pct(v))}`);
    lines.push(`  ${set}: dom_overview (defaults) ${spread(rs.map((r) => r.overview), (v) => String(Math.round(v)))}`);
  }
  const shop = ok.filter((r) => r.set === 'shop');
  const ratio = shop.length ? median(shop.map((r) => r.full / r.html)) : undefined;
  const overview = ok.length ? median(ok.map((r) => r.overview)) : undefined;
  lines.push(ratio === undefined ? '  goal templatized full ≤ 25% of raw HTML (shop median): not measured (no shop pages)'
    : `  goal templatized full ≤ 25% of raw HTML (shop median): ${pct(ratio)} ${verdict(ratio <= SIZE_GOALS.fullVsHtml)}`);
  lines.push(overview === undefined ? '  goal dom_overview < 300 tokens (corpus median): not measured'
    : `  goal dom_overview < 300 tokens (corpus median): ${Math.round(overview)} ${verdict(overview < SIZE_GOALS.overviewTokens)}`);
  lines.push(dashboard === undefined ? '  goal dom_overview < 300 tokens (test/fixtures/dashboard.html): not measured'
    : `  goal dom_overview < 300 tokens (test/fixtures/dashboard.html): ${dashboard} ${verdict(dashboard < SIZE_GOALS.overviewTokens)}`);
  const failed = rows.filter((r) => r.error);
  for (const r of failed) lines.push(`  not measured: ${r.set}/${r.page}: ${r.error}`);
  return lines.join('\n');
}

// Standalone when run directly; the per-page function is what `npm run bench` can fold in.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
