// A read's lists are copied without zod when the compiled copy can vouch for them
// (src/model/contracts/exactCopy.ts). That is a second reading of the schemas, so it must agree
// with zod: whatever it vouches for, zod accepts and shapes identically (keys, their order,
// values); whatever it does not, goes to zod. And it must vouch for what the engine really sends,
// or the fast path would quietly never run.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { compileExactCopy, exactList, UNSURE } from '../../src/model/contracts/exactCopy.js';
import { HeadingNode, RawNode, StructNode } from '../../src/model/contracts/schema.js';
import { unpackNode } from '../../src/model/contracts/packedNode.js';
import { coreOf } from '../../src/browser/lens.js';
import { startHarness, type Harness } from '../support/harness.js';
import { seeded } from '../support/engine-helpers.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const SAMPLES: Array<[string, z.ZodType, Record<string, unknown>]> = [
  ['RawNode', RawNode, {
    id: '12', role: 'link', name: 'Shoes', tag: 'a', value: 'v', states: ['focused', 'expanded'], type: 'text', placeholder: 'p',
    href: '/shoes', shadow: true, box: [1, 2, 3, 4], occ: false, scr: { depth: '10%', h: true }, ctx: 3,
    hidden: { n: 2, why: 'overflow' }, attrs: { id: 'x', name: 'y' }, nameFrom: 'hunt',
  }],
  ['StructNode', StructNode, { id: '3', kind: 'row', role: 'listitem', tag: 'li', name: 'Row', box: [0, 0, 10, 10], parent: -1, rows: 4, attrs: { class: 'c' } }],
  ['HeadingNode', HeadingNode, { id: '4', level: 2, text: 'Title', box: [0, 0, 10, 10], ctx: -1 }],
];

/** Values to put in place of a field: of every JSON type, and the few JSON never makes (made afresh each time: variants change them). */
const odd = (): unknown[] => [
  undefined, null, NaN, Infinity, -Infinity, -0, 0, 1.5, '', 'x', 'hunt', 'row', true, false, [], ['a'], [1, 2, 3, 4], [1, 2, 3], [1, 2, 3, 4, 5],
  [1, 2, '3', 4], {}, { depth: '1', h: true }, { depth: '1', h: true, extra: 1 }, { n: 1, why: 'w' }, { a: 'b' }, { a: 1 },
  JSON.parse('{"__proto__": {"a": "b"}}'), JSON.parse('{"__proto__": "x", "a": "b"}'), Object.create(null),
  new (class Odd { x = 1; })(), new Date(0),
];

/** A variant of `sample`: keys dropped, added or replaced, at the top or one level down. */
function variant(sample: Record<string, unknown>, rnd: () => number): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const any = () => pick(odd());
  if (rnd() < 0.03) return any();
  const v: Record<string, unknown> = structuredClone(sample);
  const keys = Object.keys(v);
  for (let n = Math.floor(rnd() * 3); n > 0; n--) {
    const r = rnd();
    if (r < 0.3) delete v[pick(keys)];
    else if (r < 0.4) v[pick(['zzz', 'constructor', 'toString'])] = any();
    else if (r < 0.45) Object.defineProperty(v, '__proto__', { value: any(), enumerable: true, configurable: true, writable: true });
    else if (r < 0.8) v[pick(keys)] = any();
    else {
      const inner = v[pick(keys)];
      if (Array.isArray(inner) && inner.length) inner[Math.floor(rnd() * inner.length)] = any();
      else if (inner && typeof inner === 'object') (inner as Record<string, unknown>)[pick([...Object.keys(inner), 'zzz'])] = any();
    }
  }
  return v;
}

