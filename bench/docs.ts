// docs/benchmarks.md and the README's headline table, written from bench/baseline.json. The
// figures were re-typed into the README by hand after every run and drifted from the run they
// claimed; now `npm run bench -- --save-baseline` rewrites both when it writes the baseline, and
// `npm run docs` rewrites them from the baseline alone. test/repo/docs.test.ts fails when
// either file is not what this module writes.
// Usage: node dist/bench/docs.js            compare (exit 1 when a file is stale)
//        node dist/bench/docs.js --write    write docs/benchmarks.md and the README's table
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './inputs.js';
import { BASELINE, readBaseline } from './runner.js';
import type { ScaleResult, SetSummary } from './schema.js';
import { human, pct } from './stats.js';
import { readTasksBaseline, renderTasks, taskKinds, TASKS_BASELINE, type TasksBaseline } from './tasksBaseline.js';

export const BENCH_DOC = join(REPO_ROOT, 'docs', 'benchmarks.md');
export const README = join(REPO_ROOT, 'README.md');
export const REGENERATE = 'npm run docs';
const START = `<!-- bench:headline: generated from bench/baseline.json by \`${REGENERATE}\`; do not edit -->`;
const END = '<!-- /bench:headline -->';

type Baseline = ReturnType<typeof readBaseline>;

/** A ratio to Playwright as the bench's table prints it: one decimal under 10%, none above. */
const share = (x: number | null | undefined) => (x == null || !Number.isFinite(x) ? '–' : pct(x, x < 0.1 ? 1 : 0));
const times = (x: number | null | undefined, digits = 2) => (x == null || !Number.isFinite(x) ? '–' : `${x.toFixed(digits)}×`);
const ms = (v: number | null | undefined) => (v == null || !Number.isFinite(v) ? '–' : v >= 1000 ? `${(v / 1000).toFixed(1).replace(/\.0$/, '')} s` : `${Math.round(v)} ms`);

/** The pooled corpus when the run had several sets, else its only set. */
function pooled(b: Baseline): [string, SetSummary] | undefined {
  const sets = b.summary.sets;
  const name = sets.all ? 'all' : Object.keys(sets)[0];
  return name ? [name, sets[name]] : undefined;
}

const setsOf = (b: Baseline) => Object.entries(b.summary.sets).filter(([k]) => k !== 'all');
const pageCount = (b: Baseline) => setsOf(b).reduce((n, [, s]) => n + s.pages, 0);

function runLine(b: Baseline): string {
  const sets = setsOf(b);
  const pages = pageCount(b);
  const when = b.startedAt.replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*$/, '$1 $2 UTC');
  const m = b.machine;
  return `${when}: ${pages} pages (${sets.map(([k, s]) => `${k} ${s.pages}`).join(', ')}; at most ${b.config.limit ?? 'all'} per set), ${b.config.runs} timed runs per extraction, on ${m.cpus} CPUs, Node ${m.node}, Chromium ${m.chromium}, playwright-core ${m.playwright}`;
}

const conformanceLine = (c: Baseline['summary']['conformance']) => c
  ? `WPT accessible-name conformance: ${pct(c.passRate)} of the ${c.listed} cases pagelens lists (Chrome: ${pct(c.chromePassRate)} of all ${c.names}); roles ${c.rolesPassed}/${c.rolesListed} listed cases (of ${c.roles}).`
  : 'WPT conformance: not measured in this run.';

const goalsMet = (b: Baseline) => `${b.summary.goals.filter((g) => g.pass === true).length} of ${b.summary.goals.length}`;

