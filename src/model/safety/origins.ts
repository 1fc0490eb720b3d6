// Origins compared as the network sees them, and the origin rules (--allowed-origins,
// --blocked-origins, --offline) as one decision over any URL. Pure: the browser enforces the
// decision on every hop and WebSocket, the servers use the loopback test for Host and Origin.

/** Hostnames that reach this machine whatever DNS says: one server, whichever name is used. */
export function isLoopbackHost(hostname: string): boolean {
  // Bracketed as in URLs, or bare as a bind address is written.
  const h = hostname.toLowerCase().replace(/\.+$/, '').replace(/^(?!\[)(.*:.*)$/, '[$1]');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(h)) return true;
  // The WHATWG parser writes ::1 and ::ffff:127.x.y.z in brackets, compressed and in hex.
  return h === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(h) || /^\[0:0:0:0:0:0:0:1\]$/.test(h);
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };
/** WebSockets share their origin's rules: ws is http on the wire, wss is https. */
const SCHEME_OF: Record<string, string> = { 'ws:': 'http:', 'wss:': 'https:' };

/**
 * The origin of a URL as a key two spellings of one server share: scheme and host lowercased,
 * trailing dots gone, the default port written out, ws/wss as http/https, and every loopback name
 * as `loopback` (localhost, 127.0.0.1 and [::1] are the same server). Null when the URL has no
 * network origin (data:, blob:, about:, file:, or unparseable).
 */
export function originKey(url: string): string | null {
  let u: URL;
  try { u = new URL(url); } catch { return null; }
  const scheme = SCHEME_OF[u.protocol] ?? u.protocol;
  if (scheme !== 'http:' && scheme !== 'https:') return null;
  const host = u.hostname.toLowerCase().replace(/\.+$/, '');
  if (!host) return null;
  const port = u.port || DEFAULT_PORTS[u.protocol];
  return `${scheme}//${isLoopbackHost(host) ? 'loopback' : host}:${port}`;
}

/** The key of an origin a user wrote (`https://example.com`, `http://localhost:3000/`), or BAD_INPUT's message. */
export function parseOriginRule(text: string): { key: string } | { problem: string } {
  const key = originKey(text.trim());
  return key ? { key } : { problem: `"${text}" is not an http(s) origin (expected e.g. https://example.com or http://localhost:3000)` };
}

export interface OriginRules {
  /** Only these origins may be reached (keys from originKey); empty: any. */
  allowed: string[];
  blocked: string[];
  /** Only loopback may be reached. */
  offline: boolean;
}

export function hasOriginRules(r: OriginRules): boolean {
  return r.offline || r.allowed.length > 0 || r.blocked.length > 0;
}

/**
 * Why a request to `url` is refused under the rules, or null when it may go. URLs without a network
 * origin (data:, blob:, about:) never leave the browser and always may; anything else that has
 * no origin (an unparseable URL, an unknown scheme) is refused.
 */
export function refusalFor(url: string, r: OriginRules): string | null {
  if (/^(data|blob|about|file|chrome-error):/i.test(url)) return null;
  const key = originKey(url);
  if (!key) return `${url.slice(0, 80)} has no http(s) origin`;
  if (r.offline && !key.includes('//loopback:')) return `offline: only loopback may be reached, not ${key}`;
  if (r.blocked.includes(key)) return `${key} is a blocked origin`;
  if (r.allowed.length && !r.allowed.includes(key)) return `${key} is not an allowed origin`;
  return null;
}

/**
 * Why a proxy tunnel (CONNECT host:port) is refused, or null. A tunnel does not say whether it
 * carries https, wss or (for ws:// through a proxy) plain ws, so the target counts as either
 * scheme: refused when either is blocked, allowed when either is allowed.
 */
export function refusalForTunnel(authority: string, r: OriginRules): string | null {
  const reasons = ['http', 'https'].map((s) => refusalFor(`${s}://${authority}/`, r));
  if (r.blocked.length && reasons.some((x) => x?.includes('blocked origin'))) return reasons.find((x) => x?.includes('blocked origin'))!;
  return reasons.every((x) => x) ? reasons[1] : null;
}
