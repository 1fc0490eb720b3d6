// src/core/read.ts on its own (issue 44): every laid-out frame read through the host's transport (a
// fake FrameReader here), a child frame's failure said on the frame and the read going on, the main
// frame's failure the read's, a viewport read of a child asking only for the part shown, what an
// ancestor covers marked, and the frames composed under global IDs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFrames, type FrameReader, type LaidOut } from '../../src/core/read.js';
import type { Box, FrameSnapshot } from '../../src/model/contracts/schema.js';

interface F extends LaidOut<F> { name: string }

const snap = (doc: string, nodes: Array<[string, string, Box, boolean?]>): FrameSnapshot => ({
  doc, url: `http://127.0.0.1/${doc}`, base: `http://127.0.0.1/${doc}`, title: doc, viewport: { width: 800, height: 600 }, scroll: { x: 0, y: 0, position: '0%' },
  nodes: nodes.map(([id, name, box, occ]) => ({ id, role: 'button', name, tag: 'button', states: [], box, ...(occ !== undefined && { occ }) })), total: nodes.length, timeMs: 2,
});

function frames(): F[] {
  const main: F = { name: 'main', ordinal: 0, parent: null, originInParent: [0, 0], offset: [0, 0], clip: [0, 0, 800, 600] };
  const child: F = { name: 'child', ordinal: 1, parent: main, originInParent: [100, 200], offset: [100, 200], clip: [100, 200, 300, 100] };
  const broken: F = { name: 'broken', ordinal: 2, parent: main, originInParent: [0, 400], offset: [0, 400], clip: [0, 400, 100, 100] };
  return [main, child, broken];
}

function reader(over: Partial<FrameReader<F>> = {}): FrameReader<F> & { views: Array<[string, Box | undefined]> } {
  const views: Array<[string, Box | undefined]> = [];
  return {
    views,
    async read(f, view) {
      views.push([f.name, view]);
      if (f.name === 'broken') throw new Error('frame crashed');
      return f.ordinal === 0 ? snap('doc-main-0', [['1', 'Save', [10, 10, 50, 20]]]) : snap('doc-child-1', [['1', 'Pay', [5, 5, 40, 20], false], ['2', 'Later', [5, 500, 40, 20]]]);
    },
    ownerHits: () => null,
    info: (f) => ({ id: f.ordinal, url: `http://127.0.0.1/${f.name}`, origin: 'http://127.0.0.1', parentId: f.parent ? f.parent.ordinal : null, crossOrigin: false, sandboxed: false, ...(f.error && { error: f.error }) }),
    describe: (e) => (e as Error).message,
    ...over,
  };
}

test('every frame read and composed under global IDs; a child that fails is said on its frame, the rest goes on', async () => {
  const fs = frames();
  const r = reader();
  const warnings: string[] = [];
  const model = await readFrames(fs, r, false, warnings);
  assert.deepEqual(model.nodes.map((n) => n.gid), ['1', 'f1_1', 'f1_2']);
  assert.deepEqual(model.nodes.find((n) => n.gid === 'f1_1')?.box, [105, 205, 40, 20], 'a child\'s boxes in top-level coordinates');
  assert.deepEqual(model.docs, { 0: 'doc-main-0', 1: 'doc-child-1' });
  assert.equal(model.frames.find((f) => f.id === 2)?.error, 'frame crashed', 'the failed frame is listed with why');
  assert.deepEqual(r.views.map(([, v]) => v), [undefined, undefined, undefined], 'a whole-page read asks each frame whole');
});

test('a viewport read asks a child only for the part the page shows, in its own coordinates, and keeps what lies in view', async () => {
  const r = reader();
  const model = await readFrames(frames(), r, true, []);
  assert.deepEqual(r.views.find(([n]) => n === 'child')?.[1], [0, 0, 300, 100]);
  assert.deepEqual(r.views.find(([n]) => n === 'main')?.[1], undefined, 'the main frame is read as it is');
  assert.deepEqual(model.nodes.map((n) => n.gid), ['1', 'f1_1'], 'f1_2 lies outside the viewport');
});

test('the main frame\'s failure is the read\'s; a frame already known broken is not asked', async () => {
  await assert.rejects(readFrames(frames(), reader({ read: async () => { throw new Error('main gone'); } }), false, []), /main gone/);
  const fs = frames();
  fs[2].error = 'cross-origin';
  const r = reader();
  const model = await readFrames(fs, r, false, []);
  assert.ok(!r.views.some(([n]) => n === 'broken'));
  assert.equal(model.frames.find((f) => f.id === 2)?.error, 'cross-origin');
});

test('what an ancestor covers is marked occ; a check that fails is a warning, never a quiet "not covered"; the host\'s notes are kept', async () => {
  const hits: Array<Array<[number, number]>> = [];
  const covered = await readFrames(frames(), reader({ ownerHits: async (_f, pts) => { hits.push(pts); return pts.map(() => false); }, notes: (f) => (f.ordinal === 0 ? ['slow read'] : []) } as Partial<FrameReader<F>>), false, []);
  assert.deepEqual(hits, [[[125, 215]]], 'the unoccluded candidate\'s centre, carried into the parent');
  assert.equal(covered.nodes.find((n) => n.gid === 'f1_1')?.occ, true);
  assert.ok(covered.warnings.includes('slow read'), JSON.stringify(covered.warnings));
  const warnings: string[] = [];
  const unsure = await readFrames(frames(), reader({ ownerHits: async () => { throw new Error('parent busy'); } }), false, warnings);
  assert.notEqual(unsure.nodes.find((n) => n.gid === 'f1_1')?.occ, true);
  assert.ok(unsure.warnings.some((w) => /frame 1: whether anything in frame 0 covers it could not be checked \(parent busy\)/.test(w)), JSON.stringify(unsure.warnings));
});
