// Module hooks for a child process under test: every module it loads (static or dynamic import)
// is appended, one URL a line, to the file named by PAGELENS_LOAD_TRACE. Lets a test prove what a
// command does NOT load (e.g. `pagelens --help` never loads playwright-core).
import { appendFileSync } from 'node:fs';

type Next = (specifier: string, context: unknown) => Promise<{ url: string }>;

export async function resolve(specifier: string, context: unknown, next: Next): Promise<{ url: string }> {
  const resolved = await next(specifier, context);
  const file = process.env.PAGELENS_LOAD_TRACE;
  if (file) appendFileSync(file, resolved.url + '\n');
  return resolved;
}
