// From per-page results to per-set figures, the goals, and the comparison with a baseline.
import type { ConformanceCase, Goal, PageResult, ScaleResult, SetSummary, Summary } from './schema.js';
import { median, p90, pct, round, share } from './stats.js';

/** Our own extractions: the ones a regression can be blamed on. */
export const OURS = ['v3Viewport', 'v3Full', 'textFull', 'semanticFull', 'axtree', 'modelFull'];

function dist(values: number[]): { median: number; p90: number } {
  return { median: round(median(values), 2), p90: round(p90(values), 2) };
}

function sum(pages: PageResult[], pick: (p: PageResult) => number | undefined): number {
  return pages.reduce((s, p) => s + (pick(p) ?? 0), 0);
}

export function summariseSet(pages: PageResult[]): SetSummary {
  const ok = pages.filter((p) => !p.error && p.tokens && p.timeMs);
  const tokenKeys = [...new Set(ok.flatMap((p) => Object.keys(p.tokens!)))];
  const timeKeys = [...new Set(ok.flatMap((p) => Object.keys(p.timeMs!)))];
  const tokens: SetSummary['tokens'] = {};
  const tokenRatio: Record<string, number> = {};
  for (const k of tokenKeys) {
    tokens[k] = dist(ok.map((p) => p.tokens![k]).filter((x) => x !== undefined));
    tokenRatio[k] = round(median(ok.filter((p) => p.tokens![k] !== undefined && p.tokens!.playwrightAi > 0).map((p) => p.tokens![k] / p.tokens!.playwrightAi)), 4);
  }
  const timeMs: SetSummary['timeMs'] = {};
  const timeRatio: Record<string, number> = {};
  for (const k of timeKeys) {
    timeMs[k] = dist(ok.map((p) => p.timeMs![k]).filter((x) => x !== undefined));
    timeRatio[k] = round(median(ok.filter((p) => p.timeMs![k] !== undefined && p.timeMs!.playwrightAi > 0).map((p) => p.timeMs![k] / p.timeMs!.playwrightAi)), 4);
    // Against the floor too, as "k/floor".
    timeRatio[`${k}/floor`] = round(median(ok.filter((p) => p.timeMs![k] !== undefined && p.timeMs!.floor > 0).map((p) => p.timeMs![k] / p.timeMs!.floor)), 3);
  }
  const withForms = ok.filter((p) => p.forms);
  return {
    pages: pages.length,
    failed: pages.length - ok.length,
    tokens,
    tokenRatio,
    timeMs,
    timeRatio,
    coverage: share(sum(ok, (p) => p.coverage?.covered), sum(ok, (p) => p.coverage?.candidates)),
    coverageSeen: share(sum(ok, (p) => p.coverage?.covered), sum(ok, (p) => (p.coverage?.candidates ?? 0) - (p.coverage?.unseen ?? 0))),
    coverageAccounted: share(sum(ok, (p) => (p.coverage?.covered ?? 0) + (p.coverage?.accounted ?? 0)), sum(ok, (p) => p.coverage?.candidates)),
    incrementalRatio: ratioMedian(ok, (x) => x.warmMs / x.coldMs),
    incrementalPages: ok.filter((p) => p.incremental).length,
    incrementalEngineRatio: ratioMedian(ok, (x) => x.coldEngineMs > 0 ? x.warmEngineMs / x.coldEngineMs : NaN),
    unchangedRatio: ratioMedian(ok, (x) => x.unchangedMs === undefined ? NaN : x.unchangedMs / x.coldMs),
    unchangedEngineRatio: ratioMedian(ok, (x) => x.unchangedEngineMs === undefined || x.coldEngineMs <= 0 ? NaN : x.unchangedEngineMs / x.coldEngineMs),
    nameAgreement: share(sum(ok, (p) => p.names?.agree), sum(ok, (p) => p.names?.compared)),
    nameAgreementChromeNamed: share(sum(ok, (p) => p.names?.agree), sum(ok, (p) => (p.names?.compared ?? 0) - (p.names?.oursOnly ?? 0))),
    formsNamed: withForms.length ? share(sum(withForms, (p) => p.forms?.named), sum(withForms, (p) => p.forms?.fields)) : null,
    formsChromeNamed: withForms.length ? share(sum(withForms, (p) => p.forms?.chromeNamed), sum(withForms, (p) => p.forms?.fields)) : null,
  };
}

export function summariseConformance(cases: ConformanceCase[]): Summary['conformance'] {
  if (!cases.length) return null;
  const names = cases.filter((c) => c.kind === 'name' && c.suite === 'accname');
  const roles = cases.filter((c) => c.kind === 'role');
  const listed = names.filter((c) => c.listed);
  return {
    names: names.length,
    listed: listed.length,
    passed: listed.filter((c) => c.pass).length,
    passRate: share(listed.filter((c) => c.pass).length, listed.length),
    chromePassRate: share(names.filter((c) => c.chromePass).length, names.length),
    roles: roles.length,
    rolesListed: roles.filter((c) => c.listed).length,
    rolesPassed: roles.filter((c) => c.pass).length,
  };
}

