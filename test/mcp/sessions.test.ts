// Sessions that outlive their connection (issue 40), over `pagelens mcp --port` in-process: a client
// that reconnects with its Mcp-Session-Id finds its tab and IDs (an ID from before a navigation stays
// refused); a client that opens a new MCP session per call (LangChain's adapter) keeps one browser
// session by its Pagelens-Session-Key; and an attached browser (--cdp) whose connection drops is
// reconnected on the next call, which says so, with every ID from before refused, never re-bound.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CHROMIUM_ARGS, findChromium } from '../../src/browser/chromium.js';
import { BrowserSession } from '../../src/mcp/browser.js';
import { startMcpHttp, type McpHttpServer } from '../../src/mcp/http.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { SESSION_KEY_HEADER } from '../../src/mcp/sessionKeys.js';
import { call, idOf, ok, type CallResult } from '../support/state-helpers.js';

const html = (body: string) => `data:text/html,${encodeURIComponent(`<!doctype html><title>t</title>${body}`)}`;
const COUNTER = html('<button onclick="this.textContent = \'Clicked \' + (++window.n)">Press</button><script>window.n = 0</script>');
const OTHER = html('<p>Another page</p><button>Other</button>');
const FORM = html('<input aria-label="Name"><button onclick="document.getElementById(\'out\').textContent = \'Hello \' + document.querySelector(\'input\').value">Greet</button><p id="out"></p>');

const SERVER_OPTS = { answers: 'json' as const, tools: ['all'] };

/** The error code of a refused action, whichever way the answer carries it. */
function refusal(r: CallResult): string | undefined {
  return r.json?.action?.ok === false ? r.json.action.error?.code : r.json?.error?.code ?? /^([A-Z_]+):/.exec(r.text)?.[1];
}

