// The second adversarial pass (issue 38), `pagelens serve`: a token that is no token (`--token ""`
// ran with no authentication while saying "bearer token required"), and a task that is no task
// (an empty, blank or NUL query was answered 200 done("Done: 0 step carried out")).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { HeuristicPlanner } from '../../src/agent/heuristic.js';
import type { Planner } from '../../src/agent/planner.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
const REQUEST = { url: 'https://example.com', query: 'Click Save', domMode: 'semantic_v3', interactiveTree: [{ i: '1', r: 'btn', n: 'Save', xy: [10, 10] }] };

interface Ended { code: number | null; stderr: string; listening: boolean }

/**
 * `pagelens serve --port 0 …args` until it exits, or until it says it listens (then it is stopped:
 * a server that started is the failure this test is about).
 */
function serveUntilExitOrListening(args: string[], env: Record<string, string | undefined>): Promise<Ended> {
  return new Promise((resolve) => {
    // undefined: not set at all (an ambient PAGELENS_TOKEN must not decide the case).
    const full: NodeJS.ProcessEnv = { ...process.env, ...env };
    for (const [k, v] of Object.entries(full)) if (v === undefined) delete full[k];
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: full });
    let stderr = '';
    let listening = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!listening && /protection: .*\n/.test(stderr)) { listening = true; child.kill('SIGTERM'); }
    });
    child.once('exit', (code) => { clearTimeout(timer); resolve({ code, stderr, listening }); });
  });
}

async function post(s: RunningServer, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${s.url}/api/agent/interact`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

describe('pagelens serve: an empty token is refused, never "no authentication"', () => {
  test('--token "" and --token "   " (and PAGELENS_TOKEN of blanks) exit with BAD_INPUT before listening', async () => {
    const cases: Array<{ what: string; args: string[]; env: Record<string, string | undefined> }> = [
      { what: '--token ""', args: ['--token', ''], env: { PAGELENS_TOKEN: undefined } },
      { what: '--token "   "', args: ['--token', '   '], env: { PAGELENS_TOKEN: undefined } },
      { what: 'PAGELENS_TOKEN="  "', args: [], env: { PAGELENS_TOKEN: '  ' } },
    ];
    const results = await Promise.all(cases.map((c) => serveUntilExitOrListening(c.args, c.env)));
    for (const [i, r] of results.entries()) console.log(`${cases[i].what}: exit ${r.code}, listening ${r.listening}; stderr: ${r.stderr.trim().replace(/\n/g, ' | ')}`);
    for (const [i, r] of results.entries()) {
      assert.equal(r.listening, false, `${cases[i].what} started a server: ${r.stderr}`);
      assert.notEqual(r.code, 0, cases[i].what);
      assert.match(r.stderr, /^pagelens: BAD_INPUT: .*token.*(empty|blank)/im, `${cases[i].what}: ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /listening on/);
    }
  });

  test('startServer({ token: "" }) is refused: it never serves without authentication while saying a token is required', async () => {
    const planner = new HeuristicPlanner();
    for (const token of ['', ' \t ']) {
      let started: RunningServer | undefined;
      const outcome = await startServer({ port: 0, planner, token }).then(async (s) => {
        started = s;
        const r = await post(s, REQUEST);
        return `started (${s.protection}); a request without a token got ${r.status}`;
      }, (e: Error & { code?: string }) => `refused ${e.code}: ${e.message}`);
      await started?.close();
      console.log(`token ${JSON.stringify(token)}: ${outcome}`);
      assert.match(outcome, /^refused BAD_INPUT: .*token/, outcome);
    }
  });
});

describe('pagelens serve: a task that is no task is BAD_INPUT', () => {
  class CountingPlanner implements Planner {
    readonly name = 'counting';
    calls = 0;
    private readonly inner = new HeuristicPlanner();
    plan(...args: Parameters<Planner['plan']>) { this.calls++; return this.inner.plan(...args); }
  }

  test('a query of "", blanks, a NUL or invisible characters gets 400 BAD_INPUT with the reason; the planner is not asked', async () => {
    const planner = new CountingPlanner();
    const s = await startServer({ port: 0, planner, noAuth: true });
    try {
      const answers: Array<[string, { status: number; body: any }]> = [];
      for (const query of ['', '   ', '\t\n', '\u0000', ' \u0000 ', '\u200b\u200b', 'Click Save\u0000 and then the rest']) {
        answers.push([query, await post(s, { ...REQUEST, query })]);
      }
      for (const [q, a] of answers) console.log(`query ${JSON.stringify(q)}: ${a.status} ${JSON.stringify(a.body)}`);
      for (const [q, a] of answers) {
        assert.equal(a.status, 400, `query ${JSON.stringify(q)}: ${JSON.stringify(a.body)}`);
        assert.equal(a.body.error, 'BAD_INPUT');
        assert.match(a.body.message ?? a.body.issues?.map((i: { message: string }) => i.message).join('; ') ?? '', /\S/, 'the answer says why');
      }
      assert.equal(planner.calls, 0, 'no planning for an empty task');
      // A task is still a task.
      const ok = await post(s, REQUEST);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(planner.calls, 1);
    } finally {
      await s.close();
    }
  });
});
