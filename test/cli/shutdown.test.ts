// SIGTERM ends `pagelens mcp` within 2 s, whatever it is doing (issue 37): a navigation to a page
// whose script never yields keeps a call at work in the browser when the signal comes; an extract
// schema whose pattern backtracks polynomially kept Node's own event loop busy (the signal was
// never handled, and the process needed SIGKILL).
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { test } from 'node:test';
import { BIN } from '../support/mcp-parity-helpers.js';

/** A loopback page (`/busy` loops for ever, `/text` holds a text a polynomial pattern chokes on); `requested` settles when the browser asked for `/busy`. */
async function busyPage(): Promise<{ url: string; requested: Promise<void>; server: Server }> {
  let seen!: () => void;
  const requested = new Promise<void>((r) => { seen = r; });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    if (req.url === '/text') return res.end(`<!doctype html><title>Order</title><main><h1>Order</h1><p>Code: ${'a'.repeat(70)}b</p></main>`);
    res.end('<!doctype html><title>Busy</title><p>Busy</p><script>for (;;) {}</script>');
    if (req.url === '/busy') seen();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/busy`, requested, server };
}

/** `pagelens mcp` as a child speaking JSON-RPC on its stdin, and a promise of each answer by id. */
function startMcp(): { child: ReturnType<typeof spawn>; send(msg: object): void; answer(id: number): Promise<string>; stderr(): string } {
  const child = spawn(process.execPath, [BIN, 'mcp', ...LEGACY_SHAPE, '--offline'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  const answer = async (id: number) => {
    for (;;) {
      const line = out.split('\n').find((l) => l.includes(`"id":${id},`) || l.includes(`"id":${id}}`));
      if (line) return line;
      await once(child.stdout!, 'data');
    }
  };
  const send = (msg: object) => child.stdin!.write(`${JSON.stringify(msg)}\n`);
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'shutdown-test', version: '0' } } });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { child, send, answer, stderr: () => err };
}

/** Sends SIGTERM and checks the process is gone within 2 s. */
async function exitsOnSigterm(child: ReturnType<typeof spawn>, stderr: () => string): Promise<void> {
  const exited = once(child, 'exit');
  const t0 = performance.now();
  child.kill('SIGTERM');
  await exited;
  const ms = performance.now() - t0;
  assert.ok(ms < 2000, `pagelens mcp took ${Math.round(ms)} ms to exit after SIGTERM\n--- stderr ---\n${stderr()}`);
}

test('SIGTERM during an extract whose schema pattern backtracks polynomially ends pagelens mcp within 2 s', { timeout: 120_000 }, async () => {
  const page = await busyPage();
  const { child, send, answer, stderr } = startMcp();
  try {
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'browser_navigate', arguments: { url: page.url.replace('/busy', '/text') } } });
    await answer(2);
    const schema = JSON.stringify({ type: 'object', properties: { code: { type: 'string', pattern: '^a*a*a*a*a*a*a*a*$' } }, required: ['code'] });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'extract', arguments: { instruction: 'the order code', schema } } });
    // The call is under way (the server has read it) before the signal comes.
    await new Promise((r) => setTimeout(r, 1000));
    await exitsOnSigterm(child, stderr);
  } finally {
    child.kill('SIGKILL');
    page.server.closeAllConnections();
    page.server.close();
  }
});

test('SIGTERM in the middle of a busy call ends pagelens mcp within 2 s', { timeout: 120_000 }, async () => {
  const page = await busyPage();
  const { child, send, stderr } = startMcp();
  try {
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'browser_navigate', arguments: { url: page.url } } });
    await page.requested;
    await exitsOnSigterm(child, stderr);
  } finally {
    child.kill('SIGKILL');
    page.server.closeAllConnections();
    page.server.close();
  }
});

test('SIGTERM while pagelens serve waits on its planner ends it within 2 s', { timeout: 120_000 }, async () => {
  // A model endpoint that takes the request and never answers.
  let asked!: () => void;
  const planning = new Promise<void>((r) => { asked = r; });
  const llm = createServer(() => { asked(); });
  llm.listen(0, '127.0.0.1');
  await once(llm, 'listening');
  const llmPort = (llm.address() as { port: number }).port;
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--no-auth', '--planner', 'openai'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OPENAI_BASE_URL: `http://127.0.0.1:${llmPort}/v1`, OPENAI_API_KEY: 'test-key' },
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  try {
    while (!/listening on http:\/\/127\.0\.0\.1:\d+/.test(err)) await once(child.stderr!, 'data');
    const port = Number(/listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err)![1]);
    const request = { url: 'https://example.com', query: 'Click Save', domMode: 'semantic_v3', interactiveTree: [{ i: '1', r: 'btn', n: 'Save', xy: [10, 10] }] };
    void fetch(`http://127.0.0.1:${port}/api/agent/interact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) }).catch(() => {});
    await planning;
    await exitsOnSigterm(child, () => err);
  } finally {
    child.kill('SIGKILL');
    llm.closeAllConnections();
    llm.close();
  }
});
