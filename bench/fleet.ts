// The real parts of a scale-out, started on loopback ports for the tests and the bench: Debian's
// redis-server (persistent, so a stopped store comes back with its sessions), `pagelens serve`
// replicas as child processes, and Debian's haproxy in front of them. Each start waits on a
// condition (a line printed, a port answering), never on a sleep.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../bin/pagelens.js');

/** Why the scale-out parts cannot run here (a program missing), or undefined when they can. */
export function fleetMissing(): string | undefined {
  for (const [program, pkg] of [['redis-server', 'redis-server'], ['haproxy', 'haproxy']]) {
    if (spawnSync(program, ['-v'], { stdio: 'ignore' }).error) return `${program} is not installed (apt-get install ${pkg}; scripts/install.sh does it)`;
  }
  return undefined;
}

/** A port free just now (the programs below take a port number, not 0). */
export async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Resolves once `child` printed a line matching `re` on stdout or stderr, with the match; rejects if it exits first. */
function waitForLine(child: ChildProcess, re: RegExp, what: string, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => { cleanup(); reject(new Error(`${what} did not start within ${timeoutMs} ms: ${seen.slice(-500)}`)); }, timeoutMs);
    const onData = (d: Buffer) => {
      seen += d.toString();
      const m = re.exec(seen);
      if (m) { cleanup(); resolve(m); }
    };
    const onExit = (code: number | null) => { cleanup(); reject(new Error(`${what} exited (${code}) before it was ready: ${seen.slice(-500)}`)); };
    const cleanup = () => { clearTimeout(timer); child.stdout?.off('data', onData); child.stderr?.off('data', onData); child.off('exit', onExit); };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Resolves when `child` has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

/** Resolves when something accepts connections on the port. */
async function portOpen(port: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((r) => {
      const c = connect(port, '127.0.0.1');
      c.once('connect', () => { c.destroy(); r(true); });
      c.once('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops it (SIGTERM: it writes its append-only file first, so a start() brings the sessions back). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'pagelens-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes', '--protected-mode', 'yes'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForLine(child, /Ready to accept connections/, 'redis-server');
  };
  const stop = async () => { if (child) { child.kill('SIGTERM'); await exited(child); child = undefined; } };
  await start();
  return { url: `redis://127.0.0.1:${port}/0`, port, start, stop, close: async () => { await stop(); await rm(dir, { recursive: true, force: true }); } };
}

export interface Replica {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  /** SIGKILL: a replica that dies, not one that shuts down. */
  kill(): Promise<void>;
}

/** `pagelens serve` with its sessions in `store`, on a loopback port of its own. */
export async function startReplica(name: string, store: string, token: string, extra: string[] = []): Promise<Replica> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--store', store, '--replica', name, '--quiet', ...extra], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PAGELENS_TOKEN: token } });
  const m = await waitForLine(child, /listening on (http:\/\/127\.0\.0\.1:(\d+))/, `pagelens serve ${name}`);
  return { name, url: m[1], port: Number(m[2]), child, kill: async () => { child.kill('SIGKILL'); await exited(child); } };
}

export interface Balancer {
  url: string;
  port: number;
  config: string;
  close(): Promise<void>;
}

/** What both configurations below start with: limits and HTTP mode, the timeouts of a request. */
const HAPROXY_PREAMBLE = `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
`;

/**
 * The HAProxy configuration the tests and the bench run, as docs/scale-out.md shows it. Serve
 * replicas share their sessions, so any of them may answer: round robin. Replicas bound to
 * loopback check that Host names them, so each server is named by its address and HAProxy sends
 * that name as Host (a fleet on a network binds --host 0.0.0.0 with a token instead).
 */
export function haproxyConfig(port: number, backends: Array<{ port: number }>): string {
  return `${HAPROXY_PREAMBLE}  # A replica that refuses the connection (killed, restarting): the request goes to another.
  retries 2
  option redispatch

frontend pagelens
  bind 127.0.0.1:${port}
  default_backend serve

backend serve
  balance roundrobin
  http-send-name-header Host
${backends.map((b) => `  server 127.0.0.1:${b.port} 127.0.0.1:${b.port} check inter 500ms fall 1 rise 2`).join('\n')}
`;
}

/**
 * For `pagelens mcp --port` replicas: each MCP session's browser context lives in one process, so
 * a session sticks to the replica that answered its initialize. The stick table learns the
 * Mcp-Session-Id from that answer and routes every later request carrying it to the same server.
 */
export function mcpHaproxyConfig(port: number, backends: Array<{ port: number }>): string {
  return `${HAPROXY_PREAMBLE}  # The client's standing event stream (GET /mcp) may stay open and quiet for long.
  timeout tunnel 1h

frontend mcp
  bind 127.0.0.1:${port}
  default_backend mcp

backend mcp
  balance roundrobin
  http-send-name-header Host
  stick-table type string len 64 size 100k expire 30m
  stick on req.hdr(mcp-session-id)
  stick store-response res.hdr(mcp-session-id)
${backends.map((b) => `  server 127.0.0.1:${b.port} 127.0.0.1:${b.port} check inter 500ms fall 1 rise 2`).join('\n')}
`;
}

export async function startHaproxy(backends: Array<{ port: number }>, config: (port: number, backends: Array<{ port: number }>) => string = haproxyConfig): Promise<Balancer> {
  const dir = await mkdtemp(join(tmpdir(), 'pagelens-haproxy-'));
  const port = await freePort();
  const text = config(port, backends);
  const file = join(dir, 'haproxy.cfg');
  await writeFile(file, text);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let failed = '';
  child.stderr.on('data', (d: Buffer) => { failed += d.toString(); });
  await Promise.race([portOpen(port), exited(child).then(() => { throw new Error(`haproxy exited: ${failed.slice(-500)}`); })]);
  return {
    url: `http://127.0.0.1:${port}`, port, config: text,
    close: async () => { child.kill('SIGTERM'); await exited(child); await rm(dir, { recursive: true, force: true }); },
  };
}