/** The README's few figures: pooled medians, each with what it is compared with. */
export function renderHeadline(b: Baseline): string {
  const p = pooled(b);
  const rows: string[][] = [];
  if (p) {
    const [name, s] = p;
    rows.push(
      [`\`semantic_v3\` tokens, viewport (median of ${name === 'all' ? `all ${pageCount(b)}` : `the ${s.pages} ${name}`} corpus pages)`, `${human(s.tokens.v3Viewport?.median)}, ${share(s.tokenRatio.v3Viewport)} of Playwright's AI snapshot`],
      ['`semantic_v3` tokens, full page', `${human(s.tokens.v3Full?.median)}, ${share(s.tokenRatio.v3Full)} of Playwright's AI snapshot`],
      ['full-page read time', `${human(s.timeMs.v3Full?.median)} ms, ${times(s.timeRatio.v3Full)} Playwright's`],
      ["Chrome's interactive elements listed, or accounted for", pct(s.coverageAccounted)],
      ["names that agree with Chrome's", pct(s.nameAgreement)],
    );
  }
  const c = b.summary.conformance;
  if (c) rows.push(['WPT accessible-name cases passed (of those listed)', pct(c.passRate)]);
  const t = readTasksBaseline();
  if (t) rows.push([`whole tasks through \`pagelens mcp\`, tokens a model is sent (of Playwright MCP's; [tasks](docs/benchmarks.md#whole-tasks))`, taskKinds(t.rows).map((k) => `${k.task} ${pct(k.ratio)} (done ${k.okPagelens}/${k.pages}, Playwright MCP ${k.okPlaywright}/${k.pages})`).join('; ')]);
  rows.push(['goals met', `${goalsMet(b)} ([all of them](docs/benchmarks.md#goals))`]);
  return [
    START,
    `From the run of record (${b.startedAt.slice(0, 10)}, \`bench/baseline.json\`); the rest in [docs/benchmarks.md](docs/benchmarks.md).`,
    '',
    '| | |',
    '|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    END,
  ].join('\n');
}

/** The README with its headline block replaced; the markers must be there already. */
export function withHeadline(readme: string, headline: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md has no headline block (${START} … ${END})`);
  return readme.slice(0, from) + headline + readme.slice(to + END.length);
}

function corpusTable(b: Baseline): string[] {
  const sets = Object.keys(b.summary.sets);
  const row = (label: string, f: (s: SetSummary) => string) => `| ${label} | ${sets.map((k) => f(b.summary.sets[k])).join(' | ')} |`;
  const tokens = (k: string) => (s: SetSummary) => `${human(s.tokens[k]?.median)} (${share(s.tokenRatio[k])})`;
  return [
    `| | ${sets.join(' | ')} |`,
    `|---|${sets.map(() => '---').join('|')}|`,
    row('`semantic_v3` viewport tokens (× Playwright AI)', tokens('v3Viewport')),
    row('`semantic_v3` full-page tokens', tokens('v3Full')),
    row('text form, full page', tokens('textFull')),
    row('Playwright AI snapshot tokens', (s) => human(s.tokens.playwrightAi?.median)),
    row('`semantic_v3` full-page time (× Playwright)', (s) => `${human(s.timeMs.v3Full?.median)} ms (${s.timeRatio.v3Full?.toFixed(2) ?? '–'})`),
    row('Playwright AI snapshot time', (s) => `${human(s.timeMs.playwrightAi?.median)} ms`),
    row('full-page time against the floor walk', (s) => times(s.timeRatio['v3Full/floor'], 1)),
    row('re-read after one element\'s text changed, warm / cold (from Node; inside the page)', (s) => `${pct(s.incrementalRatio)}; ${pct(s.incrementalEngineRatio)}`),
    row('the same with nothing changed: what any re-read costs (from Node; inside the page)', (s) => `${pct(s.unchangedRatio)}; ${pct(s.unchangedEngineRatio)}`),
    row('coverage: listed, of Chrome\'s interactive elements with a box', (s) => pct(s.coverage)),
    row('coverage: listed or accounted for (clipped, and the clipping container says so; or focusable by script only)', (s) => pct(s.coverageAccounted)),
    row('name agreement with Chrome', (s) => pct(s.nameAgreement)),
    row('pages that failed', (s) => String(s.failed)),
  ];
}

function scaleTable(scale: ScaleResult[]): string[] {
  if (!scale.length) return ['The scale part did not run.'];
  const playwright = (x: ScaleResult) => (x.playwrightAiOverMs !== undefined ? `not finished after ${ms(x.playwrightAiOverMs)}` : ms(x.playwrightAiFirstMs));
  return [
    '| page | first | warm full | viewport | viewport after a change | warm `lens.model` | re-read / cold | Playwright AI first |',
    '|---|---|---|---|---|---|---|---|',
    ...scale.map((x) => `| ${x.variant} ${x.elements >= 1000 ? `${x.elements / 1000}k` : x.elements} | ${x.error
      ? `${x.error} | | | | | | |`
      : [ms(x.firstMs), ms(x.fullMs), ms(x.viewportMs), ms(x.viewportChangedMs), ms(x.modelMs), pct(x.rereadRatio, 0), playwright(x)].join(' | ')} |`),
  ];
}

function tasksSection(t: TasksBaseline | undefined): string[] {
  if (!t) return [];
  const when = t.startedAt.replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*$/, '$1 $2 UTC');
  return [
    '## Whole tasks',
    '',
    `What a model pays for a whole task, as each server is started by default: \`pagelens mcp\` and Playwright MCP ${t.machine.playwrightMcp}, driven the plain way each README advises (navigate, read again only when the answers do not show what is needed, act by ID or ref), every token counted: the tool definitions and instructions once per task, and every answer. Success is judged from the page by the bench's own script, never from what a tool says. TodoMVC: add three todos and complete the second, in ${t.config.todomvcApps.join(', ')}; login: fill the user and password fields of corpus form pages; cart: press add to cart on corpus shop pages (at most ${t.config.limit} pages each).`,
    '',
    `Run of record: ${when}, on ${t.machine.cpus} CPUs, Node ${t.machine.node} (\`node dist/bench/tasks.js --limit ${t.config.limit} --todomvc-dir <todomvc> --save-baseline\`, written to \`${relative(REPO_ROOT, TASKS_BASELINE)}\`).`,
    '',
    ...renderTasks(t.rows).split('\n').slice(1),
    '',
  ];
}

