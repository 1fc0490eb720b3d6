// A zip archive built in memory, for a host with no file system and no zlib (the extension's
// service worker): entries are kept as they are added, and written out once, at the end, into one
// byte array that src/trace/zip.ts (readZip) and every unzip tool read. A text entry is deflated
// with the platform's CompressionStream('deflate-raw') when there is one and it makes the entry
// smaller; otherwise, and for JPEGs, it is stored. Its records are zipLayout.ts's, the ones zip.ts
// writes too.
import type { ArchiveSink } from './recordWriter.js';
import { centralHeader, dosTime, endRecord, localHeader } from './zipLayout.js';


const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (the zip polynomial) of `data`. */
export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Raw deflate by the platform (browsers; Node from 21.2), or undefined where it has none. */
async function deflateRaw(data: Uint8Array): Promise<Uint8Array | undefined> {
  if (typeof CompressionStream !== 'function') return undefined;
  try {
    const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate-raw' as CompressionFormat));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch {
    return undefined;
  }
}

interface Kept { name: Uint8Array; data: Uint8Array; compress: boolean; time: number; date: number }

const utf8 = new TextEncoder();

export class MemoryZip implements ArchiveSink {
  private readonly entries: Kept[] = [];
  /** The archive's size with every entry stored (an upper bound of what deflate leaves). */
  private total = 22;
  private closed = false;

  get bytes(): number {
    return this.total;
  }

  add(name: string, data: Uint8Array | string, opts: { compress?: boolean } = {}): void {
    if (this.closed) throw new Error('the archive is closed');
    const raw = typeof data === 'string' ? utf8.encode(data) : data;
    const fileName = utf8.encode(name);
    this.entries.push({ name: fileName, data: raw, compress: opts.compress !== false, ...dosTime(new Date()) });
    this.total += 30 + 46 + 2 * fileName.length + raw.length;
  }

  close(): void {
    this.closed = true;
  }

  /** The archive's bytes: each entry's local header and data, then the central directory and its end record. */
  async toBytes(): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    const central: Uint8Array[] = [];
    let offset = 0;
    for (const e of this.entries) {
      const deflated = e.compress ? await deflateRaw(e.data) : undefined;
      const useDeflate = deflated !== undefined && deflated.length < e.data.length;
      const body = useDeflate ? deflated : e.data;
      const crc = crc32(e.data);
      const method = useDeflate ? 8 : 0;
      const facts = { name: e.name, crc, method, size: e.data.length, stored: body.length, time: e.time, date: e.date } as const;
      parts.push(localHeader(facts), e.name, body);
      central.push(centralHeader(facts, offset), e.name);
      offset += 30 + e.name.length + body.length;
    }
    const dirSize = central.reduce((n, p) => n + p.length, 0);
    const end = endRecord(this.entries.length, dirSize, offset);
    const all = [...parts, ...central, end];
    const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of all) { out.set(p, at); at += p.length; }
    return out;
  }
}
