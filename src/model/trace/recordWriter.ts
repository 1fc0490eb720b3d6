// Writes a run record into an archive (./runRecord.ts), whatever holds the archive: a zip file on
// disk that is valid after every entry (src/trace/writer.ts), or a zip in memory that a browser
// turns into a download (./memoryZip.ts). Meta first, each step as it comes, the end when the run
// closes. Every entry goes through the run's secrets first, and the archive stays under its
// ceiling: past it a step keeps no screenshot and no observation, past half as much again it is
// not kept at all, and the end says from which step on. One writer, so every face's archive
// keeps the same rules.
import { TraceSecrets } from './mask.js';
import { stepEntry, TRACE_SCHEMA, traceVersionOf, type TraceEnd, type TraceMeta, type TraceStep } from './runRecord.js';

/** Where the entries go. `compress: false`: stored as it is (a JPEG gains nothing from deflate). */
export interface ArchiveSink {
  add(name: string, data: Uint8Array | string, opts?: { compress?: boolean }): void;
  /** Bytes of the archive as it stands (an upper bound is fine: the ceiling is checked against it). */
  readonly bytes: number;
  close(): void;
}

/** Default ceiling of one archive. */
export const DEFAULT_TRACE_CEILING = 50 * 1024 * 1024;

export interface RecordWriterOptions {
  face: TraceMeta['face'];
  task?: string;
  ceilingBytes?: number;
  pagelens?: string;
  /** When the run began (default: now). */
  startedAt?: string;
  /** The run's secrets (shared with the face that learns them); a fresh set by default. */
  secrets?: TraceSecrets;
}

/** A step's screenshot as a writer takes it. */
export interface StepShot { jpeg: Uint8Array; width: number; height: number; viewport: { width: number; height: number } }

export class RecordWriter {
  readonly secrets: TraceSecrets;
  private readonly ceiling: number;
  private steps = 0;
  private tokens = 0;
  private reachedAt: number | undefined;
  private dropped = 0;
  private ended = false;

  constructor(private readonly sink: ArchiveSink, opts: RecordWriterOptions) {
    this.secrets = opts.secrets ?? new TraceSecrets();
    this.ceiling = opts.ceilingBytes ?? DEFAULT_TRACE_CEILING;
    const meta: TraceMeta = {
      schema: TRACE_SCHEMA, version: traceVersionOf(opts.face), face: opts.face, startedAt: opts.startedAt ?? new Date().toISOString(), tokenizer: 'o200k_base', ceilingBytes: this.ceiling,
      ...(opts.task !== undefined && { task: opts.task }), ...(opts.pagelens && { pagelens: opts.pagelens }),
    };
    this.sink.add('meta.json', JSON.stringify(this.secrets.deep(meta), null, 1));
  }

  get bytes(): number {
    return this.sink.bytes;
  }

  /** Steps numbered so far (the next is this plus one). */
  get stepCount(): number {
    return this.steps;
  }

  /** Adds a step (numbered here) with its screenshot; what the ceiling leaves of it is written at once. */
  add(step: Omit<TraceStep, 'step' | 'screenshot'>, shot?: StepShot): void {
    if (this.ended) return;
    const n = ++this.steps;
    this.tokens += step.observation?.tokens ?? 0;
    let record: TraceStep = this.secrets.deep({ step: n, ...step });
    let json = JSON.stringify(record);
    const full = json.length + (shot?.jpeg.length ?? 0) + 200;
    if (this.reachedAt === undefined && this.sink.bytes + full > this.ceiling) this.reachedAt = n;
    if (this.reachedAt !== undefined) {
      const { observation, boxes: _b, ...rest } = record;
      record = { ...rest, boxes: [], omitted: 'ceiling', ...(observation && { observation: { ...observation, text: '', rounds: undefined } }) };
      json = JSON.stringify(record);
      if (this.sink.bytes + json.length > this.ceiling * 1.5) { this.dropped++; return; }
      this.sink.add(stepEntry(n, 'json'), json);
      return;
    }
    if (shot) {
      const file = stepEntry(n, 'jpg');
      record.screenshot = { file, width: shot.width, height: shot.height, bytes: shot.jpeg.length, viewport: shot.viewport };
      this.sink.add(file, shot.jpeg, { compress: false });
    }
    this.sink.add(stepEntry(n, 'json'), JSON.stringify(record));
  }

  close(end: Pick<TraceEnd, 'status'> & Partial<Pick<TraceEnd, 'message' | 'success'>>): void {
    if (this.ended) return;
    this.ended = true;
    const record: TraceEnd = {
      endedAt: new Date().toISOString(), ...end, steps: this.steps, tokens: this.tokens, masked: [...this.secrets.masked],
      ...(this.reachedAt !== undefined && { ceiling: { reachedAtStep: this.reachedAt, droppedSteps: this.dropped } }),
    };
    this.sink.add('end.json', JSON.stringify(this.secrets.deep(record), null, 1));
    this.sink.close();
  }

  /** Stops writing without an end (the archive keeps its steps; a reader sees a run that did not close). */
  abandon(): void {
    this.ended = true;
    this.sink.close();
  }
}
