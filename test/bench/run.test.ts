// The benchmark measures itself correctly: a run on two small fixture pages (no corpus) gives
// every figure the report promises, with sane values, and writes results.json and report.html.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runBench } from '../../bench/runner.js';
import { Results, type PageResult } from '../../bench/schema.js';
import { compare } from '../../bench/summary.js';
import { stripIds } from '../../bench/measurePage.js';
import { renderTable } from '../../bench/table.js';
import { FIXTURES } from '../support/harness.js';

let out: string;
let results: Results;
before(async () => {
  out = mkdtempSync(join(tmpdir(), 'pagelens-bench-test-'));
  results = await runBench({
    sets: [{
      name: 'fixtures',
      pages: ['bench-form.html', 'bench-links.html'].map((name) => ({ name, file: join(FIXTURES, name) })),
      labels: new Map([['bench-form.html', new Set(['email', 'pass', 'user', 'remember'])]]),
    }],
    runs: 1,
    scaleSizes: [100],
    scaleRuns: 1,
    scaleVariants: ['flat', 'shadow'],
    accnameFile: join(FIXTURES, 'bench-accname.json'),
    outDir: out,
    quiet: true,
  });
});
after(() => { if (out) rmSync(out, { recursive: true, force: true }); });

const page = (name: string): PageResult => results.pages.find((p) => p.page === name)!;

test('every page gets tokens and warm times for each extraction, in one load', () => {
  assert.equal(results.pages.length, 2);
  for (const p of results.pages) {
    assert.equal(p.error, undefined, `${p.page}: ${p.error}`);
    for (const k of ['v3Viewport', 'v3Full', 'textFull', 'semanticFull', 'html', 'playwrightAi', 'chromeAx']) {
      assert.ok(p.tokens![k] > 0, `${p.page} tokens.${k} = ${p.tokens![k]}`);
      assert.ok(p.timeMs![k] >= 0, `${p.page} timeMs.${k}`);
    }
    assert.ok(p.timeMs!.floor >= 0 && p.timeMs!.axtree >= 0);
    // A page that fits the viewport gives the same list twice; only meta figures (times) differ.
    assert.ok(p.tokens!.v3Viewport <= p.tokens!.v3Full + 10, `${p.page}: ${p.tokens!.v3Viewport} > ${p.tokens!.v3Full}`);
    assert.ok(p.tokens!.textFull < p.tokens!.v3Full, 'the text form is the compact one');
    assert.ok(p.elements!.listedViewport <= p.elements!.listedFull);
  }
  // The button below the 2000px spacer is only in the full page.
  const links = page('bench-links.html');
  assert.ok(links.elements!.listedViewport < links.elements!.listedFull);
  assert.ok(links.tokens!.v3Viewport < links.tokens!.v3Full);
});

test('coverage and names are matched against Chrome through data-llm-id', () => {
  const links = page('bench-links.html');
  assert.ok(links.coverage!.candidates >= 7, `candidates ${links.coverage!.candidates}`);
  assert.ok(links.coverage!.share! > 0 && links.coverage!.share! <= 1);
  assert.ok(links.names!.compared > 0 && links.names!.agree <= links.names!.compared);
  // The long link is truncated by the renderer and still agrees with Chrome's full name.
  assert.ok(!links.names!.disagreements.some((d) => d.ours.startsWith('A very long link')), JSON.stringify(links.names!.disagreements));
  const form = page('bench-form.html');
  for (const m of form.coverage!.missed) assert.ok(m.hint && m.tag && m.box.length === 4, JSON.stringify(m));
});

test('form fields from the labels are counted, hidden ones are not', () => {
  const f = page('bench-form.html').forms!;
  assert.deepEqual(f.fieldList.map((x) => x.name).sort(), ['email', 'pass', 'remember', 'user']);
  assert.ok(f.named <= f.listed && f.listed <= f.fields);
  assert.equal(f.fieldList.find((x) => x.name === 'email')!.chrome, 'Email address');
  assert.equal(page('bench-links.html').forms, undefined);
});

