// The tool registry on the CDP host: runTool runs a tool of the one registry (dispatch.ts) on a
// Playwright lens, through its tool context (cdp.ts). What the MCP server, the backend and
// library users call; the definitions are re-exported from dispatch.ts.
import type { Lens } from '../browser/lens.js';
import { toolContextOf } from './cdp.js';
import { runToolIn, runToolInSafely } from './dispatch.js';
import type { TabHost } from './host.js';
import type { ToolResult } from './types.js';

export { inputSchema, PAGE_CONTENT_NOTE, PAGE_CONTENT_RULE, toolDefinitions, TOOL_NAMES, TOOLS, type Json, type McpToolDefinition, type OpenAiToolDefinition } from './dispatch.js';

export interface RunToolOptions {
  /** The browser's holder: browser_tabs and browser_close need it (the MCP server passes its own). */
  host?: TabHost;
  /** The tools the client was offered (see toolset.ts selectTools); any other is refused with the flag that brings it. */
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
  // browser_tabs new: the new tab's context is made the same way.
  ctx.contextOf = (other) => contextFor(other, options);
  return ctx;
}
