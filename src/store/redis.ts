// The connection to the store replicas share (Redis). It fails fast rather than waiting: a request
// whose store is down is answered 503 at once with the reason, not held while the client retries
// (no offline queue, no retries of a command, a bound on each command), and it reconnects by
// itself in the background, so that sessions continue as soon as Redis is back.
import { Redis } from 'ioredis';
import { displayUrl } from '../model/safety/redact.js';
import { PagelensError } from '../model/contracts/errors.js';

/** Longest a store command may take before the request is answered 503. */
export const STORE_COMMAND_TIMEOUT_MS = 2000;

export interface StoreConnection {
  readonly redis: Redis;
  /** The URL as it may be shown: no password. */
  readonly shown: string;
  /** Why the store cannot be used now, or undefined when it is connected. */
  down(): string | undefined;
  close(): Promise<void>;
}

/** Whether `url` names a store pagelens can use (redis:// or rediss://). */
export function checkStoreUrl(url: string): void {
  let u: URL;
  try { u = new URL(url); } catch { throw new PagelensError('BAD_INPUT', `--store must be a URL like redis://127.0.0.1:6379/0, got "${displayUrl(url)}".`); }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new PagelensError('BAD_INPUT', `--store must be redis://HOST:PORT/DB (or rediss:// for TLS), got ${u.protocol}//…`);
}

/** Connects, and waits for the first connection so that a wrong URL is said at start, not on the first request. */
export async function connectStore(url: string, name = 'pagelens'): Promise<StoreConnection> {
  checkStoreUrl(url);
  const shown = displayUrl(url).replace(/\/$/, '');
  let lastError: string | undefined;
  const redis = new Redis(url, {
    connectionName: name,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: STORE_COMMAND_TIMEOUT_MS,
    connectTimeout: STORE_COMMAND_TIMEOUT_MS,
    // Reconnect for ever, at most once a second: a store that comes back is used again.
    retryStrategy: (times) => Math.min(100 * times, 1000),
  });
  redis.on('error', (e: Error) => { lastError = e.message.split('\n')[0]; });
  try {
    await redis.connect();
    await redis.ping();
  } catch (e) {
    redis.disconnect();
    throw new PagelensError('STORE_UNAVAILABLE', `cannot reach the session store at ${shown}: ${lastError ?? (e as Error).message.split('\n')[0]}`);
  }
  return {
    redis, shown,
    down: () => redis.status === 'ready' ? undefined : `the session store at ${shown} is unreachable (${lastError ?? redis.status})`,
    close: async () => { await redis.quit().catch(() => redis.disconnect()); },
  };
}

/** A store error in one line, with where the store is. */
export function storeProblem(conn: StoreConnection, e: unknown): string {
  return conn.down() ?? `the session store at ${conn.shown} failed: ${(e as Error).message.split('\n')[0]}`;
}
