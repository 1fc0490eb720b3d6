// Warm reads cross as deltas (issue 21): the engine answers with what changed since the read the
// host holds, and the host patches its copy. The patch must rebuild the read exactly, cross only
// what changed, be refused when it does not fit the held read, and answer whole (saying why)
// when there is nothing to diff against. The differential test (incremental.test.ts) compares
// patched reads with cold ones after random changes; this file pins the protocol itself.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { diffList } from '../../src/page/changes/delta.js';
import { applyPatch, patchRead } from '../../src/model/pagemodel/frameRead.js';
import { FrameRead } from '../../src/model/contracts/engine.js';
import { packNode } from '../../src/model/contracts/packedNode.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { startHarness, type Harness } from '../support/harness.js';
import { seeded } from '../support/engine-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('a list patch rebuilds the new list from the held one, whatever was inserted, removed, changed or moved', () => {
  const rand = seeded(7);
  let crossed = 0, fresh = 0, total = 0;
  for (let round = 0; round < 300; round++) {
    const held = Array.from({ length: Math.floor(rand() * 40) }, (_, i) => JSON.stringify({ id: String(i), n: i }));
    const next = [...held];
    for (let k = Math.floor(rand() * 6); k > 0; k--) {
      const at = Math.floor(rand() * (next.length + 1));
      const op = Math.floor(rand() * 4);
      if (op === 0) next.splice(at, 0, JSON.stringify({ id: `new${round}.${k}` }));
      else if (op === 1 && next.length) next.splice(at % next.length, 1);
      else if (op === 2 && next.length) next[at % next.length] = JSON.stringify({ id: 'changed', k });
      else if (next.length) { const [x] = next.splice(at % next.length, 1); next.splice(Math.floor(rand() * (next.length + 1)), 0, x); }
    }
    const patch = JSON.parse(`[${diffList(held, next).join(',')}]`) as Array<number | object>;
    const rebuilt = applyPatch(held.map((t) => JSON.parse(t) as object), patch, 'nodes').map((x) => JSON.stringify(x));
    assert.deepEqual(rebuilt, next, `round ${round}`);
    crossed += patch.filter((x) => typeof x !== 'number').length;
    fresh += next.filter((t) => !held.includes(t)).length;
    total += next.length;
  }
  // What crosses is what is new, and a little more around moves (the diff is one greedy pass): never the whole list.
  assert.ok(crossed <= 2 * fresh + 300 && crossed * 4 < total, `${crossed} entries crossed for ${fresh} new ones, of ${total}`);
});

test('a delta that does not fit the held read is refused as an engine error, never patched into a wrong read', () => {
  const snap = { doc: 'abcdefgh12345678', url: 'http://x/', base: 'http://x/', title: '', viewport: { width: 1, height: 1 }, scroll: { x: 0, y: 0, position: '0%' }, total: 1, timeMs: 1 };
  const node = { id: '1', role: 'button', name: 'Save', tag: 'button', states: [], box: [0, 0, 1, 1] as [number, number, number, number] };
  const held = { seq: 4, snapshot: { ...snap, nodes: [node] } };
  const delta = (since: number, nodes: Array<number | typeof node>) => FrameRead.parse({ ...snap, kind: 'delta', seq: since + 1, since, nodes });
  assert.deepEqual(patchRead(held, delta(4, [1])).nodes, [node]);
  const refused = (f: () => unknown, pattern: RegExp) => assert.throws(f, (e) => isPagelensError(e, 'ENGINE_ERROR') && pattern.test((e as Error).message));
  refused(() => patchRead(held, delta(3, [1])), /since read 3, which the host does not hold \(it holds 4\)/);
  refused(() => patchRead(undefined, delta(4, [1])), /does not hold/);
  refused(() => patchRead(held, delta(4, [2])), /reach past the 1 entries/);
  refused(() => patchRead({ ...held, snapshot: { ...held.snapshot, doc: 'zzzzzzzzzzzzzzzz' } }, delta(4, [1])), /another document/);
  // What crosses is checked: a node that is not a node is refused before any patching.
  assert.equal(FrameRead.safeParse({ ...snap, kind: 'delta', seq: 5, since: 4, nodes: [1, { id: 2 }] }).success, false);
});

