// The command line starts like a real tool: `--version`, `--help` that loads no face (no browser
// driver, no server, no MCP SDK), and usage errors in one line that says where to look.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { test } from 'node:test';
import { runCli, runProcess } from '../support/cli-helpers.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '../../..');
const BIN = join(ROOT, 'bin/pagelens.js');
// Packages only a command's own work needs; none of them may be loaded to print help or the version.
const HEAVY = /\/node_modules\/(playwright-core|@modelcontextprotocol\/sdk|hono|@hono\/node-server|sharp|gpt-tokenizer|minisearch)\//;

/** Runs the CLI with the load-trace hooks; returns its exit code and every module URL it loaded. */
async function traced(args: string[]): Promise<{ code: number; stdout: string; loaded: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-trace-'));
  const trace = join(dir, 'modules.txt');
  const hooks = pathToFileURL(join(HERE, '../support/load-trace-hooks.js')).href;
  const register = `data:text/javascript,import{register}from'node:module';register(${JSON.stringify(hooks)})`;
  try {
    const { code, stdout } = await runProcess(process.execPath, ['--import', register, BIN, ...args], { env: { ...process.env, PAGELENS_LOAD_TRACE: trace } });
    return { code, stdout, loaded: readFileSync(trace, 'utf8').split('\n').filter(Boolean) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('pagelens --version prints the package version', async () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const r = await runCli([flag]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${version}\n`);
  }
});

test('--help and --version load no face: no browser driver, server or MCP SDK', async () => {
  for (const args of [['--help'], ['--version'], ['snapshot', '--help'], ['mcp', '--help']]) {
    const r = await traced(args);
    assert.equal(r.code, 0, args.join(' '));
    // The trace works: the CLI's own entry is in it.
    assert.ok(r.loaded.some((u) => u.endsWith('/dist/src/cli/main.js')), `no trace for ${args.join(' ')}`);
    const heavy = r.loaded.filter((u) => HEAVY.test(u));
    assert.deepEqual(heavy, [], `${args.join(' ')} loaded ${heavy.length} modules of faces it does not run`);
  }
  // A command that does its work loads them, so the check can see them (this one stops at the
  // missing file, before a browser starts).
  const snapshot = await traced(['snapshot', '/no/such/page.html']);
  assert.equal(snapshot.code, 1);
  assert.ok(snapshot.loaded.some((u) => /\/node_modules\/playwright-core\//.test(u)), 'pagelens snapshot loads playwright-core');
});

test('a usage error is one line with where to look, not the whole help', async () => {
  const cases: Array<[string[], RegExp]> = [
    [['snapshot', 'x.html', '--bogus'], /^pagelens: BAD_INPUT: unknown option '--bogus'.*; see pagelens snapshot --help\n$/],
    [['snapshot'], /^pagelens: BAD_INPUT: missing required argument 'url-or-file'; see pagelens snapshot --help\n$/],
    [['snapshot', 'x.html', '--format', 'yaml'], /^pagelens: BAD_INPUT: option '--format <format>' argument 'yaml' is invalid\. Allowed choices are json, text\.; see pagelens snapshot --help\n$/],
    [['snapsot', 'x.html'], /^pagelens: BAD_INPUT: unknown command 'snapsot' \(Did you mean snapshot\?\); see pagelens --help\n$/],
    [['agent', 'do it'], /^pagelens: BAD_INPUT: required option '--url <url-or-file>' not specified; see pagelens agent --help\n$/],
  ];
  for (const [args, expected] of cases) {
    const r = await runCli(args);
    assert.equal(r.code, 1, args.join(' '));
    assert.match(r.stderr, expected);
    assert.equal(r.stdout, '');
  }
});
