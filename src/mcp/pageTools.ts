// The current page's WebMCP tools as MCP tools of their own (webmcp_<name>), offered with the
// `webmcp` group: listed after the server's own, kept current by a look after every call, and a
// change said with notifications/tools/list_changed. A call to one runs browser_webmcp_call on the
// page's tool as the page declares it now; a name the page no longer has is refused, never guessed.
// browser_webmcp_list / browser_webmcp_call stay, for clients that do not follow list changes.
import type { Lens } from '../browser/lens.js';
import { runToolSafely, type RunToolOptions } from '../browser/tools/runTool.js';
import { PAGE_TOOL_PREFIX, pageToolDefinitions, type PageToolDefinition } from '../tools/browser/webmcp.js';
import type { McpToolDefinition } from '../tools/registry/dispatch.js';
import type { ToolResult } from '../tools/registry/types.js';
import type { BrowserSession } from './browser.js';

/** The most a look after a call may take (less when the call's deadline is nearer). */
const LOOK_MS = 2000;

/** Whether a tool name is one of the page's (webmcp_…), not the server's own. */
export function isPageToolName(name: string): boolean {
  return name.startsWith(PAGE_TOOL_PREFIX);
}

export class PageTools {
  /** The page's tools as last read (empty before the first look, or with no browser open). */
  private current: PageToolDefinition[] = [];
  /** What the client was last told: the set it listed or was notified of. */
  private told = signature([]);

  constructor(private readonly session: BrowserSession) {}

  /** The definitions for tools/list; what it answers is what the client now knows. */
  definitions(): McpToolDefinition[] {
    this.told = signature(this.current);
    return this.current.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  }

  /**
   * After a call: reads the page's tools again (bounded by `budgetMs`, the call's deadline left) and
   * says whether they differ from what the client was last told, which then counts as told (the
   * caller sends the notification). A page that does not answer in time, or fails the read, keeps
   * the last reading.
   */
  async changedAfterCall(budgetMs: number): Promise<boolean> {
    const ms = Math.min(LOOK_MS, budgetMs);
    if (ms <= 0) return false;
    const read = this.read();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), ms); });
    const tools = await Promise.race([read, late]).finally(() => clearTimeout(timer));
    if (!tools) { void read.catch(() => {}); return false; }
    this.current = tools;
    const now = signature(tools);
    if (now === this.told) return false;
    this.told = now;
    return true;
  }

  /** Runs webmcp_<name> on `lens`: the page's tool of that name now, through browser_webmcp_call. */
  async call(lens: Lens, name: string, args: Record<string, unknown>, options: RunToolOptions): Promise<ToolResult> {
    let declared;
    try {
      declared = await lens.webMcpTools();
    } catch (e) {
      // Not read is not "not declared": the call is refused with why, and the list stays as it was.
      const message = `${name} was not called: the page's tools could not be read (${(e as Error).message.split('\n')[0]})`;
      return { text: `ENGINE_ERROR: ${message}`, data: { error: { code: 'ENGINE_ERROR', message } }, isError: true };
    }
    this.current = pageToolDefinitions(declared);
    const def = this.current.find((d) => d.name === name);
    if (!def) {
      const now = this.current.map((d) => d.name).join(', ') || 'none';
      const message = `${name} is not a tool of the current page: the page that declared it was left, or it no longer declares it. The page's tools now: ${now} (tools/list has them; browser_webmcp_list too).`;
      return { text: `BAD_INPUT: ${message}`, data: { error: { code: 'BAD_INPUT', message } }, isError: true };
    }
    return runToolSafely(lens, 'browser_webmcp_call', { name: def.tool.name, params: JSON.stringify(args), ...(def.tool.frame !== undefined && { frame: def.tool.frame }) }, options);
  }

  /**
   * The page's tools now: none with no browser open; undefined when they could not be read (a
   * browser without WebMCP, a page that failed the read), so that the last reading stands rather
   * than a failure passing for a page that declares nothing.
   */
  private async read(): Promise<PageToolDefinition[] | undefined> {
    const opening = this.session.openLens();
    if (!opening) return [];
    const lens = await opening.catch(() => undefined);
    return lens?.webMcpTools().then(pageToolDefinitions, () => undefined);
  }
}

/** What a client would see of the set: names, descriptions and schemas. */
function signature(defs: readonly PageToolDefinition[]): string {
  return JSON.stringify(defs.map(({ name, description, inputSchema }) => [name, description, inputSchema]));
}
