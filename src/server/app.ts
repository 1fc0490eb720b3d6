// The negotiation backend as a Hono app: `POST /api/agent/interact` and `GET /healthz`. Bad input
// is a 400 with what was wrong, an oversized body a 413, an unknown route a 404, a planner that
// fails a 502 with the reason, a session store that cannot be reached a 503 with the reason (the
// session unchanged); never a stack trace, never a crash. Logs never carry screenshots, typed
// values or bearer tokens.
import { zValidator } from '@hono/zod-validator';
import { Hono, type Context } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import type { Planner } from '../agent/planner.js';
import { InteractRequest, InteractResponse, type ErrorBody } from '../model/negotiation/interact.js';
import { redactCredentials } from '../model/safety/redact.js';
import { PagelensError } from '../model/contracts/errors.js';
import { describeIssues } from '../model/contracts/validate.js';
import { DEFAULT_MAX_BODY, DEFAULT_REQUEST_TIMEOUT_MS } from './limits.js';
import { MemorySessionStore, StoreUnavailableError, sessionIdOf, sessionView, type SessionStore } from './sessions.js';

export interface AppOptions {
  planner: Planner;
  /** Require `Authorization: Bearer <token>`. */
  token?: string;
  /** The one origin allowed to call from a browser (the extension's); none: no CORS. */
  corsOrigin?: string;
  /** Request bodies above this are refused with 413 (default 10 MB). */
  maxBodyBytes?: number;
  /** Answer requests for the full DOM in the legacy form (`status: "needs_full_dom"`). */
  compat?: boolean;
  /** Where sessions are kept (default: this process's memory; RedisSessionStore for replicas). */
  sessions?: SessionStore;
  /** This replica's name, sent as `Pagelens-Replica` on every answer (which replica answered what). */
  replica?: string;
  /** One line per request (default: none). */
  log?: (line: string) => void;
  /** A request the planner has not answered by then gets 504 (default 120 s). */
  requestTimeoutMs?: number;
  /**
   * Told of every answered round, after the session recorded it (`serve --save-trace`,
   * src/trace/serveTrace.ts). Awaited, but what it throws is its own: the answer goes out regardless.
   */
  onRound?: (round: { request: InteractRequest; answer: InteractResponse; session?: string; at: string; askMs: number }) => void | Promise<void>;
}

export { DEFAULT_MAX_BODY, DEFAULT_REQUEST_TIMEOUT_MS };
/**
 * The task is a sentence or a paragraph. The body limit is sized for DOMs and screenshots, so a
 * query as large as the body (megabytes) would pass it and cost the planner seconds of CPU,
 * stalling every other request: it is refused before planning.
 */
export const MAX_QUERY_CHARS = 8_000;

/**
 * Why a task is no task, or null. A query of blanks and invisible characters only would be
 * planned as nothing to do and answered done(); a NUL has no place in a sentence (it cuts a C
 * string, a log line, a terminal's text short), so a query with one is refused whole.
 */
export function queryProblem(query: string): string | null {
  if (query.includes('\0')) return 'query contains a NUL character';
  if (!/[^\s\p{Cc}\p{Cf}\p{Z}]/u.test(query)) return 'query is empty (only blanks or invisible characters): say what the agent should do';
  return null;
}

