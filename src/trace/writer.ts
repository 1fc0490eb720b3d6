// Writes a run record into its archive (src/model/trace/runRecord.ts): meta first, each step as it
// comes (so that a crash keeps the steps before it), the end when the run closes. Every entry goes
// through the run's secrets first, and the archive stays under its ceiling: past it a step keeps
// no screenshot and no observation, past half as much again it is not kept at all, and the end
// says from which step on.
import { stepEntry, TRACE_SCHEMA, traceVersionOf, type TraceEnd, type TraceMeta, type TraceStep } from '../model/trace/runRecord.js';
import { TraceSecrets } from '../model/trace/mask.js';
import { ZipAppender } from './zip.js';

/** Default ceiling of one archive. */
export const DEFAULT_TRACE_CEILING = 50 * 1024 * 1024;

export interface TraceWriterOptions {
  face: TraceMeta['face'];
  task?: string;
  ceilingBytes?: number;
  pagelens?: string;
  /** When the run began (default: now). */
  startedAt?: string;
  /** The run's secrets (shared with the face that learns them); a fresh set by default. */
  secrets?: TraceSecrets;
}

export class TraceWriter {
  readonly secrets: TraceSecrets;
  private readonly zip: ZipAppender;
  private readonly ceiling: number;
  private steps = 0;
  private tokens = 0;
  private reachedAt: number | undefined;
  private dropped = 0;
  private ended = false;

  constructor(readonly path: string, opts: TraceWriterOptions) {
    this.secrets = opts.secrets ?? new TraceSecrets();
    this.ceiling = opts.ceilingBytes ?? DEFAULT_TRACE_CEILING;
    this.zip = new ZipAppender(path);
    const meta: TraceMeta = {
      schema: TRACE_SCHEMA, version: traceVersionOf(opts.face), face: opts.face, startedAt: opts.startedAt ?? new Date().toISOString(), tokenizer: 'o200k_base', ceilingBytes: this.ceiling,
      ...(opts.task !== undefined && { task: opts.task }), ...(opts.pagelens && { pagelens: opts.pagelens }),
    };
    this.zip.add('meta.json', JSON.stringify(this.secrets.deep(meta), null, 1));
  }

  get bytes(): number {
    return this.zip.bytes;
  }

  /** Steps numbered so far (the next is this plus one). */
  get stepCount(): number {
    return this.steps;
  }

  /** Adds a step (numbered here) with its screenshot; what the ceiling leaves of it is written at once. */
  add(step: Omit<TraceStep, 'step' | 'screenshot'>, shot?: { jpeg: Buffer; width: number; height: number; viewport: { width: number; height: number } }): void {
    if (this.ended) return;
    const n = ++this.steps;
    this.tokens += step.observation?.tokens ?? 0;
    let record: TraceStep = this.secrets.deep({ step: n, ...step });
    let json = JSON.stringify(record);
    const full = json.length + (shot?.jpeg.length ?? 0) + 200;
    if (this.reachedAt === undefined && this.zip.bytes + full > this.ceiling) this.reachedAt = n;
    if (this.reachedAt !== undefined) {
      const { observation, boxes: _b, ...rest } = record;
      record = { ...rest, boxes: [], omitted: 'ceiling', ...(observation && { observation: { ...observation, text: '', rounds: undefined } }) };
      json = JSON.stringify(record);
      if (this.zip.bytes + json.length > this.ceiling * 1.5) { this.dropped++; return; }
      this.zip.add(stepEntry(n, 'json'), json);
      return;
    }
    if (shot) {
      const file = stepEntry(n, 'jpg');
      record.screenshot = { file, width: shot.width, height: shot.height, bytes: shot.jpeg.length, viewport: shot.viewport };
      this.zip.add(file, shot.jpeg, { compress: false });
    }
    this.zip.add(stepEntry(n, 'json'), JSON.stringify(record));
  }

  close(end: Pick<TraceEnd, 'status'> & Partial<Pick<TraceEnd, 'message' | 'success'>>): void {
    if (this.ended) return;
    this.ended = true;
    const record: TraceEnd = {
      endedAt: new Date().toISOString(), ...end, steps: this.steps, tokens: this.tokens, masked: [...this.secrets.masked],
      ...(this.reachedAt !== undefined && { ceiling: { reachedAtStep: this.reachedAt, droppedSteps: this.dropped } }),
    };
    this.zip.add('end.json', JSON.stringify(this.secrets.deep(record), null, 1));
    this.zip.close();
  }

  /** Stops writing without an end (the archive keeps its steps; a reader sees a run that did not close). */
  abandon(): void {
    this.ended = true;
    this.zip.close();
  }
}
