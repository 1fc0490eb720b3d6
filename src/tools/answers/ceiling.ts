// Every tool's answer has a token ceiling (o200k): a default per tool, and a `ceiling` argument on
// every tool to move it. An answer over it is cut into pages: the first is sent with a line that
// says which page it is and how to read the next (browser_more), so nothing is dropped silently.
// Tools that can cut their own answer better (console messages by `since`, the page's text by
// page) read the ceiling from the context and stay under it themselves.
import { z } from 'zod';
import { PagelensError } from '../../model/contracts/errors.js';
import { pageOfText } from './budget.js';
import type { ToolState } from '../registry/state.js';
import { defineTool, type ToolDef, type ToolResult } from '../registry/types.js';

export const DEFAULT_CEILING = 6000;
/** Tools whose answers are usually read in full, or usually skimmed. */
const CEILINGS: Record<string, number> = {
  page_snapshot: 8000, browser_navigate: 8000, browser_navigate_back: 8000, browser_tabs: 8000,
  browser_console_messages: 2000, recent_events: 2000, browser_network_requests: 2000,
};
/** How else to get what was cut, per tool. */
const ALTERNATIVES: Record<string, string> = {
  page_snapshot: ', or ask page_snapshot with query=… (the task) and maxTokens',
  dom_overview: ', or open one region with expand_region',
  snapshot_regions: ', or open one region with expand_region',
};
const MIN_CEILING = 200;
const MAX_CEILING = 200_000;

export function ceilingOf(tool: string): number {
  return CEILINGS[tool] ?? DEFAULT_CEILING;
}

function footer(tool: string, page: number, pages: number, ceiling: number): string {
  const next = page < pages ? `: browser_more page=${page + 1} for the next${ALTERNATIVES[tool] ?? ''}` : '';
  return `\n[${tool} answer cut at ${ceiling} tokens: page ${page} of ${pages}${next}]`;
}

/** Sends the first page of an answer over the ceiling, and keeps the whole for browser_more. */
async function cut(state: ToolState, tool: string, r: ToolResult, ceiling: number): Promise<ToolResult> {
  const p = await pageOfText(r.text, ceiling, 1);
  if (p.pages === 1) return r;
  state.cut = { tool, text: r.text, ceiling };
  return { ...r, text: p.text + footer(tool, 1, p.pages, ceiling) };
}

/**
 * Tools whose answers are read in full and can run long, which offer `ceiling` to move it. The
 * others are held under their default all the same: an argument nobody moves is paid for in every
 * definition a client lists.
 */
const MOVABLE = new Set(['page_snapshot', 'browser_tabs', 'browser_console_messages', 'recent_events', 'browser_network_requests', 'dom_overview', 'snapshot_regions', 'expand_region', 'dom_search', 'element_context', 'extract', 'observe']);

/** The tool with its answer held under its ceiling, and a `ceiling` argument where it may be moved. */
export function withCeiling(tool: ToolDef): ToolDef {
  const limit = ceilingOf(tool.name);
  const ceiling = z.number().int().min(MIN_CEILING).max(MAX_CEILING).optional()
    .describe(`Most tokens (default ${limit})`);
  return {
    ...tool,
    input: MOVABLE.has(tool.name) ? tool.input.extend({ ceiling }) : tool.input,
    run: async (ctx, args) => {
      const { ceiling: asked, ...rest } = args as { ceiling?: number };
      const max = asked ?? limit;
      return cut(ctx.state, tool.name, await tool.run({ ...ctx, ceiling: max }, rest), max);
    },
  };
}

export const MORE_TOOL: ToolDef = defineTool({
  name: 'browser_more',
  description: 'Another page of the last cut answer.',
  input: z.strictObject({ page: z.number().int().min(2) }),
  run: async ({ state }, a) => {
    const last = state.cut;
    if (!last) throw new PagelensError('NOT_ACTIONABLE', 'No answer was cut: there is nothing more to read.');
    const p = await pageOfText(last.text, last.ceiling, a.page);
    if (p.page !== a.page) throw new PagelensError('BAD_INPUT', `The last cut answer (${last.tool}) has ${p.pages} pages; page ${a.page} does not exist.`);
    return { text: p.text + footer(last.tool, p.page, p.pages, last.ceiling), data: { tool: last.tool, page: p.page, pages: p.pages } };
  },
});
