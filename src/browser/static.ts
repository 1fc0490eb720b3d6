// A loopback static file server: the CLI serves local files and the demo through it, the tests
// serve fixtures through it, the benchmark serves the corpus through it.
// Pages it serves are untrusted (`pagelens snapshot` runs whatever a page's scripts do), so every
// request is confined to the served folder, and no request can throw inside the process.
import { createReadStream, readFileSync, realpathSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { referencedPath, referencesIn } from './pageReferences.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};
/**
 * The files a page is made of; in page mode nothing else is served. Data a script could read as
 * text (.json, .txt, .xml, .csv) is not among them: a page naming `notes.txt` or `config.json`
 * in its folder is how it would read them, and a saved page does not need them.
 */
const WEB_FILE = /\.(html?|css|m?js|svg|png|jpe?g|gif|webp|avif|ico|woff2?|ttf|otf|mp4|webm|mp3|ogg|wav|wasm|map)$/i;

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
  /**
   * Page mode (the CLI's local files): serve this page (a name in the folder) and only what its
   * markup, the stylesheets and the module scripts it loads name (pageReferences.ts), of web file
   * types, never a dotfile or anything in a dot-folder (by the real path), never a symlink but the
   * page itself. Without it, the whole folder is served (fixtures, the demo, the corpus).
   */
  page?: string;
}

/** True when `p` is `base` or below it. A prefix test would let /site-secret pass for /site. */
export function isInside(base: string, p: string): boolean {
  const rel = relative(base, p);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith('..' + sep));
}

/** True when a segment of the path is a dotfile or a dot-folder (`.ssh`, `.env`; `..` too). */
function hasDotSegment(p: string): boolean {
  return p.split(/[\\/]/).some((seg) => seg.startsWith('.'));
}

/**
 * Page mode, once the request's real path is known (both relative: to the folder as given, and to
 * its real path): why it is not served, or null. The tests that matter are on the file that
 * would be read, not on the name asked for: `Documents/key.js -> ../.ssh/id_rsa` is a dot-folder's
 * file. And no symlink is served at all but the page itself (the file the user named): the page
 * names a link's name, and what the link leads to is the disk's, not the page's.
 */
function pageModeRefusal(requested: string, real: string, isPage: boolean): string | null {
  if (hasDotSegment(real)) return 'not found';
  if (real !== requested && !isPage) return 'not found (symlinks are not served for a local page)';
  return null;
}

function reply(req: IncomingMessage, res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(req.method === 'HEAD' ? undefined : text);
}

export async function serveFolder(folder: string, opts: ServeOptions = {}): Promise<StaticServer> {
  const host = opts.host ?? '127.0.0.1';
  const root = resolve(folder);
  // The folder itself may be reached through a symlink (/tmp on macOS): compare real paths to real paths.
  const realRoot = realpathSync(root);
  // Page mode: the request paths the page has referenced so far (it grows as its files are served).
  const referenced = opts.page !== undefined ? new Set<string>(['/' + opts.page]) : undefined;

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(req, res, 405, 'method not allowed', { allow: 'GET, HEAD' });
    // The raw request path, not new URL(): the WHATWG parser would resolve `..` and `%2e%2e` and
    // read `//host/…` as another host, hiding what the client actually asked for.
    const raw = (req.url ?? '').split(/[?#]/, 1)[0];
    if (!raw.startsWith('/')) return reply(req, res, 400, 'bad request');
    let path: string;
    try { path = decodeURIComponent(raw); } catch { return reply(req, res, 400, 'malformed percent-escape'); }
    if (path.includes('\0')) return reply(req, res, 400, 'bad request');
    const file = join(root, path.endsWith('/') ? path + 'index.html' : path);
    if (!isInside(root, file)) return reply(req, res, 403, 'forbidden');
    if (referenced) {
      // Dotfiles and dot-folders (.ssh, .env, .git) are never a page's resources.
      if (hasDotSegment(path)) return reply(req, res, 404, 'not found');
      if (!referenced.has(path) || !WEB_FILE.test(path)) return reply(req, res, 404, 'not found (only the page and what it references are served)');
    }
    let real: string;
    try { real = realpathSync(file); } catch { return reply(req, res, 404, 'not found'); }
    if (referenced) {
      const refusal = pageModeRefusal(relative(root, file), relative(realRoot, real), path === '/' + opts.page);
      if (refusal) return reply(req, res, 404, refusal);
    }
    // A symlink inside the folder must not lead out of it.
    if (!isInside(realRoot, real)) return reply(req, res, 403, 'forbidden');
    const stat = statSync(real);
    if (!stat.isFile()) return reply(req, res, 404, 'not found');

    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const headers = { 'content-type': type, 'cache-control': 'no-store' };
    const readsReferences = referenced && /^text\/(html|css|javascript)/.test(type);
    if ((opts.replacements && type.startsWith('text/html')) || readsReferences) {
      let body = readFileSync(real, 'utf8');
      for (const [k, v] of Object.entries(opts.replacements ?? {})) body = body.split(k).join(v);
      if (referenced) for (const ref of referencesIn(body, type)) { const p = referencedPath(ref, path); if (p) referenced.add(p); }
      res.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    const ok = { ...headers, 'content-length': String(stat.size) };
    if (req.method === 'HEAD') { res.writeHead(200, ok).end(); return; }
    const stream = createReadStream(real);
    // 200 only once the file is open, so that failing to open it can still be answered with a 500;
    // after that, a read error can only cut the response short.
    stream.once('open', () => { res.writeHead(200, ok); stream.pipe(res); });
    stream.once('error', () => { if (res.headersSent) res.destroy(); else reply(req, res, 500, 'read error'); });
    res.once('close', () => stream.destroy());
  };

  const server: Server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch {
      // A file that vanished or turned unreadable between checks, or a bug: answer, never crash.
      if (res.headersSent) res.destroy();
      else reply(req, res, 500, 'internal error');
    }
  });
  await new Promise<void>((ok, fail) => { server.once('error', fail); server.listen(0, '127.0.0.1', ok); });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://${host}:${port}/`,
    port,
    close: () => new Promise<void>((ok) => { server.closeAllConnections?.(); server.close(() => ok()); }),
  };
}
