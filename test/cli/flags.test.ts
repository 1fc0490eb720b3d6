// Flags that do not apply are refused before a browser starts, and every error the command line
// prints is one line with a code: no raw errors, no stacks.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { FIXTURES } from '../support/harness.js';
import { runCli } from '../support/cli-helpers.js';

const LEAF = join(FIXTURES, 'frames-leaf.html');
// Nothing listens there and no browser exists at that path: any attempt to open a page shows up as
// NO_BROWSER instead of the flag error. (A URL, not a file: a file would start the loopback server.)
const NOWHERE = 'http://127.0.0.1:9/never.html';
const NO_BROWSER_ENV = { PAGELENS_CHROMIUM: '/nonexistent/chromium', PAGELENS_DEBUG: '' };
const STACK_FRAME = /at .*\.js:\d+/;

const INVALID: Array<{ args: string[]; flag: string }> = [
  { args: ['snapshot', NOWHERE, '--boxes', '--mode', 'axtree'], flag: '--boxes' },
  { args: ['snapshot', NOWHERE, '--boxes', '--format', 'text'], flag: '--boxes' },
  { args: ['snapshot', NOWHERE, '--boxes', '--mode', 'semantic'], flag: '--boxes' },
  { args: ['snapshot', NOWHERE, '--mode', 'semantic', '--format', 'text'], flag: '--mode semantic' },
  { args: ['snapshot', NOWHERE, '--full-page', '--mode', 'axtree'], flag: '--full-page' },
  { args: ['snapshot', NOWHERE, '--pretty', '--format', 'text'], flag: '--pretty' },
  { args: ['snapshot', NOWHERE, '--pretty', '--mode', 'axtree', '--format', 'text'], flag: '--pretty' },
  { args: ['demo', '--boxes', '--mode', 'axtree'], flag: '--boxes' },
  { args: ['demo', '--format', 'text', '--pretty'], flag: '--pretty' },
  { args: ['demo', '--mode', 'semantic', '--format', 'text'], flag: '--mode semantic' },
];

test('flags that do not apply to the mode or format are BAD_INPUT, before any browser starts', { timeout: 60_000 }, async () => {
  const control = await runCli(['snapshot', NOWHERE], { env: NO_BROWSER_ENV });
  assert.notEqual(control.code, 0);
  assert.match(control.stderr, /NO_BROWSER/, 'a valid combination does try to start the (missing) browser');

  for (const { args, flag } of INVALID) {
    const r = await runCli(args, { env: NO_BROWSER_ENV });
    const what = args.join(' ');
    assert.notEqual(r.code, 0, what);
    assert.match(r.stderr, /^pagelens: BAD_INPUT: /, what);
    assert.ok(r.stderr.includes(flag), `${what}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /NO_BROWSER/, `${what} started a browser`);
    assert.equal(r.stdout, '', what);
  }
});

test('valid combinations still work: axtree outline, boxes on a full-page pretty snapshot, demo text', { timeout: 120_000 }, async () => {
  const outline = await runCli(['snapshot', LEAF, '--mode', 'axtree', '--format', 'text']);
  assert.equal(outline.code, 0, outline.stderr);
  assert.match(outline.stdout, /\[1\] button: Leaf button/);

  const boxes = await runCli(['snapshot', LEAF, '--boxes', '--full-page', '--pretty']);
  assert.equal(boxes.code, 0, boxes.stderr);
  assert.match(boxes.stdout, /^\s+\{"i":"1"/m, 'pretty: one element per line');
  const v3 = SemanticV3Result.parse(JSON.parse(boxes.stdout));
  assert.ok(v3.interactive_tree.every((n) => Array.isArray(n.box) && n.box.length === 4));

  // The demo's pretty default applies to JSON only; the text form is unaffected.
  const demoText = await runCli(['demo', '--format', 'text']);
  assert.equal(demoText.code, 0, demoText.stderr);
  assert.match(demoText.stdout, /^page: Acme Outfitters/);
});

test('pagelens run: a bad --expect is BAD_INPUT on one line, without a stack or a ZodError', async () => {
  const r = await runCli(['run', LEAF, '--do', 'click(1)', '--expect', 'element_appears'], { env: NO_BROWSER_ENV });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /BAD_INPUT/);
  assert.doesNotMatch(r.stderr, STACK_FRAME);
  assert.doesNotMatch(r.stderr, /ZodError/);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);

  for (const args of [['--expect', 'navigation'], ['--do', 'clack(1)'], ['--do', 'click(1)', '--expect', 'teleport']]) {
    const bad = await runCli(['run', LEAF, ...args], { env: NO_BROWSER_ENV });
    assert.notEqual(bad.code, 0, args.join(' '));
    assert.match(bad.stderr, /^pagelens: BAD_INPUT: /, args.join(' '));
    assert.doesNotMatch(bad.stderr, STACK_FRAME);
  }
});

test('an unexpected error is INTERNAL on one line; PAGELENS_DEBUG adds the stack', async () => {
  // A real failure inside a command: stdout that throws on write, which no code path handles.
  const main = join(dirname(fileURLToPath(import.meta.url)), '../../src/cli/main.js');
  const script = `import { main } from ${JSON.stringify(main)};
process.stdout.write = () => { throw new TypeError('boom\\nsecond line'); };
await main(['node', 'pagelens', 'legend']);`;
  const run = (debug: string) => new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, PAGELENS_DEBUG: debug }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const quiet = await run('');
  assert.equal(quiet.code, 1);
  assert.equal(quiet.stderr, 'pagelens: INTERNAL: boom (a bug in pagelens; set PAGELENS_DEBUG=1 for the stack)\n');
  const loud = await run('1');
  assert.equal(loud.code, 1);
  assert.match(loud.stderr, /^pagelens: INTERNAL: boom /);
  assert.match(loud.stderr, STACK_FRAME);
});

test('commander still reports unknown options and bad choices itself', async () => {
  const unknown = await runCli(['snapshot', LEAF, '--bogus']);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /unknown option '--bogus'/);
  const choice = await runCli(['snapshot', LEAF, '--format', 'yaml']);
  assert.notEqual(choice.code, 0);
  assert.match(choice.stderr, /Allowed choices are json, text/);
});

test('a browser that cannot start leaves nothing running: a local page\'s server is closed and the command exits', { timeout: 30_000 }, async () => {
  const r = await runCli(['snapshot', LEAF], { env: NO_BROWSER_ENV });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /^pagelens: NO_BROWSER: PAGELENS_CHROMIUM points to \/nonexistent\/chromium/);
});
