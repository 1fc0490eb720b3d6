// The run record of a side-panel run (face `extension`, docs/trace.md): the negotiation loop's
// recorder shared with the CLI's agent (src/core/agentRecord.ts: the observation exactly as the
// backend received it, its o200k count as the panel shows it, the planner's thought and action,
// the verdict, the timings, the secrets learnt), this host's screenshot of each step
// (traceShot.ts), and, when the run ends, the archive written in memory (the record writer shared
// with every face, over src/model/trace/memoryZip.ts) and kept as the last run (lastRun.ts).
// Bounded: the recorder keeps at most the ceiling's worth of screenshots and text while the run
// goes, and the writer marks every step past the ceiling, as every face's archive does.
import { AgentRecorder } from '../../src/core/agentRecord.js';
import type { AgentStep } from '../../src/core/negotiate.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import type { InteractRequestInput } from '../../src/model/negotiation/interact.js';
import { MemoryZip } from '../../src/model/trace/memoryZip.js';
import { RecordWriter } from '../../src/model/trace/recordWriter.js';
import { lastRunName, saveLastRun, type LastRun } from './lastRun.js';
import { captureTraceStep } from './traceShot.js';

/** Most bytes of one exported run (a few hundred steps of JPEG screenshots). */
export const EXTENSION_TRACE_CEILING = 16 * 1024 * 1024;

export interface RunTrace {
  interact(inner: (request: InteractRequestInput) => Promise<unknown>): (request: InteractRequestInput) => Promise<unknown>;
  /** The step's read (and how long it took): its screenshot is taken now. */
  read(snapshot: SemanticV3Result, ms: number): Promise<void>;
  step(step: AgentStep): void;
  /** Writes the archive and keeps it as the last run; `run` absent: the run ended in an error. */
  finish(run: { status: string; message?: string; success?: boolean } | undefined, error?: string): Promise<Omit<LastRun, 'bytes'> & { bytes: number }>;
}

export function startRunTrace(tabId: number, task: string, opts: { ceilingBytes?: number; pagelens?: string } = {}): RunTrace {
  const ceilingBytes = opts.ceilingBytes ?? EXTENSION_TRACE_CEILING;
  const recorder = new AgentRecorder({ keepBytes: ceilingBytes });
  const startedAt = new Date().toISOString();
  return {
    interact: (inner) => recorder.interact(inner),
    async read(snapshot, ms) {
      const capture = recorder.keeping ? await captureTraceStep(tabId, snapshot).catch(() => undefined) : undefined;
      recorder.read(snapshot, ms, capture);
    },
    step: (s) => { recorder.step(s); },
    async finish(run, error) {
      const zip = new MemoryZip();
      const writer = new RecordWriter(zip, { face: 'extension', task, secrets: recorder.secrets, startedAt, ceilingBytes, ...(opts.pagelens && { pagelens: opts.pagelens }) });
      recorder.writeTo(writer, run, error);
      const last: LastRun = { name: lastRunName(startedAt), bytes: await zip.toBytes(), steps: recorder.steps.length, status: run?.status ?? 'error', startedAt };
      await saveLastRun(last);
      return { ...last, bytes: last.bytes.length };
    },
  };
}