export function summarise(pages: PageResult[], cases: ConformanceCase[], scale: ScaleResult[]): Summary {
  const sets: Record<string, SetSummary> = {};
  const names = [...new Set(pages.map((p) => p.set))];
  for (const s of names) sets[s] = summariseSet(pages.filter((p) => p.set === s));
  if (names.length > 1) sets.all = summariseSet(pages);
  const conformance = summariseConformance(cases);
  return { sets, conformance, scale, goals: goals(sets, conformance, scale) };
}

function goal(name: string, target: string, value: number | null | undefined, limit: number, lowerIsBetter: boolean, show: (v: number) => string): Goal {
  const v = value === null || value === undefined || !Number.isFinite(value) ? null : value;
  return { goal: name, target, measured: v === null ? 'not measured' : show(v), value: v, pass: v === null ? null : lowerIsBetter ? v <= limit : v >= limit };
}

const times = (v: number) => `${v.toFixed(3)}×`;

/** Median over the pages that measured the incremental read of `ratio` (null when none did). */
/** The unchanged page's ratio, said beside a re-read's: no re-read costs less. */
function floor(v: number | null | undefined): string {
  return v == null ? '' : `; with nothing changed ${pct(v)}`;
}

function ratioMedian(pages: PageResult[], ratio: (x: NonNullable<PageResult['incremental']>) => number): number | null {
  const values = pages.flatMap((p) => p.incremental ? [ratio(p.incremental)] : []).filter((v) => Number.isFinite(v));
  return values.length ? round(median(values), 3) : null;
}

