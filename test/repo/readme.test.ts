// Every code block of README.md and docs/*.md is run, or is an output sample by the convention in
// test/support/readme-blocks.ts: scripts run as written (with `pagelens` resolving to this package), the
// commands of ```sh blocks and the `$ pagelens …` lines of transcripts run with the built CLI, JSON
// parses. MCP client configs are started from outside the repository by test/repo/package.test.ts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runProcess } from '../support/cli-helpers.js';
import { at, docBlocks, mcpServers, ROOT, scriptOf, shellCommands, transcriptCommands } from '../support/readme-blocks.js';

const blocks = docBlocks();

// Commands the pages show that this file does not run, and who runs them.
const RUN_ELSEWHERE: Record<string, string> = {
  'bash scripts/install.sh': 'CI runs it before the suite (.ci/run)',
  'npm test': 'it is this suite',
};


/**
 * A scratch copy of the clone's top level (symlinks), so commands run as in the clone and whatever
 * they write (a screenshot) lands outside the repository; `pagelens` on PATH is the built CLI.
 */
// These commands each start Chromium while other test files run beside them: on a loaded 2-core
// machine a fresh renderer has answered its first CDP command after more than the default 15 s.
const SLOW_MACHINE = { PAGELENS_CDP_TIMEOUT_MS: '60000' };

function scratchClone(): { cwd: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-readme-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const cwd = join(dir, 'pagelens');
  const bin = join(dir, 'bin');
  mkdirSync(cwd);
  mkdirSync(bin);
  for (const name of readdirSync(ROOT)) if (name !== '.git') symlinkSync(join(ROOT, name), join(cwd, name));
  symlinkSync(join(ROOT, 'bin/pagelens.js'), join(bin, 'pagelens'));
  return { cwd, env: { ...process.env, ...SLOW_MACHINE, PATH: `${bin}:${process.env.PATH}` } };
}

test('every code block of the README and docs/ follows the convention, and every JSON block parses', () => {
  assert.ok(blocks.length > 10, `only ${blocks.length} blocks found`);
  const kinds = new Set(blocks.map((b) => b.kind));
  for (const kind of ['script', 'commands', 'config', 'output'] as const) assert.ok(kinds.has(kind), `no ${kind} block`);
  for (const b of blocks.filter((x) => x.kind === 'config')) {
    assert.doesNotThrow(() => JSON.parse(b.code), `the JSON block at ${at(b)}`);
  }
  // The README is the front page: it shows each face once, and they all run.
  const readme = blocks.filter((b) => b.file === 'README.md');
  for (const kind of ['script', 'commands', 'config'] as const) assert.ok(readme.some((b) => b.kind === kind), `the README shows a ${kind} block`);
  assert.ok(readme.some((b) => b.kind === 'config' && mcpServers(b).length), 'the README shows an MCP client config');
});

test('every script of the README and docs/ runs as written and exits', { timeout: 300_000 }, async () => {
  const scripts = blocks.filter((b) => b.kind === 'script');
  assert.ok(scripts.length >= 3, 'the README\'s library example, the library guide\'s and the tools example');
  // Inside the package's folder, so that `import … from 'pagelens'` is the package itself.
  const dir = join(ROOT, 'dist/test/readme-run');
  mkdirSync(dir, { recursive: true });
  for (const b of scripts) {
    const file = join(dir, `${b.file.replace(/\W/g, '-')}-${b.line}-${process.pid}.mjs`);
    writeFileSync(file, await scriptOf(b));
    try {
      const r = await runProcess(process.execPath, [file], { cwd: tmpdir(), env: { ...process.env, ...SLOW_MACHINE }, timeoutMs: 120_000 });
      assert.equal(r.code, 0, `the ${b.lang} block at ${at(b)} failed:\n${r.stderr.slice(-2000)}`);
    } finally {
      rmSync(file, { force: true });
    }
  }
});

test('every command the README and docs/ show runs and succeeds (or is run by CI itself)', { timeout: 600_000 }, async () => {
  const { cwd, env } = scratchClone();
  const commands = blocks.flatMap((b) => (b.kind === 'commands' ? shellCommands(b.code) : b.kind === 'output' ? transcriptCommands(b.code) : []).map((c) => ({ c, where: at(b) })));
  assert.ok(commands.length >= 8, commands.map((x) => x.c).join('\n'));
  for (const { c, where } of commands) {
    if (RUN_ELSEWHERE[c]) continue;
    assert.match(c, /^(npx )?pagelens /, `${where}: "${c}" is neither a pagelens command nor one CI runs itself`);
    const r = await runProcess('sh', ['-c', c], { cwd, env, timeoutMs: 120_000 });
    assert.equal(r.code, 0, `${where}: ${c}\n${r.stderr.slice(-2000)}`);
  }
});
