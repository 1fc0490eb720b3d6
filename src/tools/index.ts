// The tool registry's surface: what the MCP server, the CLI and library users import (runTool on a
// Playwright lens is the CDP host's: src/browser/tools/runTool.ts).
export { toolDefinitions, inputSchema, TOOLS, TOOL_NAMES, type DefinitionOptions, type McpToolDefinition, type OpenAiToolDefinition, type Json } from './registry/dispatch.js';
export type { ToolResult, ToolDef } from './registry/types.js';
export { treeDelta, type TreeDelta, type TreeChange } from './answers/delta.js';
export type { ModalState } from './input/modal.js';
export type { TabHost, TabInfo } from './registry/host.js';
export type { ConsoleEntry, ConsoleLevel } from './logs/console.js';
export { DEFAULT_TOOLSET, TOOL_GROUPS, type ToolGroup } from './registry/toolset.js';
