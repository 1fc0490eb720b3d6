// The page's requests, kept per page from the moment a holder starts watching (a holder calls
// watchNetwork when the page opens: src/browser/tools/context.ts feeds the log from a Playwright
// page, the extension from the Network domain): method, URL, status or failure, and type, in a
// bounded buffer (what was dropped is counted). browser_network_requests and action answers read it.
export interface RequestEntry {
  method: string;
  url: string;
  /** Playwright's resource type: document, xhr, fetch, script, stylesheet, image… */
  type: string;
  status?: number;
  /** The browser's reason when no response came (net::ERR_…); never set beside a status. */
  failure?: string;
  /** Which document of the tab made it (as in console.ts). */
  document: number;
}

const REQUEST_LIMIT = 1000;
const URL_MAX = 200;
/** What a page loads to look the way it does: left out unless asked for. */
export const STATIC_TYPES = new Set(['image', 'font', 'stylesheet', 'media', 'manifest', 'texttrack']);

/**
 * The log itself, fed by a host: each host reports a request when it is sent, its status when it
 * is answered, its failure when none came (a Playwright Request object or a CDP requestId as the key).
 */
export class NetworkLog {
  readonly entries: RequestEntry[] = [];
  dropped = 0;
  /** What the log cannot have seen (a host that started watching after the page opened), said with every answer. */
  note?: string;
  private document = 0;
  private readonly byRequest = new Map<unknown, RequestEntry>();

  /** A request sent; `newDocument`: the main frame's navigation request (a new document of the tab). */
  sent(key: unknown, r: { method: string; url: string; type: string }, newDocument: boolean): void {
    if (newDocument) this.document++;
    if (/^(data|blob):/.test(r.url)) return;
    const e: RequestEntry = { ...r, document: this.document };
    // A key seen again (a redirect's next hop) moves to the end, with its new request.
    this.byRequest.delete(key);
    this.byRequest.set(key, e);
    this.entries.push(e);
    if (this.entries.length > REQUEST_LIMIT) {
      this.entries.shift();
      this.dropped++;
      // Keys go in the order their requests came: the oldest is the one just dropped.
      this.byRequest.delete(this.byRequest.keys().next().value);
    }
  }

  answered(key: unknown, status: number): void {
    const e = this.byRequest.get(key);
    if (e) e.status = status;
  }

  /**
   * The browser gave up on the request. After an answer that is about the body (a 404 whose body
   * the page never read, a fetch aborted after its headers ends as net::ERR_ABORTED, while the
   * console says the status): what the server answered stands, and no failure is recorded.
   */
  failed(key: unknown, reason: string): void {
    const e = this.byRequest.get(key);
    if (e && e.status === undefined) e.failure = reason;
  }

  get currentDocument(): number {
    return this.document;
  }
}

export function failed(e: RequestEntry): boolean {
  return e.failure !== undefined || (e.status !== undefined && e.status >= 400);
}

export function renderRequest(e: RequestEntry): string {
  const url = e.url.length > URL_MAX ? `${e.url.slice(0, URL_MAX - 1)}…` : e.url;
  // What the server answered, when it answered (see failed()); the failure alone means no answer.
  const outcome = e.status !== undefined ? String(e.status) : e.failure ?? 'pending';
  return `${e.method} ${url} → ${outcome} (${e.type})`;
}
