// Errors are part of the interface: a code a program can switch on, and a message an LLM can act on.
export type ErrorCode =
  | 'NAVIGATED'        // the document changed while we were reading it
  | 'FRAME_DETACHED'   // the frame went away
  | 'UNKNOWN_ID'       // no element has (or still has) that ID
  | 'CDP_TIMEOUT'      // the browser did not answer in time
  | 'CDP_ERROR'        // the browser answered with an error
  | 'BAD_INPUT'        // the caller's request is malformed
  | 'NO_BROWSER'       // no Chromium could be found or started
  | 'ENGINE_ERROR';    // the in-page engine threw

export class PagelensError extends Error {
  constructor(readonly code: ErrorCode, message: string, readonly details?: Record<string, unknown>) {
    super(message);
    this.name = 'PagelensError';
  }
}
