// src/core/heldReads.ts on its own (issue 44): a frame's read asked as the delta since the read the
// host holds, patched onto it, and held for the next read of that kind; a delta against a read the
// host does not hold is refused; a cold read is not held. No page: the engine's answers are made here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkReadText, HeldReads, readAgainstHeld, ReadTally, type CheckedRead } from '../../src/core/heldReads.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { FrameRead } from '../../src/model/contracts/engine.js';
import type { ReadBase } from '../../src/model/pagemodel/frameRead.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';

const node = (id: string, name: string) => ({ id, role: 'button', name, tag: 'button', states: [], box: [0, 0, 10, 10] as [number, number, number, number] });
const frameBase = { doc: 'doc-aaaa-1', url: 'http://127.0.0.1/', base: 'http://127.0.0.1/', title: 'T', viewport: { width: 800, height: 600 }, scroll: { x: 0, y: 0, position: '0%' }, total: 2, timeMs: 1 };
const whole = (seq: number | undefined, names: string[], why?: string): FrameRead => ({ kind: 'whole', ...frameBase, ...(seq !== undefined && { seq }), ...(why && { whole: why }), nodes: names.map((n, i) => node(String(i + 1), n)) });
const asked = (answer: FrameRead): CheckedRead => ({ answer, bytes: JSON.stringify(answer).length });

test('checkReadText: only the engine\'s own JSON text that fits the read contract is believed', () => {
  const good = checkReadText(JSON.stringify(whole(1, ['Save'])));
  assert.equal(good.answer.kind, 'whole');
  assert.equal(good.answer.nodes.length, 1);
  assert.ok(good.bytes > 50);
  for (const bad of [undefined, 42, '{not json', JSON.stringify({ kind: 'whole', nodes: 'nope' })]) {
    assert.throws(() => checkReadText(bad), (e) => isPagelensError(e, 'ENGINE_ERROR'), String(bad));
  }
});

test('readAgainstHeld: the first read is asked whole and held; the next asks for the delta since it and is patched onto it', async () => {
  const held = new HeldReads();
  const tally = new ReadTally();
  const opts = { viewportOnly: false, structure: true };
  const bases: Array<ReadBase | null> = [];
  const first = await readAgainstHeld(held, 'F', opts, tally, '', async (base) => { bases.push(base); return asked(whole(1, ['Save', 'Cancel'])); });
  assert.deepEqual(first.nodes.map((n) => n.name), ['Save', 'Cancel']);
  assert.equal(held.get('F', opts)?.seq, 1, 'held under its seq');
  // The delta: keep the first entry, replace the second.
  const delta: FrameRead = { kind: 'delta', ...frameBase, seq: 2, since: 1, nodes: [1, -1, node('3', 'Cancel order')] };
  const second = await readAgainstHeld(held, 'F', opts, tally, 'frame 1: ', async (base) => { bases.push(base); return asked(delta); });
  assert.deepEqual(bases, [null, { doc: 'doc-aaaa-1', seq: 1 }], 'the second read named the read held');
  assert.deepEqual(second.nodes.map((n) => `${n.id}:${n.name}`), ['1:Save', '3:Cancel order'], 'the delta since the read named, patched');
  assert.equal(held.get('F', opts)?.seq, 2);
  assert.equal(held.get('F', { viewportOnly: true, structure: true }), undefined, 'another kind of read has its own base');
  const engine = { ms: 0, reusedNames: 0, visited: 0 } as PageModel['engine'];
  tally.report(engine);
  assert.equal(engine.deltas, 1);
  assert.equal(engine.crossed, 3, 'two whole entries, one patched entry');
});

test('readAgainstHeld: a delta against a read not held, or another document\'s, is refused; a cold read asks whole and holds nothing', async () => {
  const held = new HeldReads();
  const tally = new ReadTally();
  const opts = { viewportOnly: true };
  const stray: FrameRead = { kind: 'delta', ...frameBase, seq: 5, since: 4, nodes: [] };
  await assert.rejects(readAgainstHeld(held, 'F', opts, tally, '', async () => asked(stray)), (e) => isPagelensError(e, 'ENGINE_ERROR') && /which the host does not hold/.test((e as Error).message));
  await readAgainstHeld(held, 'F', opts, tally, '', async () => asked(whole(4, ['A'])));
  const otherDoc: FrameRead = { ...stray, doc: 'doc-bbbb-2' };
  await assert.rejects(readAgainstHeld(held, 'F', opts, tally, '', async () => asked(otherDoc)), /another document/);
  const cold = await readAgainstHeld(held, 'F', { ...opts, fresh: true }, tally, '', async (base) => { assert.equal(base, null, 'a cold read names no base'); return asked(whole(undefined, ['B'])); });
  assert.equal(cold.nodes[0].name, 'B');
  assert.equal(held.get('F', opts)?.seq, 4, 'a read without seq is not held');
  // A whole answer where a delta was asked for is said, with why.
  await readAgainstHeld(held, 'F', opts, tally, 'frame 2: ', async () => asked(whole(6, ['C'], ' (too many changes)')));
  const engine = { ms: 0, reusedNames: 0, visited: 0 } as PageModel['engine'];
  tally.report(engine);
  assert.deepEqual(engine.whole, ['frame 2:  (too many changes)']);
});

test('HeldReads.keepOnly forgets the reads of frames that are gone', () => {
  const held = new HeldReads();
  const snap = { seq: 1, snapshot: { ...frameBase, nodes: [] } };
  held.set('A', { viewportOnly: true }, snap);
  held.set('B', { viewportOnly: true }, snap);
  held.set('B', { viewportOnly: false }, snap);
  held.keepOnly(new Set(['A']));
  assert.ok(held.get('A', { viewportOnly: true }));
  assert.equal(held.get('B', { viewportOnly: true }), undefined);
  assert.equal(held.get('B', { viewportOnly: false }), undefined);
});
