// The search for gesture listeners (src/browser/gestures.ts) must leave the page able to answer,
// and every face reads a page the same way: the library's lens.snapshot() lists what the MCP
// face's reads list. On a page whose listeners are hundreds of the page's own closures, the
// search asked Chromium about handles of pagelens's isolated world; the renderer's next minor GC
// then never finished and every later read got no answer (a 1.7 MB shop page wedged `pagelens
// mcp` for good: issue 37). The cause behind "a read after that search stalled for 15 s" (issue 42).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { V3Node } from '../support/mcp-parity-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let harness: Harness;
before(async () => { harness = await startHarness(); });
after(async () => { await harness?.close(); });

/** The promise's value, or a failure naming what did not answer: the test's own bound, generous on purpose. */
async function answers<T>(what: string, p: Promise<T>, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} got no answer within ${ms / 1000} s: the page stopped answering`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

test('after the search for gesture listeners on a page of many listeners, every read still answers', async () => {
  const { lens, page } = await harness.open('gesture-listeners.html', { loaded: true });
  const marked = await answers('markGestureTargets', lens.markGestureTargets());
  assert.deepEqual(marked.warnings, []);
  for (let k = 0; k < 3; k++) {
    await answers(`read ${k + 1}`, lens.snapshot());
    // Garbage the renderer must collect between reads (what the shop page's scripts made).
    await answers('a script', page.evaluate(() => { const a: unknown[] = []; for (let i = 0; i < 2e5; i++) a.push({ i }); return a.length; }));
  }
});

test('lens.snapshot() lists a label that takes a double click through addEventListener, as the MCP face does', async () => {
  const { lens } = await harness.open('gesture-listeners.html', { loaded: true });
  // The first read lists it, or (its search past its budget on a busy machine) says it may not,
  // and a later read lists it.
  let snap = await answers('snapshot', lens.snapshot());
  const labelOf = (nodes: V3Node[]) => nodes.find((n) => n.n === 'Buy milk' && n.r !== 'chk');
  if (!labelOf(snap.interactive_tree as V3Node[])) {
    assert.ok(snap.warnings?.some((w) => /hover, double click or drag took longer/.test(w)), `neither listed nor said to be missing: ${JSON.stringify(snap.interactive_tree.slice(0, 4))} ${JSON.stringify(snap.warnings)}`);
    for (let k = 0; k < 50 && !labelOf(snap.interactive_tree as V3Node[]); k++) {
      await new Promise((r) => setTimeout(r, 200));
      snap = await answers('snapshot', lens.snapshot());
    }
  }
  const nodes = snap.interactive_tree as V3Node[];
  const label = labelOf(nodes);
  assert.ok(label, `the label is listed with an ID of its own: ${JSON.stringify(nodes.slice(0, 4))}`);
  const r = await answers('dblclick', lens.act({ type: 'dblclick', id: label.i }));
  assert.equal(r.ok, true, JSON.stringify(r));
  const after = await answers('snapshot', lens.snapshot());
  assert.ok((after.interactive_tree as V3Node[]).some((n) => n.n === 'Editing: Buy milk'), 'the double click reached the label');
});
