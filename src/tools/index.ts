// The tool registry's surface: what the MCP server, the CLI and library users import (runTool on a
// Playwright lens is the CDP host's: src/browser/tools/registry.ts).
export { toolDefinitions, inputSchema, TOOLS, TOOL_NAMES, type DefinitionOptions, type McpToolDefinition, type OpenAiToolDefinition, type Json } from './dispatch.js';
export type { ToolResult, ToolDef } from './types.js';
export { treeDelta, type TreeDelta, type TreeChange } from './delta.js';
export type { ModalState } from './modal.js';
export type { TabHost, TabInfo } from './host.js';
export type { ConsoleEntry, ConsoleLevel } from './console.js';
export { DEFAULT_TOOLSET, TOOL_GROUPS, type ToolGroup } from './toolset.js';