export function renderBenchmarksDoc(b: Baseline): string {
  const s = b.summary;
  const shop = s.sets.shop ?? pooled(b)?.[1];
  const floorNote = shop
    ? `A warm read of a page where nothing changed costs ${pct(shop.unchangedRatio)} of a cold one from Node and ${pct(shop.unchangedEngineRatio)} inside the page (shop pages): every kept target's box is read again (no browser API reports that a box moved, and pagelens measures boxes rather than assuming them), and every read makes its CDP round trips and composes the model, so no re-read after a change can cost less.`
    : '';
  return [
    '# Benchmarks',
    '',
    `<!-- Generated from bench/baseline.json by bench/docs.ts (\`${REGENERATE}\`; \`npm run bench -- --save-baseline\` rewrites it with the baseline). Do not edit: test/repo/docs.test.ts fails when this file is stale. -->`,
    '',
    '`npm run bench` (or `pagelens bench [folder-or-url-list]`) serves the shared corpus (`../shared/corpus`: news, shop, the first 100 forms; `--limit all` for every page) from loopback and measures, per page and in one browser run, tokens (o200k), warm extraction time, coverage and name agreement against Chrome\'s accessibility tree, next to Playwright\'s AI aria snapshot; then the WPT accessible-name cases, product extraction against the shop ground truth, the seed contract sizes, the generated scale pages and the MCP soak. It prints a table, writes `bench/out/results.json` and a self-contained `bench/out/report.html` with charts; `--save-baseline` writes `bench/baseline.json` and this page, `--compare` flags regressions against the baseline. Without the corpus it says so and exits 0. `--only corpus,accname,scale,extract,sizes,soak,miniwob,todomvc` runs some parts only; `--scale-variants flat,deep,shadow,iframes` and `--scale-sizes 5000,20000` narrow the scale part.',
    '',
    'Absolute times differ from machine to machine and from day to day: read the ratios, which are taken page by page in the same minutes. The floor is one in-page walk that reads every box.',
    '',
    '## The run of record',
    '',
    `${runLine(b)}. Medians over pages; warm times are repeated reads of an unchanged page (the re-read rows are reads after a change).`,
    '',
    ...corpusTable(b),
    '',
    conformanceLine(s.conformance),
    '',
    floorNote,
    '',
    ...tasksSection(readTasksBaseline()),
    '## Scale',
    '',
    'Generated pages: the same rows of five controls laid out four ways — `flat`; `deep` (every row 30 levels down); `shadow` (hosts alternating open and closed roots); `iframes` (eight cross-origin iframes, every frame out of process). "first" is the first full-page `semantic_v3` snapshot and "warm full" a repeated one, both with rendering and the token count; "viewport" a repeated viewport read of the unchanged page, "viewport after a change" one after a text in view changed and the page rendered it; "model" is `lens.model` alone; "re-read / cold" the full model after one text change against a cold one. Each figure is one timed run (the first read) or the median of the timed runs, and moves from run to run.',
    '',
    ...scaleTable(s.scale),
    '',
    '## Goals',
    '',
    `Printed at the end of every run, reported rather than asserted: ${goalsMet(b)} met in this one.`,
    '',
    '| goal | target | measured | |',
    '|---|---|---|---|',
    ...s.goals.map((g) => `| ${g.goal} | ${g.target} | ${g.measured} | ${g.pass === null ? '–' : g.pass ? 'pass' : 'MISS'} |`),
    '',
    '## The other parts',
    '',
    'These print their report to stdout (the optional ones also write `--json`); their figures are not in the baseline yet, so each guide quotes its last run with the date and the command.',
    '',
    '| part | command | figures |',
    '|---|---|---|',
    '| product extraction (price and brand F1 on the shop ground truth) | `node dist/bench/extract.js --folder ../shared/corpus/shop` | [library.md](library.md#what-the-task-needs-within-a-budget) |',
    '| DOM RAG grounding recall | `node dist/bench/ragRecall.js --limit 10` | [library.md](library.md#what-the-task-needs-within-a-budget) |',
    '| seed contract sizes, heavier artifacts, the index | `node dist/bench/run.js --only sizes`, `node dist/bench/artifactSizes.js --limit 5`, `node dist/bench/exploreIndex.js --limit 5` | [cli.md](cli.md#what-the-benchmarks-measured) |',
    '| the `axtree` mode against one raw `Accessibility.getFullAXTree` | `node dist/bench/axtreeCost.js [folder]` | [cli.md](cli.md#what-the-benchmarks-measured) |',
    '| MCP answers per tool, and the soak against Playwright MCP | `node dist/bench/mcp.js --limit 3`, `npm run bench:soak` | [mcp.md](mcp.md#measured) |',
    '| the offline agent on MiniWoB++ task pages | `node dist/bench/miniwob.js --dir <dir>` (`--only miniwob --miniwob-dir <dir>`) | [agent.md](agent.md#miniwob-task-pages) |',
    '| the TodoMVC 2.0 apps | `node dist/bench/todomvc.js --dir <dir>` (`--only todomvc --todomvc-dir <dir>`) | [concepts.md](concepts.md#todomvc-20-apps) |',
    '| `pagelens serve` under load | `npm run bench:load` | [serve.md](serve.md#under-load) |',
    '',
    'What each change did to these figures, round by round, is in [CHANGELOG.md](../CHANGELOG.md).',
    '',
  ].join('\n');
}

