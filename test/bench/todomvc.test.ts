// The TodoMVC part of the bench is optional: the apps are not in the repository, so without them
// it says so and succeeds; an app it does not know is refused with the ones it knows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '../../bench/todomvc.js');
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

test('without the apps the TodoMVC part says so and exits 0', () => {
  const none = run();
  assert.equal(none.status, 0, none.stderr);
  assert.match(none.stdout, /^TODOMVC skipped: no folder given/);
  const missing = run('--dir', join(dirname(fileURLToPath(import.meta.url)), 'no-such-folder'));
  assert.equal(missing.status, 0, missing.stderr);
  assert.match(missing.stdout, /^TODOMVC skipped: no TodoMVC app at .*no-such-folder \(expected e\.g\. examples\/react\/dist\/index\.html/);
});

test('the TodoMVC part refuses an app it does not know', () => {
  const bad = run('--dir', '.', '--apps', 'react,elm');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /BAD_INPUT: unknown app elm \(known: angular, backbone/);
});
