// `pagelens bench …`: the benchmark lives in bench/ (outside src, so the faces never import it);
// the CLI runs its compiled entry as a child process and hands over every argument unchanged.
import type { Command } from 'commander';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PagelensError } from '../model/contracts/errors.js';

const BENCH_ENTRY = fileURLToPath(new URL('../../bench/run.js', import.meta.url));

export function runBenchProcess(args: string[]): Promise<number> {
  if (!existsSync(BENCH_ENTRY)) {
    return Promise.reject(new PagelensError('BAD_INPUT', `The benchmark is not here (${BENCH_ENTRY} is missing): it ships with the pagelens repository, not the package; run npm run build in a clone.`));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BENCH_ENTRY, ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export function addBenchCommand(program: Command): Command {
  return program.command('bench')
    .description('benchmark tokens, time, coverage and names against Playwright and Chrome (pagelens bench --help for options)')
    .argument('[args...]', 'folder, .html files, URL list or URLs, and bench options')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async (_args: string[], _flags: unknown, cmd: Command) => {
      process.exitCode = await runBenchProcess(cmd.args);
    });
}
