// Runs the real `pagelens` binary as a user would, capturing what it prints.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../bin/pagelens.js');

export interface CliResult { code: number; stdout: string; stderr: string }

/** `env` is added to this process's environment (e.g. PAGELENS_CHROMIUM to prove no browser starts). */
export function runCli(args: string[], opts: { env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...opts.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}
