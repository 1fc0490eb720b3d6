// The pagelens command line.
import { Command, Option } from 'commander';
import { fileURLToPath } from 'node:url';
import { openPage, parseViewport } from '../browser/session.js';
import { PagelensError } from '../model/errors.js';
import { formatPayload } from '../model/format.js';
import { V3_LEGEND } from '../model/roles.js';
import { countTokens } from '../model/tokens.js';
import { addRunCommand } from './run.js';
import { addBenchCommand } from './bench.js';

const DEMO_PAGE = fileURLToPath(new URL('../../../assets/demo.html', import.meta.url));

interface SnapshotFlags {
  mode: 'semantic_v3' | 'semantic' | 'axtree';
  fullPage?: boolean;
  viewport: string;
  format: 'json' | 'text';
  cdp?: string;
  boxes?: boolean;
  pretty?: boolean;
  offline?: boolean;
}

async function snapshotCommand(target: string, flags: SnapshotFlags): Promise<void> {
  const open = await openPage(target, {
    viewport: parseViewport(flags.viewport),
    cdpEndpoint: flags.cdp,
    ...(flags.offline && { blockExternal: true }),
  });
  try {
    if (flags.mode === 'axtree') {
      const ax = await open.lens.axtree();
      process.stdout.write((flags.format === 'text' ? ax.outline : flags.pretty ? formatPayload(ax) : JSON.stringify(ax)) + '\n');
      process.stderr.write(`pagelens: ${ax.meta.interactiveNodes} interactive of ${ax.meta.keptNodes} kept AX nodes (${ax.meta.axNodes} in Chrome's tree), ${ax.meta.taggedInteractive} carry a data-llm-id, outline ${ax.meta.estimatedTokens} tokens (o200k), ${ax.meta.extractionTimeMs} ms\n`);
      return;
    }
    if (flags.format === 'text') {
      const text = await open.lens.text({ fullPage: flags.fullPage });
      process.stdout.write(text + '\n');
      process.stderr.write(`pagelens: ${await countTokens(text)} tokens (o200k)\n`);
      return;
    }
    const result = await open.lens.snapshot({ mode: flags.mode as 'semantic_v3' | 'semantic', fullPage: flags.fullPage, boxes: flags.boxes });
    process.stdout.write((flags.pretty ? formatPayload(result) : JSON.stringify(result)) + '\n');
    const m = result.meta;
    process.stderr.write(`pagelens: ${m.viewportElements} elements shown of ${m.totalElements} visible (${m.prunedElements} off screen, ${m.occludedElements} covered), ${m.estimatedTokens} tokens (o200k), ${m.extractionTimeMs} ms\n`);
  } finally {
    await open.close();
  }
}

function addSnapshotOptions(cmd: Command): Command {
  return cmd
    .addOption(new Option('--mode <mode>', 'output mode').choices(['semantic_v3', 'semantic', 'axtree']).default('semantic_v3'))
    .option('--full-page', 'keep elements outside the viewport too')
    .option('--viewport <WxH>', 'viewport size', '1280x800')
    .addOption(new Option('--format <format>', 'json payload or compact text').choices(['json', 'text']).default('json'))
    .option('--boxes', 'add [x,y,w,h] boxes to semantic_v3 nodes')
    .option('--pretty', 'one element per line instead of compact JSON')
    .option('--cdp <endpoint>', 'attach to a running browser over CDP (ws://… or http://host:9222)')
    .option('--offline', 'abort every request that is not to loopback (always on for local files)');
}

export function buildCli(): Command {
  const program = new Command('pagelens').description('Compact, stable page state for LLM agents').showHelpAfterError();
  addSnapshotOptions(program.command('snapshot <url-or-file>').description('print what an agent can see and do on a page'))
    .action((target: string, flags: SnapshotFlags) => snapshotCommand(target, flags));
  addSnapshotOptions(program.command('demo').description('snapshot the built-in demo page (offline)'))
    .action((flags: SnapshotFlags) => snapshotCommand(DEMO_PAGE, { ...flags, pretty: flags.pretty ?? true }));
  addRunCommand(program);
  addBenchCommand(program);
  program.command('legend').description('print the semantic_v3 legend for system prompts').action(() => { process.stdout.write(V3_LEGEND + '\n'); });
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (e) {
    const msg = e instanceof PagelensError ? `${e.code}: ${e.message}` : (e as Error).stack ?? String(e);
    process.stderr.write(`pagelens: ${msg}\n`);
    process.exitCode = 1;
  }
}
