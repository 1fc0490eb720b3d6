// The pagelens command line.
import { Command, CommanderError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Lens } from '../browser/lens.js';
import { openPage } from './lazy.js';
import { parseViewport } from '../model/contracts/viewport.js';
import { PagelensError } from '../model/contracts/errors.js';
import { formatPayload } from '../model/renderers/format.js';
import { V3_LEGEND } from '../model/pagemodel/roles.js';
import { givenOptions, snapshotRequestConflict, SNAPSHOT_FORMATS, SNAPSHOT_MODES, type NameOf, type SnapshotFormat, type SnapshotMode } from '../model/contracts/snapshotRequest.js';
import { countTokens } from '../model/renderers/tokens.js';
import { addRunCommand } from './run.js';
import { addBenchCommand } from './bench.js';
import { DEMO_TASK } from '../model/tasks/demo.js';
import { addAgentCommands, agentCommand } from './agent.js';
import { addObserveCommands, parseMaxTokens, printFilteredSnapshot } from './observe.js';
import { addExploreCommands } from './overview.js';
import { addMcpCommand } from './mcp.js';
import { addTraceCommand } from './trace.js';
import { snapshotAnswer, type SnapshotAnswer } from '../tools/answers/snapshotAnswer.js';
import type { AxTreeResult } from '../model/renderers/axtree.js';
import type { SemanticV3Result } from '../model/contracts/schema.js';
import { describeError } from './errors.js';
import { addStateOptions, openStateOptions, type StateFlags } from './stateFlags.js';

const DEMO_PAGE = fileURLToPath(new URL('../../../assets/demo.html', import.meta.url));
/** The package's own manifest, next to dist/ in the repository and in an installed package alike. */
const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

interface SnapshotFlags extends StateFlags {
  mode: SnapshotMode;
  fullPage?: boolean;
  viewport: string;
  format: SnapshotFormat;
  cdp?: string;
  boxes?: boolean;
  pretty?: boolean;
  offline?: boolean;
  /** hybrid: write the screenshot to this file; its JPEG quality; false with --no-marks. */
  screenshot?: string;
  quality?: number;
  marks?: boolean;
  /** The task a filtered snapshot is for (issue 13), and its token budget. */
  query?: string;
  maxTokens?: number;
}

// The heavier artifacts (issue 10): skeleton, full and hybrid.
type ArtifactMode = 'skeleton' | 'full' | 'hybrid';
const isArtifact = (mode: string): mode is ArtifactMode => mode === 'skeleton' || mode === 'full' || mode === 'hybrid';

