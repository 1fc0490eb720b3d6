// What the act pipeline needs from a host: the engine side of the port (model/contracts/host.ts)
// and the members of its page side that acting uses (input, url, navigation, settling).
import type { HostEngine, HostPage } from '../model/contracts/host.js';

/** A wait for the page to be quiet; `afterAction`: count quiet from the start (the page has not reacted yet). */
export interface SettleRequest { timeoutMs: number; quietMs?: number; afterAction?: boolean }
/** How a wait ended; `uncertain` names what could not be watched (so "settled" may be premature). */
export interface Settled { settled: boolean; waitedMs: number; reason?: string; uncertain?: string[] }

export type Navigation = { goto: string } | { history: 'back' | 'forward' } | { reload: true };

export interface ActPage {
  input: HostPage['input'];
  url: HostPage['url'];
  /** Navigation by the host; the main document's HTTP status when the host can see it (a 4xx/5xx fails: NAVIGATION_FAILED). */
  navigate(how: Navigation): Promise<{ status?: number; /** What the answer should know (a page answered as it stood, still loading). */ warnings?: string[] } | void>;
  settle(opts: SettleRequest): Promise<Settled>;
}

/** A host as the act pipeline uses it. */
export type ActHost = HostEngine & ActPage;
