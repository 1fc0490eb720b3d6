// SIGTERM ends `pagelens mcp` within 2 s, whatever it is doing (issue 37): here a navigation to a
// page whose script never yields keeps a call at work in the browser when the signal comes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { test } from 'node:test';
import { BIN } from './mcp-parity-helpers.js';

/** A loopback page whose script loops for ever; `requested` settles when the browser asked for it. */
async function busyPage(): Promise<{ url: string; requested: Promise<void>; server: Server }> {
  let seen!: () => void;
  const requested = new Promise<void>((r) => { seen = r; });
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Busy</title><p>Busy</p><script>for (;;) {}</script>');
    if (req.url === '/busy') seen();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/busy`, requested, server };
}

test('SIGTERM in the middle of a busy call ends pagelens mcp within 2 s', { timeout: 120_000 }, async () => {
  const page = await busyPage();
  const child = spawn(process.execPath, [BIN, 'mcp', '--offline'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  try {
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'shutdown-test', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'browser_navigate', arguments: { url: page.url } } });
    await page.requested;
    const exited = once(child, 'exit');
    const t0 = performance.now();
    child.kill('SIGTERM');
    await exited;
    const ms = performance.now() - t0;
    assert.ok(ms < 2000, `pagelens mcp took ${Math.round(ms)} ms to exit after SIGTERM\n--- stderr ---\n${stderr}`);
  } finally {
    child.kill('SIGKILL');
    page.server.closeAllConnections();
    page.server.close();
  }
});
