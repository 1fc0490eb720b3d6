// The backend's limits, apart from the app so that the CLI can show them in `--help` without
// loading the server (hono).

/** Request bodies above this are refused with 413 unless the server is configured otherwise. */
export const DEFAULT_MAX_BODY = 10 * 1024 * 1024;

/** A request the planner has not answered by then gets 504. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
