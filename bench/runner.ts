// The benchmark as a library: plan the work, run it in one browser, write results.json and
// report.html. run.ts is the command-line face; tests call runBench directly.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../src/browser/chromium.js';
import { serveFolder, type StaticServer } from '../src/browser/static.js';
import { loadTokenizer } from '../src/model/renderers/tokens.js';
import { planConformance, runConformance } from './accname.js';
import { CORPUS, REPO_ROOT, type PageSet } from './inputs.js';
import { blankPage, measurePage, navigate, openTask, TimeoutError, withTimeout, type OpenedPage, type PageTask } from './measurePage.js';
import { Progress } from './progress.js';
import { renderReport } from './report.js';
import { planScale, runScale, type Variant } from './scale.js';
import { PageResult, Results, Summary, type ConformanceCase, type ScaleResult } from './schema.js';
import { summarise, compare } from './summary.js';
import { renderTable } from './table.js';

export interface BenchOptions {
  sets: PageSet[];
  /** Pages per set. */
  limit?: number;
  /** Timed runs per extraction (after one warm-up). */
  runs: number;
  /** Sizes of the generated pages; empty: no scale test. */
  scaleSizes: number[];
  scaleRuns: number;
  scaleVariants?: Variant[];
  /** wpt.json with name/role cases; undefined: no conformance test. */
  accnameFile?: string;
  accnameLimit?: number;
  outDir: string;
  quiet?: boolean;
  /** A page that takes longer than this is recorded as failed and the browser restarted. */
  pageTimeoutMs?: number;
}

export const DEFAULT_OUT = join(REPO_ROOT, 'bench', 'out');
export const BASELINE = join(REPO_ROOT, 'bench', 'baseline.json');
export const DEFAULT_ACCNAME = join(CORPUS, 'accname', 'wpt.json');

