// The pagelens MCP server: every tool of the registry over stdio (or Streamable HTTP on
// 127.0.0.1), on the current tab of a launched or attached Chromium. Stdout belongs to the protocol, so
// every log goes to stderr; a tool that fails answers isError with its code, never a crash.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TEXT_LEGEND, V3_LEGEND } from '../model/pagemodel/roles.js';
import { EXPECT_HELP } from '../tools/act.js';
import { PAGE_CONTENT_RULE, toolDefinitions } from '../tools/dispatch.js';
import { runToolSafely } from '../browser/tools/registry.js';
import { CallDeadline } from '../tools/deadline.js';
import { DEFAULT_TOOLSET } from '../tools/toolset.js';
import type { ToolResult } from '../tools/types.js';
import { BrowserSession, type BrowserOptions } from './browser.js';
import { DEFAULT_IDLE_MS, DEFAULT_MAX_SESSIONS, contextIsShared, startMcpHttp, type McpHttpOptions } from './http.js';

/** What the server tells the model once (the legend of the answers it will read, the rules of the page's words). */
export function instructions(answers: 'text' | 'json' = 'text'): string {
  return [
    'pagelens: act on the current tab by element ID. browser_navigate answers with the page, page_snapshot reads it again. Actions answer with a verdict and the changes since the page state they name (+ added, - gone, ~ changed, by ID); a new document comes whole. IDs of a page that has gone are refused.',
    answers === 'json' ? V3_LEGEND : TEXT_LEGEND,
    EXPECT_HELP,
    PAGE_CONTENT_RULE,
  ].join('\n');
}

export interface McpServerOptions extends BrowserOptions {
  /** Streamable HTTP on 127.0.0.1 at this port instead of stdio. */
  port?: number;
  /** Token, session bounds and context sharing of the HTTP server. */
  http?: Omit<McpHttpOptions, 'port' | 'log'>;
  /** Seconds one tool call may take before it is answered TIMEOUT (default 60; see tools/deadline.ts). */
  callTimeoutS?: number;
  /** After a call ran out of time on a page that stopped answering, the next call replaces that tab by itself. */
  recoverStuckTabs?: boolean;
  /** The tools offered: groups and names (tools/toolset.ts; default ["core"], ["all"] for every tool). */
  tools?: readonly string[];
  /** Answers as compact text (default) or as their JSON payload, for a client that parses them. */
  answers?: 'text' | 'json';
}

const log = (msg: string) => process.stderr.write(`pagelens mcp: ${msg}\n`);

function toMcp(r: ToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: r.text }, ...(r.notes ?? []).map((text) => ({ type: 'text' as const, text })), ...(r.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType }))],
    ...(r.isError && { isError: true }),
  };
}

/** An MCP server (not yet connected) whose tools run on `session`. */
export function createMcpServer(session: BrowserSession, opts: Pick<McpServerOptions, 'callTimeoutS' | 'recoverStuckTabs' | 'tools' | 'answers'> = {}): Server {
  const server = new Server({ name: 'pagelens', version: '0.1.0' }, { capabilities: { tools: {} }, instructions: instructions(opts.answers) });
  const tools = toolDefinitions('mcp', { tools: opts.tools ?? DEFAULT_TOOLSET });
  const offered = new Set(tools.map((t) => t.name));
  // Uploads may read from the folders the client declares as its roots (asked for when needed).
  session.files.setRootsProvider(async () => server.getClientCapabilities()?.roots ? (await server.listRoots()).roots.map((r) => r.uri) : []);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  // One page, one call at a time: two actions interleaved on it would each see the other's effects.
  // Each call has a deadline, so that a call that never returns cannot hold this queue. The queue is
  // the browser session's: MCP sessions joined by one session key (sessionKeys.ts) take turns too.
  const deadline = new CallDeadline(opts.callTimeoutS);
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const run = (queues.get(session) ?? Promise.resolve()).then(async (): Promise<CallToolResult> => {
      try {
        const args = req.params.arguments ?? {};
        const recovered = opts.recoverStuckTabs ? await recoverStuckTab(session, deadline) : undefined;
        const r = await deadline.run(req.params.name, args, async () => runToolSafely(await session.lens(), req.params.name, args, { host: session, offered, ...(opts.answers && { answers: opts.answers }) }), () => session.unanswered());
        // A lost browser connection opened again (browser.ts watchConnection) is said once, on this answer.
        const reconnected = session.takeNotice();
        const noted = reconnected ? withNote(r, reconnected) : r;
        return toMcp(recovered ? withNote(noted, recovered) : noted);
      } catch (e) {
        // Only the browser failing to start gets here (runToolSafely answers everything else).
        const msg = e instanceof Error ? e.message : String(e);
        const code = (e as { code?: string }).code ?? 'INTERNAL';
        return { content: [{ type: 'text', text: `${code}: ${msg}` }], isError: true };
      }
    });
    queues.set(session, run.catch(() => {}));
    return run;
  });
  return server;
}

const queues = new WeakMap<BrowserSession, Promise<unknown>>();

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
const SAVE_ON_EXIT_MS = 5000;

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
    // The save on exit (--save-storage-state) gets time of its own (it is bounded in stateKeeper.ts).
    const grace = opts.saveStorageState ? SHUTDOWN_GRACE_MS + SAVE_ON_EXIT_MS : SHUTDOWN_GRACE_MS;
    const force = setTimeout(() => {
      log(`the browser did not close within ${grace} ms; exiting without it`);
      process.exit(0);
    }, grace);
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
