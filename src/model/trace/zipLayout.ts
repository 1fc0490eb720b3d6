// The zip records both trace archive writers write (src/trace/zip.ts on disk, memoryZip.ts in the
// extension's memory), in one place: a local header before each entry, a central directory entry
// for each, and the end record. UTF-8 names, sizes in the local header (no data descriptor), no
// zip64, no extra fields: an archive stays far below 4 GB (its ceiling).

export const LOCAL = 0x04034b50;
export const CENTRAL = 0x02014b50;
export const END = 0x06054b50;
/** Names are UTF-8 (general purpose flag bit 11). */
const UTF8 = 0x0800;
/** "Version needed to extract": 2.0, deflate. */
const VERSION = 20;

/** What both headers of an entry say of it. */
export interface ZipEntryFacts {
  /** The name, UTF-8 encoded. */
  name: Uint8Array;
  crc: number;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  /** Bytes of the data itself. */
  size: number;
  /** Bytes as written (deflated or not). */
  stored: number;
  /** MS-DOS time and date (dosTime). */
  time: number;
  date: number;
}

/** The MS-DOS time and date a zip entry carries (local time, two-second steps, from 1980). */
export function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((Math.max(1980, d.getFullYear()) - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

/** The 30-byte local header (the name follows it, then the data). */
export function localHeader(e: ZipEntryFacts): Uint8Array {
  const h = new DataView(new ArrayBuffer(30));
  h.setUint32(0, LOCAL, true);
  h.setUint16(4, VERSION, true);
  h.setUint16(6, UTF8, true);
  h.setUint16(8, e.method, true);
  h.setUint16(10, e.time, true);
  h.setUint16(12, e.date, true);
  h.setUint32(14, e.crc, true);
  h.setUint32(18, e.stored, true);
  h.setUint32(22, e.size, true);
  h.setUint16(26, e.name.length, true);
  return new Uint8Array(h.buffer);
}

/** The 46-byte central directory entry of an entry whose local header is at `offset` (the name follows it). */
export function centralHeader(e: ZipEntryFacts, offset: number): Uint8Array {
  const c = new DataView(new ArrayBuffer(46));
  c.setUint32(0, CENTRAL, true);
  c.setUint16(4, VERSION, true);
  c.setUint16(6, VERSION, true);
  c.setUint16(8, UTF8, true);
  c.setUint16(10, e.method, true);
  c.setUint16(12, e.time, true);
  c.setUint16(14, e.date, true);
  c.setUint32(16, e.crc, true);
  c.setUint32(20, e.stored, true);
  c.setUint32(24, e.size, true);
  c.setUint16(28, e.name.length, true);
  c.setUint32(42, offset, true);
  return new Uint8Array(c.buffer);
}

/** The 22-byte end record: `count` entries, their directory of `dirSize` bytes starting at `dirOffset`. */
export function endRecord(count: number, dirSize: number, dirOffset: number): Uint8Array {
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, END, true);
  end.setUint16(8, count, true);
  end.setUint16(10, count, true);
  end.setUint32(12, dirSize, true);
  end.setUint32(16, dirOffset, true);
  return new Uint8Array(end.buffer);
}
