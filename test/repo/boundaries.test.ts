// The boundary check (scripts/check-boundaries.mjs) on small synthetic trees: each tree holds one
// violation the check must name, and a clean tree passes. The check reads the syntax tree, so the
// forms a pattern match misses (a re-export chain, a template-literal import(), the package
// importing itself, a type-only cycle) are caught.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCRIPT = join(ROOT, 'scripts/check-boundaries.mjs');

/** A clean little project: page → model (zod-free), model → zod, browser → model. */
const BASE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'pagelens', type: 'module' }),
  'src/page/DEPS.list': 'src/model\nnever-reaches zod\n',
  'src/page/main.ts': "import { clamp } from '../model/math.js';\nimport type { Shape } from '../model/schema.js';\nexport const f = (s: Shape) => clamp(s.n);\n",
  'src/model/DEPS.list': 'zod\n',
  'src/model/math.ts': 'export const clamp = (n: number) => Math.max(0, n);\n',
  'src/model/schema.ts': "import { z } from 'zod';\nexport const Shape = z.object({ n: z.number() });\nexport type Shape = z.infer<typeof Shape>;\n",
  'src/browser/DEPS.list': 'src/model\nnode:*\nclosed lens.ts\n',
  'src/browser/core.ts': "import { readFileSync } from 'node:fs';\nimport { Shape } from '../model/schema.js';\nexport const read = (p: string) => Shape.parse(JSON.parse(readFileSync(p, 'utf8')));\n",
  'src/browser/lens.ts': "import { read } from './core.js';\nexport const lens = { read };\n",
};