test('nodes cross packed as arrays and are checked as nodes: the same read, and a malformed one refused', () => {
  const snap = { doc: 'abcdefgh12345678', url: 'http://x/', base: 'http://x/', title: '', viewport: { width: 1, height: 1 }, scroll: { x: 0, y: 0, position: '0%' }, total: 2, timeMs: 1, kind: 'whole' };
  const plain = { id: '1', role: 'button', name: 'Save', tag: 'button', states: [], box: [0, 0, 1, 1] as [number, number, number, number] };
  const field = { id: '2', role: 'textbox', name: 'Note', tag: 'input', value: 'x', states: ['required'], type: 'text', box: [0, 2, 9, 1] as [number, number, number, number], occ: false };
  assert.deepEqual(packNode(plain), ['1', 'button', 'Save', 'button', [], [0, 0, 1, 1]]);
  assert.deepEqual(packNode(field), ['2', 'textbox', 'Note', 'input', ['required'], [0, 2, 9, 1], { value: 'x', type: 'text', occ: false }]);
  const read = (nodes: unknown[]) => patchRead(undefined, FrameRead.parse({ ...snap, nodes }));
  const packedRead = read([packNode(plain), packNode(field)]);
  assert.deepEqual(packedRead.nodes, read([plain, field]).nodes);
  assert.deepEqual(packedRead.nodes[1], field);
  const refused = (nodes: unknown[]) => assert.equal(FrameRead.safeParse({ ...snap, nodes }).success, false, JSON.stringify(nodes));
  refused([['1', 'button', 'Save', 'button', [], [0, 0, 1]]]);
  refused([['1', 'button', 'Save']]);
  refused([['1', 'button', 'Save', 'button', [], [0, 0, 1, 1], 'extra']]);
  refused([['1', 'button', 'Save', 'button', [], [0, 0, 1, 1], {}, {}]]);
  // The other fields cannot stand in for the six.
  assert.equal(read([['1', 'button', 'Save', 'button', [], [0, 0, 1, 1], { id: '9', name: 'Forged' }]]).nodes[0].name, 'Save');
  // Nor can a `__proto__` key of the parsed answer lend the node fields it inherits.
  const proto = read(JSON.parse('[["1","button","Save","button",[],[0,0,1,1],{"__proto__":{"value":"Forged","href":"http://evil/"},"type":"submit"}]]'));
  assert.deepEqual(proto.nodes[0], { id: '1', role: 'button', name: 'Save', tag: 'button', states: [], box: [0, 0, 1, 1], type: 'submit' });
});

test('after one text change, the warm read crosses only what the change touched and is the read a cold one gives', async () => {
  const { page, lens, context } = await h.open('rag-shop.html');
  try {
    const cold = await lens.model({ fullPage: true });
    assert.equal(cold.engine.deltas, 0, 'the first read has no base: whole');
    // The nodes crossed packed: fewer bytes than the same nodes as objects, links' targets left out.
    const asObjects = JSON.stringify(cold.nodes.map(({ gid: _g, frame: _f, href: _h, ...n }) => n)).length;
    assert.ok(cold.engine.bytes! < asObjects, `the read took ${cold.engine.bytes} bytes; its nodes as objects, without links' targets, ${asObjects}`);
    const first = cold.nodes.find((n) => n.role === 'link' && n.name)!;
    await page.evaluate((id) => { document.querySelector(`[data-llm-id="${id}"]`)!.textContent = 'Renamed'; }, first.id);
    const warm = await lens.model({ fullPage: true });
    const again = await lens.model({ fullPage: true, fresh: true });
    assert.equal(warm.engine.deltas, 1);
    assert.deepEqual(warm.nodes, again.nodes);
    assert.equal(warm.nodes.find((n) => n.id === first.id)?.name, 'Renamed');
    // The link, and what its new width moved or its text names (its row's item).
    assert.ok(warm.engine.crossed! <= Math.max(6, warm.nodes.length / 10), `${warm.engine.crossed} of ${warm.nodes.length} entries crossed for one changed link`);
    assert.ok(warm.engine.bytes! * 5 < again.engine.bytes!, `the delta took ${warm.engine.bytes} bytes, the whole read ${again.engine.bytes}`);
    // The engine skipped the subtrees nothing changed in.
    assert.ok(warm.engine.visited < again.engine.visited / 2, `visited ${warm.engine.visited} of ${again.engine.visited}`);
  } finally {
    await context.close();
  }
});

test('a read after a navigation answers whole and says why; the IDs of the old document stay refused', async () => {
  const { page, lens, context } = await h.open('rag-shop.html');
  try {
    const before = await lens.model({ fullPage: true });
    await page.goto(page.url().replace('rag-shop.html', 'todo-app.html'));
    const after = await lens.model({ fullPage: true });
    assert.equal(after.engine.deltas, 0);
    assert.match((after.engine.whole ?? []).join('; '), /another document/);
    assert.notEqual(after.docs[0], before.docs[0]);
    const stale = before.nodes[0].gid;
    assert.equal((await lens.act(`click(${stale})`)).error?.code, 'NAVIGATED');
  } finally {
    await context.close();
  }
});

test('a typed password never crosses, not in a delta either', async () => {
  const { page, lens, context } = await h.open('actions-todo.html');
  try {
    await lens.model({ fullPage: true });
    await page.fill('#pw', 'hunter2-secret');
    const warm = await lens.model({ fullPage: true });
    assert.equal(warm.engine.deltas, 1);
    assert.ok(!JSON.stringify(warm).includes('hunter2-secret'), 'the secret reached the model');
  } finally {
    await context.close();
  }
});
