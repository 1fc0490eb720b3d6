// `pagelens mcp` (the MCP server, stdio or --port for Streamable HTTP) and `pagelens tools`
// (the same tools as JSON definitions, for stacks that call functions themselves).
import { Command, Option } from 'commander';
import { addStateOptions, stateFlags } from './stateFlags.js';
import { PagelensError } from '../model/contracts/errors.js';
import { parseViewport } from '../model/contracts/viewport.js';

interface McpFlags {
  port?: number;
  cdp?: string;
  wsEndpoint?: string;
  userDataDir?: string;
  isolated?: boolean;
  viewport?: string;
  offline?: boolean;
  recoverStuckTabs?: boolean;
  headed?: boolean;
  allowedOrigins?: string;
  blockedOrigins?: string;
  allowFileUrls?: boolean;
  fileRoot?: string[];
  uploadDir?: string[];
  token?: string;
  sharedContext?: boolean;
  maxSessions?: number;
  sessionIdle?: number;
  downloadsDir?: string;
  callTimeout?: number;
  tools?: string;
  answers?: 'text' | 'json';
  saveTrace?: string;
  playwrightTraces?: boolean;
  store?: string;
  replica?: string;
  storageState?: string;
  saveStorageState?: string;
  autosave?: number;
  stateCheck?: string;
  stateDir?: string[];
}

function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > 65535) throw new PagelensError('BAD_INPUT', `--port must be a TCP port (1-65535), got "${text}".`);
  return n;
}

function parseCount(flag: string, min: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || n < min) throw new PagelensError('BAD_INPUT', `${flag} must be an integer ≥ ${min}, got "${text}".`);
    return n;
  };
}

