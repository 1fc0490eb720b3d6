// Reads a trace archive back into its record, checked against the schema: the viewer's input, and
// what a test or a script reads. A run that did not close (no end.json) still reads.
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { PagelensError } from '../model/contracts/errors.js';
import { describeIssues } from '../model/contracts/validate.js';
import { TRACE_SCHEMA, TRACE_VERSION, TRACE_VERSIONS, traceVersionOf, TraceEnd, TraceMeta, TraceRecord, TraceStep } from '../model/trace/runRecord.js';
import { readZip } from './zip.js';

export interface ReadTrace {
  record: TraceRecord;
  /** JPEGs by archive entry name. */
  images: Map<string, Buffer>;
  /** The archive was cut short (a crash during a write): the entries were recovered from their headers. */
  recovered: boolean;
}

function parse<T>(schema: z.ZodType<T>, text: Buffer, what: string): T {
  let v: unknown;
  try {
    v = JSON.parse(text.toString('utf8'));
  } catch {
    throw new PagelensError('BAD_INPUT', `${what} is not JSON`);
  }
  const r = schema.safeParse(v);
  if (!r.success) throw new PagelensError('BAD_INPUT', `${what} does not match the trace schema: ${describeIssues(r.error).map((i) => `${i.path || what}: ${i.message}`).join('; ')}`);
  return r.data;
}

export function readTraceBuffer(buf: Buffer, name = 'the trace'): ReadTrace {
  const { entries, recovered } = readZip(buf);
  const metaRaw = entries.get('meta.json');
  if (!metaRaw) throw new PagelensError('BAD_INPUT', `${name} is not a pagelens trace (no meta.json)`);
  const head = JSON.parse(metaRaw.toString('utf8')) as { schema?: unknown; version?: unknown };
  if (head.schema !== TRACE_SCHEMA || !(TRACE_VERSIONS as readonly unknown[]).includes(head.version)) {
    throw new PagelensError('BAD_INPUT', `${name} is ${String(head.schema)} version ${String(head.version)}; this pagelens reads ${TRACE_SCHEMA} versions ${TRACE_VERSIONS.join(' to ')} (the newest is ${TRACE_VERSION})`);
  }
  const meta = parse(TraceMeta, metaRaw, 'meta.json');
  if (meta.version < traceVersionOf(meta.face)) throw new PagelensError('BAD_INPUT', `${name}: the ${meta.face} face came with version ${traceVersionOf(meta.face)}, the archive says version ${meta.version}`);
  const steps = [...entries.keys()].filter((k) => /^steps\/\d+\.json$/.test(k)).sort().map((k) => parse(TraceStep, entries.get(k)!, k));
  const endRaw = entries.get('end.json');
  const record = TraceRecord.parse({ meta, steps, ...(endRaw && { end: parse(TraceEnd, endRaw, 'end.json') }) });
  const images = new Map([...entries].filter(([k]) => k.endsWith('.jpg')));
  return { record, images, recovered };
}

export async function readTrace(path: string): Promise<ReadTrace> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    throw new PagelensError('BAD_INPUT', `cannot read the trace ${path}: ${(e as Error).message}`);
  }
  return readTraceBuffer(buf, path);
}
