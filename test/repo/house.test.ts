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

// Every module of src/core that holds behaviour is imported by name by a test of test/core (issue
// 44), so that a newcomer finds its contract pinned over fakes, not only through a browser. Read
// from the import statements; the modules exempted say why.
const CORE_EXEMPT: Record<string, string> = {
  'port.ts': 'types only: the port the core needs from a host (nothing to run)',
};

test('every behaviour module of src/core is imported directly by a test in test/core', () => {
  const core = readdirSync(join(ROOT, 'src/core')).filter((n) => n.endsWith('.ts'));
  for (const n of Object.keys(CORE_EXEMPT)) {
    assert.ok(core.includes(n), `exempted ${n} exists`);
    // An exemption for types only holds while the module stays types only.
    assert.doesNotMatch(readFileSync(join(ROOT, 'src/core', n), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, ''), /^\s*export\s+(async\s+)?(function|class|const|let|var)\b/m, `${n} holds behaviour now: test it`);
  }
  const imported = new Set<string>();
  for (const f of modules('test/core')) {
    for (const m of readFileSync(join(ROOT, f), 'utf8').matchAll(/^\s*import\s+(?!type\s)[^;]*?from\s+'\.\.\/\.\.\/src\/core\/([\w.-]+)\.js'/gm)) imported.add(`${m[1]}.ts`);
  }
  const untested = core.filter((n) => !CORE_EXEMPT[n] && !imported.has(n));
  assert.deepEqual(untested, [], 'modules of src/core no test in test/core imports');
});
