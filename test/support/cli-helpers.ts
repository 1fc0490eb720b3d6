// Runs the real `pagelens` binary as a user would, capturing what it prints.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');

export interface CliResult { code: number; stdout: string; stderr: string }

/** Any command, its output captured; killed (and said so on stderr) after `timeoutMs`. */
export function runProcess(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = opts.timeoutMs ? setTimeout(() => { stderr += `\n(killed after ${opts.timeoutMs} ms)`; child.kill('SIGKILL'); }, opts.timeoutMs) : undefined;
    child.on('close', (code) => { clearTimeout(timer); resolve({ code: code ?? -1, stdout, stderr }); });
  });
}

/** `env` is added to this process's environment (e.g. PAGELENS_CHROMIUM to prove no browser starts). */
export function runCli(args: string[], opts: { env?: Record<string, string> } = {}): Promise<CliResult> {
  return runProcess(process.execPath, [BIN, ...args], { env: { ...process.env, ...opts.env } });
}
