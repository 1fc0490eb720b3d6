// A browser session that outlives its MCP sessions (issue 40). A client that opens a new MCP
// session for every call (LangChain's MCP adapter does) would get a new browser context each time,
// its tabs, logins and element IDs gone between calls. With a session key, sent as the
// `Pagelens-Session-Key` header on every request, the MCP sessions that carry one key share one
// browser session: the same tabs, the same ID numbering and ledger, so an ID from before a
// navigation is refused on the next call exactly as it would be within one connection. The key is
// a secret of the client's (anyone who has it drives that browser): at least 16 characters, never
// logged (the log names it by a hash). Keyed browsers count against --max-sessions and close after
// --session-idle unused, like any session; the MCP sessions under a key may come and go.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { BrowserSession } from './browser.js';

/** The header a client sends its session key in (HTTP header names are case-insensitive). */
export const SESSION_KEY_HEADER = 'Pagelens-Session-Key';
const KEY_SHAPE = /^[A-Za-z0-9._~+/=-]{16,200}$/;

/** What the HTTP server keeps of each MCP session that this module reads. */
export interface KeyedUse { key?: string; busy: number; lastSeen: number }

interface Keyed {
  browser: BrowserSession;
  /** MCP sessions now open under the key. */
  sessions: Set<string>;
  lastSeen: number;
}

/** The key a request carries: undefined without one, an Error saying why a malformed one is refused. */
export function sessionKeyOf(req: IncomingMessage): string | undefined | Error {
  const raw = req.headers[SESSION_KEY_HEADER.toLowerCase()];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0]! : raw;
  if (!KEY_SHAPE.test(key)) return new Error(`${SESSION_KEY_HEADER} must be 16-200 characters of letters, digits and ._~+/=- (a random value, e.g. a UUID): it is the secret that names your browser session`);
  return key;
}

/** How the log names a key without saying it. */
export const keyTag = (key: string) => `key ${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;

export class SessionKeys {
  private readonly keyed = new Map<string, Keyed>();

  constructor(private readonly makeBrowser: () => BrowserSession, private readonly log: (msg: string) => void) {}

  has(key: string): boolean {
    return this.keyed.has(key);
  }

  /** Browser sessions open now: one per key, plus one per MCP session without a key. */
  browserCount(sessions: ReadonlyMap<string, KeyedUse>): number {
    let unkeyed = 0;
    for (const e of sessions.values()) if (!e.key) unkeyed++;
    return unkeyed + this.keyed.size;
  }

  /** The key's browser session, opened (lazily, as every session's browser is) when the key is new. */
  browserFor(key: string): BrowserSession {
    let k = this.keyed.get(key);
    if (!k) {
      k = { browser: this.makeBrowser(), sessions: new Set(), lastSeen: Date.now() };
      this.keyed.set(key, k);
      this.log(`browser session for ${keyTag(key)} opened`);
    }
    return k.browser;
  }

  attach(key: string, sessionId: string): void {
    const k = this.keyed.get(key);
    if (!k) return;
    k.sessions.add(sessionId);
    k.lastSeen = Date.now();
  }

  /** An MCP session under the key ended: the browser session stays for the next one. */
  detach(key: string, sessionId: string): void {
    const k = this.keyed.get(key);
    if (!k) return;
    k.sessions.delete(sessionId);
    k.lastSeen = Date.now();
  }

  touch(key: string): void {
    const k = this.keyed.get(key);
    if (k) k.lastSeen = Date.now();
  }

  /**
   * Makes room for one more MCP session by ending the least recently used idle one that holds a
   * key (its browser session stays under the key): a per-call client that never says goodbye
   * must not fill the server. False when there is none to end.
   */
  async evictOne(sessions: ReadonlyMap<string, KeyedUse>, drop: (id: string, why: string) => Promise<void>): Promise<boolean> {
    let oldest: [string, KeyedUse] | undefined;
    for (const entry of sessions) if (entry[1].key && !entry[1].busy && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
    if (!oldest) return false;
    await drop(oldest[0], 'made room: its browser session stays under its session key');
    return true;
  }

  /** Closes the browser sessions of keys unused since `cutoff` with no MCP session at work on them. */
  async sweep(cutoff: number, sessions: ReadonlyMap<string, KeyedUse>, why: string): Promise<void> {
    for (const [key, k] of this.keyed) {
      const busy = [...k.sessions].some((id) => (sessions.get(id)?.busy ?? 0) > 0);
      const seen = Math.max(k.lastSeen, ...[...k.sessions].map((id) => sessions.get(id)?.lastSeen ?? 0));
      if (busy || seen >= cutoff) continue;
      await this.close(key, why);
    }
  }

  async closeAll(why: string): Promise<void> {
    for (const key of [...this.keyed.keys()]) await this.close(key, why);
  }

  private async close(key: string, why: string): Promise<void> {
    const k = this.keyed.get(key);
    if (!k) return;
    this.keyed.delete(key);
    this.log(`browser session for ${keyTag(key)} closed (${why})`);
    await k.browser.close().catch(() => {});
  }
}