describe('pagelens mcp --port: sessions across connections', () => {
  let http: McpHttpServer;
  before(async () => {
    http = await startMcpHttp({ offline: true }, { port: 0, maxSessions: 2 }, (session) => createMcpServer(session, SERVER_OPTS));
  });
  after(async () => { await http?.close(); });

  const connectWith = async (opts: ConstructorParameters<typeof StreamableHTTPClientTransport>[1] = {}) => {
    const transport = new StreamableHTTPClientTransport(new URL(http.url), opts);
    const client = new Client({ name: 'pagelens-sessions-test', version: '0.0.0' });
    await client.connect(transport);
    return { client, transport };
  };

  test('reconnecting with the Mcp-Session-Id: the ID from before works on the same document, one from before a navigation is refused', async () => {
    const first = await connectWith();
    await ok(first.client, 'browser_navigate', { url: COUNTER });
    const press = await idOf(first.client, 'Press');
    const sessionId = first.transport.sessionId!;
    // Gone without a goodbye (no DELETE): the session stays on the server.
    await first.client.close();
    const again = await connectWith({ sessionId });
    try {
      const clicked = await ok(again.client, 'browser_click', { id: press, expect: 'element_appears:Clicked 1' });
      assert.equal(clicked.json?.action?.ok, true, clicked.text);
      await ok(again.client, 'browser_navigate', { url: OTHER });
      assert.equal(refusal(await call(again.client, 'browser_click', { id: press })), 'NAVIGATED');
      await again.transport.terminateSession();
    } finally {
      await again.client.close();
    }
  });

  test('a new MCP session per call with one Pagelens-Session-Key completes a three-step task; stale IDs stay refused across calls', async () => {
    const key = randomUUID();
    // The LangChain adapter's way: connect, call one tool, leave (here without DELETE, so the server must make room).
    const once = async (name: string, args: Record<string, unknown> = {}) => {
      const { client } = await connectWith({ requestInit: { headers: { [SESSION_KEY_HEADER]: key } } });
      try { return await call(client, name, args); } finally { await client.close(); }
    };
    const opened = await once('browser_navigate', { url: FORM });
    const tree = opened.json?.snapshot?.interactive_tree ?? [];
    const name = tree.find((n) => n.n === 'Name')?.i;
    const greet = tree.find((n) => n.n === 'Greet')?.i;
    assert.ok(name && greet, opened.text);
    assert.equal((await once('browser_type', { id: name, text: 'Ada' })).json?.action?.ok, true);
    const done = await once('browser_click', { id: greet, expect: 'element_appears:Hello Ada' });
    assert.equal(done.json?.action?.ok, true, done.text);
    assert.ok(http.sessionCount() <= 2, `--max-sessions holds: ${http.sessionCount()} open`);
    await once('browser_navigate', { url: OTHER });
    assert.equal(refusal(await once('browser_click', { id: greet })), 'NAVIGATED');
    // Without the key, a client has a browser context of its own: none of the key's tabs.
    const { client: stranger } = await connectWith();
    try {
      const tabs = await ok(stranger, 'browser_tabs', { action: 'list' });
      assert.doesNotMatch(tabs.text, /Another page|data:text/);
    } finally {
      await stranger.close();
    }
    // A key too short to be a secret is refused before any session exists.
    const bad = await fetch(http.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', [SESSION_KEY_HEADER]: 'short' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }) });
    assert.equal(bad.status, 400);
  });
});

describe('an attached browser (--cdp) whose connection drops', () => {
  let profile: string;
  let chrome: ReturnType<typeof spawn>;
  let endpoint: string;
  const sockets = new Set<Socket>();
  let proxy: ReturnType<typeof createServer>;

  before(async () => {
    profile = mkdtempSync(join(tmpdir(), 'pagelens-reconnect-'));
    chrome = spawn(findChromium(), ['--headless', ...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    const direct = await new Promise<string>((resolve, reject) => {
      let err = '';
      chrome.stderr!.on('data', (d) => { err += d; const m = /DevTools listening on (ws:\/\/\S+)/.exec(err); if (m) resolve(m[1]!); });
      chrome.once('exit', () => reject(new Error(`chromium exited: ${err}`)));
    });
    const target = new URL(direct);
    // A loopback relay between pagelens and the browser: cutting it drops the connection, the browser lives on.
    proxy = createServer((down) => {
      const up = connect(Number(target.port), '127.0.0.1');
      for (const s of [down, up]) { sockets.add(s); s.on('close', () => sockets.delete(s)); s.on('error', () => {}); }
      down.pipe(up);
      up.pipe(down);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    endpoint = `ws://127.0.0.1:${(proxy.address() as { port: number }).port}${target.pathname}`;
  });
  after(async () => {
    proxy?.close();
    for (const s of sockets) s.destroy();
    if (chrome) {
      const exited = chrome.exitCode !== null ? Promise.resolve() : new Promise((r) => chrome.once('exit', r));
      try { process.kill(-chrome.pid!, 'SIGKILL'); } catch { /* gone already */ }
      await exited;
    }
    if (profile) rmSync(profile, { recursive: true, force: true, maxRetries: 50, retryDelay: 200 });
  });

  test('the next call reconnects and says so; IDs from before are refused, new ones work', async () => {
    const session = new BrowserSession({ cdp: endpoint });
    const server = createMcpServer(session, SERVER_OPTS);
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'pagelens-reconnect-test', version: '0.0.0' });
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      await ok(client, 'browser_navigate', { url: COUNTER });
      const press = await idOf(client, 'Press');
      const dropped = [...sockets].map((s) => new Promise((r) => s.once('close', r)));
      for (const s of sockets) s.destroy();
      await Promise.all(dropped);
      // The drop reaches pagelens's end of the socket a moment later: the call after that is "the next call".
      while (session.connected()) await new Promise((r) => setTimeout(r, 10));
      const first = await call(client, 'browser_click', { id: press });
      assert.match(first.text, /BROWSER_LOST: .* was lost .*reconnected/);
      assert.ok(refusal(first), `the old ID is refused: ${first.text}`);
      // The page of before is still open in the browser: select it; its old ID is still refused there.
      const tabs = await ok(client, 'browser_tabs', { action: 'list' });
      const line = tabs.text.split('\n').find((l) => l.includes(`<${COUNTER}>`));
      assert.ok(line, tabs.text);
      const index = Number(/^[ *] (\d+):/.exec(line)![1]);
      await ok(client, 'browser_tabs', { action: 'select', index });
      const old = await call(client, 'browser_click', { id: press });
      assert.ok(['NAVIGATED', 'STALE_ID', 'UNKNOWN_ID'].includes(refusal(old) ?? ''), `refused, not re-bound: ${old.text}`);
      const fresh = await idOf(client, 'Press');
      assert.notEqual(fresh, press);
      const clicked = await ok(client, 'browser_click', { id: fresh, expect: 'element_appears:Clicked 1' });
      assert.equal(clicked.json?.action?.ok, true, `only the new ID clicks, once: ${clicked.text}`);
    } finally {
      await client.close();
      await session.close();
    }
  });
});
