// Input from outside (a caller, a CLI flag, an HTTP body) is checked against its schema, and a
// mismatch becomes BAD_INPUT with what was expected: callers never see a raw ZodError.
import type { z } from 'zod';
import { PagelensError } from './errors.js';

export interface InputIssue { path: string; message: string }

export function describeIssues(error: z.ZodError): InputIssue[] {
  return error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/** Parses `value` with `schema`, or throws BAD_INPUT naming `what` and every issue. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = describeIssues(r.error);
  const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  throw new PagelensError('BAD_INPUT', `Invalid ${what}: ${text}.`, { issues });
}

/** `raw` as `schema` says, or ENGINE_ERROR naming `what` and the first issues: what a page's engine answers is believed only once it fits. */
export function checkedAnswer<S extends z.ZodType>(schema: S, raw: unknown, what: string): z.infer<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const issues = describeIssues(r.error).slice(0, 3).map((i) => `${i.path || 'answer'}: ${i.message}`).join('; ');
  throw new PagelensError('ENGINE_ERROR', `The in-page engine answered ${what} with something it never returns (${issues}); the page may have tampered with it.`);
}
