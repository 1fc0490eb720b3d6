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