// Flags that mean nothing for the chosen mode/format are an error, found before any browser starts:
// ignoring them would hand the caller (often an LLM) output that silently differs from what it asked
// for. Which option applies to which mode is the shared table (model/contracts/snapshotRequest.ts).
function checkFlagCombination(flags: SnapshotFlags): string | null {
  const shot = [flags.screenshot !== undefined && '--screenshot', flags.quality !== undefined && '--quality', flags.marks === false && '--no-marks'].filter(Boolean);
  const given = givenOptions({ fullPage: flags.fullPage, boxes: flags.boxes, query: flags.query, maxTokens: flags.maxTokens, screenshot: shot.length ? true : undefined });
  const flagOf: NameOf = (part) => (part === 'screenshot' ? shot.join(', ') : `--${part.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  const conflict = snapshotRequestConflict({ mode: flags.mode, format: flags.format, query: flags.query, given }, flagOf);
  if (conflict) return conflict;
  return flags.pretty && flags.format !== 'json' ? `--pretty does not apply to --format ${flags.format}: it only lays out JSON.` : null;
}

async function snapshotCommand(target: string, flags: SnapshotFlags): Promise<void> {
  const problem = checkFlagCombination(flags);
  if (problem) throw new PagelensError('BAD_INPUT', problem);
  const open = await openPage(target, {
    viewport: parseViewport(flags.viewport),
    cdpEndpoint: flags.cdp,
    ...(flags.offline && { blockExternal: true }),
    ...await openStateOptions(flags),
  });
  try {
    if (flags.query !== undefined) return await printFilteredSnapshot(open.lens, { ...flags, query: flags.query });
    if (isArtifact(flags.mode)) {
      await artifactCommand(open.lens, flags.mode, flags);
      return;
    }
    // The text every face gives for this mode and format (tools/snapshotAnswer.ts); the CLI adds --pretty and a summary line.
    const r = await snapshotAnswer(open.lens, { mode: flags.mode, format: flags.format, fullPage: flags.fullPage, boxes: flags.boxes, tree: false });
    process.stdout.write((flags.pretty ? formatPayload(r.data) : r.text) + '\n');
    process.stderr.write(`pagelens: ${await summaryOf(flags, r)}\n`);
  } finally {
    await open.close();
  }
}

/** The summary line of a semantic_v3, semantic or axtree snapshot (stderr). */
async function summaryOf(flags: SnapshotFlags, r: SnapshotAnswer): Promise<string> {
  if (flags.mode === 'axtree') {
    const m = (r.data as AxTreeResult).meta;
    return `${m.interactiveNodes} interactive of ${m.keptNodes} kept AX nodes (${m.axNodes} in Chrome's tree), ${m.taggedInteractive} carry a data-llm-id, outline ${m.estimatedTokens} tokens (o200k), ${m.extractionTimeMs} ms`;
  }
  if (flags.format === 'text') return `${await countTokens(r.text)} tokens (o200k)`;
  const m = (r.data as SemanticV3Result).meta;
  return `${m.viewportElements} elements shown of ${m.totalElements} visible (${m.prunedElements} off screen, ${m.occludedElements} covered), ${m.estimatedTokens} tokens (o200k), ${m.extractionTimeMs} ms`;
}

/** skeleton, full or hybrid: the payload on stdout, the screenshot to a file when asked, one summary line. */
async function artifactCommand(lens: Lens, mode: ArtifactMode, flags: SnapshotFlags): Promise<void> {
  const print = (payload: object) => process.stdout.write((flags.pretty ? formatPayload(payload) : JSON.stringify(payload)) + '\n');
  if (mode === 'skeleton') {
    const r = await lens.snapshot({ mode, fullPage: flags.fullPage });
    print(r);
    process.stderr.write(`pagelens: skeleton of ${r.meta.elements} elements, ${r.meta.estimatedTokens} tokens (o200k), ${r.meta.extractionTimeMs} ms\n`);
  } else if (mode === 'full') {
    const r = await lens.snapshot({ mode });
    print(r);
    process.stderr.write(`pagelens: full DOM of ${r.meta.elements} elements (${r.meta.taggedElements} with an ID), ${r.meta.rawTokens} tokens, ${r.meta.estimatedTokens} templatized (${r.meta.templates} templates, ${r.meta.instances} instances), ${r.meta.extractionTimeMs} ms\n`);
  } else {
    const r = await lens.snapshot({ mode, screenshot: { ...(flags.quality !== undefined && { quality: flags.quality }), setOfMark: flags.marks !== false } });
    if (flags.screenshot) await writeFile(flags.screenshot, Buffer.from(r.screenshot, 'base64'));
    print(r);
    const where = flags.screenshot ? ` written to ${flags.screenshot}` : '';
    process.stderr.write(`pagelens: hybrid of ${r.meta.viewportElements} elements, ${r.meta.marks} marked on a ${Math.round(r.meta.screenshotBytes / 1024)} KB screenshot${where}, ${r.meta.estimatedTokens} tokens without the screenshot (o200k), ${r.meta.extractionTimeMs} ms\n`);
  }
}

function parseQuality(value: string): number {
  const q = Number(value);
  if (!Number.isInteger(q) || q < 1 || q > 100) throw new PagelensError('BAD_INPUT', `--quality expects an integer from 1 to 100, got "${value}".`);
  return q;
}

function addSnapshotOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--mode <mode>', 'output mode').choices(SNAPSHOT_MODES).default('semantic_v3'))
    .option('--full-page', 'keep elements outside the viewport too')
    .option('--viewport <WxH>', 'viewport size', '1280x800')
    .addOption(new Option('--format <format>', 'json payload or compact text').choices(SNAPSHOT_FORMATS).default('json'))
    .option('--boxes', 'add [x,y,w,h] boxes to semantic_v3 nodes')
    .option('--pretty', 'one element per line instead of compact JSON')
    .option('--cdp <endpoint>', 'attach to a running browser over CDP (ws://… or http://host:9222)')
    .option('--offline', 'abort every request that is not to loopback (always on for local files)')
    .option('--screenshot <file>', 'hybrid: write the screenshot (JPEG) to this file')
    .option('--quality <1-100>', 'hybrid: JPEG quality of the screenshot (default 60)', parseQuality)
    .option('--no-marks', 'hybrid: leave the element IDs (set-of-mark) off the screenshot')
    .option('--query <task>', 'only what matters for this task ("price of the Dell monitor"), with what was left out')
    .option('--max-tokens <n>', 'with --query: a hard ceiling on the payload (o200k tokens, default 2000)', parseMaxTokens);
}

