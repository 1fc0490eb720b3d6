// Shared by the mcp-parity tests: a `pagelens mcp` child driven by the SDK's own Client over
// stdio, the fixtures on a loopback server, and a loopback server answering any HTTP status.
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from './mcp-shape.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { FIXTURES } from './harness.js';

export const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');

export interface V3Node { i: string; r: string; n: string; v?: string }
export interface Answer {
  action?: { ok: boolean; action: string; detail?: string; warnings?: string[]; error?: { code: string; message: string } };
  modal?: Array<{ kind: string; type?: string; message?: string }>;
  delta?: { added: V3Node[]; removed: string[]; changed: Array<{ i: string; n?: string; v?: string }> } | 'no changes';
  snapshot?: { url: string; interactive_tree: V3Node[] };
  text?: string[];
  navigated?: { url: string; status?: number };
  console?: string[];
  failedRequests?: string[];
  popup?: { url: string; note: string };
  downloads?: Array<{ file: string; savedTo?: string; bytes?: number; notSaved?: string }>;
  note?: string;
}
export interface CallResult { text: string; isError: boolean; images: Array<{ data: string; mimeType: string }> }

export class McpClient {
  private constructor(readonly client: Client) {}

  static async start(args: string[] = ['--offline']): Promise<McpClient> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, ...args], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'pagelens-parity-test', version: '0.0.0' });
    await client.connect(transport);
    return new McpClient(client);
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
    const r = await this.client.callTool({ name, arguments: args });
    const content = r.content as Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
    return {
      text: content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
      isError: r.isError === true,
      images: content.filter((c) => c.type === 'image').map((c) => ({ data: c.data!, mimeType: c.mimeType! })),
    };
  }

  /** A call that must succeed, its JSON answer parsed. */
  async answer(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
    const r = await this.call(name, args);
    assert.equal(r.isError, false, `${name} failed: ${r.text}`);
    return JSON.parse(r.text) as Answer;
  }

  async tree(): Promise<V3Node[]> {
    const r = await this.call('page_snapshot');
    assert.equal(r.isError, false, r.text);
    return (JSON.parse(r.text) as { interactive_tree: V3Node[] }).interactive_tree;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

export function idOf(nodes: readonly V3Node[], name: string | RegExp, role?: string): string {
  const n = nodes.find((x) => (typeof name === 'string' ? x.n === name : name.test(x.n)) && (!role || x.r === role));
  assert.ok(n, `no ${role ?? 'element'} ${name} in ${JSON.stringify(nodes)}`);
  return n.i;
}

/** The name an element has now, from a delta's change ("old → new") or the tree. */
export function changedName(a: Answer, id: string): string | undefined {
  if (!a.delta || a.delta === 'no changes') return undefined;
  return a.delta.changed.find((c) => c.i === id)?.n?.split(' → ')[1];
}

/** http://127.0.0.1:PORT/status/N answers N with a small HTML page saying so; /app is a page whose Save answers 500. */
export async function statusServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>App</title><img src="/status/200?logo.png" alt="">
        <button onclick="fetch('/status/500?save', { method: 'POST' }).then((r) => { this.textContent = 'Save answered ' + r.status; })">Save</button>
        <a href="/slow/1500" target="_blank">Open a slow popup</a>`);
      return;
    }
    // A page that answers late (a popup whose tab is ready only then).
    const slow = /^\/slow\/(\d+)$/.exec(req.url ?? '');
    if (slow) {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Slow</title><h1>A page that answered late</h1>');
      }, Number(slow[1]));
      return;
    }
    const m = /^\/status\/(\d{3})/.exec(req.url ?? '');
    const status = m ? Number(m[1]) : 404;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Status ${status}</title><h1>This page answered ${status}</h1><a href="/status/200">Home</a>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * The fixtures on two origins (127.0.0.1 and localhost, so their frames are cross-origin; pages
 * name them as {{ORIGIN_A}} and {{ORIGIN_B}}) and a `pagelens mcp` client.
 */
export async function twoOriginsAndMcp(args: string[] = ['--offline']): Promise<{ mcp: McpClient; a: StaticServer; b: StaticServer; close(): Promise<void> }> {
  const replacements: Record<string, string> = {};
  const a = await serveFolder(FIXTURES, { replacements });
  const b = await serveFolder(FIXTURES, { host: 'localhost', replacements });
  replacements['{{ORIGIN_A}}'] = a.url.slice(0, -1);
  replacements['{{ORIGIN_B}}'] = b.url.slice(0, -1);
  const mcp = await McpClient.start(args);
  return { mcp, a, b, close: async () => { await mcp.close(); await a.close(); await b.close(); } };
}

/** The fixtures on one origin and a `pagelens mcp` client allowed to upload from a scratch folder of its own. */
export async function siteAndMcpWithUploads(): Promise<{ mcp: McpClient; site: StaticServer; tmp: string; close(): Promise<void> }> {
  const site = await serveFolder(FIXTURES, { replacements: {} });
  const tmp = await mkdtemp(join(tmpdir(), 'pagelens-parity-'));
  const mcp = await McpClient.start(['--offline', '--upload-dir', tmp]);
  return { mcp, site, tmp, close: async () => { await mcp.close(); await site.close(); await rm(tmp, { recursive: true, force: true }); } };
}
