// Writes a run record into a zip file on disk: the record writer shared with the extension
// (src/model/trace/recordWriter.ts: masking, numbering, the ceiling) over an archive that is valid
// after every entry (zip.ts), so that a crash keeps the steps written before it.
import { DEFAULT_TRACE_CEILING, RecordWriter, type ArchiveSink, type RecordWriterOptions } from '../model/trace/recordWriter.js';
import { ZipAppender } from './zip.js';

export { DEFAULT_TRACE_CEILING };
export type TraceWriterOptions = RecordWriterOptions;

/** The zip file as the record writer's sink. */
function fileSink(path: string): ArchiveSink {
  const zip = new ZipAppender(path);
  return {
    add: (name, data, opts) => zip.add(name, typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength), opts),
    get bytes() { return zip.bytes; },
    close: () => zip.close(),
  };
}

export class TraceWriter extends RecordWriter {
  constructor(readonly path: string, opts: TraceWriterOptions) {
    super(fileSink(path), opts);
  }
}
