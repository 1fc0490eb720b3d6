// The pagelens MCP server: every tool of the registry over stdio (or Streamable HTTP on
// 127.0.0.1), on the current tab of a launched or attached Chromium. Stdout belongs to the protocol, so
// every log goes to stderr; a tool that fails answers isError with its code, never a crash.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { V3_LEGEND } from '../model/roles.js';
import { runToolSafely, toolDefinitions } from '../tools/registry.js';
import type { ToolResult } from '../tools/types.js';
import { BrowserSession, type BrowserOptions } from './browser.js';
import { PAGE_CONTENT_RULE } from '../tools/registry.js';

export const INSTRUCTIONS = `pagelens: see and act on a live web page by element ID.
Start with page_snapshot (or dom_overview / snapshot_regions on big pages); act with browser_click, browser_type… by the ID "i" the snapshot gives.
Everything works on the current tab; browser_tabs lists, opens, selects and closes tabs (popups the site opens appear there).
Each action answers with what happened and a delta (elements added / removed / changed since the last tree you saw, by ID), not a whole snapshot; after a navigation it sends the new page's snapshot.
An ID from a page that has gone is refused with what to do: take a new snapshot.
${PAGE_CONTENT_RULE}
${V3_LEGEND}`;

export interface McpServerOptions extends BrowserOptions {
  /** Streamable HTTP on 127.0.0.1 at this port instead of stdio. */
  port?: number;
}

const log = (msg: string) => process.stderr.write(`pagelens mcp: ${msg}\n`);

function toMcp(r: ToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: r.text }, ...(r.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType }))],
    ...(r.isError && { isError: true }),
  };
}

/** An MCP server (not yet connected) whose tools run on `session`. */
export function createMcpServer(session: BrowserSession): Server {
  const server = new Server({ name: 'pagelens', version: '0.1.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const tools = toolDefinitions('mcp');
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  // One page, one call at a time: two actions interleaved on it would each see the other's effects.
  let queue: Promise<unknown> = Promise.resolve();
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const run = queue.then(async (): Promise<CallToolResult> => {
      try {
        const lens = await session.lens();
        return toMcp(await runToolSafely(lens, req.params.name, req.params.arguments ?? {}, { host: session }));
      } catch (e) {
        // Only the browser failing to start gets here (runToolSafely answers everything else).
        const msg = e instanceof Error ? e.message : String(e);
        const code = (e as { code?: string }).code ?? 'INTERNAL';
        return { content: [{ type: 'text', text: `${code}: ${msg}` }], isError: true };
      }
    });
    queue = run.catch(() => {});
    return run;
  });
  return server;
}

/** Runs the server until the client goes away (stdio) or the process is stopped (HTTP). */
export async function runMcpServer(opts: McpServerOptions): Promise<void> {
  const session = new BrowserSession(opts);
  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    log(`${why}; closing the browser`);
    await session.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('interrupted'));
  process.on('SIGTERM', () => void shutdown('terminated'));
  if (opts.port === undefined) {
    const server = createMcpServer(session);
    const transport = new StdioServerTransport();
    transport.onclose = () => void shutdown('client disconnected');
    process.stdin.on('end', () => void shutdown('stdin closed'));
    await server.connect(transport);
    log('ready on stdio');
    return;
  }
  await serveHttp(session, opts.port);
}

/** Streamable HTTP: one MCP session per client, all on the same page. */
async function serveHttp(session: BrowserSession, port: number): Promise<void> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http = createHttpServer((req, res) => {
    void (async () => {
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (!transport) {
        if (typeof sid === 'string') { res.writeHead(404).end('unknown MCP session'); return; }
        const t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => { transports.set(id, t); } });
        t.onclose = () => { if (t.sessionId) transports.delete(t.sessionId); };
        await createMcpServer(session).connect(t);
        transport = t;
      }
      await transport.handleRequest(req, res);
    })().catch((e) => {
      log(`request failed: ${(e as Error).message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => { http.once('error', reject); http.listen(port, '127.0.0.1', () => resolve()); });
  const addr = http.address();
  log(`ready on http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : port}/mcp`);
}