export function createApp(opts: AppOptions): Hono {
  // The bearer check below is skipped for an empty token: a blank one would serve anyone.
  if (opts.token !== undefined && !opts.token.trim()) throw new PagelensError('BAD_INPUT', 'the bearer token is empty: give a token, none (one is generated), or noAuth');
  const app = new Hono();
  const sessions = opts.sessions ?? new MemorySessionStore();
  const log = opts.log ?? (() => {});
  const bad = (c: Context, body: ErrorBody, status: 400 | 401 | 404 | 413 | 500 | 502 | 503 | 504) => c.json(body, status);
  const timeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;

  const replica = opts.replica;
  if (replica) app.use('*', async (c, next) => { await next(); c.res.headers.set('Pagelens-Replica', replica); });
  if (opts.corsOrigin) app.use('/api/*', cors({ origin: opts.corsOrigin, allowMethods: ['POST', 'OPTIONS'], allowHeaders: ['Content-Type', 'Authorization'] }));
  app.get('/healthz', (c) => c.json({ ok: true, planner: opts.planner.name }));
  if (opts.token) {
    app.use('/api/*', bearerAuth({ token: opts.token, noAuthenticationHeader: { message: { error: 'UNAUTHORIZED', message: 'Authorization: Bearer <token> required' } }, invalidToken: { message: { error: 'UNAUTHORIZED', message: 'invalid bearer token' } }, invalidAuthenticationHeader: { message: { error: 'UNAUTHORIZED', message: 'expected Authorization: Bearer <token>' } } }));
  }
  app.post('/api/agent/interact',
    bodyLimit({ maxSize: opts.maxBodyBytes ?? DEFAULT_MAX_BODY, onError: (c) => bad(c, { error: 'PAYLOAD_TOO_LARGE', message: `request body over ${opts.maxBodyBytes ?? DEFAULT_MAX_BODY} bytes` }, 413) }),
    zValidator('json', InteractRequest, (result, c) => {
      if (!result.success) return bad(c, { error: 'BAD_INPUT', issues: describeIssues(result.error as never) }, 400);
    }),
    async (c) => {
      const t0 = performance.now();
      const at = new Date().toISOString();
      const request = c.req.valid('json');
      if (request.query.length > MAX_QUERY_CHARS) return bad(c, { error: 'PAYLOAD_TOO_LARGE', message: `query is ${request.query.length} characters; at most ${MAX_QUERY_CHARS}` }, 413);
      const noTask = queryProblem(request.query);
      if (noTask) return bad(c, { error: 'BAD_INPUT', message: noTask }, 400);
      // The store down: 503 with the reason, before the planner, so nothing is answered that the
      // session would not remember (a client acting on it would fork the session from its history).
      const unavailable = (e: StoreUnavailableError) => {
        log(`interact ${request.domMode} 503 ${e.message}`);
        return bad(c, { error: 'STORE_UNAVAILABLE', message: `${e.message}; the session is unchanged: retry` }, 503);
      };
      let session;
      try { session = await sessions.open(request); } catch (e) {
        if (e instanceof StoreUnavailableError) return unavailable(e);
        throw e;
      }
      let answer: InteractResponse;
      const asked = performance.now();
      try {
        answer = InteractResponse.parse(await withDeadline(opts.planner.plan(request, sessionView(session)), timeoutMs));
      } catch (e) {
        if (e instanceof DeadlineError) {
          log(`interact ${request.domMode} 504 planner did not answer within ${timeoutMs} ms`);
          return bad(c, { error: 'TIMEOUT', message: `the planner did not answer within ${Math.round(timeoutMs / 1000)} s` }, 504);
        }
        // An upstream's message can carry its URL's credentials: never echoed, never logged.
        const message = redactCredentials((e as Error).message.split('\n')[0]);
        log(`interact ${request.domMode} 502 planner failed: ${message}`);
        return bad(c, { error: 'PLANNER_FAILED', message }, 502);
      }
      if (opts.compat && 'status' in answer && answer.status === 'needs_context' && answer.requestedDomMode === 'full') {
        answer = { status: 'needs_full_dom', needsFullDomReason: answer.reason };
      }
      const askMs = performance.now() - asked;
      try { await sessions.record(session, request, answer); } catch (e) {
        if (e instanceof StoreUnavailableError) return unavailable(e);
        throw e;
      }
      if (opts.onRound) {
        const sessionId = sessionIdOf(request);
        try { await opts.onRound({ request, answer, ...(sessionId && { session: sessionId }), at, askMs }); } catch (e) { log(`the round's trace failed: ${(e as Error).message.split('\n')[0]}`); }
      }
      log(`interact ${request.domMode} ${request.interactiveTree?.length ?? 0} nodes${session ? ` session ${session.id}` : ''} → ${describeAnswer(answer)} (${Math.round(performance.now() - t0)} ms)`);
      return c.json(answer);
    });
  app.notFound((c) => bad(c, { error: 'NOT_FOUND', message: `no route ${c.req.method} ${c.req.path}` }, 404));
  app.onError((err, c) => {
    if (err instanceof HTTPException) {
      // Hono's own refusals: malformed JSON, a wrong content type, authentication.
      if (err.status === 401) return err.getResponse();
      if (err.status === 400) return bad(c, { error: 'BAD_INPUT', message: err.message || 'malformed request body (expected JSON)' }, 400);
      return c.json({ error: 'HTTP_ERROR', message: err.message }, err.status);
    }
    log(`internal error: ${redactCredentials(err.message.split('\n')[0])}`);
    return bad(c, { error: 'INTERNAL', message: 'internal error' }, 500);
  });
  return app;
}

class DeadlineError extends Error {}

/** The planner's answer, or DeadlineError once `ms` have passed (the planner's work is not cancelled, only no longer awaited). */
function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new DeadlineError()), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** What the log says of an answer: the verb and target of an action, never the values it types. */
function describeAnswer(a: InteractResponse): string {
  if ('action' in a) return a.action.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '…');
  return a.status === 'needs_full_dom' ? 'needs_full_dom' : `needs_context ${a.requestedDomMode}`;
}
