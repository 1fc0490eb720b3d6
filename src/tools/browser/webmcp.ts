// browser_webmcp_list / browser_webmcp_call: the tools a page declares for agents through WebMCP
// (document.modelContext.registerTool), every frame's, callable by name. Names, descriptions,
// schemas and outputs come from the page: they are presented as the page's words, never as
// pagelens's own, and a tool's output is sent as JSON under a line that says whose it is.
import { z } from 'zod';
import type { ToolLens } from '../registry/toolLens.js';
import { PagelensError } from '../../model/contracts/errors.js';
import { defineTool, type ToolDef } from '../registry/types.js';

const DESCRIPTION_MAX = 300;

type WebMcpTool = Awaited<ReturnType<NonNullable<ToolLens['webMcpTools']>>>[number];

function renderTool(t: WebMcpTool): string {
  const flags = [t.annotations?.readOnly && 'readOnly', t.annotations?.consequential && 'consequential'].filter(Boolean);
  const where = t.frame ? ` (frame ${t.frame}: ${t.frameUrl})` : '';
  const description = t.description.length > DESCRIPTION_MAX ? `${t.description.slice(0, DESCRIPTION_MAX - 1)}…` : t.description;
  const lines = [`- ${JSON.stringify(t.name)}${flags.length ? ` [${flags.join(', ')}]` : ''}${where}: ${JSON.stringify(description)}`];
  if (t.inputSchema) lines.push(`  input: ${JSON.stringify(t.inputSchema)}`);
  return lines.join('\n');
}

/** One line for answers that read a page anew: its WebMCP tools by name, if it has any. */
export async function webMcpLine(lens: ToolLens): Promise<string | undefined> {
  // A browser without WebMCP (an attached one, the extension) has no page tools to name: the line is left out.
  if (!lens.webMcpTools) return undefined;
  const tools = await lens.webMcpTools().catch(() => []);
  if (!tools.length) return undefined;
  return `${tools.length} page tool${tools.length === 1 ? '' : 's'} (WebMCP): ${tools.map((t) => JSON.stringify(t.name)).join(', ')}; see browser_webmcp_list`;
}

function pick(tools: WebMcpTool[], name: string, frame?: number): WebMcpTool {
  const named = tools.filter((t) => t.name === name && (frame === undefined || t.frame === frame));
  if (named.length === 1) return named[0];
  if (!named.length) {
    const known = tools.map((t) => JSON.stringify(t.name)).join(', ') || 'none';
    throw new PagelensError('BAD_INPUT', `No WebMCP tool ${JSON.stringify(name)}${frame === undefined ? '' : ` in frame ${frame}`}; the page's tools: ${known}.`);
  }
  throw new PagelensError('AMBIGUOUS', `${JSON.stringify(name)} is registered in frames ${named.map((t) => t.frame).join(', ')}: give frame.`);
}

function parseParams(text: string | undefined): object {
  if (text === undefined) return {};
  let v: unknown;
  try { v = JSON.parse(text); } catch (e) { throw new PagelensError('BAD_INPUT', `params must be a JSON object in a string, e.g. {"query":"cats"}: ${(e as Error).message}`); }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new PagelensError('BAD_INPUT', 'params must be a JSON object, e.g. {"query":"cats"}.');
  return v;
}

export const WEBMCP_TOOLS: ToolDef[] = [
  defineTool({
    name: 'browser_webmcp_list',
    description: 'Tools the page itself declares for agents (WebMCP, navigator/document.modelContext), every frame\'s, with their input schemas. Their names and descriptions are the page\'s words.',
    input: z.strictObject({}),
    needs: ['webMcpTools'],
    run: async ({ lens }) => {
      const tools = await lens.webMcpTools!();
      const head = tools.length
        ? `${tools.length} WebMCP tool(s) declared by the page (names, descriptions and schemas are page-provided, untrusted):`
        : 'The page declares no WebMCP tools.';
      return { text: [head, ...tools.map(renderTool)].join('\n'), data: { tools } };
    },
  }),
  defineTool({
    name: 'browser_webmcp_call',
    description: 'Call a tool the page declares (see browser_webmcp_list) with its input; answers with the tool\'s output, which is the page\'s words.',
    input: z.strictObject({
      name: z.string().min(1).describe('The tool\'s name'),
      params: z.string().optional().describe('Its input as a JSON object in a string, e.g. {"query":"cats"} (default {})'),
      frame: z.number().int().min(0).optional().describe('The frame that declares it, when two frames declare the same name'),
    }),
    needs: ['webMcpTools', 'callWebMcpTool'],
    run: async ({ lens }, a) => {
      const input = parseParams(a.params);
      const tool = pick(await lens.webMcpTools!(), a.name, a.frame);
      const r = await lens.callWebMcpTool!(tool as never, input);
      const where = tool.frame ? ` in frame ${tool.frame}` : '';
      if (r.status !== 'Completed') {
        return { text: `The page's tool ${JSON.stringify(tool.name)}${where} did not complete (${r.status}): ${JSON.stringify(r.errorText ?? '')}`, data: r, isError: true };
      }
      return { text: `The page's tool ${JSON.stringify(tool.name)}${where} answered (page-provided output, untrusted):\n${JSON.stringify(r.output ?? null)}`, data: r };
    },
  }),
];

// ---- the page's tools as MCP tools of their own (webmcp_<name>), for clients that follow tool-list changes ----

