// The tool registry in the extension: the same definitions (names, input schemas) and the same
// dispatcher as the MCP server (src/tools/registry/dispatch.ts), run on a tab's tool context — the
// extension's lens (lens.ts: src/core/lens.ts over this host), its act pipeline (act.ts) and its HostPage
// (hostPage.ts). Tools this host cannot run are listed as unavailable, each with the reason.
import type { Action } from '../../src/model/contracts/actions.js';
import { parseExpectSpec, type ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import { mcpDefinition, runToolInSafely, toolAvailability } from '../../src/tools/registry/dispatch.js';
import type { ToolLens } from '../../src/tools/registry/toolLens.js';
import type { ToolResult } from '../../src/tools/registry/result.js';
import { stateOf } from '../../src/tools/registry/state.js';
import { jsonResult, type ToolContext, type ToolNeed } from '../../src/tools/registry/types.js';
import { act } from './tabAct.js';
import { markedShot, MIME, shotType, wantsMarks, type ShotArgs } from '../../src/tools/reading/screenshot.js';
import { base64 } from './image.js';
import { hostPageOf } from './hostPage.js';
import { lensOf as readsOf, photographCovered, snapshot } from './tabLens.js';
import { recentEvents } from './snapshot.js';
import { ExtensionError, restoreTab } from './tab.js';
import { extensionActHost } from './hostEngine.js';

/** Why the extension cannot run what a tool needs (the registry adds the tool's name). */
const REASONS: Partial<Record<ToolNeed, string>> = {
  axtree: 'the extension does not read Chrome\'s accessibility tree',
  markGestureTargets: 'listeners are found with DOMDebugger.getEventListeners on the CDP host only',
  webMcpTools: 'WebMCP is read through the CDP WebMCP domain of a Chromium started with --enable-features=WebMCP, on the CDP host only so far',
  callWebMcpTool: 'WebMCP is read through the CDP WebMCP domain of a Chromium started with --enable-features=WebMCP, on the CDP host only so far',
  'extras.setInputFiles': 'files cannot be handed to a page from an extension',
  'extras.watchChoosers': 'files cannot be handed to a page from an extension',
  tabs: 'tabs are the user\'s in the extension: the tools act on the tab they were called for',
};

/** The tools' lens for one tab: the tab's lens (lens.ts, src/core/lens.ts over this host), the shared act pipeline, the mutation log. */
function lensOf(tabId: number): ToolLens {
  const expectOf = (e: string | ExpectedOutcome | undefined) => (typeof e === 'string' ? parseExpectSpec(e) : e);
  const reads = readsOf(tabId);
  return {
    snapshot: ((options: Record<string, unknown> = {}) => snapshot(tabId, options)) as ToolLens['snapshot'],
    act: (action: string | Action, options = {}) => {
      const expect = expectOf(options.expect);
      return act(tabId, action, expect ? { expect } : {});
    },
    text: (options = {}) => reads.text({ fullPage: options.fullPage ?? false }),
    recentEvents: (limit = 10) => recentEvents(tabId, limit),
    overview: (params) => reads.overview(params),
    regions: (options) => reads.regions(options),
    expandRegion: (region, options) => reads.expandRegion(region, options),
    elementContext: (target, options) => reads.elementContext(target, options),
    search: (query, options) => reads.search(query, options),
    diff: (snapshotA, snapshotB) => reads.diff(snapshotA, snapshotB),
    observe: (instruction, options) => reads.observe(instruction, options),
    actOn: (instruction, options) => reads.actOn(instruction, options),
    extract: (instruction, schema, options) => reads.extract(instruction, schema, options),
    pageText: () => reads.pageText(),
  };
}

/** The tool context of a tab: made once per tab, so that its tool state (baseline, modal, console) lasts. */
const contexts = new Map<number, ToolContext>();

async function contextOf(tabId: number, attach = true): Promise<ToolContext> {
  // What the service worker knew of the tab comes back first (a worker Chrome stopped and woke).
  await restoreTab(tabId);
  const page = hostPageOf(tabId);
  let ctx = contexts.get(tabId);
  if (!ctx) {
    // The request log is the tab's HostPage's (Network domain of chrome.debugger), from its first call on.
    page.network.note ??= 'requests are logged from the extension\'s first tool call on this tab (when it attached its debugger); earlier ones, such as the page\'s own load, are not in this log';
    ctx = { lens: lensOf(tabId), page, port: extensionActHost(tabId, true), extras: { networkLog: () => page.network, screenshot: (a) => screenshot(tabId, a) }, state: stateOf(page, {}) };
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
  return { tools: available.map((t) => mcpDefinition(t)), unavailable };
}

/** tools/call: one tool on the tab, every failure an isError answer with its code, as the MCP server sends it. */
export function callTool(tabId: number, name: string, args: unknown = {}): Promise<ToolResult> {
  return runToolInSafely(() => contextOf(tabId), name, args, REASONS);
}

/**
 * browser_take_screenshot's plain image here: the visible tab as Chrome photographs it (PNG). The
 * set-of-mark view (the default) is the registry's, over the hybrid snapshot; what needs Playwright
 * or sharp is refused with the reason.
 */
async function screenshot(tabId: number, a: ShotArgs): Promise<ToolResult> {
  if (a.fullPage || a.id) throw new ExtensionError('BAD_INPUT', 'a whole page or one element is captured by scrolling and clipping with Playwright on the CDP host; the extension photographs the visible tab: leave out fullPage and id');
  if (wantsMarks(a)) return markedShot(lensOf(tabId), a);
  if (shotType(a) !== 'png') throw new ExtensionError('BAD_INPUT', `a plain ${shotType(a)} image is encoded with sharp on the CDP host; the extension gives the tab's own PNG (type png) or the set-of-mark view (PNG by default, JPEG with type jpeg)`);
  // Secret fields that show their value are painted over, as in every image this host gives.
  const shot = await photographCovered(tabId);
  const bytes = shot.png;
  const data = { url: (await chrome.tabs.get(tabId)).url ?? '', of: 'visible tab', type: 'png', width: shot.width, height: shot.height, bytes: bytes.length, ...(shot.warnings.length && { warnings: shot.warnings }) };
  return { ...jsonResult(data), images: [{ data: base64(bytes), mimeType: MIME.png }] };
}