/** The goals of the issues, reported against the pooled corpus ("all", or the only set) and the 50k page. */
export function goals(sets: Record<string, SetSummary>, conf: Summary['conformance'], scale: ScaleResult[]): Goal[] {
  const s = sets.all ?? Object.values(sets)[0];
  const big = scale.find((r) => r.variant === 'flat' && r.elements === 50000);
  const atSize = (elements: number) => (name: string, target: string, pick: (r: ScaleResult) => number, limit: number): Goal => {
    const r = scale.find((x) => x.variant === 'flat' && x.elements === elements);
    return r && !r.error
      ? goal(name, target, pick(r), limit, true, (v) => v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${Math.round(v)} ms`)
      : { goal: name, target, measured: r?.error ?? 'not run', value: null, pass: r ? false : null };
  };
  const at50k = atSize(50000);
  const at20k = atSize(20000);
  // The re-read goal is about shop pages (heavy, many listed elements); the pooled corpus when there are none.
  const rereadSet = sets.shop ? 'shop' : sets.all ? 'all' : Object.keys(sets)[0];
  const reread = rereadSet ? sets[rereadSet] : undefined;
  return [
    goal('v3 viewport tokens / Playwright AI', '≤ 3%', s?.tokenRatio.v3Viewport, 0.03, true, (v) => pct(v)),
    goal('v3 full-page tokens / Playwright AI', '≤ 20%', s?.tokenRatio.v3Full, 0.2, true, (v) => pct(v)),
    goal('compact text (full page) tokens / Playwright AI', '≤ 8%', s?.tokenRatio.textFull, 0.08, true, (v) => pct(v)),
    // Names
    goal('accname conformance (WPT, listed cases)', '≥ 97%', conf?.passRate, 0.97, false, (v) => pct(v)),
    goal('name agreement with Chrome', '≥ 95%', s?.nameAgreement, 0.95, false, (v) => pct(v)),
    // Coverage
    goal('coverage: listed, of Chrome\'s targets with a box', '≥ 99.5%', s?.coverage, 0.995, false, (v) => pct(v)),
    goal('coverage: listed or accounted for', '≥ 99.5%', s?.coverageAccounted, 0.995, false, (v) => pct(v)),
    // Scale
    at50k('50k elements: first full-page snapshot', '≤ 2 s', (r) => r.firstMs, 2000),
    big && !big.error && (big.playwrightAiMs !== null || big.playwrightAiOverMs !== undefined)
      ? { goal: '50k elements: first snapshot vs Playwright AI', target: '≤ 1×', value: big.playwrightAiMs === null ? null : big.firstMs / big.playwrightAiMs,
        pass: big.playwrightAiMs === null ? big.firstMs <= big.playwrightAiOverMs! : big.firstMs <= big.playwrightAiMs,
        measured: big.playwrightAiMs === null ? `${(big.firstMs / 1000).toFixed(1)} s vs Playwright unfinished after ${(big.playwrightAiOverMs! / 1000).toFixed(0)} s` : times(big.firstMs / big.playwrightAiMs) }
      : { goal: '50k elements: first snapshot vs Playwright AI', target: '≤ 1×', measured: 'not measured', value: null, pass: null },
    at50k('50k elements: warm full-page snapshot', '≤ 1 s', (r) => r.fullMs, 1000),
    at50k('50k elements: viewport snapshot, page unchanged', '≤ 100 ms', (r) => r.viewportMs, 100),
    at50k('50k elements: viewport snapshot after a change', '≤ 100 ms', (r) => r.viewportChangedMs ?? NaN, 100),
    at20k('20k elements: first full-page snapshot', '≤ 0.8 s', (r) => r.firstMs, 800),
    at20k('20k elements: warm full-page snapshot', '≤ 0.4 s', (r) => r.fullMs, 400),
    at20k('20k elements: viewport snapshot, page unchanged', '≤ 60 ms', (r) => r.viewportMs, 60),
    at20k('20k elements: viewport snapshot after a change', '≤ 60 ms', (r) => r.viewportChangedMs ?? NaN, 60),
    // Speed
    goal('v3 full-page time / Playwright AI time', '≤ 0.25×', s?.timeRatio.v3Full, 0.25, true, times),
    goal('v3 full-page time / floor', '≤ 3×', s?.timeRatio['v3Full/floor'], 3, true, times),
    goal('re-read after one change / cold read (from Node)', '≤ 10%', reread?.incrementalRatio, 0.1, true,
      (v) => `${pct(v)} (median of ${reread?.incrementalPages ?? '?'} ${rereadSet} pages${floor(reread?.unchangedRatio)})`),
    goal('the same, inside the page (engine only)', '≤ 10%', reread?.incrementalEngineRatio, 0.1, true, (v) => `${pct(v)}${floor(reread?.unchangedEngineRatio)}`),
  ];
}

export interface Regression { metric: string; baseline: number; now: number; change: string }

interface Metric { key: string; value: number; lowerIsBetter: boolean; abs: number }

function metrics(s: Summary): Metric[] {
  const out: Metric[] = [];
  for (const [set, x] of Object.entries(s.sets)) {
    for (const k of OURS) {
      if (x.tokens[k]) out.push({ key: `${set} tokens ${k}`, value: x.tokens[k].median, lowerIsBetter: true, abs: 20 });
      if (x.timeMs[k]) out.push({ key: `${set} time ${k} (ms)`, value: x.timeMs[k].median, lowerIsBetter: true, abs: 3 });
    }
    for (const [k, v] of [['coverage', x.coverage], ['name agreement', x.nameAgreement], ['forms named', x.formsNamed]] as const) {
      if (v !== null) out.push({ key: `${set} ${k}`, value: v, lowerIsBetter: false, abs: 0.005 });
    }
  }
  if (s.conformance?.passRate != null) out.push({ key: 'accname pass rate', value: s.conformance.passRate, lowerIsBetter: false, abs: 0.005 });
  for (const r of s.scale) {
    if (r.error) continue;
    out.push({ key: `scale ${r.variant} ${r.elements} full (ms)`, value: r.fullMs, lowerIsBetter: true, abs: 20 });
    if (r.viewportChangedMs !== undefined) out.push({ key: `scale ${r.variant} ${r.elements} viewport after a change (ms)`, value: r.viewportChangedMs, lowerIsBetter: true, abs: 20 });
    out.push({ key: `scale ${r.variant} ${r.elements} heap growth (MB)`, value: r.heapGrowthMb, lowerIsBetter: true, abs: 2 });
  }
  return out;
}

/**
 * Regressions beyond noise: worse than the baseline by more than 10% and by more than a small
 * absolute amount (20 tokens, 3 ms per page, 20 ms at scale, 2 MB, half a percentage point).
 */
export function compare(baseline: Summary, now: Summary): { regressions: Regression[]; improvements: Regression[]; compared: number } {
  const before = new Map(metrics(baseline).map((m) => [m.key, m]));
  const regressions: Regression[] = [];
  const improvements: Regression[] = [];
  let compared = 0;
  for (const m of metrics(now)) {
    const b = before.get(m.key);
    if (!b || !Number.isFinite(b.value) || !Number.isFinite(m.value)) continue;
    compared++;
    const worse = m.lowerIsBetter ? m.value - b.value : b.value - m.value;
    const rel = b.value !== 0 ? Math.abs(m.value - b.value) / Math.abs(b.value) : Infinity;
    if (Math.abs(worse) <= m.abs || rel <= 0.1) continue;
    const entry = { metric: m.key, baseline: b.value, now: m.value, change: `${m.value > b.value ? '+' : '−'}${(rel * 100).toFixed(0)}%` };
    (worse > 0 ? regressions : improvements).push(entry);
  }
  return { regressions, improvements, compared };
}
