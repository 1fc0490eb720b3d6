// How the command line words an error: the code a script can switch on and a message a person or
// an LLM can act on. One place, so stderr and a `--json` result say the same thing.
import { ZodError } from 'zod';
import { PagelensError } from '../model/contracts/errors.js';

export interface ErrorReport { code: string; message: string }

export function errorReport(e: unknown): ErrorReport {
  if (e instanceof PagelensError) return { code: e.code, message: e.message };
  // Input that failed a schema (an --expect, an action) is the caller's mistake, not ours.
  if (e instanceof ZodError) return { code: 'BAD_INPUT', message: e.issues.map((i) => `${i.path.map(String).join('.') || 'input'}: ${i.message}`).join('; ') };
  const first = (e instanceof Error ? e.message || e.name : String(e)).split('\n')[0];
  return { code: 'INTERNAL', message: `${first} (a bug in pagelens; set PAGELENS_DEBUG=1 for the stack)` };
}

/** One line for stderr. */
export function describeError(e: unknown): string {
  const { code, message } = errorReport(e);
  return `${code}: ${message}`;
}
