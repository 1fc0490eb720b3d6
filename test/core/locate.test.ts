// src/core/locate.ts on its own (issue 44): where a press lands, over a fake ActHost. The engine's
// `prepare` gives the point in the element's frame; a child frame's point is carried up by its
// offset and hit-tested in every ancestor; a cover anywhere is COVERED (its control handed out), a
// check that cannot be made refuses the press, a point outside the frame's visible part is
// UNREACHABLE, and reach() refuses an element that moved or was covered once the pointer came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { locate, reach } from '../../src/core/locate.js';
import type { ActHost } from '../../src/core/port.js';
import type { Cover, PrepareResult } from '../../src/model/contracts/engine.js';
import type { HostElement, HostFrame } from '../../src/model/contracts/host.js';

interface Fake {
  host: ActHost;
  /** What `prepare` answers, call by call (the last one repeats). */
  prepares: PrepareResult[];
  /** What each frame's owner answers to coverAt, by child ordinal (an Error: the call throws). */
  covers: Record<number, Cover | null | Error>;
  log: string[];
  noted: Array<[number, string]>;
  frames: HostFrame[];
}

function fake(): Fake {
  const frames: HostFrame[] = [
    { ordinal: 0, url: 'http://a/', offset: [0, 0], clip: [0, 0, 800, 600], handle: 0 },
    { ordinal: 1, parent: 0, url: 'http://a/f1', offset: [100, 50], clip: [100, 50, 400, 300], handle: 1 },
    { ordinal: 2, parent: 1, url: 'http://a/f2', offset: [120, 80], clip: [120, 80, 200, 100], handle: 2 },
  ];
  const f: Fake = { prepares: [], covers: {}, log: [], noted: [], frames, host: undefined as unknown as ActHost };
  let calls = 0;
  f.host = {
    frames: async () => frames,
    layout: async (use: (fr: HostFrame[], w: string[]) => Promise<unknown>) => use(frames, []),
    async owner(frame: HostFrame, call: string, args: unknown[] = []) {
      f.log.push(`${call} ${frame.ordinal}${args.length ? ` ${JSON.stringify(args)}` : ''}`);
      if (call === 'reveal') return true;
      const c = f.covers[frame.ordinal] ?? null;
      if (c instanceof Error) throw c;
      return c;
    },
    async element(_el: HostElement, call: string, args: unknown[]) {
      assert.equal(call, 'prepare');
      f.log.push(`prepare ${JSON.stringify(args)}`);
      return f.prepares[Math.min(calls++, f.prepares.length - 1)];
    },
    noteControl: (frame: HostFrame, _doc: string | undefined, c: { id: string }) => { f.noted.push([frame.ordinal, c.id]); },
    describe: (e: unknown) => (e as Error).message,
    input: { trusted: true, move: async (x: number, y: number) => { f.log.push(`move ${x},${y}`); } },
  } as unknown as ActHost;
  return f;
}

const at = (x: number, y: number): PrepareResult => ({ ok: true, point: [x, y], box: [x - 5, y - 5, 10, 10], viewport: [800, 600] });
const el = (f: Fake, ordinal: number, gid: string): HostElement => ({ frame: f.frames[ordinal], gid, doc: `doc-${ordinal}`, handle: gid });

test('the main frame: the engine\'s point, and its box', async () => {
  const f = fake();
  f.prepares = [at(30, 40)];
  assert.deepEqual(await locate(f.host, el(f, 0, '5')), { ok: true, x: 30, y: 40, box: [25, 35, 10, 10] });
  assert.deepEqual(f.log, ['prepare [{"allowDisabled":false,"nearest":false}]']);
});

test('a nested frame: revealed top down, the point carried up by the offset and hit-tested in each ancestor over the iframe it passes', async () => {
  const f = fake();
  f.prepares = [at(10, 10)];
  const r = await locate(f.host, el(f, 2, 'f2_3'));
  assert.deepEqual(r, { ok: true, x: 130, y: 90, box: [5, 5, 10, 10] });
  assert.deepEqual(f.log, [
    'reveal 1', 'reveal 2', 'prepare [{"allowDisabled":false,"nearest":true}]',
    'coverAt 2 [30,40]', 'coverAt 1 [130,90]',
  ], 'in frame 1 at its own coordinates, then in the page');
});

test('a cover in an ancestor is COVERED, its dismiss control handed out; a check that fails refuses the press', async () => {
  const f = fake();
  f.prepares = [at(10, 10)];
  f.covers[1] = { selector: 'div.modal', text: 'Accept cookies', control: { id: '44', role: 'button', name: 'Accept' } };
  const covered = await locate(f.host, el(f, 2, 'f2_3'));
  assert.equal(covered.ok, false);
  assert.equal(!covered.ok && covered.code, 'COVERED');
  assert.match(!covered.ok ? covered.reason : '', /div\.modal/);
  assert.deepEqual(f.noted, [[0, '44']], 'the control of the page\'s cover is handed out');
  f.covers[1] = new Error('parent crashed');
  const unsure = await locate(f.host, el(f, 2, 'f2_3'));
  assert.deepEqual(unsure, { ok: false, code: 'NOT_ACTIONABLE', reason: 'f2_3: could not check whether anything in the page covers its frame there (parent crashed), so it was not clicked' });
});

test('outside the visible part of its frame: UNREACHABLE (asked twice: frames may scroll a moment later); the engine\'s refusal is passed on', async () => {
  const f = fake();
  f.prepares = [at(500, 500)];
  const r = await locate(f.host, el(f, 1, 'f1_2'));
  assert.deepEqual(r, { ok: false, code: 'UNREACHABLE', reason: 'f1_2 is outside the visible part of its frame' });
  assert.equal(f.log.filter((l) => l.startsWith('coverAt')).length, 0, 'nothing hit-tested where nothing can be pressed');
  const g = fake();
  g.prepares = [{ ok: false, code: 'COVERED', reason: 'is covered by div.banner', cover: { selector: 'div.banner', text: 'Sale', control: { id: '7', role: 'button', name: 'Close' } } }];
  const refused = await locate(g.host, el(g, 0, '5'));
  assert.equal(!refused.ok && refused.code, 'COVERED');
  assert.match(!refused.ok ? refused.reason : '', /^5 is covered by div\.banner/);
  assert.deepEqual(g.noted, [[0, '7']]);
});

test('reach: the pointer goes there and the place is checked again; an element that moved or got covered then is not pressed', async () => {
  const f = fake();
  f.prepares = [at(30, 40), at(30, 41)];
  assert.deepEqual(await reach(f.host, el(f, 0, '5')), { ok: true, x: 30, y: 40, box: [25, 35, 10, 10] });
  assert.ok(f.log.includes('move 30,40'));
  const moved = fake();
  moved.prepares = [at(30, 40), at(300, 40)];
  const r = await reach(moved.host, el(moved, 0, '5'));
  assert.deepEqual(r, { ok: false, code: 'NOT_ACTIONABLE', reason: '5 moved when the pointer reached it (from (30, 40) to (300, 40)), so it was not pressed' });
  const covered = fake();
  covered.prepares = [at(30, 40), { ok: false, code: 'COVERED', reason: 'is covered by div.popup' }];
  const c = await reach(covered.host, el(covered, 0, '5'));
  assert.deepEqual(c, { ok: false, code: 'COVERED', reason: '5 is covered by div.popup once the pointer reached it, so it was not pressed' });
});
