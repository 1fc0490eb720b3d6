// `npm run bench` and `pagelens bench`: measure pagelens against Playwright's AI snapshot and
// Chrome's accessibility tree on saved pages, WPT name cases and generated large pages.
import { Command, Option } from 'commander';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { defaultSets, resolveInputs, type PageSet } from './inputs.js';
import { BASELINE, DEFAULT_ACCNAME, DEFAULT_OUT, readBaseline, runBench, saveBaseline, writeOutputs } from './runner.js';
import { DEFAULT_SIZES, VARIANTS, type Variant } from './scale.js';
import { compare } from './summary.js';
import { writeBenchDocs } from './docs.js';
import { renderExtractReport, runExtractBench } from './extract.js';
import { renderSizeGoals, runSizeGoals } from './artifactSizes.js';
import { renderMiniwob, runMiniwob } from './miniwob.js';
import { renderTodomvc, runTodomvc } from './todomvc.js';
import { runSoak } from './soak.js';
import { runTasks } from './tasks.js';
import { saveTasksBaseline } from './tasksBaseline.js';
import { launchChromium } from '../src/browser/chromium.js';

interface Flags {
  sets?: string;
  limit?: string;
  runs: string;
  scale?: boolean;
  scaleSizes?: string;
  scaleVariants?: string;
  scaleRuns: string;
  only?: string;
  accname?: boolean | string;
  accnameLimit?: string;
  out: string;
  saveBaseline?: boolean;
  compare?: boolean | string;
  quiet?: boolean;
  extract?: boolean;
  sizes?: boolean;
  miniwobDir?: string;
  todomvcDir?: string;
  soak?: boolean;
  soakLimit?: string;
  tasks?: boolean;
  tasksLimit?: string;
}

/**
 * Pages per set in the default run: news (94) and shop (70) whole, the first 100 of the 300
 * form pages. Every page, every extraction and Chrome's tree cost 1-4 s here; all 464 pages
 * would take about twice the 15 minutes the whole run may take.
 */
const DEFAULT_LIMIT = 100;

/** The parts of a run, for --only. */
const PARTS = ['corpus', 'accname', 'scale', 'extract', 'sizes', 'soak', 'tasks', 'miniwob', 'todomvc'] as const;

/** Pages per set the size goals read: every shop page (the goal is about shop pages), the first 30 of the others. */
const SIZE_PAGES = (set: string) => (set === 'shop' ? Infinity : 30);

function parts(s: string | undefined): Array<(typeof PARTS)[number]> | undefined {
  const given = list(s);
  const bad = given?.filter((x) => !(PARTS as readonly string[]).includes(x));
  if (bad?.length) throw new Error(`BAD_INPUT: --only expects a comma-separated list of ${PARTS.join(', ')}; got "${bad.join(', ')}"`);
  return given as Array<(typeof PARTS)[number]> | undefined;
}

const list = (s?: string) => s?.split(',').map((x) => x.trim()).filter(Boolean);

