// The run record written where there is no file system (the extension): the shared record writer
// over the in-memory zip. Read back by the Node reader (src/trace/zip.ts, readTrace.ts): the
// checksums are zlib's, the text entries deflated, the extension face written as version 3, the
// ceiling marked as on disk, and a secret learnt late masked in every entry written before it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { TraceSecrets } from '../../src/model/trace/mask.js';
import { crc32, MemoryZip } from '../../src/model/trace/memoryZip.js';
import { RecordWriter } from '../../src/model/trace/recordWriter.js';
import type { TraceStep } from '../../src/model/trace/runRecord.js';
import { readTraceBuffer } from '../../src/trace/readTrace.js';
import { readZip } from '../../src/trace/zip.js';

const step = (text: string, thought?: string): Omit<TraceStep, 'step' | 'screenshot'> => ({
  at: new Date().toISOString(), url: 'http://127.0.0.1/', frames: 1, observation: { mode: 'semantic_v3', format: 'json', text, tokens: 10 },
  boxes: [{ id: '1', box: [1, 2, 30, 10] }], ...(thought && { thought }), action: { text: 'click(1)', id: '1' }, verdict: { outcome: 'ok' }, warnings: [], masked: [], timings: {},
});
const jpeg = (n: number) => ({ jpeg: Uint8Array.from({ length: n }, (_, i) => (i < 2 ? [0xff, 0xd8][i] : i % 251)), width: 10, height: 10, viewport: { width: 10, height: 10 } });

test('the in-memory zip: read by the Node reader, zlib checksums, JSON deflated, JPEG stored', async () => {
  const sample = new TextEncoder().encode('pagelens '.repeat(100));
  assert.equal(crc32(sample), zlibCrc32(sample));
  const zip = new MemoryZip();
  zip.add('a.json', JSON.stringify({ text: 'x'.repeat(5000) }));
  zip.add('b.jpg', jpeg(3000).jpeg, { compress: false });
  zip.add('ü/name.txt', '');
  const bytes = Buffer.from(await zip.toBytes());
  assert.ok(bytes.length <= zip.bytes, `the size counted (${zip.bytes}) bounds the archive (${bytes.length})`);
  const { entries, recovered } = readZip(bytes);
  assert.equal(recovered, false);
  assert.deepEqual([...entries.keys()], ['a.json', 'b.jpg', 'ü/name.txt']);
  assert.equal(JSON.parse(entries.get('a.json')!.toString()).text.length, 5000);
  assert.equal(bytes.readUInt16LE(8), 8, 'the JSON entry is deflated');
  assert.equal(entries.get('b.jpg')!.length, 3000);
});

test('the extension face: version 3, the ceiling marked, a secret the run learnt masked everywhere', async () => {
  const secrets = new TraceSecrets();
  // Learnt during the run; the archive is written when it ends (as the extension and the agent write theirs).
  secrets.learnValue('hunter22', 'the value typed into 2 (a secret field)');
  const zip = new MemoryZip();
  const writer = new RecordWriter(zip, { face: 'extension', task: 'log in with hunter22', secrets, ceilingBytes: 12_000 });
  writer.add(step('{"a":1}', 'typing hunter22'), jpeg(4000));
  writer.add(step('{"a":2}'), jpeg(4000));
  writer.add(step('{"a":3}'), jpeg(4000));
  for (let i = 0; i < 40; i++) writer.add(step('{"a":4}'), jpeg(4000));
  writer.close({ status: 'done', success: true });
  const bytes = Buffer.from(await zip.toBytes());
  assert.equal(bytes.includes('hunter22'), false);
  const { record, images } = readTraceBuffer(bytes);
  assert.equal(record.meta.face, 'extension');
  assert.equal(record.meta.version, 3);
  assert.match(record.meta.task!, /\*\*\*/);
  assert.equal(record.steps[0].thought, 'typing ***');
  assert.ok(record.steps[0].screenshot && images.has(record.steps[0].screenshot.file));
  const reached = record.end!.ceiling!.reachedAtStep;
  assert.ok(reached >= 2 && reached <= 3, `reached at ${reached}`);
  const light = record.steps.filter((s) => s.omitted === 'ceiling');
  assert.ok(light.length > 0 && light.every((s) => !s.screenshot && s.observation?.text === '' && s.boxes.length === 0));
  assert.ok(record.end!.ceiling!.droppedSteps > 0, 'past half as much again, steps are dropped');
  assert.deepEqual(record.end!.masked, ['the value typed into 2 (a secret field)']);
});
