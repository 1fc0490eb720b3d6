// The stdout summary: one block per question (tokens, time, quality, conformance, scale, goals).
import { METHOD_LABELS, type Method, type Results } from './schema.js';
import type { Regression } from './summary.js';
import { human, median, pct, quantile } from './stats.js';

const TOKEN_ROWS = ['v3Viewport', 'v3Full', 'textFull', 'semanticFull', 'axtree', 'html', 'playwrightAi', 'chromeAx'];
const TIME_ROWS = ['v3Viewport', 'v3Full', 'textFull', 'semanticFull', 'modelFull', 'axtree', 'html', 'playwrightAi', 'chromeAx', 'floor'];

function pad(s: string, n: number, left = false): string {
  return left ? s.padEnd(n) : s.padStart(n);
}

function label(k: string): string {
  return METHOD_LABELS[k as Method | 'floor' | 'modelFull'] ?? k;
}

function grid(title: string, rows: string[][], widths: number[]): string {
  return [title, ...rows.map((r) => r.map((c, i) => pad(c, widths[i] ?? 8, i === 0)).join(' '))].join('\n');
}

function methodBlock(r: Results, title: string, rows: string[], field: 'tokens' | 'timeMs', ratio: 'tokenRatio' | 'timeRatio'): string {
  const sets = Object.keys(r.summary.sets);
  const head = ['', ...sets.flatMap((s) => [s, 'p90', '×PW'])];
  const body = rows.filter((k) => sets.some((s) => r.summary.sets[s][field][k])).map((k) => [
    label(k),
    ...sets.flatMap((s) => {
      const d = r.summary.sets[s][field][k];
      const x = r.summary.sets[s][ratio][k];
      return d ? [human(d.median), human(d.p90), k === 'playwrightAi' ? '1' : ratioText(x, field)] : ['–', '–', '–'];
    }),
  ]);
  return grid(title, [head, ...body], [14, ...sets.flatMap(() => [8, 7, 7])]);
}

function ratioText(x: number | undefined, field: 'tokens' | 'timeMs'): string {
  if (x === undefined || !Number.isFinite(x)) return '–';
  return field === 'tokens' ? pct(x, x < 0.1 ? 1 : 0) : x.toFixed(2);
}

