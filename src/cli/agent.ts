// `pagelens serve` (the negotiation backend) and `pagelens agent "<task>" --url …` (the client loop
// against it, or against the same backend in-process when no --backend is given).
import { Command, Option } from 'commander';
import { hostname } from 'node:os';
import type { AgentRun, AgentStep } from '../agent/loop.js';
import { createPlanner, PLANNER_NAMES, type PlannerName } from '../agent/planners.js';
import { PagelensError } from '../model/contracts/errors.js';
import { errorReport, type ErrorReport } from './errors.js';
import { DEFAULT_MAX_BODY, DEFAULT_REQUEST_TIMEOUT_MS } from '../server/limits.js';
import { openPage } from './lazy.js';
import { addStateOptions, openStateOptions, saveAtEnd, type StateFlags } from './stateFlags.js';
import { parseViewport } from '../model/contracts/viewport.js';

interface ServeFlags { host: string; port: string; planner: PlannerName; token?: string; auth: boolean; corsOrigin?: string; maxBody: string; requestTimeout: string; compat?: boolean; quiet?: boolean; store?: string; replica?: string; sessionIdle: string; sessionSteps: string; saveTrace?: string }
export interface AgentFlags extends StateFlags { url: string; backend?: string; token?: string; planner: PlannerName; maxSteps: string; json?: boolean; viewport: string; offline?: boolean; cdp?: string; trace?: string; playwrightTrace?: string }

export function addAgentCommands(program: Command): void {
  program.command('serve')
    .description('run the negotiation backend: POST /api/agent/interact, GET /healthz')
    .option('--host <host>', 'address to bind (anything but loopback exposes the planner to the network)', '127.0.0.1')
    .option('--port <port>', 'port (0: any free one)', '8787')
    .addOption(new Option('--planner <name>', 'who decides the next step').choices([...PLANNER_NAMES]).default('heuristic'))
    .option('--token <token>', 'require Authorization: Bearer <token> (prefer PAGELENS_TOKEN in the environment; without either, one is generated and printed)')
    .option('--no-auth', 'answer without a token (any local process can then call the planner)')
    .option('--cors-origin <origin>', 'the one browser origin allowed to call (the extension\'s)')
    .option('--max-body <bytes>', 'largest request body accepted', String(DEFAULT_MAX_BODY))
    .option('--request-timeout <seconds>', 'answer 504 when the planner has not answered by then', String(DEFAULT_REQUEST_TIMEOUT_MS / 1000))
    .option('--compat', 'ask for the full DOM in the legacy form (status: "needs_full_dom")')
    .option('--quiet', 'no request log on stderr')
    .option('--store <url>', 'keep negotiation sessions in Redis (redis://HOST:PORT/DB; default PAGELENS_STORE), shared by every replica; without it, in this process\'s memory')
    .option('--replica <name>', 'this replica\'s name, sent as Pagelens-Replica on every answer (default PAGELENS_REPLICA, else host:pid with --store)')
    .option('--session-idle <seconds>', 'a session unused this long is forgotten (the TTL of its keys with --store)', '1800')
    .option('--session-steps <n>', 'steps of history kept per session', '50')
    .option('--save-trace <dir>', 'record each negotiation session into an archive in this folder, one step a round (what the planner was given, its tokens, its answer), written when the session ends; pagelens trace show opens it')
    .action((flags: ServeFlags) => serveCommand(flags));
  addStateOptions(program.command('agent <task>'), { save: true, autosave: false })
    .description('run a task on a page: snapshot, ask the backend, act with verification, until done')
    .requiredOption('--url <url-or-file>', 'the page to start on (a local file is served from loopback)')
    .option('--backend <url>', 'a running backend (default: the backend in-process)')
    .option('--token <token>', 'bearer token for --backend (default: PAGELENS_TOKEN)')
    .addOption(new Option('--planner <name>', 'planner of the in-process backend').choices([...PLANNER_NAMES]).default('heuristic'))
    .option('--max-steps <n>', 'give up after this many steps', '20')
    .option('--json', 'print the transcript as JSON on stdout')
    .option('--viewport <WxH>', 'viewport size', '1280x800')
    .option('--offline', 'abort every request that is not to loopback (always on for local files)')
    .option('--cdp <endpoint>', 'attach to a running browser over CDP')
    .option('--trace <file.zip>', 'record the run (what the planner saw each step, screenshots with the IDs\' boxes, verdicts) into this archive; open it with pagelens trace show')
    .option('--playwright-trace <file.zip>', 'also record a Playwright trace (network, console, DOM snapshots; one group a step, numbered as in --trace), scrubbed of typed secrets; open it with npx playwright show-trace')
    .action((task: string, flags: AgentFlags) => agentCommand(task, flags));
}

function positiveInt(flag: string, v: string, min = 1): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new PagelensError('BAD_INPUT', `${flag} must be an integer ≥ ${min}, got "${v}"`);
  return n;
}