/** The generated files and what they should hold now. */
export function benchDocs(baselineFile = BASELINE): Array<{ file: string; text: string }> {
  const b = readBaseline(baselineFile);
  return [
    { file: BENCH_DOC, text: renderBenchmarksDoc(b) },
    { file: README, text: withHeadline(readFileSync(README, 'utf8'), renderHeadline(b)) },
  ];
}

/** The generated files whose content on disk is not what the baseline gives now. */
export function staleBenchDocs(baselineFile = BASELINE): Array<{ file: string; text: string }> {
  return benchDocs(baselineFile).filter((d) => !existsSync(d.file) || readFileSync(d.file, 'utf8') !== d.text);
}

/** Writes the files that differ; returns their paths. */
export function writeBenchDocs(baselineFile = BASELINE): string[] {
  const stale = staleBenchDocs(baselineFile);
  for (const d of stale) writeFileSync(d.file, d.text);
  return stale.map((d) => relative(REPO_ROOT, d.file));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--write')) {
    const wrote = writeBenchDocs();
    process.stderr.write(`docs: ${wrote.length ? `wrote ${wrote.join(', ')}` : 'docs/benchmarks.md and the README table already match bench/baseline.json'}\n`);
  } else {
    const stale = staleBenchDocs().map((d) => relative(REPO_ROOT, d.file));
    process.stderr.write(stale.length ? `docs: ${stale.join(' and ')} differ from bench/baseline.json: run \`${REGENERATE}\` and commit the result\n` : 'docs: the benchmark pages match bench/baseline.json\n');
    process.exitCode = stale.length ? 1 : 0;
  }
}
