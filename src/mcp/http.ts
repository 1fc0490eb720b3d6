// `pagelens mcp --port`: the MCP server over Streamable HTTP on 127.0.0.1. Any web page can reach
// a loopback port (DNS rebinding), so every request passes the request guard first (Host, Origin,
// bearer token), before a session or a browser exists. Sessions are bounded (a cap, an idle
// timeout) and each has its own browser context, so one client never sees another's pages,
// cookies or logins, unless the user opts into sharing one.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { refuseRequest } from '../model/safety/requestGuard.js';
import { BrowserSession, SharedBrowser, checkBrowserOptions, type BrowserOptions } from './browser.js';
import type { SessionRegistry } from './ownership.js';
import { SessionKeys, sessionKeyOf } from './sessionKeys.js';

export interface McpHttpOptions {
  port: number;
  /** Required as `Authorization: Bearer <token>` (from PAGELENS_MCP_TOKEN or --token). */
  token?: string;
  /** Every client works in one browser context (today's tabs, cookies and logins shared). */
  sharedContext?: boolean;
  /** Open MCP sessions at most (default 8); a new client beyond that is refused with 503. */
  maxSessions?: number;
  /** A session unused this long is closed with its browser context (default 15 min). */
  idleMs?: number;
  log?: (msg: string) => void;
  /** Replicas sharing a store: who owns which session, so a misrouted request is told where it lives (ownership.ts). */
  registry?: SessionRegistry;
}

export interface McpHttpServer {
  url: string;
  /** Sessions open now (for tests and the log). */
  sessionCount(): number;
  close(): Promise<void>;
}

interface Entry {
  transport: StreamableHTTPServerTransport;
  browser: BrowserSession;
  lastSeen: number;
  busy: number;
  /** The session key it came with (sessionKeys.ts): its browser session is the key's, not its own. */
  key?: string;
}

export const DEFAULT_MAX_SESSIONS = 8;
export const DEFAULT_IDLE_MS = 15 * 60_000;

/** A JSON-RPC error answer, as the SDK's own transport refusals are written. */
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Whether every client must share one context: a persistent profile and an attached browser's own
 * profile are one context by nature; a context pagelens creates can be one per client.
 */
export function contextIsShared(opts: BrowserOptions & { sharedContext?: boolean }): boolean {
  return !!(opts.sharedContext || opts.userDataDir || (opts.cdp && !opts.isolated));
}

export async function startMcpHttp(browserOpts: BrowserOptions, opts: McpHttpOptions, makeServer: (session: BrowserSession) => Server): Promise<McpHttpServer> {
  checkBrowserOptions(browserOpts);
  const log = opts.log ?? (() => {});
  const maxSessions = opts.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const idleMs = opts.idleMs ?? DEFAULT_IDLE_MS;
  const shared = contextIsShared({ ...browserOpts, sharedContext: opts.sharedContext });
  // One browser process for all clients; each client a context of its own in it.
  const browserSource = new SharedBrowser(browserOpts);
  const sharedSession = shared ? new BrowserSession(browserOpts) : undefined;
  const sessions = new Map<string, Entry>();
  // Browser sessions kept by a session key across MCP sessions (a new MCP session per call).
  const keys = new SessionKeys(() => new BrowserSession(browserOpts, browserSource), log);

  const drop = async (id: string, why: string) => {
    const e = sessions.get(id);
    if (!e) return;
    sessions.delete(id);
    opts.registry?.released(id);
    log(`session ${id.slice(0, 8)} closed (${why})`);
    await e.transport.close().catch(() => {});
    if (e.key) keys.detach(e.key, id);
    else if (e.browser !== sharedSession) await e.browser.close().catch(() => {});
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const refusal = refuseRequest({ host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization }, { port: httpPort(), checkHost: true, ...(opts.token !== undefined && { token: opts.token }) });
    if (refusal) {
      log(`refused ${req.method} from ${req.headers.origin ?? 'no origin'}: ${refusal.message}`);
      return refuse(res, refusal.status, refusal.message, refusal.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    }
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const entry = sessions.get(sid);
      if (!entry) {
        const elsewhere = await opts.registry?.misrouted(sid);
        return refuse(res, elsewhere?.status ?? 404, elsewhere?.message ?? 'unknown or expired MCP session: initialize a new one');
      }
      // A GET is the client's standing event stream, open as long as the client is: only
      // messages (POST) and their work count as use, so a session that only listens expires.
      const use = req.method !== 'GET';
      if (use) { entry.busy++; opts.registry?.used(sid); }
      entry.lastSeen = Date.now();
      if (entry.key) keys.touch(entry.key);
      try {
        await entry.transport.handleRequest(req, res);
      } finally {
        if (use) { entry.busy--; entry.lastSeen = Date.now(); }
      }
      return;
    }
    const keyed = sessionKeyOf(req);
    if (keyed instanceof Error) return refuse(res, 400, keyed.message);
    // With one context for all, a key changes nothing: every client is in it already.
    const key = sharedSession ? undefined : keyed;
    if (sessions.size >= maxSessions && !await keys.evictOne(sessions, drop)) return refuse(res, 503, `too many MCP sessions (${maxSessions} open): close one (DELETE /mcp) or wait for idle ones to expire`);
    if (!sharedSession && !(key && keys.has(key)) && keys.browserCount(sessions) >= maxSessions) return refuse(res, 503, `too many browser sessions (${maxSessions} open): close one or wait for idle ones to expire`);
    const browser = sharedSession ?? (key ? keys.browserFor(key) : new BrowserSession(browserOpts, browserSource));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, browser, lastSeen: Date.now(), busy: 0, ...(key && { key }) });
        if (key) keys.attach(key, id);
        opts.registry?.claimed(id);
        log(`session ${id.slice(0, 8)} opened${shared ? ' (shared context)' : key ? ' (the session key\'s browser context)' : ' (own browser context)'}`);
      },
    });
    transport.onclose = () => { if (transport.sessionId) void drop(transport.sessionId, 'closed by the client'); };
    await makeServer(browser).connect(transport);
    await transport.handleRequest(req, res);
    // Not an initialize (the transport refused it): nothing to keep.
    if (!transport.sessionId && browser !== sharedSession && !key) await browser.close().catch(() => {});
  };

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`request failed: ${(e as Error).message.split('\n')[0]}`);
      if (!res.headersSent) refuse(res, 500, 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => { http.once('error', reject); http.listen(opts.port, '127.0.0.1', () => resolve()); });
  function httpPort(): number {
    const a = http.address();
    return typeof a === 'object' && a ? a.port : opts.port;
  }
  const sweep = setInterval(() => {
    const cutoff = Date.now() - idleMs;
    for (const [id, e] of sessions) if (!e.busy && e.lastSeen < cutoff) void drop(id, `idle for ${Math.round(idleMs / 1000)} s`);
    void keys.sweep(cutoff, sessions, `idle for ${Math.round(idleMs / 1000)} s`);
  }, Math.max(50, Math.min(30_000, idleMs / 4)));
  sweep.unref();

  return {
    url: `http://127.0.0.1:${httpPort()}/mcp`,
    sessionCount: () => sessions.size,
    async close() {
      clearInterval(sweep);
      for (const id of [...sessions.keys()]) await drop(id, 'server stopping');
      await keys.closeAll('server stopping');
      await sharedSession?.close();
      await browserSource.close();
      http.closeAllConnections();
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}
