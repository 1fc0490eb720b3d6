// `pagelens serve --save-trace DIR`: the offline agent runs against a real `pagelens serve`; its
// negotiation session is one archive (schema version 2, face serve), one step a round with what
// the planner was given, its o200k count and its answer; the action's outcome comes from the next
// round's report; the password the planner typed (and the task repeated) is in no byte of it; and
// `pagelens trace show` opens it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { readTrace } from '../../src/trace/readTrace.js';
import { readZip } from '../../src/trace/zip.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
const SECRET = 'tr0ub4dor-serve';

let tmp: string;
let serve: ChildProcess | undefined;
before(async () => { tmp = await mkdtemp(join(tmpdir(), 'pagelens-serve-trace-')); });
after(async () => {
  if (serve?.exitCode === null) serve.kill('SIGTERM');
  await rm(tmp, { recursive: true, force: true });
});

/** `pagelens serve` on a free port, its URL once it listens. */
function startServe(dir: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-auth', '--save-trace', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  serve = child;
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\S+)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`pagelens serve exited (${code}): ${err}`)));
  });
}

test('serve --save-trace: one archive a negotiation session, a step a round, the report of each action, no typed secret', { timeout: 30_000 }, async () => {
  const dir = join(tmp, 'traces');
  const url = await startServe(dir);
  const r = await runCli(['agent', `Enter the username "ada" and the password "${SECRET}" into the text fields and press login.`, '--url', join(FIXTURES, 'agent-signin-pair.html'), '--backend', url, '--max-steps', '6']);
  assert.equal(r.code, 0, r.stderr);
  const printed = [...r.stderr.matchAll(/^step (\d+) .* (\d+) tok/gm)].map((m) => Number(m[2]));
  // The done() answer ends the session: its archive is written then.
  let files: string[] = [];
  for (let i = 0; i < 100 && !files.length; i++) {
    files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith('.zip'));
    if (!files.length) await new Promise((res) => setTimeout(res, 50));
  }
  assert.equal(files.length, 1, 'one archive for the one session');
  const file = join(dir, files[0]);
  const { record } = await readTrace(file);
  assert.equal(record.meta.face, 'serve');
  assert.equal(record.meta.version, 2);
  assert.equal(record.end?.status, 'done');
  // A step a round (the heuristic planner asks for no context), with the count the agent printed for what it sent.
  assert.deepEqual(record.steps.map((s) => s.observation?.tokens), printed);
  for (const s of record.steps) {
    assert.equal(s.round?.n, s.step);
    assert.ok(s.observation?.text.startsWith('{"url":'), `step ${s.step}: what the planner was given`);
    assert.ok(s.action?.text, `step ${s.step}: the planner's answer`);
    assert.equal(s.screenshot, undefined);
  }
  const typed = record.steps.find((s) => s.masked.length);
  assert.ok(typed, 'the password the planner typed is said to be masked');
  assert.match(typed.action!.text, /\*\*\*/);
  assert.equal(record.steps[0].verdict.outcome, 'verified', 'the next round reported how the first action went');
  assert.equal(record.steps.at(-1)!.verdict.outcome, 'done');
  assert.match(record.meta.task ?? '', /\*\*\*/);
  const bytes = await readFile(file);
  assert.equal(bytes.includes(SECRET), false);
  for (const [name, data] of readZip(bytes).entries) assert.equal(data.includes(SECRET), false, `the secret is in ${name}`);
  const out = await runCli(['trace', 'show', file, '--out', join(tmp, 'view.html')]);
  assert.equal(out.code, 0, out.stderr);
  assert.match(await readFile(join(tmp, 'view.html'), 'utf8'), /negotiation session/);
});