test('conformance cases compare names and roles, with Chrome as the reference', () => {
  const c = results.conformance;
  const names = c.filter((x) => x.kind === 'name');
  assert.deepEqual(names.map((x) => x.test).sort(), ['#test', 'button text', 'heading', 'link title']);
  assert.equal(c.filter((x) => x.kind === 'role').length, 2);
  assert.ok(names.every((x) => x.chromePass), JSON.stringify(names));
  // A heading is not interactive: reported as not listed rather than failed.
  const heading = names.find((x) => x.test === 'heading')!;
  assert.equal(heading.listed, false);
  assert.equal(heading.pass, null);
  assert.equal(results.summary.conformance!.names, 4);
});

test('scale pages report time and heap for each variant', () => {
  assert.deepEqual(results.summary.scale.map((s) => s.variant), ['flat', 'shadow']);
  for (const s of results.summary.scale) {
    assert.equal(s.error, undefined);
    assert.ok(s.listedFull > 0 && s.fullMs > 0 && s.viewportMs > 0 && s.heapTotalMb > 0, JSON.stringify(s));
  }
});

test('summary, goals, files and the baseline comparison', () => {
  const s = results.summary.sets.fixtures;
  assert.equal(s.pages, 2);
  assert.ok(s.tokenRatio.v3Full > 0 && s.coverage! > 0 && s.formsNamed !== null);
  assert.equal(results.summary.goals.length, 20);
  assert.ok(results.summary.goals.every((g) => g.measured.length > 0));
  // The four of the engine-quality issue are each measured: names, coverage, scale (here 'not run': no 50k page), speed.
  for (const name of ['accname conformance (WPT, listed cases)', 'coverage: listed or accounted for', 're-read after one change / cold read (from Node)']) {
    const g = results.summary.goals.find((x) => x.goal === name);
    assert.ok(g && g.value !== null && Number.isFinite(g.value), `${name}: ${JSON.stringify(g)}`);
  }
  assert.equal(results.summary.goals.find((x) => x.goal === '50k elements: first full-page snapshot')?.measured, 'not run');
  const written = Results.parse(JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')));
  assert.equal(written.pages.length, 2);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.ok(html.includes('<svg') && html.includes('Goals'));

  assert.equal(compare(results.summary, results.summary).regressions.length, 0);
  const worse = structuredClone(results.summary);
  worse.sets.fixtures.tokens.v3Full.median *= 3;
  worse.sets.fixtures.tokens.v3Full.median += 100;
  const flagged = compare(results.summary, worse).regressions.map((r) => r.metric);
  assert.deepEqual(flagged, ['fixtures tokens v3Full']);
});

test('the re-read after a one-element change is timed warm and cold, and the page is put back', () => {
  for (const p of results.pages) {
    const inc = p.incremental!;
    assert.ok(inc && inc.warmMs > 0 && inc.coldMs > 0 && inc.warmEngineMs >= 0 && inc.coldEngineMs > 0, `${p.page}: ${JSON.stringify(inc)}`);
    assert.ok(inc.unchangedMs! > 0 && inc.unchangedEngineMs! >= 0, `an unchanged page is timed too: ${JSON.stringify(inc)}`);
  }
  assert.ok(results.summary.sets.fixtures.incrementalRatio! > 0);
  assert.ok(results.summary.sets.fixtures.unchangedRatio! > 0);
  assert.match(renderTable(results), /unchanged, from Node +[\d.]+%/);
  // Per page, with the median: the spread is printed, and the goal says over how many pages of which set.
  assert.match(renderTable(results), /fixtures: 2 pages, per page min \d+%, p10 \d+%, median [\d.]+%, p90 \d+%, max \d+%; highest: bench-/);
  assert.match(results.summary.goals.find((g) => g.goal === 're-read after one change / cold read (from Node)')!.measured, /^[\d.]+% \(median of 2 fixtures pages; with nothing changed [\d.]+%\)$/);
  // The changed text was restored before the comparison with Chrome: no name reads "Changed".
  for (const p of results.pages) assert.ok(!p.names!.disagreements.some((d) => d.ours.startsWith('Changed')), JSON.stringify(p.names!.disagreements));
});

test('raw HTML is counted without the ids pagelens stamped', () => {
  assert.equal(stripIds('<a data-llm-id="12" href="#">x</a>'), '<a href="#">x</a>');
});
