// src/core/lens.ts and the payloads it is made of (core/artifacts.ts, capture.ts, semantic.ts) on
// their own (issue 44): a fake ReadHost stands for a host's transport, so that what the core does
// with it shows: the one mode dispatch, what each mode reads, that whatever a payload shows is
// handed out and kept, how the artifacts are put together from what only a host can do, and the
// capture chain's fallbacks. The same payloads on both real hosts: test/core/host-matrix.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdNumbering, tabLedger } from '../../src/core/ledger.js';
import { CoreLens } from '../../src/core/lens.js';
import type { ReadHost, ReadOptions } from '../../src/core/port.js';
import { KeptSnapshots } from '../../src/core/snapshots.js';
import { isPagelensError, PagelensError } from '../../src/model/contracts/errors.js';
import type { HostEngine, HostFrame } from '../../src/model/contracts/host.js';
import type { PageModel, PageNode } from '../../src/model/pagemodel/page.js';
import type { AxTreeResult } from '../../src/model/renderers/axtree.js';
import { untemplatize } from '../../src/model/renderers/templatize.js';

const frame = (ordinal: number, parent?: number, error?: string): HostFrame => ({ ordinal, url: `http://127.0.0.1/f${ordinal}`, offset: [0, 0], handle: ordinal, ...(parent !== undefined && { parent }), ...(error && { error }) });

