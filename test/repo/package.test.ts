// pagelens as a user gets it: `npm pack`, installed into a scratch project outside the repository,
// and run from there — the demo, the MCP server as the docs' client configs start it (tools
// listed over stdio), and the scripts of the README and docs/. The tarball holds what users run and nothing else.
//
// The install is offline: the scratch project's lockfile pins every dependency to the version the
// repository's own lockfile resolved, so `npm ci --offline` takes them from the npm cache that the
// repository's install filled (no registry is asked).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runProcess } from '../support/cli-helpers.js';
import { at, docBlocks, mcpServers, PACKAGE_PLACEHOLDER, ROOT, scriptOf } from '../support/readme-blocks.js';

const exec = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface PackageJson { name: string; version: string; license: string; dependencies: Record<string, string>; bin: Record<string, string>; engines?: Record<string, string> }
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

let scratch: string;
let packed: string[];
let installed: string;
let binDir: string;

/** The scratch project's lockfile: the package from the tarball, its dependencies as the repository's lockfile has them. */
function scratchLock(tarball: string): object {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  const packages: Record<string, object> = {
    '': { name: 'scratch', dependencies: { [manifest.name]: `file:${tarball}` } },
    [`node_modules/${manifest.name}`]: { version: manifest.version, resolved: `file:${tarball}`, license: manifest.license, dependencies: manifest.dependencies, bin: manifest.bin, engines: manifest.engines },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path || entry.dev) continue;
    const { devOptional: _, ...kept } = entry;
    packages[path] = kept;
  }
  return { name: 'scratch', lockfileVersion: 3, requires: true, packages };
}

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'pagelens-package-'));
  assert.ok(relative(ROOT, scratch).startsWith('..'), 'the scratch project is outside the repository');
  // --ignore-scripts: the test packs the build it runs in (prepack would rebuild dist/ under the other tests).
  const { stdout } = await exec(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: ROOT, maxBuffer: 16 << 20 });
  const [info] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  packed = info.files.map((f) => f.path);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module', dependencies: { [manifest.name]: `file:${info.filename}` } }, null, 2));
  writeFileSync(join(scratch, 'package-lock.json'), JSON.stringify(scratchLock(info.filename), null, 2));
  try {
    await exec(NPM, ['ci', '--offline', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: scratch, maxBuffer: 16 << 20 });
  } catch (e) {
    const said = (e as { stderr?: string }).stderr ?? String(e);
    throw new Error(`installing the tarball offline failed; the npm cache must hold the dependencies (run npm ci in the repository first):\n${said.slice(-1500)}`);
  }
  installed = join(scratch, 'node_modules', manifest.name);
  binDir = join(scratch, 'node_modules', '.bin');
});
after(() => { if (scratch) rmSync(scratch, { recursive: true, force: true }); });


test('the tarball holds what users run (bin, compiled sources, the demo page, LICENSE, README) and nothing else', () => {
  for (const needed of ['package.json', 'README.md', 'LICENSE', 'bin/pagelens.js', 'assets/demo.html', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/src/cli/main.js', 'dist/src/browser/engineSource.generated.js']) {
    assert.ok(packed.includes(needed), `${needed} is in the tarball`);
  }
  const stray = packed.filter((p) => !/^(package\.json|README\.md|LICENSE|bin\/pagelens\.js|assets\/demo\.html)$/.test(p) && !/^dist\/src\/(?!page\/)/.test(p));
  assert.deepEqual(stray, [], 'no tests, benchmarks, sources, fixtures or page-engine modules (the engine ships bundled)');
  assert.match(readFileSync(join(installed, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) \d{4} pagelens contributors\n/);
});

test('pagelens demo runs from the installed package, agent included', { timeout: 180_000 }, async () => {
  const r = await runProcess(join(binDir, 'pagelens'), ['demo'], { cwd: scratch, timeoutMs: 120_000 });
  assert.equal(r.code, 0, r.stderr);
  const payload = JSON.parse(r.stdout) as { mode: string; title: string; interactive_tree: unknown[] };
  assert.equal(payload.mode, 'semantic_v3');
  assert.equal(payload.title, 'Acme Outfitters — Checkout');
  assert.ok(payload.interactive_tree.length > 10);
  assert.match(r.stderr, /^pagelens agent: done — .*; verified$/m);
  const version = await runProcess(join(binDir, 'pagelens'), ['--version'], { cwd: scratch });
  assert.equal(version.stdout, `${manifest.version}\n`);
});

test('the MCP client configs of the README and docs/ start the server from outside the repository, and it lists its tools', { timeout: 180_000 }, async () => {
  const configs = docBlocks().filter((b) => b.kind === 'config').flatMap((b) => mcpServers(b).map((s) => ({ ...s, where: at(b) })));
  assert.ok(configs.length >= 2, 'a global-install config and an absolute-path config');
  // A global install puts `pagelens` on PATH; the scratch project's .bin is the same link to the
  // installed package. The client starts the server in a folder that has nothing of pagelens (as an
  // MCP client does), and npm may not fetch anything (a registry package of that name is not ours).
  const env = { ...process.env, PATH: `${binDir}:${process.env.PATH}`, npm_config_offline: 'true' } as Record<string, string>;
  const elsewhere = mkdtempSync(join(tmpdir(), 'pagelens-elsewhere-'));
  after(() => rmSync(elsewhere, { recursive: true, force: true }));
  for (const server of configs) {
    const args = server.args.map((a) => a.replace(PACKAGE_PLACEHOLDER, installed));
    const transport = new StdioClientTransport({ command: server.command, args, env, cwd: elsewhere, stderr: 'ignore' });
    const client = new Client({ name: 'pagelens-package-test', version: '0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ['page_snapshot', 'browser_navigate', 'browser_click', 'browser_type']) assert.ok(names.includes(name), `${server.where}: ${server.command} ${args.join(' ')} lists ${name}`);
    } finally {
      await client.close();
    }
  }
});

test('the scripts of the README and docs/ run from the scratch project against the installed package', { timeout: 300_000 }, async () => {
  const scripts = docBlocks().filter((b) => b.kind === 'script');
  assert.ok(scripts.length >= 1);
  for (const b of scripts) {
    const file = join(scratch, `${b.file.replace(/\W/g, '-')}-${b.line}.mjs`);
    writeFileSync(file, await scriptOf(b));
    const r = await runProcess(process.execPath, [file], { cwd: scratch, timeoutMs: 120_000 });
    assert.equal(r.code, 0, `the ${b.lang} block at ${at(b)}:\n${r.stderr.slice(-2000)}`);
  }
});