/**
 * The token `serve` requires: --token, else PAGELENS_TOKEN, else none (one is then generated).
 * A blank one is refused, never taken for "no token": `--token ""` used to serve anyone while the
 * start line said a token was required. PAGELENS_TOKEN="" is how a shell unsets it: a generated
 * token then, as when it is not set.
 */
function serveToken(flags: ServeFlags): string | undefined {
  if (!flags.auth) return undefined;
  if (flags.token !== undefined) {
    if (!flags.token.trim()) throw new PagelensError('BAD_INPUT', '--token is empty: give a token (better: PAGELENS_TOKEN in the environment), leave it out to have one generated, or pass --no-auth.');
    return flags.token;
  }
  const fromEnv = process.env.PAGELENS_TOKEN;
  if (fromEnv === undefined || fromEnv === '') return undefined;
  if (!fromEnv.trim()) throw new PagelensError('BAD_INPUT', 'PAGELENS_TOKEN is blank (only spaces): set it to a token, unset it to have one generated, or pass --no-auth.');
  return fromEnv.trim();
}

async function serveCommand(flags: ServeFlags): Promise<void> {
  const port = positiveInt('--port', flags.port, 0);
  if (flags.token !== undefined && !flags.auth) throw new PagelensError('BAD_INPUT', '--token and --no-auth contradict each other: choose one.');
  const token = serveToken(flags);
  if (flags.token !== undefined) process.stderr.write('pagelens serve: --token is visible in the process list; prefer PAGELENS_TOKEN in the environment\n');
  const limits = { ttlMs: positiveInt('--session-idle', flags.sessionIdle) * 1000, maxSteps: positiveInt('--session-steps', flags.sessionSteps) };
  const storeUrl = flags.store ?? (process.env.PAGELENS_STORE?.trim() || undefined);
  const replica = flags.replica ?? (process.env.PAGELENS_REPLICA?.trim() || (storeUrl ? `${hostname()}:${process.pid}` : undefined));
  const [{ startServer }, { MemorySessionStore }] = await Promise.all([import('../server/serve.js'), import('../server/sessions.js')]);
  const sessions = storeUrl ? await (await import('../server/redisSessions.js')).RedisSessionStore.connect(storeUrl, limits) : new MemorySessionStore(limits);
  const traces = flags.saveTrace ? new (await import('../trace/serveTrace.js')).ServeTraces(flags.saveTrace, { idleMs: limits.ttlMs, ...(!flags.quiet && { log: (line: string) => process.stderr.write(`pagelens serve: ${line}\n`) }) }) : undefined;
  const server = await startServer({
    sessions, ...(replica && { replica }), ...(traces && { onRound: (r) => traces.round(r) }),
    host: flags.host, port, planner: await createPlanner(flags.planner), ...(token !== undefined && { token }), noAuth: !flags.auth, corsOrigin: flags.corsOrigin,
    maxBodyBytes: positiveInt('--max-body', flags.maxBody), requestTimeoutMs: positiveInt('--request-timeout', flags.requestTimeout) * 1000, compat: flags.compat,
    ...(!flags.quiet && { log: (line: string) => process.stderr.write(`pagelens serve: ${line}\n`) }),
  });
  process.stderr.write(`listening on ${server.url}\nprotection: ${server.protection}\nsessions: ${sessions.where}${replica ? ` (replica ${replica})` : ''}\n`);
  // A generated token is the one secret the owner needs to call: printed once, on stderr.
  if (server.tokenGenerated) process.stderr.write(`token: ${server.token}  (clients send Authorization: Bearer <token>; set PAGELENS_TOKEN to choose it)\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      // A request still at work (a planner's call upstream) must not keep the process: it ends
      // within the bound whatever is running (unref'd: a clean close exits sooner by itself).
      setTimeout(() => process.exit(0), 1500).unref();
      traces?.close();
      void server.close().then(() => sessions.close()).then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** What `--json` prints when the run ended in an error: the error, and the steps carried out before it. */
type AgentRunError = Omit<AgentRun, 'status'> & { status: 'error'; error: ErrorReport };

export async function agentCommand(task: string, flags: AgentFlags): Promise<void> {
  const steps: AgentStep[] = [];
  try {
    await agentRun(task, flags, steps);
  } catch (e) {
    // A caller of --json reads stdout: it gets a result whatever happened, never nothing.
    if (flags.json) {
      const error = errorReport(e);
      const failed: AgentRunError = { task, status: 'error', message: `${error.code}: ${error.message}`, success: false, error, steps };
      process.stdout.write(JSON.stringify(failed, null, 2) + '\n');
    }
    throw e;
  }
}

/** The agent command proper; `steps` receives each step as it is carried out. */
async function agentRun(task: string, flags: AgentFlags, steps: AgentStep[]): Promise<void> {
  const maxSteps = positiveInt('--max-steps', flags.maxSteps);
  if (flags.token && !flags.backend) throw new PagelensError('BAD_INPUT', '--token goes with --backend');
  const { appBackend, httpBackend, runAgent } = await import('../agent/loop.js');
  const { createApp } = await import('../server/app.js');
  const token = flags.token ?? (process.env.PAGELENS_TOKEN?.trim() || undefined);
  const backend = flags.backend ? httpBackend(flags.backend, token) : appBackend(createApp({ planner: await createPlanner(flags.planner) }));
  // A backend that is down or refuses the token is found out before a browser starts.
  await backend.check?.();
  const tracePath = flags.trace ? await traceTarget(flags.trace, '--trace') : undefined;
  const playwrightPath = flags.playwrightTrace ? await traceTarget(flags.playwrightTrace, '--playwright-trace') : undefined;
  if (playwrightPath && playwrightPath === tracePath) throw new PagelensError('BAD_INPUT', '--trace and --playwright-trace name the same file: give each its own.');
  const open = await openPage(flags.url, { viewport: parseViewport(flags.viewport), cdpEndpoint: flags.cdp, ...(flags.offline && { blockExternal: true }), ...await openStateOptions(flags) });
  const playwright = playwrightPath ? await (await import('../trace/playwrightTrace.js')).PlaywrightTrace.start(open.page.context(), playwrightPath, { title: task }).catch(async (e: Error) => { await open.close(); throw new PagelensError('BAD_INPUT', `--playwright-trace: tracing could not start: ${e.message.split('\n')[0]}`); }) : undefined;
  const trace = tracePath || playwright ? (await import('../trace/agentTrace.js')).startAgentTrace(open.page, { ...(tracePath && { path: tracePath }), task, ...(playwright && { playwright }), covers: () => open.lens.secretCovers() }) : undefined;
  let run: AgentRun | undefined;
  let failure: string | undefined;
  try {
    run = await runAgent(open.lens, {
      task, backend: trace ? trace.backend(backend) : backend, maxSteps, ...(trace && { onRead: (snap, ms) => trace.read(snap, ms), beforeRead: () => trace.beforeRead() }),
      onStep: (s) => { steps.push(s); trace?.step(s); process.stderr.write(stepLine(s) + '\n'); },
    });
  } catch (e) {
    failure = e instanceof Error ? e.message : String(e);
    throw e;
  } finally {
    if (trace) {
      const closed = await trace.close(run, failure);
      if (tracePath) process.stderr.write(`pagelens agent: trace written to ${tracePath} (open it with: pagelens trace show ${JSON.stringify(tracePath)})\n`);
      if (closed.playwright) process.stderr.write(`pagelens agent: ${(await import('../trace/playwrightTrace.js')).describePlaywrightTrace(closed.playwright)}\n`);
      if (closed.playwrightError) process.stderr.write(`pagelens agent: the Playwright trace was not written: ${closed.playwrightError}\n`);
    }
    await saveAtEnd(open.lens, flags);
    await open.close();
  }
  if (flags.json) process.stdout.write(JSON.stringify(run, null, 2) + '\n');
  const tokens = run.steps.reduce((n, s) => n + s.tokensSent, 0);
  process.stderr.write(`pagelens agent: ${run.status}${run.message ? ` — ${run.message}` : ''}; ${run.steps.length} steps, ${tokens} tokens sent; ${run.success ? 'verified' : 'NOT verified'}\n`);
  if (!run.success) process.exitCode = 1;
}

/** Where --trace (or --playwright-trace) writes: an absolute path whose folder exists (checked before a browser starts). */
async function traceTarget(file: string, flag: string): Promise<string> {
  const { resolve, dirname } = await import('node:path');
  const { stat } = await import('node:fs/promises');
  const path = resolve(file);
  const dir = await stat(dirname(path)).catch(() => undefined);
  if (!dir?.isDirectory()) throw new PagelensError('BAD_INPUT', `${flag} ${JSON.stringify(file)}: the folder ${dirname(path)} does not exist`);
  return path;
}

/** One line per step: step, page, mode, tokens, action, how it went. */
export function stepLine(s: AgentStep): string {
  const action = 'action' in s.response ? s.response.action : '';
  const asked = s.negotiated.length ? ` (asked for ${s.negotiated.map((n) => ('requestedDomMode' in n ? n.requestedDomMode : 'full')).join(', ')})` : '';
  const r = s.result;
  const outcome = !r ? '' : !r.ok ? `refused ${r.error?.code}: ${r.error?.message}` : r.verification ? (r.verification.success ? 'verified' : `NOT verified: ${r.verification.actualOutcome}`) : 'ok';
  const image = s.imageBytes ? ` + ${Math.round(s.imageBytes / 1024)} KB jpeg` : '';
  return `step ${s.step}  ${s.url}  ${s.mode}${asked}  ${s.tokensSent} tok${image}  ${action}${outcome ? `  → ${outcome}` : ''}`;
}
