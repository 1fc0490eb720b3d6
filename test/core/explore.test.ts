// src/core/explore.ts on its own (issue 44): the toolkit over a fake ExploreHost whose snapshots are
// built here (a model, a layout, the region tree). An answer from a reused snapshot whose page moved
// on is made again from a fresh read, never from the old one; dom_diff compares kept snapshots and
// gives no element diff across documents; targets are an ID or a selector that matches one element.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { domDiff, domSearch, elementContext, expandRegion, hintText, type ExploreHost, type ExploreSnapshot, type ShownId } from '../../src/core/explore.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { PageLayout } from '../../src/model/contracts/engineAnswers.js';
import type { HostEngine, HostFrame } from '../../src/model/contracts/host.js';
import { buildRegions, planRegions, RegionMemory } from '../../src/model/explore/regions.js';
import type { PageModel, PageNode } from '../../src/model/pagemodel/page.js';

const node = (id: string, name: string): PageNode => ({ id, gid: id, frame: 0, role: 'button', name, tag: 'button', states: [], box: [10, Number(id) * 30, 80, 20] });

function snapshot(id: string, doc: string, nodes: PageNode[], takenAt = 1000): ExploreSnapshot {
  const model: PageModel = {
    url: `http://a/${doc}`, title: 'A', viewport: { width: 800, height: 600 }, scrollPosition: '0%', nodes, total: nodes.length,
    frames: [{ id: 0, url: `http://a/${doc}`, origin: 'http://a', parentId: null, crossOrigin: false, sandboxed: false }],
    docs: { 0: doc }, warnings: [], structure: [], headings: [{ id: '90', gid: '90', frame: 0, level: 1, text: 'Cart', box: [0, 0, 100, 30], ctx: -1 }] as unknown as PageModel['headings'], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
  const plan = planRegions(model);
  const layout: PageLayout = { doc, readyState: 'complete', scroll: { x: 0, y: 0 }, content: { width: 800, height: 600 }, elementCount: nodes.length, body: null, blocks: [], member: plan.ids.map(() => -1) };
  return { id, takenAt, model, layout, tree: buildRegions(model, layout, plan, new RegionMemory()), hints: new Map() };
}

function host(snaps: { current: ExploreSnapshot; reused: boolean; fresh?: ExploreSnapshot; kept?: ExploreSnapshot[] }, page: { doc: string; selectorIds?: string[] }) {
  const main: HostFrame = { ordinal: 0, url: 'http://a/', offset: [0, 0], handle: 0 };
  const log: string[] = [];
  const handed: Array<[string, ShownId[]]> = [];
  const engine = {
    frames: async () => [main],
    layout: (use: (f: HostFrame[]) => Promise<unknown>) => use([main]),
    engine: async (_f: HostFrame, call: string, args: unknown[]) => {
      log.push(call);
      if (call === 'textBlocks') return { doc: page.doc, blocks: [{ id: '7', tag: 'p', text: 'Your cart is empty', length: 18, box: [0, 100, 300, 20] }] };
      if (call === 'findSelector') return { ok: true, doc: page.doc, count: page.selectorIds!.length, ids: page.selectorIds };
      throw new Error(`no ${call} (${JSON.stringify(args)})`);
    },
    describe: (e: unknown) => (e as Error).message,
  } as unknown as HostEngine;
  const h: ExploreHost = {
    engine,
    current: async () => ({ snap: snaps.current, reused: snaps.reused }),
    fresh: async () => { log.push('fresh'); return snaps.fresh!; },
    get: (id) => (snaps.kept ?? []).find((s) => s.id === id),
    invalidate: (s) => { log.push(`invalidate ${s.id}`); },
    handOut: (s, extra) => { handed.push([s.id, extra]); },
  };
  return { h, log, handed };
}

test('hintText writes a hint with its frame and shadow hosts', () => {
  assert.equal(hintText({ selector: 'button.pay', frame: 'f1', shadow: [{ host: '#checkout', closed: true }, { host: 'x-card' }] } as never), '[frame f1] [closed shadow #checkout] [shadow x-card] button.pay');
  assert.equal(hintText({ selector: '#q' } as never), '#q');
});

test('search: a reused snapshot whose page shows another document now is invalidated and the answer made from a fresh read', async () => {
  const old = snapshot('aaaa0001', 'doc-1', [node('1', 'Checkout')]);
  const now = snapshot('bbbb0002', 'doc-2', [node('1', 'Checkout')]);
  const { h, log, handed } = host({ current: old, reused: true, fresh: now }, { doc: 'doc-2' });
  const r = await domSearch(h, 'cart');
  assert.equal(r.snapshotId, 'bbbb0002', 'never answered from the old read');
  assert.deepEqual(log, ['textBlocks', 'invalidate aaaa0001', 'fresh', 'textBlocks']);
  assert.deepEqual(r.textBlocks.map((t) => t.ref), ['7']);
  assert.deepEqual(handed.map(([id, extra]) => [id, extra.map((e) => e.gid)]), [['bbbb0002', ['7', '90']]], 'the text block and the headings it shows are handed out, bound to the new read');
  // A fresh read that is out of date at once: refused, not answered.
  const { h: racing } = host({ current: old, reused: false, fresh: old }, { doc: 'doc-3' });
  await assert.rejects(domSearch(racing, 'cart'), (e) => isPagelensError(e, 'NAVIGATED'));
  await assert.rejects(domSearch(h, '  '), (e) => isPagelensError(e, 'BAD_INPUT'));
});

test('diff: elements added and removed within a document, headings handed out; across documents no element diff and nothing handed out', async () => {
  const a = snapshot('aaaa0001', 'doc-1', [node('1', 'Checkout'), node('2', 'Remove')], 1000);
  const b = snapshot('bbbb0002', 'doc-1', [node('1', 'Checkout'), node('3', 'Undo')], 1500);
  const c = snapshot('cccc0003', 'doc-2', [node('1', 'Home')], 2000);
  const { h, handed } = host({ current: b, reused: true, kept: [a, b, c] }, { doc: 'doc-1' });
  const d = await domDiff(h, 'aaaa0001', 'bbbb0002');
  assert.deepEqual([d.navigated, d.elapsedMs, d.added.map((e) => e.ref), d.removed.map((e) => e.ref)], [false, 500, ['3'], ['2']]);
  assert.deepEqual(handed, [['bbbb0002', [{ gid: '90', name: 'Cart' }]]]);
  const n = await domDiff(h, 'bbbb0002', 'cccc0003');
  assert.deepEqual([n.navigated, n.added, n.removed], [true, [], []]);
  assert.equal(handed.length, 1);
  await assert.rejects(domDiff(h, 'aaaa0001', 'ffff9999'), (e) => isPagelensError(e, 'BAD_INPUT') && /no snapshot "ffff9999"/.test((e as Error).message));
});

test('targets: a selector must match exactly one element; a frame that is not there, or an unknown region, is BAD_INPUT', async () => {
  const s = snapshot('aaaa0001', 'doc-1', [node('1', 'Checkout')]);
  await assert.rejects(elementContext(host({ current: s, reused: false }, { doc: 'doc-1', selectorIds: [] }).h, 'button.buy'), (e) => isPagelensError(e, 'UNKNOWN_ID'));
  await assert.rejects(elementContext(host({ current: s, reused: false }, { doc: 'doc-1', selectorIds: ['4', '5'] }).h, '[frame f1] button'), (e) => isPagelensError(e, 'BAD_INPUT') && /no readable frame f1/.test((e as Error).message));
  await assert.rejects(elementContext(host({ current: s, reused: false }, { doc: 'doc-1', selectorIds: ['4', '5'] }).h, 'button'), (e) => isPagelensError(e, 'AMBIGUOUS') && /matches 2 elements \(4, 5, …\)/.test((e as Error).message));
  await assert.rejects(expandRegion(host({ current: s, reused: false }, { doc: 'doc-1' }).h, 'R9'), (e) => isPagelensError(e, 'BAD_INPUT') && /"R9" is not a region of the page/.test((e as Error).message));
});
