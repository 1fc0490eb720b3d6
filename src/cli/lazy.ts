// What a command needs from the heavy side (a browser driver, a server, the MCP SDK) is loaded when
// that command runs, not when the CLI starts: `pagelens --help` and `--version` answer without
// loading playwright-core. Type-only imports cost nothing at run time.
import type { OpenOptions, OpenPage } from '../session/open.js';

/** `openPage` from src/session, imported on first use. */
export async function openPage(target: string, opts: OpenOptions = {}): Promise<OpenPage> {
  return (await import('../session/open.js')).openPage(target, opts);
}
