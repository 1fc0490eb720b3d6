// The tool registry in the extension: the same definitions (names, input schemas) and the same
// dispatcher as the MCP server (src/tools/dispatch.ts), run on a tab's tool context — the
// extension's lens-level reads and acts (snapshot.ts, act.ts, verify.ts) and its HostPage
// (hostPage.ts). Tools this host cannot run are listed as unavailable, each with the reason.
import type { Action } from '../../src/model/contracts/actions.js';
import { parseExpectSpec, type ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import { renderText } from '../../src/model/renderers/render.js';
import { inputSchema, PAGE_CONTENT_NOTE, runToolInSafely, toolAvailability } from '../../src/tools/dispatch.js';
import type { ToolLens } from '../../src/tools/lens.js';
import type { ToolResult } from '../../src/tools/result.js';
import { stateOf } from '../../src/tools/state.js';
import type { ToolContext, ToolNeed } from '../../src/tools/types.js';
import { act } from './act.js';
import { hostPageOf } from './hostPage.js';
import { readModel, recentEvents, snapshot } from './snapshot.js';
import { ExtensionError } from './tab.js';
import { extensionActHost } from './hostEngine.js';

/** Why the extension cannot run what a tool needs (the registry adds the tool's name). */
const REASONS: Partial<Record<ToolNeed, string>> = {
  axtree: 'the extension does not read Chrome\'s accessibility tree',
  markGestureTargets: 'listeners are found with DOMDebugger.getEventListeners on the CDP host only',
  overview: 'exploration (overview, regions, search, diff) runs on the CDP host only so far',
  regions: 'exploration (overview, regions, search, diff) runs on the CDP host only so far',
  expandRegion: 'exploration (overview, regions, search, diff) runs on the CDP host only so far',
  elementContext: 'exploration (overview, regions, search, diff) runs on the CDP host only so far',
  search: 'exploration (overview, regions, search, diff) runs on the CDP host only so far',
  diff: 'exploration (overview, regions, search, diff) runs on the CDP host only so far',
  observe: 'observe/act/extract (ranking, retrieval) run on the CDP host only so far',
  actOn: 'observe/act/extract (ranking, retrieval) run on the CDP host only so far',
  extract: 'observe/act/extract (ranking, retrieval) run on the CDP host only so far',
  pageText: 'the text-blocks reader (browser_page_text) runs on the CDP host only so far',
  webMcpTools: 'WebMCP is read through the CDP WebMCP domain of a Chromium started with --enable-features=WebMCP, on the CDP host only so far',
  callWebMcpTool: 'WebMCP is read through the CDP WebMCP domain of a Chromium started with --enable-features=WebMCP, on the CDP host only so far',
  'extras.screenshot': 'images in other formats and of the full page or one element are encoded with sharp on the CDP host; page_snapshot mode hybrid gives the set-of-mark screenshot here',
  'extras.networkLog': 'the request log is kept from Playwright\'s network events on the CDP host only',
  'extras.setInputFiles': 'files cannot be handed to a page from an extension',
  'extras.watchChoosers': 'files cannot be handed to a page from an extension',
  tabs: 'tabs are the user\'s in the extension: the tools act on the tab they were called for',
};

/** The extension's lens for one tab: its snapshot, the shared act pipeline, the text form and the mutation log. */
function lensOf(tabId: number): ToolLens {
  const expectOf = (e: string | ExpectedOutcome | undefined) => (typeof e === 'string' ? parseExpectSpec(e) : e);
  return {
    snapshot: ((options: Record<string, unknown> = {}) => {
      if (options.query !== undefined) throw new ExtensionError('BAD_INPUT', 'query (the task-filtered tree) is not offered by the extension: leave it out');
      return snapshot(tabId, options);
    }) as ToolLens['snapshot'],
    act: (action: string | Action, options = {}) => {
      const expect = expectOf(options.expect);
      return act(tabId, action, expect ? { expect } : {});
    },
    text: async (options = {}) => renderText(await readModel(tabId, { fullPage: options.fullPage ?? false })),
    recentEvents: (limit = 10) => recentEvents(tabId, limit),
  };
}

/** The tool context of a tab: made once per tab, so that its tool state (baseline, modal, console) lasts. */
const contexts = new Map<number, ToolContext>();

async function contextOf(tabId: number, attach = true): Promise<ToolContext> {
  const page = hostPageOf(tabId);
  let ctx = contexts.get(tabId);
  if (!ctx) {
    ctx = { lens: lensOf(tabId), page, port: extensionActHost(tabId, true), extras: {}, state: stateOf(page, {}) };
    contexts.set(tabId, ctx);
  }
  // After the tool state listens (console, dialogs, documents); again after Chrome detached the debugger.
  if (attach) await page.attach();
  return ctx;
}

export interface ExtensionToolList {
  tools: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
  unavailable: Array<{ name: string; reason: string }>;
}

/** tools/list: the registry's tools this tab can run (as MCP definitions), and the others with the reason. */
export async function listTools(tabId: number): Promise<ExtensionToolList> {
  // Listing does not attach the debugger (Chrome shows its bar while attached); the first call does.
  const { available, unavailable } = toolAvailability(await contextOf(tabId, false), REASONS);
  return { tools: available.map((t) => ({ name: t.name, description: `${t.description} ${PAGE_CONTENT_NOTE}`, inputSchema: inputSchema(t) })), unavailable };
}

/** tools/call: one tool on the tab, every failure an isError answer with its code, as the MCP server sends it. */
export function callTool(tabId: number, name: string, args: unknown = {}): Promise<ToolResult> {
  return runToolInSafely(() => contextOf(tabId), name, args, REASONS);
}
