// src/core/snapshots.ts on its own (issue 44): the snapshot behind the index and the toolkit, over a
// fake engine port whose frames' change counters the test moves. One read serves while the page has
// not changed in a way a person would notice (ticking text does not count); a navigation, another
// document, more than 300 changes, an element that came or went, or a check that fails take a new
// read; a read that raced a navigation is taken again once; the store keeps the 8 latest.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currentSnapshot, KeptSnapshots, MUTATION_LIMIT, newSnapshot, type KeptSnapshot, type SnapshotSource } from '../../src/core/snapshots.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { HostEngine, HostFrame } from '../../src/model/contracts/host.js';
import type { MutationEvent } from '../../src/model/pagemodel/mutations.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';

interface Page { doc: string; count: number; events: MutationEvent[]; navigations: number; reads: number; layoutDoc?: string; broken?: boolean }

function source(): { src: SnapshotSource; page: Page } {
  const page: Page = { doc: 'doc-1', count: 10, events: [], navigations: 0, reads: 0 };
  const main: HostFrame = { ordinal: 0, url: 'http://a/', offset: [0, 0], handle: 0 };
  const engine = {
    frames: async () => [main],
    engine: async (_f: HostFrame, call: string, args: unknown[]) => {
      if (page.broken) throw new Error('engine gone');
      if (call === 'domActivity') return { doc: page.doc, count: page.count, seq: page.events.length, quietMs: 0, readyState: 'complete' };
      if (call === 'mutationsSince') return { doc: page.doc, events: page.events.slice(args[1] as number) };
      if (call === 'pageLayout') { const doc = page.layoutDoc ?? page.doc; page.layoutDoc = undefined; return { doc, readyState: 'complete', scroll: { x: 0, y: 0 }, content: { width: 800, height: 600 }, elementCount: 1, body: null, blocks: [], member: (args[0] as string[]).map(() => -1) }; }
      throw new Error(`no ${call}`);
    },
    describe: (e: unknown) => (e as Error).message,
  } as unknown as HostEngine;
  const read = async (): Promise<PageModel> => {
    page.reads++;
    return {
      url: 'http://a/', title: 'A', viewport: { width: 800, height: 600 }, scrollPosition: '0%', nodes: [], total: 0,
      frames: [{ id: 0, url: 'http://a/', origin: 'http://a', parentId: null, crossOrigin: false, sandboxed: false }],
      docs: { 0: page.doc }, warnings: [], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
    };
  };
  return { page, src: { engine, store: new KeptSnapshots(), read, navigations: () => page.navigations } };
}

const ev = (type: MutationEvent['type'], category: MutationEvent['category'], seq: number): MutationEvent => ({ timestamp: 0, type, category, description: 'x', seq });

test('one read serves while only text ticked; an element that came, a navigation, another document or 300+ changes take a new one', async () => {
  const { src, page } = source();
  const first = await currentSnapshot(src);
  assert.deepEqual([first.reused, page.reads, first.snap.stale], [false, 1, false]);
  assert.match(first.snap.id, /^[0-9a-f]{8}$/);
  page.events.push(ev('changed', 'text', 1));
  page.count++;
  const again = await currentSnapshot(src);
  assert.deepEqual([again.reused, again.snap.id], [true, first.snap.id], 'a clock ticking is no change a person acts on');
  page.events.push(ev('added', 'element', 2));
  const moved = await currentSnapshot(src);
  assert.equal(moved.reused, false, 'an element appeared');
  const base = moved.snap;
  page.count += MUTATION_LIMIT + 1;
  assert.equal((await currentSnapshot(src)).reused, false, 'too many changes to trust the old read');
  assert.equal((await currentSnapshot(src)).reused, true);
  page.navigations++;
  assert.equal((await currentSnapshot(src)).reused, false, 'a navigation the host saw');
  page.doc = 'doc-2';
  assert.equal((await currentSnapshot(src)).reused, false, 'another document, even when the host counted no navigation');
  assert.equal((await currentSnapshot(src, { refresh: true })).reused, false, 'asked fresh');
  assert.equal(src.store.get(base.id), base, 'older snapshots are kept for dom_diff');
  page.broken = true;
  await assert.rejects(currentSnapshot(src), /engine gone/, 'a check that fails says "not fresh", and the new read\'s failure is the answer');
});

test('a read that raced a navigation is taken again once; twice is refused', async () => {
  const { src, page } = source();
  page.layoutDoc = 'doc-other';
  const snap = await newSnapshot(src);
  assert.equal(page.reads, 2);
  assert.equal(snap.layout.doc, 'doc-1');
  const racing = { ...src, read: async () => { page.layoutDoc = 'doc-other'; return src.read(); } };
  await assert.rejects(newSnapshot(racing), (e) => isPagelensError(e, 'NAVIGATED'));
});

test('KeptSnapshots: the 8 latest of 10 minutes; invalidate marks stale and the snapshot is not reused', async () => {
  const store = new KeptSnapshots();
  const snap = (id: string, takenAt = Date.now()) => ({ id, takenAt, stale: false }) as unknown as KeptSnapshot;
  for (let i = 0; i < 10; i++) store.add(snap(`s${i}`));
  assert.equal(store.get('s1'), undefined);
  assert.equal(store.get('s2')?.id, 's2');
  store.add(snap('old', Date.now() - 11 * 60_000));
  assert.equal(store.get('old'), undefined);
  const { src } = source();
  const first = await currentSnapshot(src);
  src.store.invalidate(first.snap);
  assert.equal((await currentSnapshot(src)).reused, false);
});
