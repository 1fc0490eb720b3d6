// `pagelens run <url-or-file> --do 'setValue(3,"hello")' --do 'click(7)' --expect navigation`:
// opens the page, prints its snapshot, then runs each action in turn, printing the action's result
// and the snapshot after it. An --expect applies to the --do just before it. Stops at the first
// action that fails (or whose verification fails) and exits non-zero.
import { Command, Option } from 'commander';
import { openPage } from './lazy.js';
import { addStateOptions, openStateOptions, saveAtEnd, type StateFlags } from './stateFlags.js';
import { parseViewport } from '../model/contracts/viewport.js';
import { parseAction, type Action } from '../model/contracts/actions.js';
import { PagelensError } from '../model/contracts/errors.js';
import { formatPayload } from '../model/renderers/format.js';
import { parseExpectSpec, type ExpectedOutcome } from '../model/contracts/outcome.js';

interface Step { action: Action; text: string; expect?: ExpectedOutcome }

interface RunFlags extends StateFlags {
  viewport: string;
  cdp?: string;
  offline?: boolean;
  pretty?: boolean;
  fullPage?: boolean;
  keepGoing?: boolean;
}

export function addRunCommand(program: Command): Command {
  // Commander hands us options in command-line order, which is what pairs an --expect with its --do.
  const steps: Step[] = [];
  return addStateOptions(program.command('run <url-or-file>'), { save: true, autosave: false })
    .description('run actions on a page, printing each result and the snapshot after it')
    .option('--do <action>', 'an action: click(7), setValue(3, "text"), select(4, "Express"), press("Enter"), scroll(down)… (repeatable)', (text: string) => {
      steps.push({ action: parseAction(text), text });
      return text;
    })
    .option('--expect <outcome>', 'what the --do before it should achieve: navigation, element_appears:TEXT, element_disappears:TEXT, value_changes, state_changes, any_change, no_change; "a|b" for either', (spec: string) => {
      const last = steps[steps.length - 1];
      if (!last) throw new PagelensError('BAD_INPUT', '--expect must follow the --do it verifies.');
      if (last.expect) throw new PagelensError('BAD_INPUT', `"${last.text}" already has an --expect (use "a|b" for alternatives).`);
      last.expect = parseExpectSpec(spec);
      return spec;
    })
    .option('--viewport <WxH>', 'viewport size', '1280x800')
    .option('--full-page', 'snapshots keep elements outside the viewport too')
    .option('--pretty', 'one element per line instead of compact JSON')
    .option('--keep-going', 'run the remaining actions after one fails')
    .option('--cdp <endpoint>', 'attach to a running browser over CDP (ws://… or http://host:9222)')
    .addOption(new Option('--offline', 'abort every request that is not to loopback (always on for local files)'))
    .action((target: string, flags: RunFlags) => runCommand(target, steps, flags));
}

async function runCommand(target: string, steps: Step[], flags: RunFlags): Promise<void> {
  if (!steps.length) throw new PagelensError('BAD_INPUT', 'Nothing to run: give at least one --do ACTION.');
  const open = await openPage(target, { viewport: parseViewport(flags.viewport), cdpEndpoint: flags.cdp, ...(flags.offline && { blockExternal: true }), ...await openStateOptions(flags) });
  const print = (o: object) => process.stdout.write((flags.pretty ? formatPayload(o) : JSON.stringify(o)) + '\n');
  try {
    print({ step: 0, snapshot: await open.lens.snapshot({ fullPage: flags.fullPage }) });
    let failed = 0;
    for (const [i, step] of steps.entries()) {
      const result = await open.lens.act(step.action, step.expect ? { expect: step.expect } : {});
      const ok = result.ok && (result.verification?.success ?? true);
      print({ step: i + 1, result });
      print({ step: i + 1, snapshot: await open.lens.snapshot({ fullPage: flags.fullPage }) });
      const note = result.error?.message ?? result.verification?.feedback ?? result.detail ?? '';
      // The action as the lens reports it: a value meant for a password field is masked there.
      process.stderr.write(`pagelens: step ${i + 1} ${result.action}: ${ok ? 'ok' : 'FAILED'} (${result.method}) ${note}\n`);
      if (!ok) {
        failed++;
        if (!flags.keepGoing) break;
      }
    }
    if (failed) process.exitCode = 1;
  } finally {
    await saveAtEnd(open.lens, flags);
    await open.close();
  }
}