export function renderTable(r: Results, compared?: { regressions: Regression[]; improvements: Regression[]; compared: number }): string {
  const out: string[] = [];
  const s = r.summary;
  const sets = Object.keys(s.sets);
  const counts = sets.filter((k) => k !== 'all').map((k) => `${k} ${s.sets[k].pages}`).join(', ');
  out.push(`pagelens bench: ${r.pages.length} pages (${counts || 'none'}), ${r.config.runs} timed runs each, ${r.durationS.toFixed(0)} s on ${r.machine.cpus} CPUs, Chromium ${r.machine.chromium}`);
  if (sets.length) {
    out.push('', methodBlock(r, 'TOKENS (o200k): median, p90, median per-page ratio to the Playwright AI snapshot', TOKEN_ROWS, 'tokens', 'tokenRatio'));
    out.push('', methodBlock(r, 'TIME (ms, warm median per page, from Node): median, p90, median per-page ratio to Playwright', TIME_ROWS, 'timeMs', 'timeRatio'));
    const floorRows = ['v3Viewport', 'v3Full', 'playwrightAi'].map((k) => [`${label(k)} / floor`, ...sets.map((x) => {
      const v = s.sets[x].timeRatio[`${k}/floor`];
      return v === undefined || !Number.isFinite(v) ? '–' : v.toFixed(1) + '×';
    })]);
    out.push('', grid('TIME against the floor (one in-page walk reading every box): median per-page ratio', [['', ...sets], ...floorRows], [22, ...sets.map(() => 10)]));
    const inc = (f: (x: (typeof s.sets)[string]) => number | null | undefined) => sets.map((x) => { const v = f(s.sets[x]); return v == null ? '–' : pct(v); });
    out.push('', grid('RE-READ after one element\'s text changed: warm / cold full-page model, median per page', [
      ['', ...sets], ['from Node', ...inc((x) => x.incrementalRatio)], ['inside the page', ...inc((x) => x.incrementalEngineRatio)],
      // The floor under any re-read: nothing changed, yet every kept box is read again and the answer makes its round trips.
      ['unchanged, from Node', ...inc((x) => x.unchangedRatio)], ['unchanged, in the page', ...inc((x) => x.unchangedEngineRatio)],
    ], [22, ...sets.map(() => 10)]));
    const perPage = rereadPerPage(r);
    if (perPage) out.push(perPage);
    const q = (f: (x: (typeof s.sets)[string]) => number | null) => sets.map((x) => pct(f(s.sets[x])));
    out.push('', grid('QUALITY against Chrome\'s accessibility tree (pooled over pages)', [
      ['', ...sets],
      ['coverage', ...q((x) => x.coverage)],
      ['  of what can be seen', ...q((x) => x.coverageSeen)],
      ['  listed or accounted', ...sets.map((x) => { const v = s.sets[x].coverageAccounted; return v == null ? '–' : pct(v); })],
      ['name agreement', ...q((x) => x.nameAgreement)],
      ['  where Chrome names', ...q((x) => x.nameAgreementChromeNamed)],
      ['forms: named', ...q((x) => x.formsNamed)],
      ['forms: Chrome named', ...q((x) => x.formsChromeNamed)],
      ['failed pages', ...sets.map((x) => String(s.sets[x].failed))],
    ], [22, ...sets.map(() => 10)]));
    out.push('', missSummary(r));
  }
  if (s.conformance) {
    const c = s.conformance;
    const failures = r.conformance.filter((x) => x.kind === 'name' && x.suite === 'accname' && x.listed && !x.pass).length;
    out.push('', `CONFORMANCE (WPT): accname names ${pct(c.passRate)} of ${c.listed} listed cases (${c.passed} pass, ${failures} fail; ${c.names - c.listed} of ${c.names} not listed by pagelens; Chrome ${pct(c.chromePassRate)} of all ${c.names})`);
    out.push(`  roles (all suites): ${c.rolesPassed}/${c.rolesListed} listed cases match (${c.roles - c.rolesListed} of ${c.roles} not listed)`);
  }
  if (s.scale.length) {
    const rows = s.scale.map((x) => x.error
      ? [x.variant, String(x.elements), x.error.startsWith('skipped') ? x.error : `failed: ${x.error}`.slice(0, 90)]
      : [x.variant, String(x.elements), human(x.firstMs), human(x.fullMs), human(x.viewportMs), human(x.viewportChangedMs), human(x.modelMs),
        x.playwrightAiOverMs !== undefined ? `>${human(x.playwrightAiOverMs)}` : human(x.playwrightAiFirstMs), x.playwrightAiOverMs !== undefined ? '–' : human(x.playwrightAiMs),
        pct(x.rereadRatio, 0), human(x.cdpBytesFirst), human(x.cdpBytesFull), human(x.cdpBytesReread), human(x.cdpBytesViewport),
        x.listedWarm !== undefined && x.listedWarm !== x.listedFull ? `${x.listedFull}/${x.listedWarm}` : String(x.listedFull), human(x.tokensFull), human(x.heapGrowthMb), human(x.heapRetainedMb), human(x.heapTotalMb)]);
    out.push('', grid('SCALE (generated pages; first = cold call, then warm medians; vp = viewport read of the unchanged page, vp chg = after one text in view changed and the page rendered it; model = lens.model, no rendering or token count; PW = Playwright AI snapshot first/warm; reread = full model after one text change / cold model, from Node; CDP = bytes of every CDP answer during the first / a warm full (nothing changed) / a re-read after one text change / a viewport read; heap = main renderer: +MB during the first read, kept MB after all reads and a GC, committed MB)', [
      ['variant', 'elements', 'first ms', 'full ms', 'vp ms', 'vp chg ms', 'model ms', 'PW1 ms', 'PW ms', 'reread', 'CDP 1st', 'CDP full', 'CDP re', 'CDP vp', 'listed', 'tokens', 'heap +MB', 'kept MB', 'heap MB'], ...rows,
    ], [8, 9, 9, 9, 8, 10, 9, 8, 8, 7, 8, 9, 7, 7, 10, 8, 9, 8, 8]));
    const top = (m: Record<string, number> | undefined) => Object.entries(m ?? {}).slice(0, 3).map(([k, n]) => `${k} ${human(n)}`).join(', ') || '–';
    out.push('CDP bytes by command (first read | warm full read | viewport read), largest three; listed a/b = first read / warm read');
    for (const x of s.scale) if (x.cdpMethods) out.push(`  ${x.variant} ${x.elements}: ${top(x.cdpMethods.first)} | ${top(x.cdpMethods.full)} | ${top(x.cdpMethods.viewport)}`);
  }
  out.push('', 'GOALS (reported, not asserted)');
  for (const g of s.goals) out.push(`  ${g.pass === null ? '  -  ' : g.pass ? ' pass' : ' MISS'}  ${g.goal.padEnd(50)} ${g.target.padEnd(8)} measured ${g.measured}`);
  if (compared) {
    out.push('', `COMPARED with the baseline: ${compared.compared} metrics, ${compared.regressions.length} regressions, ${compared.improvements.length} improvements beyond noise (>10% and above a small absolute amount)`);
    for (const x of compared.regressions) out.push(`  REGRESSION ${x.metric}: ${human(x.baseline)} → ${human(x.now)} (${x.change})`);
    for (const x of compared.improvements) out.push(`  improved   ${x.metric}: ${human(x.baseline)} → ${human(x.now)} (${x.change})`);
  }
  return out.join('\n');
}

