// Who may talk to a pagelens server on this machine (`pagelens serve`, `pagelens mcp --port`).
// A web page can reach a loopback port by DNS rebinding (a name it controls resolving to
// 127.0.0.1): the browser then sends that name as Host and the page's origin as Origin. So a
// request is answered only when Host names this server (a loopback name and its port, or an
// address the user bound to), Origin is absent (not a browser), an extension's, or one the user
// allowed, and the bearer token matches when one is set. Pure, so both servers share it.
import { isLoopbackHost, originKey } from './origins.js';

export interface GuardOptions {
  /** The port the server listens on: a Host with another port is not this server. */
  port: number;
  /** Check Host (off only when bound to every interface, where the token is the protection). */
  checkHost: boolean;
  /** Host names besides the loopback ones (the address bound to when it is not loopback). */
  extraHosts?: string[];
  /** Browser origins allowed to call (the extension's); the server's own loopback origin always is. */
  allowedOrigins?: string[];
  /** Required as `Authorization: Bearer <token>` when set. */
  token?: string;
}

export interface RequestHeaders {
  host?: string;
  origin?: string;
  authorization?: string;
}

export interface Refusal {
  status: 401 | 403;
  message: string;
}

/** Why the request must not be answered, or null when it may be. */
export function refuseRequest(h: RequestHeaders, o: GuardOptions): Refusal | null {
  if (o.checkHost) {
    const problem = hostProblem(h.host, o);
    if (problem) return { status: 403, message: problem };
  }
  if (h.origin !== undefined && !originAllowed(h.origin, o)) {
    return { status: 403, message: `Origin ${JSON.stringify(h.origin.slice(0, 100))} may not call this server (a web page is not its client)` };
  }
  if (o.token !== undefined) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h.authorization ?? '');
    if (!m) return { status: 401, message: 'Authorization: Bearer <token> required' };
    if (!sameSecret(m[1], o.token)) return { status: 401, message: 'invalid bearer token' };
  }
  return null;
}

function hostProblem(host: string | undefined, o: GuardOptions): string | null {
  if (!host) return 'a Host header is required';
  let u: URL;
  try { u = new URL(`http://${host}`); } catch { return `Host ${JSON.stringify(host.slice(0, 100))} is not a host name`; }
  if (u.username || u.password || u.pathname !== '/') return `Host ${JSON.stringify(host.slice(0, 100))} is not a host name`;
  const name = u.hostname.toLowerCase();
  const port = Number(u.port || 80);
  const known = isLoopbackHost(name) || (o.extraHosts ?? []).some((x) => x.toLowerCase() === name);
  if (!known || port !== o.port) return `Host ${JSON.stringify(host.slice(0, 100))} is not this server (expected 127.0.0.1:${o.port}, localhost:${o.port} or [::1]:${o.port})`;
  return null;
}

function originAllowed(origin: string, o: GuardOptions): boolean {
  // No web page can send an extension's origin, and extensions are what the user installed (the
  // pagelens side panel among them): the token, when set, is what they must show.
  if (/^(chrome|moz)-extension:\/\/[a-z0-9-]+\/?$/i.test(origin)) return true;
  const key = originKey(origin);
  if (key === `http://loopback:${o.port}`) return true;
  return (o.allowedOrigins ?? []).some((a) => {
    // chrome-extension://… has no http origin key: it must match as written (case aside).
    const k = originKey(a);
    return k ? k === key : a.replace(/\/+$/, '').toLowerCase() === origin.replace(/\/+$/, '').toLowerCase();
  });
}

/** Equal strings, compared in time that does not depend on where they differ. */
function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}
