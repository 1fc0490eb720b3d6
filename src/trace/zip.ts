// A zip archive that is valid after every entry: each add() writes the entry where the last
// central directory began, then the whole central directory and its end record again, and cuts
// the file there. A process killed between two adds leaves a complete archive of what it had
// written; one killed during an add leaves entries a reader recovers by walking the local
// headers (readZip does). Entries are stored, or deflated when that is smaller (JSON; a JPEG is
// stored as it is). No zip64, no data descriptors: a trace stays far below 4 GB (its ceiling).
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';
import { CENTRAL, centralHeader, dosTime, END, endRecord, LOCAL, localHeader, type ZipEntryFacts } from '../model/trace/zipLayout.js';

/** An entry and where its local header is. */
interface Entry extends ZipEntryFacts { offset: number }

export class ZipAppender {
  private readonly fd: number;
  private readonly entries: Entry[] = [];
  /** Where the next entry goes: the end of the last entry's data. */
  private dataEnd = 0;
  private total = 0;
  private closed = false;

  /**
   * `directoryAtEnd`: the central directory is written once, at close (an archive written in one go,
   * whose entries would otherwise cost a directory each: a Playwright trace has hundreds).
   */
  constructor(readonly path: string, private readonly opts: { directoryAtEnd?: boolean } = {}) {
    this.fd = openSync(path, 'w', 0o600);
    this.writeDirectory();
  }

  /** Bytes of the archive as it stands. */
  get bytes(): number {
    return this.total;
  }

  add(name: string, data: Buffer | string, opts: { compress?: boolean } = {}): void {
    if (this.closed) throw new Error(`the archive ${this.path} is closed`);
    const raw = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const deflated = opts.compress === false ? undefined : deflateRawSync(raw);
    const useDeflate = deflated !== undefined && deflated.length < raw.length;
    const body = useDeflate ? deflated : raw;
    const fileName = Buffer.from(name, 'utf8');
    const { time, date } = dosTime(new Date());
    const entry: Entry = { name: fileName, crc: crc32(raw), method: useDeflate ? 8 : 0, size: raw.length, stored: body.length, offset: this.dataEnd, time, date };
    const local = Buffer.concat([localHeader(entry), fileName, body]);
    writeSync(this.fd, local, 0, local.length, this.dataEnd);
    this.dataEnd += local.length;
    this.entries.push(entry);
    if (!this.opts.directoryAtEnd) this.writeDirectory();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.opts.directoryAtEnd) this.writeDirectory();
    closeSync(this.fd);
  }

  private writeDirectory(): void {
    const parts: Uint8Array[] = this.entries.flatMap((e) => [centralHeader(e, e.offset), e.name]);
    const dir = Buffer.concat(parts);
    const end = endRecord(this.entries.length, dir.length, this.dataEnd);
    const tail = Buffer.concat([dir, end]);
    writeSync(this.fd, tail, 0, tail.length, this.dataEnd);
    ftruncateSync(this.fd, this.dataEnd + tail.length);
    this.total = this.dataEnd + tail.length;
  }
}

export interface ZipContents {
  entries: Map<string, Buffer>;
  /** The central directory was missing or unreadable: the entries were found by walking the local headers. */
  recovered: boolean;
}

/** Most bytes an entry may inflate to: an archive is read into memory, and a hostile one must not fill it. */
const MAX_ENTRY_BYTES = 256 * 1024 * 1024;

function inflate(method: number, body: Buffer, size: number): Buffer {
  if (size > MAX_ENTRY_BYTES) throw new Error(`an entry of ${size} bytes is larger than a trace holds`);
  if (method === 0) return body;
  if (method === 8) return inflateRawSync(body, { maxOutputLength: Math.max(1, size) });
  throw new Error(`compression method ${method} is not one a trace uses`);
}

/** The entries of an archive: through its central directory, or (an archive cut short) its local headers. */
export function readZip(buf: Buffer): ZipContents {
  try {
    return { entries: readDirectory(buf), recovered: false };
  } catch {
    return { entries: walkLocal(buf), recovered: true };
  }
}

function readDirectory(buf: Buffer): Map<string, Buffer> {
  let at = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === END) { at = i; break; }
  }
  if (at < 0) throw new Error('no end of central directory');
  const count = buf.readUInt16LE(at + 10);
  let p = buf.readUInt32LE(at + 16);
  const out = new Map<string, Buffer>();
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== CENTRAL) throw new Error('bad central directory');
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const stored = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const offset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (buf.readUInt32LE(offset) !== LOCAL) throw new Error(`bad local header for ${name}`);
    const start = offset + 30 + buf.readUInt16LE(offset + 26) + buf.readUInt16LE(offset + 28);
    const data = inflate(method, buf.subarray(start, start + stored), size);
    if (crc32(data) !== crc) throw new Error(`${name}: checksum mismatch`);
    out.set(name, data);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** Entries one after another from the start; stops at the first that is not whole. */
function walkLocal(buf: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  let p = 0;
  while (p + 30 <= buf.length && buf.readUInt32LE(p) === LOCAL) {
    const method = buf.readUInt16LE(p + 8);
    const crc = buf.readUInt32LE(p + 14);
    const stored = buf.readUInt32LE(p + 18);
    const size = buf.readUInt32LE(p + 22);
    const nameLen = buf.readUInt16LE(p + 26);
    const start = p + 30 + nameLen + buf.readUInt16LE(p + 28);
    if (start + stored > buf.length) break;
    const name = buf.toString('utf8', p + 30, p + 30 + nameLen);
    try {
      const data = inflate(method, buf.subarray(start, start + stored), size);
      if (crc32(data) !== crc) break;
      out.set(name, data);
    } catch {
      break;
    }
    p = start + stored;
  }
  return out;
}
