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
}

/** Runs one tool on a lens (see runToolIn): bad input throws BAD_INPUT, failures of the page come back with isError. */
export async function runTool(lens: Lens, name: string, args: unknown = {}, options: RunToolOptions = {}): Promise<ToolResult> {
  return runToolIn(contextFor(lens, options.host), name, args);
}

/** runTool, with every error as an isError result (code and message): what a protocol face sends. */
export async function runToolSafely(lens: Lens, name: string, args: unknown, options: RunToolOptions = {}): Promise<ToolResult> {
  return runToolInSafely(() => contextFor(lens, options.host), name, args);
}

function contextFor(lens: Lens, host?: TabHost) {
  const ctx = toolContextOf(lens, host);
  // browser_tabs new: the new tab's context is made the same way.
  ctx.contextOf = (other) => contextFor(other, host);
  return ctx;
}