/** Why pagelens missed what Chrome lists, and how names differ: the engine's to-do list. */
function missSummary(r: Results): string {
  const hints: Record<string, number> = {};
  const byVia: Record<string, number> = {};
  for (const p of r.pages) {
    for (const [h, n] of Object.entries(p.coverage?.byHint ?? {})) hints[h] = (hints[h] ?? 0) + n;
    for (const m of p.coverage?.missed ?? []) byVia[m.via] = (byVia[m.via] ?? 0) + 1;
  }
  const total = Object.values(hints).reduce((a, b) => a + b, 0);
  const top = Object.entries(hints).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([h, n]) => `${h} ${n}`).join(', ');
  const emptyOurs = r.pages.reduce((a, p) => a + (p.names?.disagreements.filter((d) => !d.ours).length ?? 0), 0);
  const emptyChrome = r.pages.reduce((a, p) => a + (p.names?.disagreements.filter((d) => !d.chrome).length ?? 0), 0);
  const diffs = r.pages.reduce((a, p) => a + (p.names?.disagreements.length ?? 0), 0);
  return `MISSES: ${total} interactive elements with a box not listed (${byVia.role ?? 0} by role, ${byVia.focusable ?? 0} only focusable): ${top || 'none'}\n`
    + `NAME DIFFERENCES (first 40 per page): ${diffs}, of which ours empty ${emptyOurs}, Chrome's empty ${emptyChrome}`;
}

/**
 * The re-read ratio page by page (warm / cold, from Node): its spread per set, and the pages
 * furthest from the goal, so that a median is never the only figure.
 */
function rereadPerPage(r: Results): string {
  const bySet = new Map<string, Array<{ page: string; ratio: number; bytes?: number; coldBytes?: number }>>();
  for (const p of r.pages) {
    if (!p.incremental || !(p.incremental.coldMs > 0)) continue;
    const list = bySet.get(p.set) ?? [];
    list.push({ page: p.page, ratio: p.incremental.warmMs / p.incremental.coldMs, bytes: p.incremental.warmBytes, coldBytes: p.incremental.coldBytes });
    bySet.set(p.set, list);
  }
  const lines: string[] = [];
  for (const [set, list] of bySet) {
    const v = list.map((x) => x.ratio);
    const worst = [...list].sort((a, b) => b.ratio - a.ratio).slice(0, 3).map((x) => `${x.page} ${pct(x.ratio, 0)}`).join(', ');
    lines.push(`  ${set}: ${list.length} pages, per page min ${pct(Math.min(...v), 0)}, p10 ${pct(quantile(v, 0.1), 0)}, median ${pct(median(v), 1)}, p90 ${pct(quantile(v, 0.9), 0)}, max ${pct(Math.max(...v), 0)}; highest: ${worst}`);
    const bytes = list.flatMap((x) => x.bytes !== undefined && x.coldBytes ? [[x.bytes, x.coldBytes]] : []);
    if (bytes.length) lines.push(`    engine answers over CDP, median per page: re-read ${human(median(bytes.map((b) => b[0])))} B, cold read ${human(median(bytes.map((b) => b[1])))} B`);
  }
  return lines.join('\n');
}
