// Load on the negotiation backend: `pagelens serve` in its own process, autocannon sending the
// demo page's real semantic_v3 state (captured once from Chromium) as N sessions over C
// connections for D seconds. Reports throughput, latency p50/p99, errors and non-2xx answers,
// and the server's memory (RSS before, at the end, and its peak) — the sessions are bounded, so
// the memory must not grow with the number of requests.
//   Run: node dist/bench/load.js [--connections 50] [--sessions 50] [--duration 20]
//   (--sessions 1000000: nearly every request opens a new session, which tests the store's bound.)
// Then, when redis-server and haproxy are installed, the scale-out part (bench/scaleOut.ts):
// 1, 2 and 4 replicas behind HAProxy with Redis, and one killed halfway [--scale-duration 10]
// [--no-scale-out].
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../src/browser/chromium.js';
import { attach } from '../src/browser/lens.js';
import { serveFolder } from '../src/browser/static.js';
import { DEMO_TASK } from '../src/model/tasks/demo.js';
import { renderScaleOut, runScaleOut } from './scaleOut.js';

const BIN = fileURLToPath(new URL('../../bin/pagelens.js', import.meta.url));
const DEMO = fileURLToPath(new URL('../../assets/demo.html', import.meta.url));

const TOKEN = 'bench-load-token';

interface LoadOptions { connections: number; sessions: number; duration: number }

export interface LoadFigures {
  connections: number;
  sessions: number;
  durationS: number;
  requests: number;
  requestsPerS: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  bodyBytes: number;
  /** Server process memory (kB): before the load, at its end, and the peak (Linux /proc; null elsewhere). */
  serverKb: { before: number | null; after: number | null; peak: number | null };
}

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a positive integer`);
  return v;
}

function memoryKb(pid: number, field: 'VmRSS' | 'VmHWM'): number | null {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null; // not Linux: the figure is reported as unknown, not as zero
  }
}

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  // serve requires a token by default: the bench sends it as every client must.
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, PAGELENS_TOKEN: TOKEN } });
  return new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`pagelens serve did not start: ${err}`)), 20_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (\S+)/.exec(err);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1] }); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`pagelens serve exited (${code}): ${err}`)); });
  });
}

/** The request a client sends first on the demo page: its semantic_v3 state and the demo task. */
export async function demoRequest(): Promise<Record<string, unknown>> {
  const server = await serveFolder(dirname(DEMO));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url + basename(DEMO));
    const s = await (await attach(page)).snapshot({ mode: 'semantic_v3' });
    if (s.mode !== 'semantic_v3') throw new Error('expected semantic_v3');
    return { url: s.url, query: DEMO_TASK, domMode: 'semantic_v3', interactiveTree: s.interactive_tree, viewport: s.viewport, pageTitle: s.title, scrollPosition: s.scroll_position };
  } finally {
    await browser.close();
    await server.close();
  }
}

export async function runLoad(opts: LoadOptions): Promise<LoadFigures> {
  const base = await demoRequest();
  const { child, url } = await startServer();
  try {
    const pid = child.pid!;
    const before = memoryKb(pid, 'VmRSS');
    let n = 0;
    // The session ID goes last, so one template serves every session.
    const template = JSON.stringify({ ...base, sessionId: '' });
    const head = template.slice(0, template.length - 2);
    const body = (i: number) => `${head}load-${i}"}`;
    const r = await autocannon({
      url: `${url}/api/agent/interact`,
      connections: opts.connections,
      duration: opts.duration,
      requests: [{
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        // Round-robin over the sessions, so each one collects a history the store must bound.
        setupRequest: (req) => ({ ...req, body: body(n++ % opts.sessions) }),
      }],
    });
    return {
      connections: opts.connections, sessions: opts.sessions, durationS: opts.duration,
      requests: r.requests.total ?? r['2xx'] + r.non2xx, requestsPerS: Math.round(r.requests.average),
      latencyMs: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
      errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, bodyBytes: body(0).length,
      serverKb: { before, after: memoryKb(pid, 'VmRSS'), peak: memoryKb(pid, 'VmHWM') },
    };
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const f = await runLoad({ connections: argValue('connections', 50), sessions: argValue('sessions', 50), duration: argValue('duration', 20) });
  const mb = (kb: number | null) => (kb === null ? 'unknown' : `${Math.round(kb / 1024)} MB`);
  process.stdout.write(JSON.stringify(f, null, 2) + '\n');
  process.stderr.write(`load: ${f.sessions} sessions over ${f.connections} connections for ${f.durationS} s, ${f.bodyBytes}-byte semantic_v3 requests: `
    + `${f.requests} requests (${f.requestsPerS}/s), latency p50 ${f.latencyMs.p50} ms, p99 ${f.latencyMs.p99} ms, max ${f.latencyMs.max} ms; `
    + `${f.errors} errors, ${f.timeouts} timeouts, ${f.non2xx} non-2xx; server RSS ${mb(f.serverKb.before)} → ${mb(f.serverKb.after)} (peak ${mb(f.serverKb.peak)})\n`);
  if (f.errors || f.timeouts || f.non2xx) process.exitCode = 1;
  if (!process.argv.includes('--no-scale-out')) {
    const opts = { connections: argValue('connections', 50), sessions: argValue('sessions', 50), duration: argValue('scale-duration', 10), replicas: [1, 2, 4] };
    const runs = await runScaleOut(await demoRequest(), opts);
    if ('skipped' in runs) process.stderr.write(`scale-out skipped: ${runs.skipped}\n`);
    else {
      process.stderr.write(renderScaleOut(runs, opts) + '\n');
      if (runs.some((r) => r.lostSteps > 0 || (!r.killed && (r.errors || r.non2xx)))) process.exitCode = 1;
    }
  }
}
