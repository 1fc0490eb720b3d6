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
