// `pagelens mcp` (the MCP server, stdio or --port for Streamable HTTP) and `pagelens tools`
// (the same tools as JSON definitions, for stacks that call functions themselves).
import { Command, Option } from 'commander';
import { runMcpServer } from '../mcp/server.js';
import { PagelensError } from '../model/errors.js';
import { parseViewport } from '../session/open.js';
import { toolDefinitions } from '../tools/registry.js';

interface McpFlags {
  port?: number;
  cdp?: string;
  wsEndpoint?: string;
  userDataDir?: string;
  isolated?: boolean;
  viewport?: string;
  offline?: boolean;
  headed?: boolean;
  allowedOrigins?: string;
  blockedOrigins?: string;
  downloadsDir?: string;
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 65535) throw new PagelensError('BAD_INPUT', `--port must be a TCP port (1-65535), got "${text}".`);
  return n;
}

const list = (s?: string) => s?.split(',').map((x) => x.trim()).filter(Boolean);

export function addMcpCommand(program: Command): void {
  program.command('mcp').description('run the MCP server (stdio; --port for Streamable HTTP on 127.0.0.1)')
    .option('--port <n>', 'serve Streamable HTTP on 127.0.0.1:<n>/mcp instead of stdio', parsePort)
    .option('--cdp <endpoint>', 'attach to a running browser over CDP (ws://… or http://host:9222)')
    .option('--ws-endpoint <url>', 'connect to a Playwright browser server (ws://…, from launchServer or `playwright run-server`)')
    .option('--user-data-dir <dir>', 'keep the browser profile (cookies, storage) in this folder across runs')
    .option('--isolated', 'a fresh in-memory profile for the session (the default without --user-data-dir; with --cdp: a new context instead of the browser\'s own)')
    .option('--viewport <WxH>', 'viewport size (default 1280x800)')
    .option('--offline', 'abort every request that is not to loopback')
    .option('--headed', 'show the browser window (needs a display)')
    .option('--allowed-origins <list>', 'comma-separated origins the page may load from; all others are blocked')
    .option('--blocked-origins <list>', 'comma-separated origins to block')
    .option('--downloads-dir <dir>', 'save files the page downloads in this folder (absolute path); without it downloads are reported, not saved')
    .action(async (flags: McpFlags) => {
      await runMcpServer({
        ...(flags.port !== undefined && { port: flags.port }),
        ...(flags.cdp && { cdp: flags.cdp }),
        ...(flags.wsEndpoint && { wsEndpoint: flags.wsEndpoint }),
        ...(flags.userDataDir && { userDataDir: flags.userDataDir }),
        ...(flags.isolated && { isolated: true }),
        ...(flags.viewport && { viewport: parseViewport(flags.viewport) }),
        ...(flags.offline && { offline: true }),
        ...(flags.headed && { headless: false }),
        ...(flags.allowedOrigins && { allowedOrigins: list(flags.allowedOrigins) }),
        ...(flags.blockedOrigins && { blockedOrigins: list(flags.blockedOrigins) }),
        ...(flags.downloadsDir && { downloadsDir: flags.downloadsDir }),
      });
    });
  program.command('tools').description('print the tool definitions as JSON (OpenAI functions with strict: true, or MCP tools)')
    .addOption(new Option('--format <format>', 'definition format').choices(['openai', 'mcp']).default('openai'))
    .action((flags: { format: 'openai' | 'mcp' }) => {
      process.stdout.write(JSON.stringify(toolDefinitions(flags.format), null, 2) + '\n');
    });
}
