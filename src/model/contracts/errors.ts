// Errors are part of the interface: a code a program can switch on, and a message an LLM can act on.
// Plain TypeScript, no zod: the in-page engine may import this file.

/** Every code pagelens emits, in thrown errors and in `ActionResult.error.code`. */
export const ERROR_CODES = [
  'BAD_INPUT',          // the caller's request is malformed; the message says what was expected
  'UNKNOWN_ID',         // no element has that ID any more (removed or re-rendered) and none could be recovered
  'NAVIGATED',          // the ID belongs to a document the page (or frame) has since left, or the page navigated mid-read
  'STALE_ID',           // the element behind the ID is no longer what the agent last saw (another role or name)
  'AMBIGUOUS',          // more than one element fits, and choosing would be a guess
  'COVERED',            // something (a modal, a banner) is on top of the element
  'NOT_ACTIONABLE',     // the element cannot take this action (hidden, disabled, not a field, not reachable)
  'NAVIGATION_FAILED',  // navigate/back/forward/reload did not complete
  'LOAD_FAILED',        // the page to open could not be loaded
  'FRAME_DETACHED',     // the frame went away
  'CDP_TIMEOUT',        // the browser did not answer in time
  'TIMEOUT',            // a tool call ran past its deadline (the server's --call-timeout) and was given up
  'CDP_ERROR',          // the browser answered with an error
  'ENGINE_ERROR',       // the in-page engine threw, or answered something that is not what it promises
  'NO_BROWSER',         // no Chromium could be found or started
  'BROWSER_LOST',       // the browser (a browser server's, a fleet's) went away mid-session; the next call connects a new one
  'STORE_UNAVAILABLE',  // the session store replicas share (Redis) cannot be reached; nothing of the session was changed
  'BACKEND_ERROR',      // the negotiation backend could not be reached, refused the request, or answered off-contract
  'INTERNAL',           // a bug in pagelens itself
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class PagelensError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly details?: Record<string, unknown>) {
    super(message);
    this.name = 'PagelensError';
  }
}

export function isPagelensError(e: unknown, ...codes: ErrorCode[]): e is PagelensError {
  return e instanceof PagelensError && (codes.length === 0 || codes.includes(e.code));
}

/** Any thrown value as a PagelensError: ours pass through, anything else is a bug (INTERNAL). */
export function asPagelensError(e: unknown): PagelensError {
  if (e instanceof PagelensError) return e;
  const message = e instanceof Error ? e.message.split('\n')[0] : String(e);
  return new PagelensError('INTERNAL', message, e instanceof Error && e.stack ? { stack: e.stack } : undefined);
}
