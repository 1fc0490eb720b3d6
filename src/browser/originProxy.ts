// The origin rules (--allowed-origins, --blocked-origins, --offline) enforced where every request
// passes: a loopback forward proxy the browser context is created with. `context.route` sees a
// request's first hop only (Playwright continues redirects unseen) and never sees WebSockets; the
// network stack sends every hop, every WebSocket (as a CONNECT tunnel), every worker's and
// service worker's request through the context's proxy. Requests the rules refuse are answered
// 403 by the proxy and never reach their origin.
//
// A name is judged twice: by its spelling, and by the address it resolves to, which is the one
// the proxy then connects to. Every address of this machine (127/8, 0.0.0.0, ::1, ::) is one
// host, `loopback`, whatever name reached it: blocking http://127.0.0.1:P blocks
// http://0.0.0.0:P and a name whose DNS answers 127.0.0.1.
import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { BlockList, connect, isIP, type LookupFunction, type Socket } from 'node:net';
import { refusalFor, refusalForTunnel, type OriginRules } from '../model/safety/origins.js';

export interface OriginProxy {
  /** For the context's `proxy.server` option. */
  server: string;
  /** What was refused, newest last (bounded): for logs and tests. */
  refused: string[];
  close(): Promise<void>;
}

export interface OriginProxyOptions {
  /** How a name is resolved before it is judged (tests give names of their own). Default: the system's, every address. */
  lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

/**
 * The addresses that reach this machine. 0.0.0.0 (and 0/8) and :: are not loopback by name, but
 * a connection to them lands on the local host (Linux, macOS), so they are loopback here. The
 * IPv4-mapped forms (::ffff:127.0.0.1) are checked as their IPv4 address.
 */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addAddress('::', 'ipv6');

/** True for an IP address (bare, not bracketed) that reaches this machine. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Why the rules refuse a host once it is known to be `addresses`, or null. An address of this
 * machine is judged as loopback (the rules' one name for it: `asLoopback` applies them to
 * 127.0.0.1 at the request's port); other addresses have no origin of their own, so only --offline
 * refuses them (a loopback name that resolved elsewhere).
 */
function refusalByAddress(hostname: string, addresses: readonly string[], rules: OriginRules, asLoopback: () => string | null): string | null {
  for (const address of addresses) {
    if (isLoopbackAddress(address)) {
      const why = asLoopback();
      if (why) return `${hostname} is ${address}, loopback: ${why}`;
    } else if (rules.offline) {
      return `offline: ${hostname} resolves to ${address}, not loopback`;
    }
  }
  return null;
}

/** refusalFor for a URL whose host resolved to `addresses`. */
export function refusalForAddresses(url: string, addresses: readonly string[], rules: OriginRules): string | null {
  const u = new URL(url);
  const port = u.port || (u.protocol === 'https:' || u.protocol === 'wss:' ? '443' : '80');
  return refusalByAddress(u.hostname, addresses, rules, () => refusalFor(`${u.protocol}//127.0.0.1:${port}/`, rules));
}

/** refusalForTunnel for a CONNECT to `host:port` that resolved to `addresses`. */
export function refusalForTunnelAddresses(host: string, port: string, addresses: readonly string[], rules: OriginRules): string | null {
  return refusalByAddress(host, addresses, rules, () => refusalForTunnel(`127.0.0.1:${port}`, rules));
}

/** A lookup that answers the addresses already judged: the connection goes where the rules looked, not where a second DNS answer points. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/** The addresses of a URL's host: an IP literal as it is (no DNS), a name as the resolver answers. */
async function addressesOf(hostname: string, lookup: NonNullable<OriginProxyOptions['lookup']>): Promise<LookupAddress[]> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family) return [{ address: bare, family }];
  const found = await lookup(bare);
  if (!found.length) throw new Error(`${bare} has no address`);
  return found;
}

const MAX_REFUSED_KEPT = 200;
/** Hop-by-hop headers a proxy must not pass on (RFC 9110 §7.6.1), and the proxy-only ones. */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

export async function startOriginProxy(rules: OriginRules, opts: OriginProxyOptions = {}): Promise<OriginProxy> {
  const lookup = opts.lookup ?? ((hostname: string) => dnsLookup(hostname, { all: true }));
  const refused: string[] = [];
  const note = (what: string) => {
    refused.push(what);
    if (refused.length > MAX_REFUSED_KEPT) refused.shift();
  };
  const sockets = new Set<Socket>();

  const refuse = (req: IncomingMessage, res: ServerResponse, why: string) => {
    note(`${req.method} ${(req.url ?? '').slice(0, 200)}: ${why}`);
    res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-pagelens-blocked': why.replace(/[\r\n]/g, ' '), 'cache-control': 'no-store' });
    res.end(`pagelens blocked this request by its origin rules: ${why}\n`);
  };

  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const why = /^https?:\/\//i.test(url) ? refusalFor(url, rules) : 'not a proxy request';
    if (why) return refuse(req, res, why);
    const target = new URL(url);
    // Only a name its spelling allows is resolved (--offline sends no name to DNS).
    let addresses: LookupAddress[];
    try { addresses = await addressesOf(target.hostname, lookup); } catch {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`could not resolve ${target.hostname}\n`);
      return;
    }
    const byAddress = refusalForAddresses(url, addresses.map((a) => a.address), rules);
    if (byAddress) return refuse(req, res, byAddress);
    if (res.destroyed) return;
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const upstream = httpRequest({ host: target.hostname.replace(/^\[|\]$/g, ''), lookup: pinnedLookup(addresses), port: target.port || 80, method: req.method, path: target.pathname + target.search, headers }, (up) => {
      const back = { ...up.headers };
      for (const h of HOP_BY_HOP) delete back[h];
      res.writeHead(up.statusCode ?? 502, up.statusMessage, back);
      up.pipe(res);
    });
    upstream.on('error', () => { if (res.headersSent) res.destroy(); else res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream unreachable\n'); });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    forward(req, res).catch(() => { if (res.headersSent) res.destroy(); else res.writeHead(500, { 'content-type': 'text/plain' }).end('proxy error\n'); });
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
    const [, host, port] = m;
    void addressesOf(host, lookup).then((addresses) => {
      // As for plain requests: judged by the address too, then connected to that address.
      const byAddress = refusalForTunnelAddresses(host, port, addresses.map((a) => a.address), rules);
      if (byAddress) {
        note(`CONNECT ${authority.slice(0, 200)}: ${byAddress}`);
        client.end(`HTTP/1.1 403 Forbidden\r\nx-pagelens-blocked: ${byAddress.replace(/[\r\n]/g, ' ')}\r\ncontent-length: 0\r\n\r\n`);
        return;
      }
      if (client.destroyed) return;
      const tunnel = connect({ port: Number(port), host, lookup: pinnedLookup(addresses) }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) tunnel.write(head);
        tunnel.pipe(client);
        client.pipe(tunnel);
      });
      upstream = tunnel;
      track(tunnel);
      tunnel.on('error', () => client.destroy());
    }, () => { client.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n'); });
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