function version(pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export async function runBench(opts: BenchOptions): Promise<Results> {
  const startedAt = new Date();
  const t0 = performance.now();
  const tokenizer = loadTokenizer(); // a second to load: overlap it with the browser start
  const sets = opts.sets.map((s) => ({ ...s, pages: opts.limit ? s.pages.slice(0, opts.limit) : s.pages }));
  const conformancePlans = opts.accnameFile && existsSync(opts.accnameFile) ? planConformance(opts.accnameFile, opts.accnameLimit) : [];
  const scalePlans = planScale(opts.scaleSizes, opts.scaleVariants);
  const total = sets.reduce((n, s) => n + s.pages.length, 0) + conformancePlans.length + scalePlans.length;
  const progress = new Progress(total, opts.quiet);

  let browser: Browser = await launchChromium();
  const chromium = browser.version();
  await tokenizer;
  const restart = async () => {
    await browser.close().catch(() => {});
    browser = await launchChromium();
  };
  const pages: PageResult[] = [];
  let conformance: ConformanceCase[] = [];
  let scale: ScaleResult[] = [];
  try {
    for (const set of sets) {
      let server: StaticServer | undefined;
      if (set.pages.some((p) => p.file)) server = await serveFolderOf(set);
      const tasks: PageTask[] = set.pages.map((input) => ({
        set: set.name,
        name: input.name,
        url: input.url ?? server!.url + encodeURIComponent(input.name),
        offline: !input.url,
        formFields: set.labels?.get(input.name),
      }));
      const limitMs = opts.pageTimeoutMs ?? 120_000;
      const ahead = new Ahead();
      try {
        for (const [i, task] of tasks.entries()) {
          const nextTask = tasks[i + 1];
          const opening = ahead.take(browser, task);
          // The next page's context and renderer are made while this page loads.
          if (nextTask) ahead.prepare(browser, nextTask);
          let opened: OpenedPage | undefined;
          try {
            opened = await withTimeout(opening, limitMs);
            await ahead.ready();
            // Once nothing timed is left, the next page starts loading.
            pages.push(await withTimeout(measurePage(opened, task, opts.runs, () => nextTask && ahead.load(nextTask)), limitMs));
          } catch (e) {
            const error = (e as Error).message.split('\n')[0];
            progress.note(`${set.name}/${task.name}: ${error}`);
            pages.push({ set: set.name, page: task.name, url: task.url, error });
            // A page stuck in a script loop keeps its renderer busy: start afresh.
            if (e instanceof TimeoutError) {
              void ahead.discard();
              opened = undefined;
              await restart();
            }
          }
          if (opened) await withTimeout(opened.close(), 10_000).catch(() => {});
          progress.tick(`${set.name}/${task.name}`);
        }
      } finally {
        await ahead.discard();
        await server?.close();
      }
    }
    if (conformancePlans.length) conformance = await runConformance(browser, conformancePlans, progress);
    if (scalePlans.length) scale = await runScale(browser, scalePlans, opts.scaleRuns, progress);
  } finally {
    await browser.close().catch(() => {});
  }

  const results: Results = {
    version: 1,
    startedAt: startedAt.toISOString(),
    durationS: Math.round((performance.now() - t0) / 100) / 10,
    machine: { cpus: cpus().length, node: process.version, chromium, playwright: version('playwright-core') },
    config: { sets: sets.map((s) => s.name), limit: opts.limit ?? null, runs: opts.runs },
    summary: summarise(pages, conformance, scale),
    pages,
    conformance,
  };
  writeOutputs(results, opts.outDir);
  return results;
}

/**
 * Pages made ready ahead of time, never while anything is timed: the next page's blank context
 * while the current one loads, and its navigation while the current one is checked and counted.
 */
class Ahead {
  private blank?: Promise<OpenedPage>;
  private loading?: Promise<OpenedPage>;

  /** The page for `task`: already loading, blank and ready to load, or opened now. */
  take(browser: Browser, task: PageTask): Promise<OpenedPage> {
    const { blank, loading } = this;
    this.blank = this.loading = undefined;
    if (loading) return loading;
    if (blank) return blank.then((b) => navigate(b, task.url), () => openTask(browser, task));
    return openTask(browser, task);
  }

  prepare(browser: Browser, task: PageTask): void {
    this.blank = quiet(blankPage(browser, task.offline));
  }

  /** Waits until the blank page is made (or failed), so that nothing is in flight while timing. */
  async ready(): Promise<void> {
    await this.blank?.catch(() => {});
  }

  load(task: PageTask): void {
    const blank = this.blank;
    if (!blank) return;
    this.blank = undefined;
    this.loading = quiet(blank.then((b) => navigate(b, task.url)));
  }

  async discard(): Promise<void> {
    const pending = [this.blank, this.loading];
    this.blank = this.loading = undefined;
    await Promise.all(pending.map((p) => p?.then((o) => o.close(), () => {})));
  }
}

/** A promise whose rejection is handled later, by whoever takes it. */
function quiet<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** Loose files of one set may live in different folders: serve their common parent. */
async function serveFolderOf(set: PageSet): Promise<StaticServer> {
  const files = set.pages.filter((p) => p.file).map((p) => p.file!);
  const dirs = new Set(files.map((f) => f.slice(0, f.lastIndexOf('/'))));
  if (dirs.size > 1) throw new Error(`the files of set "${set.name}" must be in one folder (got ${[...dirs].join(', ')})`);
  return serveFolder([...dirs][0]);
}

export function writeOutputs(results: Results, outDir: string, compared?: ReturnType<typeof compare>): string {
  mkdirSync(outDir, { recursive: true });
  const text = renderTable(results, compared);
  writeFileSync(join(outDir, 'results.json'), JSON.stringify(results, null, 1) + '\n');
  writeFileSync(join(outDir, 'report.html'), renderReport(results, text));
  return text;
}

export function readBaseline(file = BASELINE): { summary: Summary; config: Results['config']; machine: Results['machine']; startedAt: string } {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { summary: unknown; config: unknown; machine: unknown; startedAt: unknown };
  return {
    summary: Summary.parse(raw.summary),
    config: Results.shape.config.parse(raw.config),
    machine: Results.shape.machine.parse(raw.machine),
    startedAt: String(raw.startedAt),
  };
}

/** The baseline keeps the summary only: per-page detail would make every diff huge. */
export function saveBaseline(results: Results, file = BASELINE): void {
  const { startedAt, machine, config, summary } = results;
  writeFileSync(file, JSON.stringify({ startedAt, machine, config, summary }, null, 1) + '\n');
}
