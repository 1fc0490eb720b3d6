// The pagelens MCP server: every tool of the registry over stdio (or Streamable HTTP on
// 127.0.0.1), on the current tab of a launched or attached Chromium. Stdout belongs to the protocol, so
// every log goes to stderr; a tool that fails answers isError with its code, never a crash.
import { withinCall, type CallScope } from '../browser/callScope.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TEXT_LEGEND, V3_LEGEND } from '../model/pagemodel/roles.js';
import { EXPECT_HELP } from '../tools/input/act.js';
import { PAGE_CONTENT_RULE, toolDefinitions } from '../tools/registry/dispatch.js';
import { runToolSafely } from '../browser/tools/runTool.js';
import { CallDeadline, deadlineSeconds } from '../tools/registry/deadline.js';
import { DEFAULT_TOOLSET } from '../tools/registry/toolset.js';
import type { ToolResult } from '../tools/registry/types.js';
import { BrowserSession, type BrowserOptions } from './browser.js';
import type { McpTrace } from '../trace/mcpTrace.js';
import { PageTools, isPageToolName } from './pageTools.js';
import { hostname } from 'node:os';
import { DEFAULT_IDLE_MS, DEFAULT_MAX_SESSIONS, contextIsShared, startMcpHttp, type McpHttpOptions } from './http.js';

/** What the server tells the model once (the legend of the answers it will read, the rules of the page's words). */
export function instructions(answers: 'text' | 'json' = 'text'): string {
  return [
    'pagelens: act by element ID. An action answers with a verdict and what changed since the named state (+ added, ~ changed, - gone); a new document comes whole and old IDs are refused.',
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
  /** Record every session into an archive in this folder, one step a tool call (src/trace/mcpTrace.ts). */
  saveTrace?: string;
  /** With saveTrace: a Playwright trace beside each archive, written when its browser session closes (playwrightTraces.ts). */
  playwrightTraces?: boolean;
  /** With port: the store replicas share (redis://…), where each registers the sessions it owns. */
  store?: string;
  /** With store: this replica's name (default host:pid). */
  replica?: string;
}

const log = (msg: string) => process.stderr.write(`pagelens mcp: ${msg}\n`);

function toMcp(r: ToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: r.text }, ...(r.notes ?? []).map((text) => ({ type: 'text' as const, text })), ...(r.images ?? []).map((i) => ({ type: 'image' as const, data: i.data, mimeType: i.mimeType }))],
    ...(r.isError && { isError: true }),
  };
}

