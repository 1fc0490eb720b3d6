// Which tools a client is offered. Every definition a client lists is paid for in tokens on every
// turn of its conversation, so the default set is the handful a task needs (read, navigate, click,
// type, choose, press, wait, answer a dialog), and the rest come in groups a user opts into
// (`pagelens mcp --tools core,explore`, or `--tools all`), the way Playwright MCP offers its caps.
// A tool left out is refused by name with the flag that brings it, never silently missing.
import { PagelensError } from '../../model/contracts/errors.js';

/** The groups, each a list of tool names; every tool of the registry is in exactly one (a test says so). */
export const TOOL_GROUPS = {
  core: ['browser_navigate', 'browser_navigate_back', 'page_snapshot', 'browser_click', 'browser_type', 'browser_select_option', 'browser_press_key', 'browser_hover', 'browser_wait_for', 'browser_handle_dialog', 'browser_page_text', 'browser_more'],
  forms: ['browser_fill_form', 'browser_check', 'browser_file_upload'],
  explore: ['dom_overview', 'snapshot_regions', 'expand_region', 'element_context', 'dom_search', 'dom_diff'],
  intent: ['observe', 'act', 'extract'],
  mouse: ['browser_scroll', 'browser_drag'],
  vision: ['browser_take_screenshot'],
  tabs: ['browser_tabs', 'browser_close', 'browser_resize'],
  logs: ['browser_console_messages', 'browser_network_requests', 'recent_events'],
  webmcp: ['browser_webmcp_list', 'browser_webmcp_call'],
  state: ['browser_storage_state'],
} as const satisfies Record<string, readonly string[]>;

export type ToolGroup = keyof typeof TOOL_GROUPS;
export const GROUP_NAMES = Object.keys(TOOL_GROUPS) as ToolGroup[];

/** What `pagelens mcp` and `pagelens tools` offer when not told otherwise. */
export const DEFAULT_TOOLSET: readonly string[] = ['core'];

/**
 * Options of a tool that serve another group's work: page_snapshot's other modes are for exploring
 * and seeing, typing key by key is for forms, modifier keys for the mouse. A definition shows such
 * an option only when one of its groups is offered too, since a client pays for every option it is
 * shown, on every turn. A call that gives one anyway is served: leaving it out is about cost, not rights.
 */
export const GROUP_OPTIONS: Readonly<Record<string, Readonly<Record<string, readonly ToolGroup[]>>>> = {
  page_snapshot: { mode: ['explore', 'vision'], format: ['explore', 'vision'], ceiling: ['explore', 'vision'] },
  browser_type: { slowly: ['forms'] },
  browser_click: { modifiers: ['mouse'] },
};

/** The options of `tool` a client offered the tools `offered` is not shown (none when every tool is offered). */
export function hiddenOptions(tool: string, offered?: ReadonlySet<string>): string[] {
  const options = GROUP_OPTIONS[tool];
  if (!options || !offered) return [];
  const groups = new Set(GROUP_NAMES.filter((g) => TOOL_GROUPS[g].some((n: string) => offered.has(n))));
  return Object.entries(options).filter(([, gs]) => !gs.some((g) => groups.has(g))).map(([option]) => option);
}

/** The group a tool is in. */
export function groupOf(tool: string): ToolGroup | undefined {
  return GROUP_NAMES.find((g) => (TOOL_GROUPS[g] as readonly string[]).includes(tool));
}

/**
 * The tool names a spec selects, in registry order: group names, `all`, and single tool names,
 * e.g. ["core", "tabs", "browser_take_screenshot"]. An unknown word is refused with the choices.
 */
export function selectTools(spec: readonly string[], registry: readonly string[]): Set<string> {
  const chosen = new Set<string>();
  for (const raw of spec) {
    const word = raw.trim();
    if (!word) continue;
    if (word === 'all') registry.forEach((n) => chosen.add(n));
    else if (word in TOOL_GROUPS) TOOL_GROUPS[word as ToolGroup].forEach((n) => chosen.add(n));
    else if (registry.includes(word)) chosen.add(word);
    else throw new PagelensError('BAD_INPUT', `--tools: "${word}" is neither a group (${GROUP_NAMES.join(', ')}, all) nor a tool name.`);
  }
  if (!chosen.size) throw new PagelensError('BAD_INPUT', `--tools selects no tool; give groups (${GROUP_NAMES.join(', ')}, all) or tool names.`);
  return new Set(registry.filter((n) => chosen.has(n)));
}

/** Why a tool the client did not get cannot be called: which flag brings it. */
export function notOfferedReason(tool: string): string {
  const group = groupOf(tool);
  return `${tool} is not in this server's tool set: start it with --tools ${group ? `core,${group}` : 'all'} (or --tools all).`;
}