/** Equal as zod's output would be: the same values and, at every level, the same keys in the same order. */
function sameShape(a: unknown, b: unknown): boolean {
  if (!isDeepStrictEqual(a, b)) return false;
  if (typeof a !== 'object' || a === null) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b as object);
  return ka.join('\u0000') === kb.join('\u0000') && ka.every((k) => sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

for (const [name, schema, sample] of SAMPLES) {
  test(`${name}: what the exact copy vouches for, zod accepts and shapes identically; a full sample is vouched for`, () => {
    const copy = compileExactCopy(schema);
    assert.ok(copy, `${name} does not compile: the fast path would never run`);
    const full = copy(sample);
    assert.notEqual(full, UNSURE);
    assert.ok(sameShape(full, schema.parse(sample)));
    const rnd = seeded(name.length * 7919);
    let vouched = 0;
    let refused = 0;
    for (let i = 0; i < 20_000; i++) {
      const v = variant(sample, rnd);
      const fast = copy(v);
      const slow = schema.safeParse(v);
      if (!slow.success) refused++;
      if (fast === UNSURE) continue;
      vouched++;
      assert.ok(slow.success, `vouched for what zod refuses: ${String(JSON.stringify(v))} (${slow.error?.message})`);
      assert.ok(sameShape(fast, slow.data), `shaped otherwise than zod: ${JSON.stringify(fast)} vs ${JSON.stringify(slow.data)}`);
      assert.notEqual(fast, v, 'a copy, not the value itself');
    }
    // The variants must reach both sides, or the loop proved nothing.
    assert.ok(vouched > 1000 && refused > 1000, `vouched ${vouched}, refused by zod ${refused}`);
  });
}

test('schemas the copy does not fully understand are left to zod', () => {
  enum Numeric { A = 0 } // also lists 'A' as a value (its reverse mapping), which zod refuses
  for (const schema of [
    z.string().max(3), z.number().int(), z.enum(Numeric), z.strictObject({ a: z.string() }), z.looseObject({ a: z.string() }),
    z.string().nullable(), z.string().default('x'), z.object({ a: z.string().transform((x) => x.trim()) }), z.tuple([z.string()], z.number()),
    z.union([z.number(), z.string()]), z.record(z.string().min(1), z.string()),
  ]) assert.equal(compileExactCopy(schema), null, JSON.stringify(schema._zod.def.type));
  assert.equal(z.enum(Numeric).safeParse('A').success, false);
});

test('a list parses as z.array would: the same data when it is sound, the same issues at the same paths when it is not', () => {
  const rnd = seeded(42);
  for (const [, schema, sample] of SAMPLES) {
    const fast = exactList(schema);
    const slow = z.array(schema);
    for (let i = 0; i < 2000; i++) {
      const list = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => (rnd() < 0.6 ? structuredClone(sample) : variant(sample, rnd)));
      const a = fast.safeParse(list);
      const b = slow.safeParse(list);
      assert.equal(a.success, b.success);
      if (a.success && b.success) assert.ok(sameShape(a.data, b.data));
      else assert.deepEqual(a.error?.issues.map((x) => [x.path, x.message]), b.error?.issues.map((x) => [x.path, x.message]));
    }
  }
});

// The first two hold structure and headings too; the others, closed shadow roots and clipped containers.
for (const [fixture, everyList] of [['artifacts-page.html', true], ['rag-shop.html', true], ['engine-shadow.html', false], ['reread-overflow.html', false]] as const) {
  test(`${fixture}: every node, structure entry and heading of a real read is vouched for by the exact copy`, async () => {
    const { lens } = await h.open(fixture);
    const frame = (await coreOf(lens).frames.known()).find((f) => f.ordinal === 0);
    assert.ok(frame);
    const text = await frame.target.readText(frame.frameId, [{ viewportOnly: false, structure: true, attributes: true, fresh: true }, null]);
    const read = JSON.parse(text as string) as { nodes: unknown[]; structure: unknown[]; headings: unknown[] };
    const lists: Array<[z.ZodType, unknown[]]> = [[RawNode, read.nodes.map(unpackNode)], [StructNode, read.structure], [HeadingNode, read.headings]];
    for (const [schema, list] of lists) {
      assert.ok(list.length > 0 || (!everyList && schema !== RawNode), 'nothing read');
      const copied = compileExactCopy(z.array(schema))!(list);
      assert.notEqual(copied, UNSURE, `not vouched for: ${JSON.stringify(list.find((e) => compileExactCopy(schema)!(e) === UNSURE))}`);
      assert.ok(sameShape(copied, z.array(schema).parse(list)));
    }
  });
}
