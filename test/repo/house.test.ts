// The house a newcomer walks (issue 44), checked over the tree: a file name says one thing (the same
// concept in two layers may share a name, three files may not), every module of the engine and of
// the tool registry opens with a line saying what it is for, and the folders that are families of
// modules keep their families in rooms, with only the entry at the top.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

function modules(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((n) => {
    const rel = join(dir, n);
    if (statSync(join(ROOT, rel)).isDirectory()) return n === 'dist' || n === 'node_modules' ? [] : modules(rel);
    return n.endsWith('.ts') && !n.endsWith('.d.ts') && !n.endsWith('.generated.ts') ? [rel] : [];
  });
}

test('no file name is used by more than two modules (names compared without case)', () => {
  const byName = new Map<string, string[]>();
  for (const f of ['src', 'extension/src', 'bench'].flatMap(modules)) {
    const key = basename(f).toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), f]);
  }
  const crowded = [...byName].filter(([, files]) => files.length > 2).map(([name, files]) => `${name}: ${files.join(', ')}`);
  assert.deepEqual(crowded, []);
  assert.ok(byName.size > 200, `the walk found the tree (${byName.size} names)`);
});

test('every module of src/page and src/tools opens with a line saying what it is for', () => {
  const silent = [...modules('src/page'), ...modules('src/tools')].filter((f) => !readFileSync(join(ROOT, f), 'utf8').startsWith('//'));
  assert.deepEqual(silent, []);
});

test('src/page and src/tools keep their families in rooms: only the entry lies at the top', () => {
  for (const [dir, entry] of [['src/page', 'main.ts'], ['src/tools', 'index.ts']]) {
    const top = modules(dir).filter((f) => relative(dir, f) === basename(f)).map((f) => basename(f));
    assert.deepEqual(top, [entry], `${dir} top level`);
    const rooms = new Set(modules(dir).map((f) => dirname(relative(dir, f))).filter((d) => d !== '.'));
    assert.ok(rooms.size >= 4, `${dir} has rooms: ${[...rooms].join(', ')}`);
  }
});

// A test is found from the module it tests: test/<room>/ mirrors the room of src (or the extension,
// the bench) it exercises; the rooms that are no module's are named for what crosses them
// (security, the repository's own rules, the helpers the tests share).
const CROSSING_ROOMS = ['security', 'repo', 'support', 'extension', 'bench', 'fixtures'];

test('tests live in rooms named after the src folder they test, none at the top of test/', () => {
  const srcRooms = readdirSync(join(ROOT, 'src')).filter((n) => statSync(join(ROOT, 'src', n)).isDirectory());
  const tests = modules('test');
  const top = tests.filter((f) => dirname(f) === 'test');
  assert.deepEqual(top, [], 'nothing at the top of test/');
  const strays = tests.map((f) => relative('test', f).split('/')[0]!).filter((room) => !srcRooms.includes(room) && !CROSSING_ROOMS.includes(room));
  assert.deepEqual([...new Set(strays)], [], `rooms of test/ named after no src folder (src has ${srcRooms.join(', ')})`);
  const helpers = tests.filter((f) => !f.endsWith('.test.ts') && !f.startsWith('test/support/') && !f.startsWith('test/fixtures/'));
  assert.deepEqual(helpers, [], 'helpers shared by tests are in test/support/');
  assert.ok(tests.some((f) => f.startsWith('test/core/')), 'src/core has tests of its own');
});
