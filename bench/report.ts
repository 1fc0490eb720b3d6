// The HTML report: one self-contained file (inline CSS and SVG) a person can open anywhere.
import { METHOD_LABELS, type Results } from './schema.js';
import { logChart, type Series } from './svg.js';
import { pct } from './stats.js';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const COLORS = { v3Viewport: '#1b9e77', v3Full: '#d95f02', textFull: '#7570b3', axtree: '#e7298a', playwrightAi: '#444', chromeAx: '#66a61e', floor: '#a6761d' };

function table(head: string[], rows: string[][]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

export function renderReport(r: Results, stdoutTable: string): string {
  const ok = r.pages.filter((p) => !p.error && p.tokens && p.timeMs);
  const charts: string[] = [];
  if (ok.length) {
    const tokenSeries: Series[] = (['v3Viewport', 'v3Full', 'textFull', 'axtree'] as const)
      .filter((k) => ok.some((p) => p.tokens![k]))
      .map((k) => ({ label: METHOD_LABELS[k], color: COLORS[k], points: ok.filter((p) => p.tokens![k]).map((p) => [p.tokens!.playwrightAi, p.tokens![k]] as [number, number]) }));
    charts.push(logChart({
      title: 'Tokens per page against the Playwright AI snapshot', xLabel: 'Playwright AI snapshot tokens (o200k)', yLabel: 'pagelens tokens',
      series: tokenSeries, refs: [{ label: '100%', k: 1 }, { label: '20%', k: 0.2 }, { label: '8%', k: 0.08 }, { label: '3%', k: 0.03 }],
    }));
    const timeSeries: Series[] = (['v3Full', 'v3Viewport', 'playwrightAi', 'chromeAx', 'floor'] as const)
      .map((k) => ({ label: METHOD_LABELS[k], color: COLORS[k], points: ok.filter((p) => p.timeMs![k] && p.elements).map((p) => [p.elements!.dom, p.timeMs![k]] as [number, number]) }));
    charts.push(logChart({ title: 'Extraction time against page size (warm median per page)', xLabel: 'DOM elements', yLabel: 'ms', series: timeSeries }));
  }
  const scale = r.summary.scale.filter((x) => !x.error);
  if (scale.length) {
    const palette: Record<string, string> = { flat: '#d95f02', deep: '#1b9e77', shadow: '#7570b3', iframes: '#e7298a' };
    const variants = [...new Set(scale.map((x) => x.variant))];
    const series: Series[] = variants.map((v) => ({ label: `${v} full`, color: palette[v] ?? '#333', line: true, points: scale.filter((x) => x.variant === v).map((x) => [x.elements, x.fullMs] as [number, number]) }));
    series.push({ label: 'flat viewport', color: '#1f78b4', line: true, points: scale.filter((x) => x.variant === 'flat').map((x) => [x.elements, x.viewportMs] as [number, number]) });
    const pw = scale.filter((x) => x.playwrightAiMs);
    if (pw.length) series.push({ label: 'Playwright AI', color: '#444', line: true, points: pw.map((x) => [x.elements, x.playwrightAiMs!] as [number, number]) });
    charts.push(logChart({ title: 'Scale: extraction time against interactive elements', xLabel: 'interactive elements on the page', yLabel: 'ms', series, refs: [] }));
    charts.push(logChart({
      title: 'Scale: JS heap growth during one full-page extraction', xLabel: 'interactive elements on the page', yLabel: 'MB',
      series: variants.map((v) => ({ label: v, color: palette[v] ?? '#333', line: true, points: scale.filter((x) => x.variant === v && x.heapGrowthMb > 0).map((x) => [x.elements, x.heapGrowthMb] as [number, number]) })),
    }));
  }

  const goals = table(['goal', 'target', 'measured', ''], r.summary.goals.map((g) => [g.goal, g.target, g.measured, g.pass === null ? '–' : g.pass ? 'pass' : 'MISS']));
  const worst = ok.filter((p) => p.coverage && p.coverage.share !== null && p.coverage.share < 1).sort((a, b) => a.coverage!.share! - b.coverage!.share!).slice(0, 25)
    .map((p) => [`${p.set}/${p.page}`, pct(p.coverage!.share), `${p.coverage!.covered}/${p.coverage!.candidates}`,
      Object.entries(p.coverage!.byHint).sort((a, b) => b[1] - a[1]).map(([h, n]) => `${h} ${n}`).join(', ')]);
  const misses = ok.flatMap((p) => (p.coverage?.missed ?? []).map((m) => [`${p.set}/${p.page}`, m.role, m.tag, m.name, m.via, m.hint])).slice(0, 200);
  const diffs = ok.flatMap((p) => (p.names?.disagreements ?? []).map((d) => [`${p.set}/${p.page}`, d.role, d.tag, d.ours, d.chrome])).slice(0, 200);
  const conf = r.conformance.filter((c) => c.listed && c.pass === false).map((c) => [c.suite, c.file, c.test, c.kind, c.expected, c.ours ?? '', c.chrome ?? '']);
  const unnamed = ok.flatMap((p) => (p.forms?.fieldList ?? []).filter((f) => !f.listed || !f.ours.trim()).map((f) => [`${p.set}/${p.page}`, f.name, f.tag, f.type, f.listed ? 'listed, no name' : 'not listed', f.chrome])).slice(0, 150);
  const rereads = ok.filter((p) => p.incremental).map((p) => [`${p.set}/${p.page}`, String(p.incremental!.warmMs), String(p.incremental!.coldMs), pct(p.incremental!.warmMs / p.incremental!.coldMs),
    String(p.incremental!.warmEngineMs), String(p.incremental!.coldEngineMs)]);
  const failed = r.pages.filter((p) => p.error).map((p) => [`${p.set}/${p.page}`, p.error!]);

  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>pagelens bench ${esc(r.startedAt)}</title>
<style>
body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1320px;padding:0 16px;color:#222}
h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
pre{background:#f7f7f7;padding:12px;overflow-x:auto;font-size:12px;line-height:1.35}
table{border-collapse:collapse;font-size:12px;margin:8px 0}td,th{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top;max-width:420px;overflow-wrap:anywhere}
th{background:#f0f0f0}.charts{display:flex;flex-wrap:wrap;gap:16px}.charts svg{border:1px solid #eee;background:#fff}
details{margin:6px 0}summary{cursor:pointer;font-weight:600}
</style></head><body>
<h1>pagelens benchmark</h1>
<p>${esc(r.startedAt)} · ${r.pages.length} pages · ${r.config.runs} timed runs per extraction · ${r.durationS.toFixed(0)} s · ${r.machine.cpus} CPUs · Node ${esc(r.machine.node)} · Chromium ${esc(r.machine.chromium)} · playwright-core ${esc(r.machine.playwright)}</p>
<h2>Goals</h2>${goals}
<h2>Charts</h2><div class="charts">${charts.join('\n')}</div>
<h2>Summary</h2><pre>${esc(stdoutTable)}</pre>
<h2>Details</h2>
<details><summary>Pages with the lowest coverage (${worst.length})</summary>${table(['page', 'coverage', 'covered', 'why missed'], worst)}</details>
<details><summary>Missed elements (first ${misses.length})</summary>${table(['page', 'Chrome role', 'tag', 'Chrome name', 'counted by', 'diagnosis'], misses)}</details>
<details><summary>Name disagreements with Chrome (first ${diffs.length})</summary>${table(['page', 'our role', 'tag', 'ours', 'Chrome'], diffs)}</details>
<details><summary>Form fields without a name (first ${unnamed.length})</summary>${table(['page', 'field', 'tag', 'type', 'pagelens', 'Chrome name'], unnamed)}</details>
<details><summary>Conformance failures on listed elements (${conf.length})</summary>${table(['suite', 'file', 'test', 'kind', 'expected', 'pagelens', 'Chrome'], conf)}</details>
<details><summary>Re-read after one text change, per page (${rereads.length})</summary>${table(['page', 'warm ms', 'cold ms', 'warm / cold', 'engine warm ms', 'engine cold ms'], rereads)}</details>
<details><summary>Failed pages (${failed.length})</summary>${table(['page', 'error'], failed)}</details>
<p>Per-page figures: <code>results.json</code> next to this file.</p>
</body></html>
`;
}
