// Which replica owns which MCP session, in the store the replicas share (Redis). An MCP session's
// browser context is a live connection that lives in one process and cannot move: the load
// balancer routes by Mcp-Session-Id to its replica (sticky). When a request reaches another one
// anyway (the balancer lost its table, a client talked to a replica directly), this is how that
// replica tells the client where the session lives, rather than answering "unknown session",
// which an MCP client takes as its cue to start a fresh, empty one.
//
// Keys: `pagelens:mcp:session:<id>` → the owner (expires after the session idle time, renewed on
// use); `pagelens:mcp:replica:<name>` → its URL, a heartbeat that expires when the replica dies.
import { connectStore, storeProblem, type StoreConnection } from '../store/redis.js';

/** How often a replica says it is alive, and how long the store believes it. */
const HEARTBEAT_MS = 3000;
const HEARTBEAT_TTL_MS = 10_000;

/** A refusal for a session this replica does not hold: the status and the message to answer. */
export interface Misrouted {
  status: 404 | 421 | 503;
  message: string;
}

/** What the HTTP server tells the registry (src/mcp/http.ts calls these; none of them throws). */
export interface SessionRegistry {
  claimed(id: string): void;
  used(id: string): void;
  released(id: string): void;
  /** Why this replica cannot serve `id`, with who can; undefined when nobody owns it (expired, never was). */
  misrouted(id: string): Promise<Misrouted | undefined>;
  close(): Promise<void>;
}

const sessionKey = (id: string) => `pagelens:mcp:session:${id}`;
const replicaKey = (name: string) => `pagelens:mcp:replica:${name}`;

/** Deletes the owner record only if it is still this replica's (another may have taken the ID since). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export class RedisSessionRegistry implements SessionRegistry {
  private url = '';
  private readonly beat: NodeJS.Timeout;

  private constructor(private readonly conn: StoreConnection, readonly replica: string, private readonly idleMs: number, private readonly log: (msg: string) => void) {
    this.beat = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
    this.beat.unref();
  }

  static async connect(url: string, replica: string, idleMs: number, log: (msg: string) => void = () => {}): Promise<RedisSessionRegistry> {
    return new RedisSessionRegistry(await connectStore(url, `pagelens-mcp-${replica}`), replica, idleMs, log);
  }

  get where(): string {
    return this.conn.shown;
  }

  /** The URL clients reach this replica at, said to whoever is sent a request for one of its sessions. */
  async advertise(url: string): Promise<void> {
    this.url = url;
    await this.heartbeat();
  }

  claimed(id: string): void {
    this.quietly('register', this.conn.redis.set(sessionKey(id), this.replica, 'PX', this.idleMs));
  }

  used(id: string): void {
    this.quietly('renew', this.conn.redis.pexpire(sessionKey(id), this.idleMs));
  }

  released(id: string): void {
    this.quietly('release', this.conn.redis.eval(RELEASE_SCRIPT, 1, sessionKey(id), this.replica));
  }

  async misrouted(id: string): Promise<Misrouted | undefined> {
    const short = `${id.slice(0, 8)}…`;
    let owner: string | null, ownerUrl: string | null;
    try {
      owner = await this.conn.redis.get(sessionKey(id));
      ownerUrl = owner ? await this.conn.redis.get(replicaKey(owner)) : null;
    } catch (e) {
      return { status: 503, message: `MCP session ${short} is not on replica "${this.replica}", and which replica holds it cannot be told: ${storeProblem(this.conn, e)}` };
    }
    if (!owner) return undefined;
    if (owner === this.replica) return undefined; // ours once, gone from this process (a restart): unknown here
    if (ownerUrl === null) {
      return { status: 404, message: `MCP session ${short} belonged to replica "${owner}", which is gone (no heartbeat for ${HEARTBEAT_TTL_MS / 1000} s): its browser context went with it; initialize a new session` };
    }
    return { status: 421, message: `MCP session ${short} lives on replica "${owner}" (${ownerUrl}), not on "${this.replica}": its browser context cannot move, so route requests by their Mcp-Session-Id header to that replica (docs/scale-out.md)` };
  }

  async close(): Promise<void> {
    clearInterval(this.beat);
    await this.conn.redis.del(replicaKey(this.replica)).catch(() => {});
    await this.conn.close();
  }

  private async heartbeat(): Promise<void> {
    await this.conn.redis.set(replicaKey(this.replica), this.url || this.replica, 'PX', HEARTBEAT_TTL_MS).catch(() => {});
  }

  /** The store down must not fail the MCP request: the session lives here; only its routing record is late. */
  private quietly(what: string, p: Promise<unknown>): void {
    p.catch((e) => this.log(`could not ${what} a session in the store: ${storeProblem(this.conn, e)}`));
  }
}