/** The HTTP server's token: the environment is the place for it (argv is visible to every local user). */
function httpToken(flags: McpFlags): string | undefined {
  if (flags.token !== undefined) {
    process.stderr.write('pagelens mcp: --token is visible in the process list; prefer PAGELENS_MCP_TOKEN in the environment\n');
    return flags.token;
  }
  return process.env.PAGELENS_MCP_TOKEN?.trim() || undefined;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** --tools as a list, checked against the registry before anything starts (a typo must not start a server without the tool). */
async function toolSpec(text: string | undefined): Promise<string[] | undefined> {
  if (text === undefined) return undefined;
  const spec = list(text) ?? [];
  const [{ selectTools }, { TOOL_NAMES }] = await Promise.all([import('../tools/registry/toolset.js'), import('../tools/registry/dispatch.js')]);
  selectTools(spec, TOOL_NAMES);
  return spec;
}
const list = (s?: string) => s?.split(',').map((x) => x.trim()).filter(Boolean);

export function addMcpCommand(program: Command): void {
  const mcp = program.command('mcp').description('run the MCP server (stdio; --port for Streamable HTTP on 127.0.0.1)')
    .option('--port <n>', 'serve Streamable HTTP on 127.0.0.1:<n>/mcp instead of stdio', parsePort)
    .option('--cdp <endpoint>', 'attach to a running browser over CDP (ws://… or http://host:9222; default PAGELENS_CDP_ENDPOINT, where a provider URL\'s token stays out of the process list)')
    .option('--ws-endpoint <url>', 'connect to a Playwright browser server (ws://…, from launchServer or `playwright run-server`; default PAGELENS_WS_ENDPOINT)')
    .option('--user-data-dir <dir>', 'keep the browser profile (cookies, storage) in this folder across runs')
    .option('--isolated', 'a fresh in-memory profile for the session (the default without --user-data-dir; with --cdp: a new context instead of the browser\'s own)')
    .option('--viewport <WxH>', 'viewport size (default 1280x800)')
    .option('--offline', 'abort every request that is not to loopback')
    .option('--headed', 'show the browser window (needs a display)')
    .option('--allowed-origins <list>', 'comma-separated origins the page may load from; all others are blocked')
    .option('--blocked-origins <list>', 'comma-separated origins to block')
    .option('--allow-file-urls', 'let the agent open file:// URLs anywhere on the disk (off by default)')
    .option('--file-root <dir>', 'let the agent open file:// URLs under this folder (repeatable)', collect, [])
    .option('--upload-dir <dir>', 'browser_file_upload may read files under this folder (repeatable; besides the client\'s MCP roots)', collect, [])
    .option('--token <token>', 'with --port: require Authorization: Bearer <token> (prefer the PAGELENS_MCP_TOKEN environment variable)')
    .option('--shared-context', 'with --port: every client works in one browser context (default: one context per client)')
    .option('--max-sessions <n>', 'with --port: open MCP sessions at most (default 8)', parseCount('--max-sessions', 1))
    .option('--session-idle <seconds>', 'with --port: close a session unused this long, with its browser context (default 900)', parseCount('--session-idle', 1))
    .option('--downloads-dir <dir>', 'save files the page downloads in this folder (absolute path); without it downloads are reported, not saved')
    .option('--call-timeout <seconds>', 'answer a tool call TIMEOUT after this long, so a hung page cannot hold the server (default 60)', parseCount('--call-timeout', 1))
    .option('--tools <list>', 'tools to offer: groups (core, forms, explore, intent, mouse, vision, tabs, logs, webmcp, state), tool names, or all (default core)')
    .addOption(new Option('--answers <form>', 'how answers are written: compact text, or the JSON payload for a client that parses them').choices(['text', 'json']).default('text'))
    .option('--save-trace <dir>', 'record each session into an archive in this folder, one step a tool call, written as it goes (pagelens trace show opens it)')
    .option('--playwright-traces', 'with --save-trace: also a Playwright trace beside each archive (<archive>.playwright.zip, one group a call, scrubbed of typed secrets), written when the session closes; npx playwright show-trace opens it')
    .option('--store <url>', 'with --port: register the sessions this replica owns in Redis (redis://HOST:PORT/DB; default PAGELENS_STORE), so a request routed to another replica is told where its session lives')
    .option('--replica <name>', 'with --store: this replica\'s name (default PAGELENS_REPLICA, else host:pid)')
    .option('--recover-stuck-tabs', 'after a call ran out of time on a page that stopped answering, the next call closes that tab and opens a fresh one by itself');
  addStateOptions(mcp, { save: true })
    .option('--state-dir <dir>', 'browser_storage_state (--tools state) may read and write state files under this folder (repeatable)', collect, [])
    .action(async (flags: McpFlags) => {
      const httpOnly = [flags.token !== undefined && '--token', flags.sharedContext && '--shared-context', flags.maxSessions !== undefined && '--max-sessions', flags.sessionIdle !== undefined && '--session-idle', flags.store !== undefined && '--store'].filter(Boolean);
      if (flags.port === undefined && httpOnly.length) throw new PagelensError('BAD_INPUT', `${httpOnly.join(', ')} only mean something with --port (stdio has one client, its parent process).`);
      if (flags.playwrightTraces && !flags.saveTrace) throw new PagelensError('BAD_INPUT', '--playwright-traces goes with --save-trace DIR (each Playwright trace is written beside its session\'s archive).');
      const token = httpToken(flags);
      // An endpoint from the environment, only when no flag says where the browser comes from.
      if (!flags.cdp && !flags.wsEndpoint && !flags.userDataDir) {
        const ws = process.env.PAGELENS_WS_ENDPOINT?.trim();
        const cdp = process.env.PAGELENS_CDP_ENDPOINT?.trim();
        if (ws && cdp) throw new PagelensError('BAD_INPUT', 'PAGELENS_WS_ENDPOINT and PAGELENS_CDP_ENDPOINT are both set: each says where the browser comes from; unset one.');
        if (ws) flags.wsEndpoint = ws;
        if (cdp) flags.cdp = cdp;
      }
      const tools = await toolSpec(flags.tools);
      const store = flags.port !== undefined ? flags.store ?? (process.env.PAGELENS_STORE?.trim() || undefined) : undefined;
      const replica = flags.replica ?? (process.env.PAGELENS_REPLICA?.trim() || undefined);
      if (store) (await import('../store/redis.js')).checkStoreUrl(store);
      // A start state that cannot be trusted stops the start, before a server listens.
      const state = await stateFlags(flags);
      const { runMcpServer } = await import('../mcp/server.js');
      await runMcpServer({
        ...state,
        ...(flags.stateDir?.length && { stateDirs: flags.stateDir }),
        ...(tools && { tools }),
        ...(flags.answers === 'json' && { answers: 'json' as const }),
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
        ...(flags.allowFileUrls && { allowFileUrls: true }),
        ...(flags.fileRoot?.length && { fileRoots: flags.fileRoot }),
        ...(flags.uploadDir?.length && { uploadDirs: flags.uploadDir }),
        http: {
          ...(token !== undefined && { token }),
          ...(flags.sharedContext && { sharedContext: true }),
          ...(flags.maxSessions !== undefined && { maxSessions: flags.maxSessions }),
          ...(flags.sessionIdle !== undefined && { idleMs: flags.sessionIdle * 1000 }),
        },
        ...(flags.downloadsDir && { downloadsDir: flags.downloadsDir }),
        ...(flags.callTimeout !== undefined && { callTimeoutS: flags.callTimeout }),
        ...(flags.recoverStuckTabs && { recoverStuckTabs: true }),
        ...(flags.saveTrace && { saveTrace: flags.saveTrace }),
        ...(flags.playwrightTraces && { playwrightTraces: true }),
        ...(store && { store }), ...(replica && { replica }),
      });
    });
  program.command('tools').description('print the tool definitions as JSON (OpenAI functions with strict: true, or MCP tools)')
    .addOption(new Option('--format <format>', 'definition format').choices(['openai', 'mcp']).default('openai'))
    .option('--tools <list>', 'groups (core, forms, explore, intent, mouse, vision, tabs, logs, webmcp, state), tool names, or all (default core, as pagelens mcp)')
    .action(async (flags: { format: 'openai' | 'mcp'; tools?: string }) => {
      const { toolDefinitions } = await import('../tools/registry/dispatch.js');
      const { DEFAULT_TOOLSET } = await import('../tools/registry/toolset.js');
      process.stdout.write(JSON.stringify(toolDefinitions(flags.format, { tools: await toolSpec(flags.tools) ?? DEFAULT_TOOLSET }), null, 2) + '\n');
    });
}
