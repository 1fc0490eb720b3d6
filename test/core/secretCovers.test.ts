// Where secret fields are painted over (src/core/secretCovers.ts), over a stub engine: each frame's
// boxes placed by its offset and cut to its visible clip (or, for a whole-page image, moved by the
// main frame's scroll); a frame that does not answer in time, or fails, is painted over where it
// shows and said; a main frame that cannot be checked gives no image at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretCovers } from '../../src/core/secretCovers.js';
import type { SecretBoxes } from '../../src/model/contracts/engine.js';
import type { HostEngine, HostFrame } from '../../src/model/contracts/host.js';

type Answer = SecretBoxes | Error | 'hang';

function engine(frames: HostFrame[], answers: Record<number, Answer>): HostEngine & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    layout: (use: (f: HostFrame[], w: string[]) => Promise<unknown>) => use(frames, []),
    engine: (f: HostFrame, call: string, args: unknown[]) => {
      assert.equal(call, 'secretBoxes');
      asked.push([f.ordinal, args[0]]);
      const a = answers[f.ordinal];
      if (a === 'hang') return new Promise(() => {});
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
    describe: (e: unknown) => (e as Error).message,
  } as unknown as HostEngine & { asked: unknown[] };
}

const main: HostFrame = { ordinal: 0, url: 'http://a/', offset: [0, 0], clip: [0, 0, 800, 600], handle: 0 };
const child = (ordinal: number, clip?: [number, number, number, number]): HostFrame => ({ ordinal, parent: 0, url: `http://b/${ordinal}`, offset: [100, 500], ...(clip && { clip }), handle: ordinal });
const answer = (boxes: SecretBoxes['boxes'], scroll: [number, number] = [0, 0]): SecretBoxes => ({ boxes, scroll, viewport: [800, 600] });

test('boxes of every frame in the top-level viewport: offset by the frame, cut to what of it shows', async () => {
  const e = engine([main, child(1, [100, 500, 300, 100])], { 0: answer([[10, 20, 200, 40]]), 1: answer([[5, 60, 200, 80]]) });
  const c = await secretCovers(e);
  assert.deepEqual(c.boxes, [[10, 20, 200, 40], [105, 560, 200, 40]]);
  assert.deepEqual(c.viewport, { width: 800, height: 600 });
  assert.deepEqual(c.warnings, []);
  assert.deepEqual(e.asked, [[0, { within: 'viewport' }], [1, { within: 'viewport' }]]);
});

test('for a whole-page image: the main document\'s every box, and each frame\'s, moved by the main frame\'s scroll', async () => {
  const e = engine([main, child(1)], { 0: answer([[10, -300, 200, 40]], [0, 400]), 1: answer([[5, 6, 20, 10]]) });
  const c = await secretCovers(e, { space: 'document' });
  assert.deepEqual(c.boxes, [[10, 100, 200, 40], [105, 906, 20, 10]]);
  assert.deepEqual(e.asked, [[0, { within: 'document' }], [1, { within: 'viewport' }]]);
});

test('a frame that does not answer in time, or fails, is painted over where it shows and said; one not placed is said', async () => {
  const e = engine([main, child(1, [100, 500, 300, 100]), child(2, [0, 0, 50, 50]), { ...child(3), error: 'its iframe element could not be measured' }], { 0: answer([]), 1: 'hang', 2: new Error('frame crashed') });
  const c = await secretCovers(e, { timeoutMs: 50 });
  assert.deepEqual(c.boxes, [[100, 500, 300, 100], [0, 0, 50, 50]]);
  assert.equal(c.warnings.length, 3, c.warnings.join('\n'));
  assert.match(c.warnings[0], /^frame 1 \(http:\/\/b\/1\) could not be checked for secret fields \(no answer within 50 ms\): its visible part is painted over$/);
  assert.match(c.warnings[1], /frame 2 .*\(frame crashed\): its visible part is painted over/);
  assert.match(c.warnings[2], /frame 3 .*nor placed; any it shows are not covered/);
});

test('a main frame that cannot be checked gives no image', async () => {
  await assert.rejects(secretCovers(engine([main], { 0: 'hang' }), { timeoutMs: 50 }), (e: Error & { code?: string }) => e.code === 'ENGINE_ERROR' && /could not be checked for secret fields \(no answer within 50 ms\), so no image of it is given/.test(e.message));
});
