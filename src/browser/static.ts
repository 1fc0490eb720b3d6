// A loopback static file server: the CLI serves local files and the demo through it, the tests
// serve fixtures through it, the benchmark serves the corpus through it.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.js': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};

export interface StaticServer {
  /** Base URL with a trailing slash, e.g. http://127.0.0.1:41234/ */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface ServeOptions {
  /** Address in the URLs handed out; the server always listens on 127.0.0.1. */
  host?: string;
  /** Text substituted in served HTML (test fixtures name the other origin as {{ORIGIN_B}}). */
  replacements?: Record<string, string>;
}

export async function serveFolder(folder: string, opts: ServeOptions = {}): Promise<StaticServer> {
  const host = opts.host ?? '127.0.0.1';
  const root = resolve(folder);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = normalize(join(root, path.endsWith('/') ? path + 'index.html' : path));
    let ok = file.startsWith(root);
    try { ok = ok && statSync(file).isFile(); } catch { ok = false; }
    if (!ok) { res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'); return; }
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    if (opts.replacements && type.startsWith('text/html')) {
      let body = readFileSync(file, 'utf8');
      for (const [k, v] of Object.entries(opts.replacements)) body = body.split(k).join(v);
      res.end(body);
      return;
    }
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => { server.once('error', fail); server.listen(0, '127.0.0.1', ok); });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}/`,
    port,
    close: () => new Promise<void>((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}
