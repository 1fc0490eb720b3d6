// The two MCP servers the bench drives side by side, each a child over stdio behind the MCP SDK
// client: `pagelens mcp` and Playwright MCP (@playwright/mcp), both kept on the bench's loopback
// origin so that neither fetches the saved pages' live third parties.
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT } from './inputs.js';

export type ServerName = 'pagelens' | 'playwright';
export type Outcome = 'ok' | 'error' | 'deadline' | 'skipped';
export interface Session { name: ServerName; client: Client; transport: StdioClientTransport; stderrTail: string[] }
export interface Answer { outcome: Outcome; ms: number; text: string; detail?: string }

export const PW_CLI = join(REPO_ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');
const PAGELENS_BIN = join(REPO_ROOT, 'bin', 'pagelens.js');
/** Playwright MCP writes snapshots and console logs as files; kept out of the shared checkout. */
const OUT_DIR = join(tmpdir(), 'pagelens-bench-playwright-mcp');
const CONNECT_MS = 60_000;

/** Why the peer cannot be run here, or undefined when it can. */
export function peerMissing(): string | undefined {
  return existsSync(PW_CLI) ? undefined : `@playwright/mcp is not installed (${PW_CLI}); npm install first`;
}

/**
 * Starts one server as its user would: pagelens with its defaults (plus `extra`), Playwright MCP
 * headless and isolated on the same Chromium. Both may reach `origin` only.
 */
export async function startServer(name: ServerName, origin: string, extra: string[] = []): Promise<Session> {
  const args = name === 'pagelens'
    ? [PAGELENS_BIN, 'mcp', '--allowed-origins', origin, ...extra]
    : [PW_CLI, '--headless', '--isolated', '--no-sandbox', '--executable-path', '/usr/bin/chromium', '--browser', 'chromium', '--allowed-origins', origin, '--output-dir', OUT_DIR, ...extra];
  const transport = new StdioClientTransport({ command: process.execPath, args, env: { ...process.env } as Record<string, string>, stderr: 'pipe', cwd: REPO_ROOT });
  const stderrTail: string[] = [];
  // Kept (last few lines only) so a dead session can say why; not drained, the pipe would fill and stall the child.
  transport.stderr?.on('data', (b: Buffer) => { stderrTail.push(...b.toString().split('\n').filter(Boolean)); stderrTail.splice(0, Math.max(0, stderrTail.length - 5)); });
  const client = new Client({ name: 'pagelens-bench', version: '0.0.0' });
  await client.connect(transport, { timeout: CONNECT_MS });
  return { name, client, transport, stderrTail };
}

/** One tool call under the deadline. The SDK's own timeout cancels the request on the wire; the race is for a transport that never settles. */
export async function callTool(s: Session, tool: string, args: Record<string, unknown>, deadline: number): Promise<Answer> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), deadline + 1_000); });
  try {
    const r = await Promise.race([s.client.callTool({ name: tool, arguments: args }, undefined, { timeout: deadline }), late]);
    const ms = performance.now() - t0;
    if (r === 'late') return { outcome: 'deadline', ms, text: '' };
    const text = (r.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    return r.isError === true ? { outcome: 'error', ms, text, detail: text.slice(0, 160) } : { outcome: 'ok', ms, text };
  } catch (e) {
    const ms = performance.now() - t0;
    const msg = (e as Error).message;
    return { outcome: /timed out|timeout/i.test(msg) ? 'deadline' : 'error', ms, text: '', detail: msg.slice(0, 160) };
  } finally {
    clearTimeout(timer);
  }
}
