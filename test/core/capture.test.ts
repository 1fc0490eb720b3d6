// src/core/capture.ts on its own (issue 44): the mode-selection chain run against a fake ReadHost.
// The first choice comes from the task's words and the backend's request; a mode that fails or comes
// back empty hands over to the next (semantic_v3 → semantic → skeleton), saying why; every mode
// empty answers the last payload as it came; every mode failing is refused with each reason; a
// question that cannot be asked (BAD_INPUT) is not fallen back from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capture } from '../../src/core/capture.js';
import { IdNumbering, tabLedger } from '../../src/core/ledger.js';
import type { ReadHost, ReadOptions } from '../../src/core/port.js';
import { isPagelensError, PagelensError } from '../../src/model/contracts/errors.js';
import type { HostEngine } from '../../src/model/contracts/host.js';
import type { PageModel, PageNode } from '../../src/model/pagemodel/page.js';

function model(nodes: PageNode[]): PageModel {
  return {
    url: 'http://127.0.0.1/', title: 'T', viewport: { width: 800, height: 600 }, scrollPosition: '0%', nodes, total: nodes.length,
    frames: [{ id: 0, url: 'http://127.0.0.1/', origin: 'http://127.0.0.1', parentId: null, crossOrigin: false, sandboxed: false }],
    docs: { 0: 'doc-0' }, warnings: [], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}
const below: PageNode = { id: '1', gid: '1', frame: 0, role: 'button', name: 'Checkout', tag: 'button', states: [], box: [10, 2000, 80, 20] };

/** `page(opts)`: what a read with these options sees (a model, or an error to throw). */
async function host(page: (o: ReadOptions) => PageModel | Error): Promise<ReadHost & { reads: ReadOptions[]; photos: number }> {
  const frame = { ordinal: 0, url: 'http://127.0.0.1/', offset: [0, 0] as [number, number], handle: 0 };
  const engine = {
    frames: async () => [frame],
    layout: (use: (f: unknown[], w: string[]) => Promise<unknown>) => use([frame], []),
    engine: async (_f: unknown, call: string) => {
      if (call === 'secretBoxes') return { boxes: [], scroll: [0, 0], viewport: [800, 600] };
      throw new PagelensError('ENGINE_ERROR', `no ${call}`);
    },
    describe: (e: unknown) => (e instanceof Error ? e.message : String(e)),
  } as unknown as HostEngine;
  const h = {
    reads: [] as ReadOptions[], photos: 0, engine,
    ledger: await tabLedger(new IdNumbering(), 't'),
    async read(o: ReadOptions) { h.reads.push(o); const r = page(o); if (r instanceof Error) throw r; return r; },
    keep: async () => {},
    recentEvents: async () => ({ events: [], unread: [] }),
    photograph: async () => { h.photos++; return { image: 'img', notes: [] }; },
    compose: async () => ({ base64: '/9j/x', hash: 'h', bytes: 3, marks: 0 }),
  };
  return h as unknown as ReadHost & typeof h;
}

test('an empty viewport hands over to semantic, which reads the whole page, and the answer says why', async () => {
  const h = await host((o) => model(o.fullPage ? [below] : []));
  const r = await capture(h, { query: 'click Checkout' });
  assert.equal(r.mode, 'semantic');
  assert.deepEqual(r.fellBackFrom, [{ mode: 'semantic_v3', reason: 'came back empty (no interactive element in the viewport)' }]);
  assert.match(r.reason, /semantic_v3 came back empty .*: fell back to semantic \(first choice: a simple action \("click"\)/);
  assert.deepEqual(h.reads, [{ fullPage: false }, { fullPage: true }]);
});

test('the first choice that works is the answer, with no fallback said; visual words pick hybrid; the backend\'s request is honoured', async () => {
  const h = await host(() => model([below]));
  const plain = await capture(h, { query: 'sign in' });
  assert.deepEqual([plain.mode, plain.fellBackFrom], ['semantic_v3', undefined]);
  const visual = await capture(h, { query: 'click the red icon' });
  assert.equal(visual.mode, 'hybrid');
  assert.equal(h.photos, 1, 'hybrid photographed the viewport');
  const asked = await capture(h, { query: 'sign in', requested: 'skeleton' });
  assert.equal(asked.mode, 'skeleton');
});

test('every mode empty: the last payload as it came, with the story; every mode failing: refused with each reason and the last code', async () => {
  const empty = await capture(await host(() => model([])), { query: 'sign in' });
  assert.equal(empty.mode, 'skeleton');
  assert.match(empty.reason, /^nothing to act on in any mode \(semantic_v3 came back empty .*; semantic came back empty .*; skeleton came back empty \(no interactive element\)\); this is the skeleton payload as it came$/);
  assert.deepEqual(empty.fellBackFrom?.map((f) => f.mode), ['semantic_v3', 'semantic']);
  await assert.rejects(capture(await host(() => new PagelensError('FRAME_DETACHED', 'tab closed')), { query: 'sign in' }),
    (e) => isPagelensError(e, 'FRAME_DETACHED') && /^No mode could read the page: semantic_v3 failed \(tab closed\); semantic failed \(tab closed\); skeleton failed \(tab closed\)\.$/.test((e as Error).message));
});

test('BAD_INPUT is thrown on at once (a question that cannot be asked is no failure of a mode); bad options are refused', async () => {
  const h = await host(() => new PagelensError('BAD_INPUT', 'no such thing'));
  await assert.rejects(capture(h, { query: 'sign in' }), (e) => isPagelensError(e, 'BAD_INPUT') && (e as Error).message === 'no such thing');
  assert.equal(h.reads.length, 1, 'no other mode was tried');
  await assert.rejects(capture(h, { query: 'x', extra: 1 } as never), (e) => isPagelensError(e, 'BAD_INPUT'));
});
