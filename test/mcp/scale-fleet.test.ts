// Browsers from a fleet and MCP on several replicas, with the real parts. `pagelens mcp
// --ws-endpoint` against a Playwright browser server the test starts: it acts by ID, the browser
// server dies, and the next call says which browser was lost, runs in a new connection and
// refuses the lost page's IDs. Two `pagelens mcp --port --store` replicas sharing a Redis: a
// request for one's session sent to the other is told which replica owns it, never handed a
// fresh, empty session.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request, type IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../src/browser/chromium.js';
import { exited, fleetMissing, freePort, mcpHaproxyConfig, startHaproxy, startRedis, type RedisServer } from '../../bench/fleet.js';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
const PAGE = 'data:text/html,<input aria-label="Name"><button onclick="this.textContent=\'Saved\'">Save</button>';

interface V3Node { i: string; r: string; n: string }
async function call(c: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await c.callTool({ name, arguments: args });
  const content = r.content as Array<{ type: string; text?: string }>;
  return { texts: content.filter((x) => x.type === 'text').map((x) => x.text!), isError: r.isError === true };
}
/** One POST on a connection of its own. */
function post(url: string, session: string | undefined, body: unknown): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(session && { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' }) } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
const idOf = (tree: V3Node[], name: string) => tree.find((n) => n.n === name)!.i;

test('--ws-endpoint: a browser server lost mid-session is named by the next call, which connects anew; old IDs are refused', async () => {
  const port = await freePort();
  const launch = () => chromium.launchServer({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true, port, wsPath: '/fleet-browser' });
  let server: BrowserServer = await launch();
  const client = new Client({ name: 'pagelens-test-fleet', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, '--ws-endpoint', server.wsEndpoint()], stderr: 'pipe' }));
  try {
    const opened = await call(client, 'browser_navigate', { url: PAGE });
    const tree = JSON.parse(opened.texts[0]).snapshot.interactive_tree as V3Node[];
    const save = idOf(tree, 'Save');
    const clicked = await call(client, 'browser_click', { id: save });
    assert.equal(clicked.isError, false, clicked.texts.join('\n'));

    await server.kill();
    server = await launch(); // the fleet's endpoint answers again, with another browser behind it

    const after = await call(client, 'browser_click', { id: save });
    const said = after.texts.join('\n');
    assert.match(said, /BROWSER_LOST: the Playwright browser server at ws:\/\/127\.0\.0\.1:\d+\/fleet-browser was lost/, said);
    assert.equal(after.isError, true, 'the lost page\'s ID names nothing in the new browser');
    const again = await call(client, 'browser_navigate', { url: PAGE });
    assert.equal(again.isError, false, again.texts.join('\n'));
    assert.doesNotMatch(again.texts.join('\n'), /BROWSER_LOST/, 'the loss is said once');
    const fresh = JSON.parse(again.texts[0]).snapshot.interactive_tree as V3Node[];
    assert.notEqual(idOf(fresh, 'Save'), save, 'the new page\'s IDs are new');
    assert.equal((await call(client, 'browser_click', { id: save })).isError, true, 'the old ID stays refused');
    assert.equal((await call(client, 'browser_click', { id: idOf(fresh, 'Save') })).isError, false);
  } finally {
    await client.close();
    await server.close();
  }
});

const missing = fleetMissing();
describe('pagelens mcp --store: each replica registers the sessions it owns', { skip: missing }, () => {
  let redis: RedisServer;
  const replicas: Array<{ name: string; port: number; url: string; child: ChildProcess }> = [];

  async function startMcp(name: string) {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'mcp', '--port', String(port), '--store', redis.url, '--replica', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr!.on('data', (d: Buffer) => { seen += d; if (/ready on/.test(seen)) resolve(); });
      child.once('exit', () => reject(new Error(`mcp ${name} exited: ${seen}`)));
    });
    const r = { name, port, url: `http://127.0.0.1:${port}/mcp`, child };
    replicas.push(r);
    return r;
  }

  before(async () => { redis = await startRedis(); });
  after(async () => {
    for (const r of replicas) { r.child.kill('SIGKILL'); await exited(r.child); }
    await redis?.close();
  });

  test('a request for a session owned by another replica names the owner; a dead owner is said gone', async () => {
    const [a, b] = await Promise.all([startMcp('mcp-A'), startMcp('mcp-B')]);
    const transport = new StreamableHTTPClientTransport(new URL(a.url));
    const client = new Client({ name: 'pagelens-test-owner', version: '0.0.0' });
    await client.connect(transport);
    const sid = transport.sessionId!;
    const misrouted = async (url: string) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }) });
      return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message };
    };
    const wrong = await misrouted(b.url);
    assert.equal(wrong.status, 421);
    assert.match(wrong.message, new RegExp(`lives on replica "mcp-A" \\(${a.url.replace(/[./]/g, '\\$&')}\\), not on "mcp-B"`));
    assert.ok((await client.listTools()).tools.length > 0, 'the owner still serves it');
    await client.close().catch(() => {});

    // Behind HAProxy with the stick table of docs/scale-out.md, every request of a session reaches
    // its owner, each on a new connection (one connection alone stays on its first server anyway).
    const lb = await startHaproxy([a, b], mcpHaproxyConfig);
    try {
      const init = await post(`${lb.url}/mcp`, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
      const id = init.headers['mcp-session-id'] as string;
      assert.equal(init.status, 200);
      assert.equal((await post(`${lb.url}/mcp`, id, { jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
      for (let j = 0; j < 4; j++) {
        const r = await post(`${lb.url}/mcp`, id, { jsonrpc: '2.0', id: 10 + j, method: 'tools/list' });
        assert.equal(r.status, 200, `request ${j} of the session: ${r.body}`);
      }
    } finally {
      await lb.close();
    }

    // Another session, whose owner dies: the heartbeat stops, and the other replica says so.
    const t2 = new StreamableHTTPClientTransport(new URL(a.url));
    const c2 = new Client({ name: 'pagelens-test-owner2', version: '0.0.0' });
    await c2.connect(t2);
    const sid2 = t2.sessionId!;
    a.child.kill('SIGKILL');
    await exited(a.child);
    const { Redis } = await import('ioredis');
    const peek = new Redis(redis.url);
    await peek.del('pagelens:mcp:replica:mcp-A'); // what the heartbeat's expiry does within 10 s
    peek.disconnect();
    const res = await fetch(b.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid2 }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.equal(res.status, 404);
    assert.match(((await res.json()) as { error: { message: string } }).error.message, /belonged to replica "mcp-A", which is gone/);
  });
});
