// The docs stay short, linked and true to what generates them: the README is a front page (a length
// it may not outgrow), every relative link lands on a file and heading that exist, and the
// generated pages (docs/tools.md from the tool registry, docs/benchmarks.md and the README's
// headline table from bench/baseline.json) are what their generators write now. Each staleness
// check regenerates in memory and names the command that rewrites the file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative } from 'node:path';
import { test } from 'node:test';
import { REGENERATE, renderBenchmarksDoc, renderHeadline, staleBenchDocs, withHeadline } from '../../bench/docs.js';
import { BASELINE, readBaseline } from '../../bench/runner.js';
import { docFiles, README, ROOT } from '../support/readme-blocks.js';

const README_MAX_LINES = 300;
const TOOLS_SCRIPT = join(ROOT, 'scripts/docs-tools.mjs');

function toolsDocCheck(...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [TOOLS_SCRIPT, ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

test(`the README stays a front page: at most ${README_MAX_LINES} lines`, () => {
  const lines = readFileSync(README, 'utf8').split('\n').length;
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines: move the detail into a page of docs/ and link it`);
});

test('docs/tools.md is what the tool registry generates', () => {
  const r = toolsDocCheck();
  assert.equal(r.code, 0, r.out);
});

test('a tools page that differs from the registry fails the check, naming the command that rewrites it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-docs-'));
  try {
    const edited = join(dir, 'tools.md');
    writeFileSync(edited, readFileSync(join(ROOT, 'docs/tools.md'), 'utf8').replace(/^## browser_click\n/m, '## browser_clack\n'));
    const r = toolsDocCheck('--file', edited);
    assert.equal(r.code, 1, r.out);
    assert.match(r.out, /is stale.*Run `npm run docs`/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('docs/benchmarks.md and the README\'s headline table are what bench/baseline.json generates', () => {
  const stale = staleBenchDocs().map((d) => relative(ROOT, d.file));
  assert.deepEqual(stale, [], `${stale.join(' and ')} differ from bench/baseline.json: run \`${REGENERATE}\``);
});

test('a new baseline makes both benchmark pages stale; the headline quotes the baseline\'s own figures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-docs-'));
  try {
    const raw = JSON.parse(readFileSync(BASELINE, 'utf8')) as { summary: { sets: { all: { tokenRatio: { v3Viewport: number } } } } };
    raw.summary.sets.all.tokenRatio.v3Viewport = 0.0123;
    const moved = join(dir, 'baseline.json');
    writeFileSync(moved, JSON.stringify(raw));
    const stale = staleBenchDocs(moved);
    assert.deepEqual(stale.map((d) => relative(ROOT, d.file)).sort(), ['README.md', 'docs/benchmarks.md']);
    const b = readBaseline(moved);
    assert.match(renderHeadline(b), /1\.2% of Playwright's AI snapshot/);
    assert.match(renderBenchmarksDoc(b), /\| 847 \(1\.2%\) \|/);
    assert.throws(() => withHeadline('# no markers here\n', renderHeadline(b)), /no headline block/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#+\s+(.+)$/gm)].map((m) => anchor(m[1])));
}

test('every relative link of the README, docs/ and CHANGELOG.md lands on a file, and on a heading it names', () => {
  const pages = [...docFiles(), 'CHANGELOG.md'];
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [path, hash] = target.split('#');
      const file = path ? normalize(join(ROOT, dirname(page), path)) : join(ROOT, page);
      if (!existsSync(file)) broken.push(`${page}: ${target} (no such file)`);
      else if (hash && file.endsWith('.md') && !anchorsOf(file).has(hash)) broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the README links every page of docs/', () => {
  const readme = readFileSync(README, 'utf8');
  const unlinked = docFiles().filter((f) => f !== 'README.md' && !readme.includes(`](${f})`));
  assert.deepEqual(unlinked, [], 'pages a reader of the README cannot find');
});