function positive(name: string, s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer, got "${s}"`);
  return n;
}

function variants(s: string | undefined): Variant[] | undefined {
  const wanted = list(s);
  if (!wanted) return undefined;
  const unknown = wanted.filter((v) => !(VARIANTS as string[]).includes(v));
  if (unknown.length) throw new Error(`--scale-variants: unknown ${unknown.join(', ')} (expected some of ${VARIANTS.join(', ')})`);
  return wanted as Variant[];
}

async function main(argv: string[]): Promise<number> {
  const program = new Command('pagelens bench')
    .description('Token, time, coverage and name benchmark against Playwright\'s AI snapshot and Chrome\'s accessibility tree.\n'
      + 'Without inputs: the shared corpus sets (news, shop, forms), the WPT accname cases and generated pages.')
    .argument('[inputs...]', 'folders of saved .html pages, single .html files, files listing URLs (one a line), or URLs')
    .option('--sets <names>', 'only these sets, comma-separated (e.g. news,shop)')
    .option('--limit <n>', `pages per set, first ones by name; "all" for every page (default run: ${DEFAULT_LIMIT}, so that it finishes within 15 minutes on 2 cores)`)
    .option('--runs <n>', 'timed runs per extraction, after one warm-up', '3')
    .option('--scale', 'run the generated-page scale test (default: on without inputs)')
    .option('--no-scale', 'skip the scale test')
    .option('--scale-sizes <list>', `interactive elements per generated page (default ${DEFAULT_SIZES.join(',')})`)
    .option('--scale-variants <list>', `page shapes at scale (default ${VARIANTS.join(',')})`)
    .option('--scale-runs <n>', 'timed runs per extraction at scale', '3')
    .option('--only <parts>', `run only these parts, comma-separated: ${PARTS.join(', ')} (e.g. --only scale --scale-sizes 5000,20000)`)
    .addOption(new Option('--accname [file]', 'run the WPT name/role conformance cases (default: on without inputs)'))
    .option('--no-accname', 'skip the conformance cases')
    .option('--accname-limit <n>', 'only the first n conformance pages')
    .option('--out <dir>', 'where results.json and report.html go', DEFAULT_OUT)
    .option('--save-baseline', `write the summary to ${BASELINE}`)
    .addOption(new Option('--compare [file]', 'flag regressions against the baseline; exit 1 when there are any'))
    .option('--quiet', 'no progress bar')
    .option('--extract', 'measure extract() price and brand F1 on the shop corpus against its ground truth (default: on without inputs)')
    .option('--no-extract', 'skip the extraction benchmark')
    .option('--sizes', 'measure templatized full / raw HTML and dom_overview tokens against the seed goals (default: on without inputs)')
    .option('--no-sizes', 'skip the size goals')
    .option('--soak', 'soak pagelens mcp and Playwright MCP side by side on the shop and news pages (default: on without inputs)')
    .option('--no-soak', 'skip the MCP soak')
    .option('--soak-limit <n>', 'pages per set the soak drives (default 10)')
    .option('--tasks', 'whole tasks (TodoMVC with --todomvc-dir, login, add to cart) through pagelens mcp and Playwright MCP, tokens per task (default: on without inputs)')
    .option('--no-tasks', 'skip the whole-task comparison')
    .option('--tasks-limit <n>', 'pages per corpus task (default 5)')
    .option('--miniwob-dir <dir>', 'run the offline agent on MiniWoB++ task pages from this folder (miniwob-plusplus/miniwob/html; on when given)')
    .option('--todomvc-dir <dir>', 'operate the TodoMVC 2.0 apps from this folder (the tastejs/todomvc repository, holding examples/; on when given)')
    .showHelpAfterError();
  program.parse(argv, { from: 'user' });
  const inputs = program.args;
  const flags = program.opts<Flags>();

  const wantedParts = parts(flags.only);
  const only = list(flags.sets);
  let sets: PageSet[];
  if (wantedParts && !wantedParts.includes('corpus')) {
    sets = [];
  } else if (inputs.length) {
    sets = resolveInputs(inputs).filter((s) => !only || only.includes(s.name));
  } else {
    const found = defaultSets(only);
    if (typeof found === 'string') {
      process.stdout.write(`pagelens bench: nothing to measure: ${found}. Pass a folder of saved pages or a URL list.\n`);
      return 0;
    }
    sets = found;
  }
  const defaultOn = inputs.length === 0;
  const scaleOn = wantedParts ? wantedParts.includes('scale') : flags.scale ?? defaultOn;
  const accnameOn = wantedParts ? wantedParts.includes('accname') : flags.accname ?? defaultOn;
  const extractOn = wantedParts ? wantedParts.includes('extract') : flags.extract ?? defaultOn;
  const sizesOn = wantedParts ? wantedParts.includes('sizes') : flags.sizes ?? defaultOn;
  const soakOn = wantedParts ? wantedParts.includes('soak') : flags.soak ?? defaultOn;
  const tasksOn = wantedParts ? wantedParts.includes('tasks') : flags.tasks ?? defaultOn;
  const miniwobOn = wantedParts ? wantedParts.includes('miniwob') : flags.miniwobDir !== undefined;
  const todomvcOn = wantedParts ? wantedParts.includes('todomvc') : flags.todomvcDir !== undefined;
  const accnameFile = typeof flags.accname === 'string' ? resolve(flags.accname) : accnameOn ? DEFAULT_ACCNAME : undefined;
  if (accnameFile && !existsSync(accnameFile) && typeof flags.accname === 'string') throw new Error(`no conformance file at ${accnameFile}`);
  const compareFile = typeof flags.compare === 'string' ? resolve(flags.compare) : flags.compare ? BASELINE : undefined;
  const baseline = compareFile ? readBaseline(compareFile) : undefined;

  const results = await runBench({
    sets,
    limit: flags.limit === 'all' || flags.limit === '0' ? undefined : positive('--limit', flags.limit) ?? (defaultOn ? DEFAULT_LIMIT : undefined),
    runs: positive('--runs', flags.runs) ?? 3,
    scaleSizes: scaleOn ? (list(flags.scaleSizes)?.map((s) => positive('--scale-sizes', s)!) ?? DEFAULT_SIZES) : [],
    scaleRuns: positive('--scale-runs', flags.scaleRuns) ?? 3,
    scaleVariants: variants(flags.scaleVariants),
    accnameFile,
    accnameLimit: positive('--accname-limit', flags.accnameLimit),
    outDir: resolve(flags.out),
    quiet: flags.quiet,
  });

  let compared;
  if (baseline) {
    compared = compare(baseline.summary, results.summary);
    const same = JSON.stringify(baseline.config) === JSON.stringify(results.config);
    if (!same) process.stderr.write(`pagelens bench: the baseline (${baseline.startedAt}) was taken with other settings ${JSON.stringify(baseline.config)}; only common figures are compared\n`);
  }
  const text = writeOutputs(results, resolve(flags.out), compared);
  process.stdout.write(text + '\n');
  if (extractOn) {
    const run = await runExtractBench({ ...(flags.quiet && { quiet: true }) });
    process.stdout.write(('skipped' in run ? `EXTRACTION skipped: ${run.skipped}` : renderExtractReport(run.results)) + '\n');
  }
  if (sizesOn) {
    const sizeSets = sets.length ? sets : inputs.length ? resolveInputs(inputs) : defaultSets();
    if (typeof sizeSets === 'string') process.stdout.write(`SEED CONTRACT SIZES skipped: ${sizeSets}\n`);
    else {
      const browser = await launchChromium();
      try {
        const limited = sizeSets.map((set) => ({ ...set, pages: set.pages.slice(0, SIZE_PAGES(set.name)) }));
        const { rows, dashboard } = await runSizeGoals(browser, limited, Infinity, flags.quiet);
        process.stdout.write(renderSizeGoals(rows, dashboard) + '\n');
      } finally {
        await browser.close();
      }
    }
  }
  if (soakOn) {
    // Both MCP servers as a client drives them, in one run (bench/soak.ts): deadlines, wedged sessions, memory.
    const run = await runSoak({ limit: positive('--soak-limit', flags.soakLimit) ?? 10, sets: ['shop', 'news'] });
    process.stdout.write(('skipped' in run ? `SOAK skipped: ${run.skipped}` : run.text) + '\n');
  }
  if (tasksOn) {
    // What a model pays for a whole task on each server, in one run (bench/tasks.ts).
    const limit = positive('--tasks-limit', flags.tasksLimit) ?? 5;
    const run = await runTasks({ limit, ...(flags.todomvcDir && { todomvcDir: flags.todomvcDir }), ...(flags.quiet && { quiet: true }) });
    process.stdout.write(('skipped' in run ? `TASKS skipped: ${run.skipped}` : run.text) + '\n');
    // Its run of record is its own file, written before the docs are made from the baselines below.
    if (flags.saveBaseline && !('skipped' in run)) saveTasksBaseline(run, limit);
  }
  if (miniwobOn) {
    // The task pages are not part of the repository: without the folder, the part says so and the run goes on.
    const run = flags.miniwobDir ? await runMiniwob({ dir: flags.miniwobDir, ...(flags.quiet && { quiet: true }) }) : { skipped: 'no folder given (--miniwob-dir path/to/miniwob-plusplus/miniwob/html)' };
    process.stdout.write(('skipped' in run ? `MINIWOB skipped: ${run.skipped}` : renderMiniwob(run.episodes)) + '\n');
  }
  if (todomvcOn) {
    const run = flags.todomvcDir ? await runTodomvc({ dir: flags.todomvcDir, ...(flags.quiet && { quiet: true }) }) : { skipped: 'no folder given (--todomvc-dir path/to/todomvc)' };
    process.stdout.write(('skipped' in run ? `TODOMVC skipped: ${run.skipped}` : renderTodomvc(run.results)) + '\n');
  }
  process.stderr.write(`pagelens bench: wrote ${resolve(flags.out, 'results.json')} and ${resolve(flags.out, 'report.html')}\n`);
  if (flags.saveBaseline) {
    // A run whose browser died (or whose pages failed wholesale) would become the yardstick of every later one.
    const failed = results.pages.filter((p) => p.error).length;
    if (failed > Math.max(2, results.pages.length * 0.1)) {
      process.stderr.write(`pagelens bench: baseline NOT saved: ${failed} of ${results.pages.length} pages failed\n`);
      return 1;
    }
    saveBaseline(results);
    process.stderr.write(`pagelens bench: baseline saved to ${BASELINE}\n`);
    // The published figures are the baseline's: its page and the README's table follow it.
    const wrote = writeBenchDocs();
    if (wrote.length) process.stderr.write(`pagelens bench: wrote ${wrote.join(', ')} from the baseline\n`);
  }
  return compared && compared.regressions.length ? 1 : 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (e: unknown) => {
  process.stderr.write(`pagelens bench: ${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
