// src/core/observe.ts, directly (issue 44): observe / actOn over a fake ObserveHost whose exploration
// snapshot is built here, acting through a recorded act(). Instructions that need no element are
// acted on at once; the best candidate is acted on by ID with what it should change verified; a
// chooser that fails falls back to the offline ranking and says so; what asks for data is refused.
// With real pages and an LLM chooser: test/core/observe.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExploreSnapshot } from '../../src/core/explore.js';
import { actOn, observe, type ObserveHost } from '../../src/core/observe.js';
import type { Action } from '../../src/model/contracts/actions.js';
import type { PageLayout } from '../../src/model/contracts/engineAnswers.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { HostEngine } from '../../src/model/contracts/host.js';
import type { ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import { buildRegions, planRegions, RegionMemory } from '../../src/model/explore/regions.js';
import type { PageModel, PageNode } from '../../src/model/pagemodel/page.js';
import type { Chooser } from '../../src/model/retrieval/chooser.js';

const node = (id: string, role: string, name: string): PageNode => ({ id, gid: id, frame: 0, role, name, tag: role === 'link' ? 'a' : 'button', states: [], box: [10, Number(id) * 40, 120, 24] });

function host(nodes: PageNode[]) {
  const model: PageModel = {
    url: 'http://a/cart', title: 'Cart', viewport: { width: 800, height: 600 }, scrollPosition: '0%', nodes, total: nodes.length,
    frames: [{ id: 0, url: 'http://a/cart', origin: 'http://a', parentId: null, crossOrigin: false, sandboxed: false }],
    docs: { 0: 'doc-1' }, warnings: [], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
  const plan = planRegions(model);
  const layout: PageLayout = { doc: 'doc-1', readyState: 'complete', scroll: { x: 0, y: 0 }, content: { width: 800, height: 600 }, elementCount: 3, body: null, blocks: [], member: plan.ids.map(() => -1) };
  const snap: ExploreSnapshot = { id: 'aaaa0001', takenAt: 0, model, layout, tree: buildRegions(model, layout, plan, new RegionMemory()), hints: new Map() };
  const acted: Array<[Action, ExpectedOutcome | string | undefined]> = [];
  const recorded: string[][] = [];
  const h: ObserveHost = {
    engine: { frames: async () => [], describe: (e: unknown) => (e as Error).message } as unknown as HostEngine,
    current: async () => ({ snap, reused: true }),
    record: (m) => { recorded.push(m.nodes.map((n) => n.gid)); },
    act: async (action, opts) => { acted.push([action, opts.expect]); return { action: JSON.stringify(action), ok: true, method: 'mouse' }; },
    title: async () => 'Cart',
  };
  return { h, acted, recorded };
}

const page = [node('1', 'button', 'Checkout'), node('2', 'link', 'Help'), node('3', 'button', 'Remove item')];

test('observe ranks the page\'s elements for an instruction, the fitting one first, and hands out what it shows', async () => {
  const { h, recorded } = host(page);
  const r = await observe(h, 'click checkout');
  assert.equal(r.candidates[0]?.id, '1', JSON.stringify(r.candidates));
  assert.equal(r.chooser, 'heuristic');
  assert.equal(r.ambiguous, false);
  assert.ok(recorded.length && recorded[0].includes('1'), 'the IDs shown are recorded');
  await assert.rejects(observe(h, '   '), (e) => isPagelensError(e, 'BAD_INPUT'));
});

test('actOn: the best candidate acted on by ID, expecting a change; a page action needs no element; data is asked with extract', async () => {
  const { h, acted } = host(page);
  const r = await actOn(h, 'click checkout');
  assert.equal(r.chosen?.id, '1');
  assert.deepEqual(acted[0], [{ type: 'click', id: '1' }, { type: 'any_change' }]);
  const nav = await actOn(h, 'go to example.com');
  assert.deepEqual(acted[1], [{ type: 'navigate', url: 'https://example.com' }, { type: 'navigation' }]);
  assert.deepEqual([nav.chooser, nav.candidates], ['none', []]);
  await assert.rejects(actOn(h, 'extract the price'), (e) => isPagelensError(e, 'BAD_INPUT') && /use extract\(\)/.test((e as Error).message));
});

test('actOn refuses when nothing fits, and a chooser that fails falls back to the offline ranking, saying so', async () => {
  const { h, acted } = host(page);
  const none = await actOn(h, 'click the purple elephant');
  assert.deepEqual([none.ok, none.error?.code], [false, 'NOT_ACTIONABLE']);
  assert.equal(acted.length, 0, 'nothing was acted on');
  const broken: Chooser = { name: 'llm:test', choose: async () => { throw new Error('model down'); }, fill: async () => { throw new Error('model down'); } };
  const r = await observe(h, 'click checkout', { chooser: broken });
  assert.equal(r.chooser, 'heuristic');
  assert.deepEqual(r.warnings, ['the chooser llm:test failed (model down); the offline ranking is used']);
  assert.equal(r.candidates[0]?.id, '1');
});