/** An MCP server (not yet connected) whose tools run on `session`. */
export function createMcpServer(session: BrowserSession, opts: Pick<McpServerOptions, 'callTimeoutS' | 'recoverStuckTabs' | 'tools' | 'answers' | 'playwrightTraces'> & { trace?: McpTrace } = {}): Server {
  const tools = toolDefinitions('mcp', { tools: opts.tools ?? DEFAULT_TOOLSET });
  const offered = new Set(tools.map((t) => t.name));
  // With the webmcp group, the page's own tools are listed too, and the list changes with the page.
  const pageTools = offered.has('browser_webmcp_call') ? new PageTools(session) : undefined;
  const server = new Server({ name: 'pagelens', version: '0.1.0' }, { capabilities: { tools: pageTools ? { listChanged: true } : {} }, instructions: instructions(opts.answers) });
  // Uploads may read from the folders the client declares as its roots (asked for when needed).
  session.files.setRootsProvider(async () => server.getClientCapabilities()?.roots ? (await server.listRoots()).roots.map((r) => r.uri) : []);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: pageTools ? [...tools, ...pageTools.definitions()] : tools }));
  // One page, one call at a time: two actions interleaved on it would each see the other's effects.
  // Each call has a deadline, so that a call that never returns cannot hold this queue. The queue is
  // the browser session's: MCP sessions joined by one session key (sessionKeys.ts) take turns too.
  const deadline = new CallDeadline(opts.callTimeoutS);
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const run = (queues.get(session) ?? Promise.resolve()).then(async (): Promise<CallToolResult> => {
      try {
        const t0 = performance.now();
        const args = req.params.arguments ?? {};
        const recovered = opts.recoverStuckTabs ? await recoverStuckTab(session, deadline) : undefined;
        const name = req.params.name;
        const runOptions = { host: session, offered, ...(opts.answers && { answers: opts.answers }) };
        const pw = opts.trace && opts.playwrightTraces ? await import('./playwrightTraces.js') : undefined;
        // Once given up at its deadline, the call's input, navigations and dialog answers are refused (callScope.ts).
        const scope: CallScope = { tool: name };
        const r = await deadline.run(name, args, () => withinCall(scope, async () => {
          const lens = await session.lens();
          // The call's group in the Playwright trace opens on the page it runs on (within the call's deadline).
          if (pw && opts.trace) await pw.beginTracedCall(session, lens.page, opts.trace, name, log);
          return pageTools && isPageToolName(name) ? pageTools.call(lens, name, args, runOptions) : runToolSafely(lens, name, args, runOptions);
        }), () => session.unanswered(), () => { scope.givenUp = true; });
        // The call may have changed the page's tools (a navigation, the page's own script): the client is told before it reads the answer.
        if (pageTools && (r.data as { error?: { code?: string } } | undefined)?.error?.code !== 'TIMEOUT') {
          const left = deadlineSeconds(name, args, deadline.baseSeconds) * 1000 - (performance.now() - t0);
          if (await pageTools.changedAfterCall(left)) await server.sendToolListChanged().catch((e: Error) => log(`could not send tools/list_changed: ${e.message}`));
        }
        // A lost browser connection opened again (browser.ts watchConnection) is said once, on this answer.
        const reconnected = session.takeNotice();
        const noted = reconnected ? withNote(r, reconnected) : r;
        const answer = toMcp(recovered ? withNote(noted, recovered) : noted);
        if (opts.trace) await traceCall(opts.trace, session, name, args, r, answer, performance.now() - t0);
        if (pw) await pw.endTracedCall(session, await session.lens().then((l) => l.page, () => undefined));
        return answer;
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

/** The call into the session's trace; a trace that fails says so on stderr and never fails the call. */
async function traceCall(trace: McpTrace, session: BrowserSession, tool: string, args: Record<string, unknown>, r: ToolResult, answer: CallToolResult, ms: number): Promise<void> {
  try {
    const lens = await session.lens().catch(() => undefined);
    const texts = answer.content.flatMap((c) => (c.type === 'text' ? [c.text] : []));
    const images = (r.images ?? []).map((i) => Math.floor(i.data.length * 3 / 4));
    await trace.record({ tool, args, texts, images, isError: answer.isError === true, data: r.data, ms, ...(lens && { page: lens.page, covers: () => lens.secretCovers() }) });
  } catch (e) {
    log(`the trace could not record ${tool}: ${(e as Error).message.split('\n')[0]}`);
  }
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
const SAVE_ON_EXIT_MS = 5000;
/** Time for Playwright to write its trace and for it to be scrubbed, on the way out. */
const PLAYWRIGHT_TRACE_MS = 10_000;

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
    const grace = SHUTDOWN_GRACE_MS + (opts.saveStorageState ? SAVE_ON_EXIT_MS : 0) + (opts.playwrightTraces ? PLAYWRIGHT_TRACE_MS : 0);
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
  const { startMcpTrace } = opts.saveTrace ? await import('../trace/mcpTrace.js') : { startMcpTrace: undefined };
  const newTrace = () => (startMcpTrace && opts.saveTrace ? startMcpTrace(opts.saveTrace, { ...(opts.answers && { answers: opts.answers }) }) : undefined);
  if (opts.port === undefined) {
    const session = new BrowserSession(opts);
    const trace = newTrace();
    if (trace) log(`recording the session into ${trace.path}${opts.playwrightTraces ? ' (its Playwright trace beside it when the session closes)' : ''}`);
    closeAll = () => { trace?.close(); return session.close(); };
    const server = createMcpServer(session, { ...opts, ...(trace && { trace }) });
    const transport = new StdioServerTransport();
    transport.onclose = () => void shutdown('client disconnected');
    process.stdin.on('end', () => void shutdown('stdin closed'));
    await server.connect(transport);
    log('ready on stdio');
    return;
  }
  // Redis's client is loaded only by a replica that uses a store.
  const registry = opts.store ? await (await import('./ownership.js')).RedisSessionRegistry.connect(opts.store, opts.replica ?? `${hostname()}:${process.pid}`, opts.http?.idleMs ?? DEFAULT_IDLE_MS, log) : undefined;
  const http = await startMcpHttp(opts, { ...opts.http, port: opts.port, log, ...(registry && { registry }) }, (session) => {
    // One archive a session: written step by step, closed when the session's transport closes.
    const trace = newTrace();
    const server = createMcpServer(session, { ...opts, ...(trace && { trace }) });
    if (trace) server.onclose = () => trace.close();
    return server;
  });
  closeAll = async () => { await http.close(); await registry?.close(); };
  await registry?.advertise(http.url);
  log(`ready on ${http.url} (${describeHttpProtection(opts)})${registry ? `; replica "${registry.replica}", sessions registered in ${registry.where}` : ''}`);
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