function check(files: Record<string, string>): { code: number | null; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'pagelens-boundaries-'));
  try {
    for (const [path, text] of Object.entries({ ...BASE, ...files })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const r = spawnSync(process.execPath, [SCRIPT, '--root', root], { encoding: 'utf8' });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function assertRejected(files: Record<string, string>, message: RegExp): void {
  const r = check(files);
  assert.equal(r.code, 1, `expected the check to fail:\n${r.out}`);
  assert.match(r.out, message);
}

test('a tree that keeps its rules passes', () => {
  const r = check({});
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /boundaries: 5 files/);
});

test('zod reaching src/page through a model file that re-exports a schema is refused', () => {
  assertRejected({
    'src/model/index.ts': "export * from './math.js';\nexport { Shape } from './schema.js';\n",
    'src/page/main.ts': "import { clamp } from '../model/index.js';\nexport const f = (n: number) => clamp(n);\n",
  }, /src\/page\/main\.ts: reaches zod through value imports \(src\/page\/main\.ts → src\/model\/index\.ts → src\/model\/schema\.ts → zod\)/);
});

test('never-reaches can name files: the extension\'s content script may not reach zod, its service worker may', () => {
  const extension = {
    'extension/DEPS.list': 'src/model\nzod\nnever-reaches zod src/content.ts\n',
    'extension/src/messages.ts': "import { Shape } from '../../src/model/schema.js';\nexport const CHANNEL = 'p/1';\nexport const check = (v: unknown) => Shape.parse(v);\n",
    'extension/src/background.ts': "import { z } from 'zod';\nimport { check } from './messages.js';\nexport const ok = (v: unknown) => z.object({}).parse(check(v));\n",
  };
  assertRejected({ ...extension, 'extension/src/content.ts': "import { CHANNEL } from './messages.js';\nexport const c = CHANNEL;\n" },
    /extension\/src\/content\.ts: reaches zod through value imports \(extension\/src\/content\.ts → extension\/src\/messages\.ts → src\/model\/schema\.ts → zod\)/);
  const r = check({ ...extension, 'extension/src/content.ts': "import type { check } from './messages.js';\nexport type C = typeof check;\n" });
  assert.equal(r.code, 0, r.out);
  assertRejected({ ...extension, 'extension/DEPS.list': 'src/model\nzod\nnever-reaches zod src/contnet.ts\n', 'extension/src/content.ts': 'export {};\n' },
    /never-reaches zod names extension\/src\/contnet\.ts, which does not exist/);
});

test('a type-only import of a zod model file is fine in src/page, in every type-only form', () => {
  const r = check({
    'src/page/main.ts': "import { type Shape } from '../model/schema.js';\nexport type { Shape as S } from '../model/schema.js';\nexport type T = typeof import('../model/schema.js');\nexport const f = (s: Shape) => s.n;\n",
  });
  assert.equal(r.code, 0, r.out);
});

test('an import() of a template literal with a substitution is refused (it cannot be checked)', () => {
  assertRejected({
    'src/page/main.ts': "export async function load(name: string) { return import(`../model/${name}.js`); }\n",
  }, /src\/page\/main\.ts:1: import of a computed name \(`\.\.\/model\/\$\{name\}\.js`\) cannot be checked/);
});

test('a plain template literal in import() is read like a string, and its target checked', () => {
  assertRejected({
    'src/model/lazy.ts': 'export const load = () => import(`../browser/core.js`);\n',
  }, /src\/model\/lazy\.ts:1: src\/model may not import src\/browser\/core\.ts/);
});

test('the package importing itself by name is refused', () => {
  assertRejected({
    'src/browser/self.ts': "import { lens } from 'pagelens/internal';\nexport const again = lens;\n",
  }, /src\/browser\/self\.ts:1: the package imports itself \("pagelens\/internal"\)/);
});

test('an import of a folder or package the DEPS.list does not allow is refused, in every form', () => {
  assertRejected({ 'src/model/up.ts': "export * from '../browser/core.js';\n" }, /src\/model may not import src\/browser\/core\.ts/);
  assertRejected({ 'src/model/req.ts': "const fs = require('node:fs');\nexport default fs;\n" }, /src\/model\/req\.ts:1: src\/model may not import node:\*/);
  assertRejected({ 'src/page/side.ts': "import 'playwright-core';\n" }, /src\/page may not import playwright-core/);
  // A commented-out import is no import.
  assert.equal(check({ 'src/model/c.ts': "// import '../browser/core.js';\n/* import('node:fs') */\nexport {};\n" }).code, 0);
});

test('a permission nobody uses is an error', () => {
  assertRejected({ 'src/browser/DEPS.list': 'src/model\nnode:*\nsharp\nclosed lens.ts\n' },
    /src\/browser\/DEPS\.list:3: "sharp" is allowed but nothing in src\/browser imports it; remove it/);
});

test('a file no DEPS.list governs is an error', () => {
  assertRejected({ 'src/host/port.ts': 'export {};\n' }, /src\/host\/port\.ts: no DEPS\.list governs this file/);
});

test('a closed file (the facade) is out of reach of its own folder', () => {
  assertRejected({ 'src/browser/feature.ts': "import type { lens } from './lens.js';\nexport type L = typeof lens;\n" },
    /src\/browser\/feature\.ts:1: src\/browser\/lens\.ts is closed to src\/browser's own files/);
});

test('an import cycle is refused, type-only imports included', () => {
  assertRejected({
    'src/browser/snapshot.ts': "import { artifact } from './artifacts.js';\nexport const snapshot = () => artifact();\n",
    'src/browser/artifacts.ts': "import type { snapshot } from './snapshot.js';\nexport const artifact = (s?: typeof snapshot) => s;\n",
  }, /import cycle: src\/browser\/(snapshot|artifacts)\.ts → src\/browser\/(artifacts|snapshot)\.ts → src\/browser\/\1\.ts/);
  assertRejected({
    'src/browser/core.ts': "import { take } from './snapshots.js';\nexport class Core { take = take; }\n",
    'src/browser/snapshots.ts': "import { read } from './read.js';\nexport const take = () => read();\n",
    'src/browser/read.ts': "import type { Core } from './core.js';\nexport const read = (c?: Core) => c;\n",
  }, /import cycle: src\/browser\/\w+\.ts → src\/browser\/\w+\.ts → src\/browser\/\w+\.ts → src\/browser\/\w+\.ts/);
});

/** A folder on floors: contracts at the bottom, the page model above it, acting and renderers side by side on top. */
const FLOORS: Record<string, string> = {
  'src/lib/DEPS.list': '# bottom first\nfloor contracts\nfloor pagemodel\nfloor acting renderers\n',
  'src/lib/contracts/DEPS.list': 'zod\n',
  'src/lib/contracts/schema.ts': "import { z } from 'zod';\nexport const Box = z.array(z.number());\n",
  'src/lib/pagemodel/DEPS.list': 'src/lib/contracts\n',
  'src/lib/pagemodel/page.ts': "import type { Box } from '../contracts/schema.js';\nexport type Page = { box: typeof Box };\n",
  'src/lib/acting/DEPS.list': 'src/lib/pagemodel\n',
  'src/lib/acting/verdict.ts': "import type { Page } from '../pagemodel/page.js';\nexport const ok = (p: Page) => !!p;\n",
  'src/lib/renderers/DEPS.list': 'src/lib/contracts\nsrc/lib/pagemodel\n',
  'src/lib/renderers/render.ts': "import type { Page } from '../pagemodel/page.js';\nimport type { Box } from '../contracts/schema.js';\nexport const render = (p: Page, b?: typeof Box) => String(p.box ?? b);\n",
};

test('a folder on floors: imports that run down pass', () => {
  const r = check(FLOORS);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /boundaries: 9 files/);
});

test('an import up a floor is refused, even where the lower floor\'s DEPS.list allows it', () => {
  assertRejected({
    ...FLOORS,
    'src/lib/contracts/DEPS.list': 'zod\nsrc/lib/pagemodel\n',
    'src/lib/contracts/host.ts': "import type { Page } from '../pagemodel/page.js';\nexport type Host = { page(): Page };\n",
  }, /src\/lib\/contracts\/host\.ts:1: src\/lib\/contracts \(floor 1\) imports src\/lib\/pagemodel\/page\.ts \(floor 2\): imports between the floors of src\/lib run down \(src\/lib\/DEPS\.list\)/);
  // The same import from a file two floors up into a re-export at the bottom is fine: only the direction counts.
  const down = check({ ...FLOORS, 'src/lib/acting/DEPS.list': 'src/lib/pagemodel\nsrc/lib/contracts\n', 'src/lib/acting/box.ts': "export type { Box } from '../contracts/schema.js';\n" });
  assert.equal(down.code, 0, down.out);
});

test('an import between two folders of one floor is refused (they stand beside each other)', () => {
  assertRejected({
    ...FLOORS,
    'src/lib/renderers/DEPS.list': 'src/lib/contracts\nsrc/lib/pagemodel\nsrc/lib/acting\n',
    'src/lib/renderers/diff.ts': "import { ok } from '../acting/verdict.js';\nexport const same = ok;\n",
  }, /src\/lib\/renderers\/diff\.ts:1: src\/lib\/renderers \(floor 3\) imports src\/lib\/acting\/verdict\.ts \(floor 3, beside it\)/);
});

test('every subfolder stands on one floor that exists, with a DEPS.list of its own, and no code lies beside the floors', () => {
  assertRejected({ ...FLOORS, 'src/lib/tasks/DEPS.list': '\n', 'src/lib/tasks/intent.ts': 'export {};\n' }, /src\/lib\/tasks stands on no floor of src\/lib\/DEPS\.list: put it on one/);
  assertRejected({ ...FLOORS, 'src/lib/DEPS.list': 'floor contracts\nfloor pagemodel tasks\nfloor acting renderers\n' }, /src\/lib\/DEPS\.list:2: floor 2 names src\/lib\/tasks, which is no folder/);
  assertRejected({ ...FLOORS, 'src/lib/DEPS.list': 'floor contracts\nfloor pagemodel\nfloor acting renderers pagemodel\n' }, /src\/lib\/pagemodel stands on two floors \(2 and 3\)/);
  const noList = Object.fromEntries(Object.entries(FLOORS).filter(([path]) => path !== 'src/lib/acting/DEPS.list'));
  assertRejected(noList, /src\/lib\/DEPS\.list:4: src\/lib\/acting is a floor but has no DEPS\.list of its own/);
  assertRejected({ ...FLOORS, 'src/lib/index.ts': "export * from './renderers/render.js';\n" }, /src\/lib\/index\.ts: lies beside the floors of src\/lib \(src\/lib\/DEPS\.list\): code goes in a floor/);
});

test('the model has a floor: its subfolders stand on the floors of src/model/DEPS.list, contracts alone at the bottom, and the repository keeps its rules', () => {
  const floors = readFileSync(join(ROOT, 'src/model/DEPS.list'), 'utf8').split('\n')
    .map((l) => l.replace(/#.*/, '').trim().split(/\s+/)).filter((w) => w[0] === 'floor').map((w) => w.slice(1));
  const folders = readdirSync(join(ROOT, 'src/model'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  assert.deepEqual(floors.flat().sort(), folders.sort());
  assert.deepEqual(floors[0], ['contracts']);
  assert.equal(readFileSync(join(ROOT, 'src/model/contracts/DEPS.list'), 'utf8').replace(/#.*/g, '').trim(), 'zod');
  // The tool registry knows no host: neither the CDP host nor Playwright, at any depth.
  const tools = readFileSync(join(ROOT, 'src/tools/DEPS.list'), 'utf8').replace(/#.*/g, '').split('\n').map((l) => l.trim());
  assert.ok(!tools.includes('src/browser') && !tools.includes('playwright-core'), tools.join(', '));
  assert.ok(tools.includes('never-reaches playwright-core'), tools.join(', '));
  const r = spawnSync(process.execPath, [SCRIPT, '--root', ROOT], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
});
