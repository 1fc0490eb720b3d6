// The origin rules (--allowed-origins, --blocked-origins, --offline) enforced where every request
// passes: a loopback forward proxy the browser context is created with. `context.route` sees a
// request's first hop only (Playwright continues redirects unseen) and never sees WebSockets; the
// network stack sends every hop, every WebSocket (as a CONNECT tunnel), every worker's and
// service worker's request through the context's proxy. Requests the rules refuse are answered
// 403 by the proxy and never reach their origin.
import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { refusalFor, refusalForTunnel, type OriginRules } from '../model/safety/origins.js';

export interface OriginProxy {
  /** For the context's `proxy.server` option. */
  server: string;
  /** What was refused, newest last (bounded): for logs and tests. */
  refused: string[];
  close(): Promise<void>;
}

const MAX_REFUSED_KEPT = 200;
/** Hop-by-hop headers a proxy must not pass on (RFC 9110 §7.6.1), and the proxy-only ones. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

export async function startOriginProxy(rules: OriginRules): Promise<OriginProxy> {
  const refused: string[] = [];
  const note = (what: string) => {
    refused.push(what);
    if (refused.length > MAX_REFUSED_KEPT) refused.shift();
  };
  const sockets = new Set<Socket>();

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const why = /^https?:\/\//i.test(url) ? refusalFor(url, rules) : 'not a proxy request';
    if (why) {
      note(`${req.method} ${url.slice(0, 200)}: ${why}`);
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-pagelens-blocked': why, 'cache-control': 'no-store' });
      res.end(`pagelens blocked this request by its origin rules: ${why}\n`);
      return;
    }
    const target = new URL(url);
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const upstream = httpRequest({ host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port || 80, method: req.method, path: target.pathname + target.search, headers }, (up) => {
      const back = { ...up.headers };
      for (const h of HOP_BY_HOP) delete back[h];
      res.writeHead(up.statusCode ?? 502, up.statusMessage, back);
      up.pipe(res);
    });
    upstream.on('error', () => { if (res.headersSent) res.destroy(); else res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream unreachable\n'); });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  // HTTPS, WSS, and ws:// through a proxy all arrive as tunnels.
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    // Past a CONNECT or an upgrade the HTTP server no longer listens for the socket's errors: a
    // browser that closes while its refusal is being written resets it, and unheard, that reset
    // would end the process.
    client.on('error', () => upstream?.destroy());
    let upstream: Socket | undefined;
    const authority = req.url ?? '';
    const why = refusalForTunnel(authority, rules);
    if (why) {
      note(`CONNECT ${authority.slice(0, 200)}: ${why}`);
      client.end(`HTTP/1.1 403 Forbidden\r\nx-pagelens-blocked: ${why.replace(/[\r\n]/g, ' ')}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(authority);
    if (!m) { client.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n'); return; }
    const tunnel = connect(Number(m[2]), m[1], () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) tunnel.write(head);
      tunnel.pipe(client);
      client.pipe(tunnel);
    });
    upstream = tunnel;
    track(tunnel);
    tunnel.on('error', () => client.destroy());
  });

  // A plain ws:// upgrade sent to the proxy as an absolute URL (not what Chromium does, but a
  // request the rules must see all the same): refused or refused to be proxied, never passed on unseen.
  server.on('upgrade', (req: IncomingMessage, client: Socket) => {
    client.on('error', () => client.destroy());
    const url = req.url ?? '';
    const why = refusalFor(url.replace(/^ws/i, 'http'), rules) ?? 'WebSocket upgrades are tunnelled, not proxied';
    note(`UPGRADE ${url.slice(0, 200)}: ${why}`);
    client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
  });

  function track(s: Socket): void {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  }
  server.on('connection', track);

  await new Promise<void>((ok, fail) => { server.once('error', fail); server.listen(0, '127.0.0.1', ok); });
  const port = (server.address() as { port: number }).port;
  return {
    server: `http://127.0.0.1:${port}`,
    refused,
    close: () => new Promise<void>((ok) => {
      for (const s of sockets) s.destroy();
      server.close(() => ok());
    }),
  };
}
