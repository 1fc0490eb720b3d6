// Starting the backend on a port: loopback unless told otherwise, "listening on …" on stderr.
// Safe by default: a web page can reach a loopback port (DNS rebinding), so Host and Origin are
// checked before the app sees a request, and a bearer token is required unless the caller says
// noAuth (one is generated when none is given).
import { randomBytes } from 'node:crypto';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../model/safety/origins.js';
import { refuseRequest, type GuardOptions } from '../model/safety/requestGuard.js';
import { createApp, type AppOptions } from './app.js';

export interface ServeOptions extends AppOptions {
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** Answer without a token (the caller accepts that any local process, and any page the Host check misses, can call). */
  noAuth?: boolean;
}

export interface RunningServer {
  url: string;
  /** The bearer token required (the one given, or the one generated); absent with noAuth. */
  token?: string;
  /** Whether the token was generated here (then whoever started the server must be told it). */
  tokenGenerated: boolean;
  /** What protects the server, in one line, for the start message. */
  protection: string;
  close(): Promise<void>;
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const tokenGenerated = opts.token === undefined && !opts.noAuth;
  const token = opts.noAuth ? undefined : opts.token ?? randomBytes(24).toString('base64url');
  const app = createApp({ ...opts, ...(token !== undefined && { token }) });
  const host = opts.host ?? '127.0.0.1';
  // Bound to every interface, the server has no one name to check: the token protects it.
  const checkHost = !WILDCARD.has(host);
  let port = 0;
  const guard = (): GuardOptions => ({
    port, checkHost,
    ...(!isLoopbackHost(host) && { extraHosts: [host.replace(/^\[|\]$/g, ''), `[${host.replace(/^\[|\]$/g, '')}]`] }),
    ...(opts.corsOrigin && { allowedOrigins: [opts.corsOrigin] }),
  });
  const fetch = (req: Request, env?: unknown): Response | Promise<Response> => {
    const refusal = refuseRequest({ host: req.headers.get('host') ?? undefined, origin: req.headers.get('origin') ?? undefined }, guard());
    if (refusal) {
      opts.log?.(`refused ${req.method} ${new URL(req.url).pathname}: ${refusal.message}`);
      return Response.json({ error: 'FORBIDDEN', message: refusal.message }, { status: refusal.status });
    }
    return app.fetch(req, env);
  };
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch, hostname: host, port: opts.port ?? 8787 }, () => resolve(s));
    s.once('error', reject);
  });
  port = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const protection = [
    checkHost ? `Host checked (${isLoopbackHost(host) ? 'loopback names' : `${host} and loopback names`}, port ${port})` : 'Host NOT checked (bound to every interface)',
    `Origin checked (web pages refused${opts.corsOrigin ? ` except ${opts.corsOrigin}` : ''})`,
    token === undefined ? 'NO token required (--no-auth)' : `bearer token required${tokenGenerated ? ' (generated)' : ''}`,
  ].join('; ');
  return {
    url: `http://${shown}:${port}`,
    ...(token !== undefined && { token }),
    tokenGenerated,
    protection,
    close: () => new Promise<void>((resolve) => {
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}
