// src/core/artifacts.ts, directly (issue 44): skeleton, full and hybrid built from a model a fake
// ReadHost reads, with what only a host can do (copying a frame's document, the photograph) faked.
// The same payloads through the lens: test/core/lens.test.ts; on real pages: test/core/artifacts.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fullSnapshot, hybridSnapshot, skeletonSnapshot } from '../../src/core/artifacts.js';
import { IdNumbering, tabLedger } from '../../src/core/ledger.js';
import type { ReadHost, ReadOptions } from '../../src/core/port.js';
import type { HostEngine, HostFrame } from '../../src/model/contracts/host.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { untemplatize } from '../../src/model/renderers/templatize.js';

function model(): PageModel {
  return {
    url: 'http://a/', title: 'A', viewport: { width: 800, height: 600 }, scrollPosition: '0%',
    nodes: [{ id: '1', gid: '1', frame: 0, role: 'button', name: 'Save', tag: 'button', states: [], box: [10, 10, 80, 20] }, { id: '2', gid: '2', frame: 0, role: 'combobox', name: 'Size', tag: 'select', states: [], box: [10, 40, 80, 20] }],
    total: 2, frames: [{ id: 0, url: 'http://a/', origin: 'http://a', parentId: null, crossOrigin: false, sandboxed: false }],
    docs: { 0: 'doc-0' }, warnings: [], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}

async function host(opts: { copy?: () => string | Error; optionsDoc?: string } = {}) {
  const main: HostFrame = { ordinal: 0, url: 'http://a/', offset: [0, 0], handle: 0 };
  const engine = {
    frames: async () => [main],
    layout: (use: (f: HostFrame[], w: string[]) => Promise<unknown>) => use([main], []),
    engine: async (_f: HostFrame, call: string) => {
      // Where secret fields show their value: one here, painted over in the picture.
      if (call === 'secretBoxes') return { boxes: [[5, 6, 70, 20]], scroll: [0, 0], viewport: [800, 600] };
      assert.equal(call, 'nativeOptions');
      return { doc: opts.optionsDoc ?? 'doc-0', selects: [{ id: '2', options: [{ label: 'Medium', value: 'm', selected: true, disabled: false }], total: 1 }] };
    },
    describe: (e: unknown) => (e as Error).message,
  } as unknown as HostEngine;
  const h = {
    reads: [] as ReadOptions[], composed: [] as unknown[], kept: 0, engine,
    ledger: await tabLedger(new IdNumbering(), 't'),
    async read(o: ReadOptions) { h.reads.push(o); return model(); },
    keep: async () => { h.kept++; },
    async copyDocument() { const c = opts.copy?.() ?? '<html><body><button data-id="1">Save</button></body></html>'; if (c instanceof Error) throw c; return { doc: 'doc-0', html: c, elements: 3, tagged: 1, frames: [], timeMs: 0 }; },
    photograph: async () => ({ image: 'photo', notes: [] }),
    async compose(_img: unknown, o: unknown) { h.composed.push(o); return { base64: 'IMG', hash: 'ph', bytes: 3, marks: 2 }; },
  };
  return h as unknown as ReadHost & typeof h;
}

test('skeleton: read with structure and attributes, its selects\' options from the document read; another document\'s are left out and said', async () => {
  const h = await host();
  const s = await skeletonSnapshot(h, true);
  assert.deepEqual(h.reads, [{ fullPage: true, structure: true, attributes: true }]);
  assert.match(s.skeletonDom, /Medium/);
  assert.equal(h.kept, 1);
  const moved = await skeletonSnapshot(await host({ optionsDoc: 'doc-later' }));
  assert.doesNotMatch(moved.skeletonDom, /Medium/);
  assert.deepEqual(moved.warnings, ['the options of its selects could not be read (the frame shows another document now); they are left out of the skeleton']);
});

test('full: the page\'s copy as the payload; without the main document\'s copy there is no payload', async () => {
  const full = await fullSnapshot(await host());
  assert.match(untemplatize(full.dom), /<button data-id="1">Save<\/button>/);
  await assert.rejects(fullSnapshot(await host({ copy: () => new Error('main frame crashed') })), /main frame crashed/);
});

test('hybrid: the viewport read with boxes, the skeleton, and the picture composed with the secret covers and the tree\'s marks, or none', async () => {
  const h = await host();
  const marked = await hybridSnapshot(h, { quality: 55, setOfMark: true });
  assert.equal(marked.screenshot, 'IMG');
  assert.deepEqual(h.reads, [{ fullPage: false, structure: true, attributes: true }]);
  const first = h.composed[0] as { quality: number; marks: Array<{ i: string }> };
  assert.deepEqual([first.quality, first.marks.map((m) => m.i)], [55, ['1', '2']]);
  await hybridSnapshot(h, { quality: 60, setOfMark: false, type: 'png' });
  assert.deepEqual(h.composed[1], { quality: 60, viewport: { width: 800, height: 600 }, covers: [[5, 6, 70, 20]], type: 'png' });
});
