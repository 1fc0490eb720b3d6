// The tool registry's surface: what the MCP server, the CLI and library users import.
export { runTool, runToolSafely, toolDefinitions, inputSchema, TOOLS, TOOL_NAMES, type McpToolDefinition, type OpenAiToolDefinition, type RunToolOptions, type Json } from './registry.js';
export type { ToolResult, ToolDef } from './types.js';
export { treeDelta, type TreeDelta, type TreeChange } from './delta.js';
export type { ModalState } from './modal.js';
export type { TabHost, TabInfo } from './host.js';
export { watchConsole } from './cdp.js';
export type { ConsoleEntry, ConsoleLevel } from './console.js';
