// The tool registry on the CDP host: runTool runs a tool of the one registry (src/tools/registry/dispatch.ts)
// on a Playwright lens, through its tool context (context.ts). What the MCP server, the backend and
// library users call; the definitions are src/tools' own (src/tools/index.ts).
import type { Lens } from '../lens.js';
import { toolContextOf } from './context.js';
import { runToolIn, runToolInSafely } from '../../tools/registry/dispatch.js';
import type { TabHost } from '../../tools/registry/host.js';
import type { ToolResult } from '../../tools/registry/types.js';

export interface RunToolOptions {
  /** The browser's holder: browser_tabs and browser_close need it (the MCP server passes its own). */
  host?: TabHost<Lens>;
  /** The tools the client was offered (see tools/toolset.ts selectTools); any other is refused with the flag that brings it. */
  offered?: ReadonlySet<string>;
  /** Answers as compact text (default) or as the JSON payload (a client that parses them). */
  answers?: 'text' | 'json';
}

/** Runs one tool on a lens (see runToolIn): bad input throws BAD_INPUT, failures of the page come back with isError. */
export async function runTool(lens: Lens, name: string, args: unknown = {}, options: RunToolOptions = {}): Promise<ToolResult> {
  return runToolIn(contextFor(lens, options), name, args);
}

/** runTool, with every error as an isError result (code and message): what a protocol face sends. */
export async function runToolSafely(lens: Lens, name: string, args: unknown, options: RunToolOptions = {}): Promise<ToolResult> {
  return runToolInSafely(() => contextFor(lens, options), name, args);
}

function contextFor(lens: Lens, options: RunToolOptions) {
  const ctx = toolContextOf(lens, options.host);
  if (options.offered) ctx.offered = options.offered;
  if (options.answers) ctx.answers = options.answers;
  // browser_tabs new: the new tab's context is made the same way. The tab is what this holder's
  // newTab answered, a Lens (src/tools, which knows no host, holds it as unknown).
  ctx.contextOf = (other) => contextFor(other as Lens, options);
  return ctx;
}
