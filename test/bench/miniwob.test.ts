// The MiniWoB++ part of the bench is optional: the task pages are not in the repository, so
// without them it says so and succeeds; bad flags are refused with what was expected.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '../../bench/miniwob.js');
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

test('without the task pages the MiniWoB part says so and exits 0', () => {
  const none = run();
  assert.equal(none.status, 0, none.stderr);
  assert.match(none.stdout, /^MINIWOB skipped: no folder given/);
  const missing = run('--dir', join(dirname(fileURLToPath(import.meta.url)), 'no-such-folder'));
  assert.equal(missing.status, 0, missing.stderr);
  assert.match(missing.stdout, /^MINIWOB skipped: no MiniWoB\+\+ folder at .*no-such-folder \(expected core\/core\.js/);
});

test('the MiniWoB part refuses a bad episode count', () => {
  const bad = run('--dir', '.', '--episodes', '0');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /BAD_INPUT: --episodes expects a positive integer, got "0"/);
});