/** What every page tool's MCP name starts with: no registry tool does, so the two never collide. */
export const PAGE_TOOL_PREFIX = 'webmcp_';
/** MCP allows 128 characters; some clients (and model APIs) take 64 at most, in [A-Za-z0-9_-]. */
const PAGE_TOOL_NAME_MAX = 64;
/** A page may declare any number of tools; a client pays for every one listed, on every turn. */
export const PAGE_TOOLS_MAX = 32;
/** A schema past these bounds is not the page's to impose on the list: the tool takes a free-form object. */
const SCHEMA_MAX_CHARS = 8000;
const SCHEMA_MAX_DEPTH = 12;
const FREE_FORM = { type: 'object', additionalProperties: true } as const;

export interface PageToolDefinition {
  /** Its MCP name (webmcp_<name>, sanitized, bounded, unique). */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The page's tool it calls: its own name and the frame that declares it. */
  tool: { name: string; frame?: number };
}

/**
 * The page's input schema if it can stand in a tools/list answer: a JSON object schema (MCP requires
 * `type: "object"`), within the size and depth bounds, `properties` an object of objects and
 * `required` a list of strings. Anything else (a hostile or broken schema) gives the free-form object,
 * with the reason, so that one page's schema can never make the whole list invalid.
 */
export function pageToolSchema(schema: unknown): { schema: Record<string, unknown>; refused?: string } {
  if (schema === undefined) return { schema: { ...FREE_FORM } };
  let text: string;
  try { text = JSON.stringify(schema); } catch { return { schema: { ...FREE_FORM }, refused: 'not JSON' }; }
  if (text === undefined || text.length > SCHEMA_MAX_CHARS) return { schema: { ...FREE_FORM }, refused: `over ${SCHEMA_MAX_CHARS} characters` };
  const copy = JSON.parse(text) as unknown;
  if (!isPlainObject(copy)) return { schema: { ...FREE_FORM }, refused: 'not an object' };
  if (depthOf(copy) > SCHEMA_MAX_DEPTH) return { schema: { ...FREE_FORM }, refused: `nested deeper than ${SCHEMA_MAX_DEPTH}` };
  if (copy.type === undefined) copy.type = 'object';
  if (copy.type !== 'object') return { schema: { ...FREE_FORM }, refused: `of type ${JSON.stringify(copy.type).slice(0, 40)}, not object` };
  if (copy.properties !== undefined && !(isPlainObject(copy.properties) && Object.values(copy.properties).every((p) => isPlainObject(p) || typeof p === 'boolean'))) {
    return { schema: { ...FREE_FORM }, refused: 'its properties are not schemas' };
  }
  if (copy.required !== undefined && !(Array.isArray(copy.required) && copy.required.every((r) => typeof r === 'string'))) {
    return { schema: { ...FREE_FORM }, refused: 'its required list is not names' };
  }
  return { schema: copy };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function depthOf(v: unknown, d = 0): number {
  if (d > SCHEMA_MAX_DEPTH) return d;
  if (!v || typeof v !== 'object') return d;
  let max = d;
  for (const x of Object.values(v)) max = Math.max(max, depthOf(x, d + 1));
  return max;
}

/** webmcp_<name> with every character MCP clients refuse replaced, bounded, and not yet taken. */
function pageToolName(name: string, taken: Set<string>): string {
  const body = name.normalize('NFKD').replace(/\p{M}+/gu, '').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'tool';
  const base = `${PAGE_TOOL_PREFIX}${body}`.slice(0, PAGE_TOOL_NAME_MAX);
  let candidate = base;
  for (let k = 2; taken.has(candidate); k++) candidate = `${base.slice(0, PAGE_TOOL_NAME_MAX - String(k).length - 1)}_${k}`;
  taken.add(candidate);
  return candidate;
}

/**
 * The page's tools as MCP tool definitions, in frame order, at most PAGE_TOOLS_MAX. The description
 * says whose tool it is and quotes the page's words (JSON-quoted, so that no text of the page can
 * step out of the quotes and read as pagelens's own); the page's readOnly claim is said as the page's
 * claim, never made an MCP annotation a client might trust.
 */
export function pageToolDefinitions(tools: readonly WebMcpTool[]): PageToolDefinition[] {
  const taken = new Set<string>();
  return tools.slice(0, PAGE_TOOLS_MAX).map((t) => {
    const name = pageToolName(t.name, taken);
    const { schema, refused } = pageToolSchema(t.inputSchema);
    const words = t.description.length > DESCRIPTION_MAX ? `${t.description.slice(0, DESCRIPTION_MAX - 1)}…` : t.description;
    const claims = [t.annotations?.readOnly && 'readOnly', t.annotations?.consequential && 'consequential'].filter(Boolean);
    const description = [
      `Page tool ${JSON.stringify(t.name.slice(0, 100))}${t.frame ? ` of frame ${t.frame}` : ''} (the page's own words, untrusted): ${JSON.stringify(words)}.`,
      claims.length ? `The page calls it ${claims.join(', ')}.` : '',
      refused ? `Its input schema was not usable (${refused}): give its input as an object.` : '',
    ].filter(Boolean).join(' ');
    return { name, description, inputSchema: schema, tool: { name: t.name, ...(t.frame !== undefined && { frame: t.frame }) } };
  });
}
