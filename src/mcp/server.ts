// The pagelens MCP server: every tool of the registry over stdio (or Streamable HTTP on
// 127.0.0.1), on the current tab of a launched or attached Chromium. Stdout belongs to the protocol, so
// every log goes to stderr; a tool that fails answers isError with its code, never a crash.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { V3_LEGEND } from '../model/pagemodel/roles.js';
import { PAGE_CONTENT_RULE, toolDefinitions } from '../tools/dispatch.js';
import { runToolSafely } from '../browser/tools/registry.js';
import { CallDeadline } from '../tools/deadline.js';
import type { ToolResult } from '../tools/types.js';
import { BrowserSession, type BrowserOptions } from './browser.js';
import { DEFAULT_IDLE_MS, DEFAULT_MAX_SESSIONS, contextIsShared, startMcpHttp, type McpHttpOptions } from './http.js';

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
  /** Token, session bounds and context sharing of the HTTP server. */
  http?: Omit<McpHttpOptions, 'port' | 'log'>;
  /** Seconds one tool call may take before it is answered TIMEOUT (default 60; see tools/deadline.ts). */
  callTimeoutS?: number;
  /** After a call ran out of time on a page that stopped answering, the next call replaces that tab by itself. */
  recoverStuckTabs?: boolean;
}

const log = (msg: string) => process.stderr.write(`pagelens mcp: ${msg}\n`);

function toMcp(r: ToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: r.text }, ...(r.notes ?? []).map((text) => ({ type: 'text' as const, text })), ...(r.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType }))],
    ...(r.isError && { isError: true }),
  };
}

/** An MCP server (not yet connected) whose tools run on `session`. */
export function createMcpServer(session: BrowserSession, opts: Pick<McpServerOptions, 'callTimeoutS' | 'recoverStuckTabs'> = {}): Server {
  const server = new Server({ name: 'pagelens', version: '0.1.0' }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  const tools = toolDefinitions('mcp');
  // Uploads may read from the folders the client declares as its roots (asked for when needed).
  session.files.setRootsProvider(async () => server.getClientCapabilities()?.roots ? (await server.listRoots()).roots.map((r) => r.uri) : []);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  // One page, one call at a time: two actions interleaved on it would each see the other's effects.
  // Each call has a deadline, so that a call that never returns cannot hold this queue.
  let queue: Promise<unknown> = Promise.resolve();
  const deadline = new CallDeadline(opts.callTimeoutS);
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const run = queue.then(async (): Promise<CallToolResult> => {
      try {
        const args = req.params.arguments ?? {};
        const recovered = opts.recoverStuckTabs ? await recoverStuckTab(session, deadline) : undefined;
        const r = await deadline.run(req.params.name, args, async () => runToolSafely(await session.lens(), req.params.name, args, { host: session }), () => session.unanswered());
        return toMcp(recovered ? withNote(r, recovered) : r);
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

/** With a call given up on still at work: replaces the current tab when its page does not answer. */
async function recoverStuckTab(session: BrowserSession, deadline: CallDeadline): Promise<string | undefined> {
  if (!deadline.busy) return undefined;
  const stuck = await session.unanswered();
  return stuck ? session.replaceStuckTab(stuck) : undefined;
}

function withNote(r: ToolResult, note: string): ToolResult {
  return { ...r, notes: [note, ...(r.notes ?? [])] };
}

/** How long a stop signal waits for the browser to close before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 1500;

/** Runs the server until the client goes away (stdio) or the process is stopped (HTTP). */
export async function runMcpServer(opts: McpServerOptions): Promise<void> {
  let closeAll: () => Promise<void> = async () => {};
  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    log(`${why}; closing the browser`);
    // A browser that does not close (a renderer that stopped answering, a call at work on it)
    // must not keep the process: it ends within the bound whatever is still running.
    const force = setTimeout(() => {
      log(`the browser did not close within ${SHUTDOWN_GRACE_MS} ms; exiting without it`);
      process.exit(0);
    }, SHUTDOWN_GRACE_MS);
    await closeAll().catch((e: Error) => log(`closing failed: ${e.message.split('\n')[0]}`));
    clearTimeout(force);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('interrupted'));
  process.on('SIGTERM', () => void shutdown('terminated'));
  if (opts.port === undefined) {
    const session = new BrowserSession(opts);
    closeAll = () => session.close();
    const server = createMcpServer(session, opts);
    const transport = new StdioServerTransport();
    transport.onclose = () => void shutdown('client disconnected');
    process.stdin.on('end', () => void shutdown('stdin closed'));
    await server.connect(transport);
    log('ready on stdio');
    return;
  }
  const http = await startMcpHttp(opts, { ...opts.http, port: opts.port, log }, (session) => createMcpServer(session, opts));
  closeAll = () => http.close();
  log(`ready on ${http.url} (${describeHttpProtection(opts)})`);
}

/** What protects the HTTP server, said on start so the user knows what is on. */
function describeHttpProtection(opts: McpServerOptions): string {
  const h = opts.http ?? {};
  return [
    'Host and Origin checked (loopback only)',
    h.token !== undefined ? 'bearer token required' : 'no token (set PAGELENS_MCP_TOKEN to require one)',
    contextIsShared({ ...opts, ...h }) ? 'one browser context shared by all clients' : 'a browser context per client',
    `at most ${h.maxSessions ?? DEFAULT_MAX_SESSIONS} sessions, closed after ${Math.round((h.idleMs ?? DEFAULT_IDLE_MS) / 1000)} s idle`,
  ].join('; ');
}