export function buildCli(): Command {
  const { version } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string };
  // Usage errors are one line with where to look (see main), not the whole help: commander's own
  // output of them is silenced here and its exit turned into an exception main can word.
  const program = new Command('pagelens').description('Compact, stable page state for LLM agents')
    .version(version, '-V, --version', 'print the version')
    .configureOutput({ outputError: () => {} })
    .exitOverride();
  addStateOptions(addSnapshotOptions(program.command('snapshot <url-or-file>').description('print what an agent can see and do on a page')), { save: false })
    .action((target: string, flags: SnapshotFlags) => snapshotCommand(target, flags));
  addSnapshotOptions(program.command('demo').description('snapshot the built-in demo page, then let the offline agent place an order on it (no API key)'))
    .option('--no-agent', 'only the snapshot')
    .option('--trace <file.zip>', 'record the agent\'s run into this archive (pagelens trace show opens it)')
    .option('--playwright-trace <file.zip>', 'also record a Playwright trace of the agent\'s run (npx playwright show-trace opens it)')
    // Pretty JSON by default for people reading the demo; an explicit --pretty still meets the checks.
    .action(async (flags: SnapshotFlags & { agent: boolean; trace?: string; playwrightTrace?: string }) => {
      const { agent, trace, playwrightTrace, ...snapshotFlags } = flags;
      await snapshotCommand(DEMO_PAGE, { ...snapshotFlags, pretty: flags.pretty ?? flags.format === 'json' });
      if (!agent) return;
      process.stderr.write(`\npagelens agent '${DEMO_TASK}'\n`);
      await agentCommand(DEMO_TASK, { url: DEMO_PAGE, planner: 'heuristic', maxSteps: '20', viewport: flags.viewport, offline: true, ...(trace && { trace }), ...(playwrightTrace && { playwrightTrace }) });
    });
  addRunCommand(program);
  addBenchCommand(program);
  addAgentCommands(program);
  addObserveCommands(program);
  addExploreCommands(program);
  addMcpCommand(program);
  addTraceCommand(program);
  program.command('legend').description('print the semantic_v3 legend for system prompts').action(() => { process.stdout.write(V3_LEGEND + '\n'); });
  return program;
}

/**
 * A usage error (unknown option, bad choice, missing argument) as one line that says where the
 * usage is: `pagelens: BAD_INPUT: unknown option '--bogus'; see pagelens snapshot --help`.
 */
function usageError(program: Command, e: CommanderError, argv: string[]): string {
  const words = argv.slice(2).filter((a) => !a.startsWith('-'));
  const command = program.commands.find((c) => c.name() === words[0]);
  const message = e.message.replace(/^error: /, '').replace(/\s*\n\s*/g, ' ').trim();
  return `pagelens: BAD_INPUT: ${message}; see pagelens${command ? ` ${command.name()}` : ''} --help`;
}

/** Commands that serve until stopped; every other command is one-shot and ends when its work is done. */
const LONG_RUNNING = new Set(['serve', 'mcp']);

/** Whether the command `argv` names keeps running after main() returns (a server). */
export function keepsRunning(argv: string[]): boolean {
  const command = argv.slice(2).find((a) => !a.startsWith('-'));
  return command !== undefined && LONG_RUNNING.has(command);
}

export async function main(argv: string[]): Promise<void> {
  // Errors thrown by option parsers and actions reach us unwrapped (commander only rewraps its
  // invalidArgument); commander's own usage errors and exits arrive as a CommanderError.
  const program = buildCli();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version have printed what was asked (exit 0); a bare `pagelens` printed the help.
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') {
        process.exitCode = e.exitCode;
        return;
      }
      process.stderr.write(usageError(program, e, argv) + '\n');
      process.exitCode = e.exitCode || 1;
      return;
    }
    process.stderr.write(`pagelens: ${describeError(e)}\n`);
    const debug = process.env.PAGELENS_DEBUG;
    if (debug && debug !== '0' && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
    process.exitCode = 1;
  }
}