function page(opts: ReadOptions): PageModel {
  const node = (gid: string, frameId: number, tag: string, name: string, i: number): PageNode => ({ id: gid.replace(/^f\d+_/, ''), gid, frame: frameId, role: tag === 'select' ? 'combobox' : 'button', name, tag, states: [], box: [10, 10 + i * 30, 80, 20] });
  const nodes = [node('1', 0, 'button', 'Save', 0), node('2', 0, 'select', 'Size', 1), node('f1_1', 1, 'button', 'Pay', 2)];
  // A viewport read sees the main frame's two; the whole page, the frame's too.
  const shown = opts.fullPage ? nodes : nodes.slice(0, 2);
  return {
    url: 'http://127.0.0.1/f0', title: 'Fake', viewport: { width: 800, height: 600 }, scrollPosition: '0%', nodes: shown, total: 3,
    frames: [{ id: 0, url: 'http://127.0.0.1/f0', origin: 'http://127.0.0.1', parentId: null, crossOrigin: false, sandboxed: false }, { id: 1, url: 'http://127.0.0.1/f1', origin: 'http://127.0.0.1', parentId: 0, crossOrigin: false, sandboxed: false }],
    docs: { 0: 'doc-0', 1: 'doc-1' }, warnings: [], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}

interface Fake extends ReadHost {
  reads: ReadOptions[];
  kept: number;
  composed: Array<{ quality: number; marks?: unknown[] }>;
  /** Hooks a test sets to break things. */
  failRead?: (opts: ReadOptions) => Error | undefined;
  copies: Record<number, (nonce: string) => { doc: string; html: string } | Error>;
}

async function fakeHost(opts: { axtree?: boolean } = {}): Promise<Fake> {
  const frames = [frame(0), frame(1, 0), frame(2, 0)];
  const engine: HostEngine = {
    frames: async () => frames,
    layout: (use) => use(frames, ['frame 3 could not be placed']),
    engine: (async (f: HostFrame, call: string, args: unknown[] = []) => {
      if (call === 'nativeOptions') {
        assert.deepEqual(args, [['2'], 25], 'the local IDs of the frame\'s selects, at most 25 options each');
        return { doc: `doc-${f.ordinal}`, selects: [{ id: '2', options: [{ label: 'Large', value: 'l', selected: true, disabled: false }], total: 3 }] };
      }
      if (call === 'recentMutationEvents') return [];
      if (call === 'secretBoxes') return { boxes: [], scroll: [0, 0], viewport: [800, 600] };
      throw new PagelensError('ENGINE_ERROR', `no ${call} here`);
    }) as HostEngine['engine'],
    owner: async () => { throw new Error('no owners'); },
    resolve: async () => { throw new Error('no resolve'); },
    element: async () => { throw new Error('no element'); },
    release: async () => {},
    sighting: () => undefined,
    describe: (e) => (e instanceof Error ? e.message : String(e)),
  };
  const host: Fake = {
    reads: [], kept: 0, composed: [],
    copies: {
      0: (nonce) => ({ doc: 'doc-0', html: `<html><body><button data-id="1">Save</button><iframe><!--${nonce}:1--></iframe><iframe><!--${nonce}:2--></iframe></body></html>` }),
      1: () => ({ doc: 'doc-1', html: '<html><body><button data-id="f1_1">Pay</button></body></html>' }),
      2: () => new PagelensError('FRAME_DETACHED', 'frame 2 went away'),
    },
    engine,
    ledger: await tabLedger(new IdNumbering(), 'tab'),
    async read(o) {
      host.reads.push(o);
      const broken = host.failRead?.(o);
      if (broken) throw broken;
      return page(o);
    },
    keep: async () => { host.kept++; },
    recentEvents: async () => ({ events: [], unread: ['recent changes in frame 2 could not be read (gone)'] }),
    async copyDocument(f, children, req) {
      assert.deepEqual(children.map((c) => c.ordinal), f.ordinal === 0 ? [1, 2] : [], 'a frame\'s children, as the layout gave them');
      const made = host.copies[f.ordinal](req.nonce);
      if (made instanceof Error) throw made;
      return { ...made, elements: 2, tagged: 1, frames: [], timeMs: 0 };
    },
    photograph: async () => ({ image: 'the photo', notes: ['the tab was brought to the front'] }),
    async compose(image, o) {
      assert.equal(image, 'the photo');
      host.composed.push(o);
      return { base64: '/9j/fake', hash: 'abcd', bytes: 8, marks: o.marks?.length ?? 0 };
    },
    ...(opts.axtree && { axtree: async () => ({ mode: 'axtree', url: 'u', title: 't', nodes: [], outline: '', xpathMap: {}, frames: [] }) as unknown as AxTreeResult }),
    snapshots: new KeptSnapshots(),
    navigations: () => 0,
    act: async () => { throw new Error('no acting here'); },
    verifier: () => { throw new Error('no verifier here'); },
  };
  return host;
}

test('the one dispatch: each mode is the payload of its mode, read as that mode reads; what it shows is handed out and kept', async () => {
  const host = await fakeHost();
  const lens = new CoreLens(host);
  const expected: Array<[string, object, ReadOptions]> = [
    ['semantic_v3', {}, { fullPage: false }],
    ['semantic', { fullPage: true }, { fullPage: true }],
    ['skeleton', {}, { fullPage: false, structure: true, attributes: true }],
    ['full', {}, { fullPage: true }],
    ['hybrid', {}, { fullPage: false, structure: true, attributes: true }],
  ];
  for (const [mode, extra, read] of expected) {
    host.reads.length = 0;
    const kept = host.kept;
    const payload = await lens.snapshot({ mode: mode as 'semantic_v3', ...extra });
    assert.equal(payload.mode, mode);
    assert.deepEqual(host.reads, [read], `${mode} reads ${JSON.stringify(read)}`);
    assert.equal(host.kept, kept + 1, `${mode} keeps the ledger once`);
  }
  assert.equal(host.ledger.sighting('1')?.doc, 'doc-0', 'the IDs shown are bound to their documents');
  assert.equal(host.ledger.sighting('f1_1')?.doc, 'doc-1');
  const v3 = await lens.snapshot();
  assert.deepEqual(v3.mode === 'semantic_v3' && v3.warnings, ['recent changes in frame 2 could not be read (gone)'], 'what the host could not read is said');
});

test('the dispatch refuses an option that does not apply before anything is read, in the face\'s own words; axtree only where the host reads it', async () => {
  const host = await fakeHost();
  const lens = new CoreLens(host);
  await assert.rejects(lens.snapshot({ mode: 'full', fullPage: true }), (e) => isPagelensError(e, 'BAD_INPUT') && /fullPage does not apply to mode full/.test((e as Error).message));
  await assert.rejects(lens.snapshot({ mode: 'semantic_v3', screenshot: { quality: 50 } }, (part) => (part === 'screenshot' ? 'quality' : part)), /quality does not apply to mode semantic_v3/);
  await assert.rejects(lens.snapshot({ mode: 'hybrid', screenshot: { quality: 0 } }), (e) => isPagelensError(e, 'BAD_INPUT') && /quality/.test((e as Error).message));
  await assert.rejects(lens.snapshot({ mode: 'axtree' }), /mode axtree is not offered by this host/);
  assert.deepEqual(host.reads, [], 'nothing was read');
  const withAx = new CoreLens(await fakeHost({ axtree: true }));
  assert.equal((await withAx.snapshot({ mode: 'axtree' })).mode, 'axtree');
});

test('skeleton: the selects\' options come through the engine port, in the document that was read; a frame that moved on is said, not mixed in', async () => {
  const host = await fakeHost();
  const skeleton = await new CoreLens(host).snapshot({ mode: 'skeleton' });
  assert.match(skeleton.skeletonDom, /Large/, skeleton.skeletonDom);
  host.engine.engine = (async () => ({ doc: 'another-doc', selects: [] })) as unknown as HostEngine['engine'];
  const moved = await new CoreLens(host).snapshot({ mode: 'skeleton' });
  assert.deepEqual(moved.warnings, ['the options of its selects could not be read (the frame shows another document now); they are left out of the skeleton']);
});

test('full: each frame\'s copy inlined at its marker; a copy that failed leaves its iframe empty, and the layout\'s doubts are said', async () => {
  const host = await fakeHost();
  const full = await new CoreLens(host).snapshot({ mode: 'full' });
  const dom = untemplatize(full.dom);
  assert.match(dom, /<iframe><html><body><button data-id="f1_1">Pay<\/button><\/body><\/html><\/iframe><iframe><\/iframe>/, dom);
  assert.deepEqual(full.warnings, ['frame 3 could not be placed', 'frame 2: its document could not be copied (frame 2 went away); its iframe is left empty']);
  // A copy whose frame has no marker in its parent's is left out, and said.
  host.copies[0] = () => ({ doc: 'doc-0', html: '<html><body><button data-id="1">Save</button></body></html>' });
  host.copies[2] = () => ({ doc: 'doc-2', html: '<p>two</p>' });
  const orphans = await new CoreLens(host).snapshot({ mode: 'full' });
  assert.ok(orphans.warnings?.includes('frame 1: its iframe was not found in its parent\'s copy; its document is left out'), JSON.stringify(orphans.warnings));
  // A frame that shows another document than the read: read and copied again, then refused.
  host.reads.length = 0;
  host.copies[1] = () => ({ doc: 'doc-1-later', html: '' });
  await assert.rejects(new CoreLens(host).snapshot({ mode: 'full' }), (e) => isPagelensError(e, 'NAVIGATED') && /kept changing documents while it was copied \(frame 1\)/.test((e as Error).message));
  assert.equal(host.reads.length, 2, 'once more from the start');
});

test('hybrid: the read and the photograph together; the host encodes it with the tree\'s marks (or none), and what taking it did is said', async () => {
  const host = await fakeHost();
  const lens = new CoreLens(host);
  const marked = await lens.snapshot({ mode: 'hybrid', screenshot: { quality: 70 } });
  assert.equal(marked.screenshot, '/9j/fake');
  assert.equal(marked.meta.marks, 2);
  assert.deepEqual(host.composed.map((c) => [c.quality, c.marks?.length]), [[70, 2]]);
  assert.ok(marked.warnings?.includes('the tab was brought to the front'), JSON.stringify(marked.warnings));
  const plain = await lens.snapshot({ mode: 'hybrid', screenshot: { setOfMark: false } });
  assert.equal(plain.setOfMark, false);
  assert.deepEqual(host.composed.map((c) => [c.quality, c.marks?.length]), [[70, 2], [60, undefined]]);
});

test('capture: a mode that fails hands over to the next, saying so; every mode failing is refused with each reason', async () => {
  const host = await fakeHost();
  host.failRead = (o) => (o.fullPage ? undefined : new PagelensError('ENGINE_ERROR', 'viewport read broken'));
  const lens = new CoreLens(host);
  const r = await lens.capture({ query: 'click Save' });
  assert.equal(r.mode, 'semantic');
  assert.deepEqual(r.fellBackFrom, [{ mode: 'semantic_v3', reason: 'failed (viewport read broken)' }]);
  host.failRead = () => new PagelensError('ENGINE_ERROR', 'every read broken');
  await assert.rejects(lens.capture({ query: 'click Save' }), (e) => isPagelensError(e, 'ENGINE_ERROR') && /No mode could read the page: semantic_v3 failed \(every read broken\); semantic failed \(every read broken\); skeleton failed \(every read broken\)\./.test((e as Error).message));
});

test('model and text: read as asked and handed out like a snapshot\'s IDs', async () => {
  const host = await fakeHost();
  const lens = new CoreLens(host);
  const model = await lens.model({ fullPage: true, fresh: true });
  assert.equal(model.nodes.length, 3);
  assert.deepEqual(host.reads, [{ fullPage: true, fresh: true }]);
  assert.equal(host.ledger.sighting('f1_1')?.name, 'Pay');
  assert.match(await lens.text({ fullPage: false }), /Save/);
  assert.equal(host.kept, 2);
});
