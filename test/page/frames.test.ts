// Every frame, one tree: same-origin and out-of-process iframes, nested three deep, frame-prefixed
// IDs, top-level geometry, and the accessibility-tree path agreeing with the DOM path.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { coreOf, type Lens } from '../../src/browser/lens.js';
import { AxTreeResult } from '../../src/model/renderers/axtree.js';
import { SemanticResult, SemanticV3Result } from '../../src/model/contracts/schema.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const FRAME_BUTTONS = ['Main button', 'Same-origin button', 'Closed in cross', 'Leaf button', 'Sandboxed button', 'Scripted sandbox button', 'Main link'];

// frames-main.html is opened `loaded`: under a load average of 23 on 2 cores its innermost
// cross-origin frame was once still loading when the harness's usual 15 s wait ran out.
const openFramesMain = () => h.open('frames-main.html', { loaded: true });

/** Reads a marker from the element an ID resolves to, through the lens's resolver. */
async function describeResolved(lens: Lens, id: string): Promise<{ text: string; llmId: string | null }> {
  const r = await coreOf(lens).resolve(id, 'test');
  return r.frame.target.callFunction(r.frame.frameId,
    'function (el) { return { text: (el.textContent || el.getAttribute("placeholder") || el.id || "").trim(), llmId: el.getAttribute("data-llm-id") }; }',
    [{ objectId: r.objectId }]);
}

test('nested same-origin and cross-origin frames: every element once, prefixed IDs, frames listed in order', async () => {
  const { lens } = await openFramesMain();
  const v3 = SemanticV3Result.parse(await lens.snapshot({ fullPage: true }));
  const names = v3.interactive_tree.map((n) => n.n);
  for (const want of FRAME_BUTTONS) assert.equal(names.filter((n) => n === want).length, 1, `${want} appears exactly once in ${JSON.stringify(names)}`);
  assert.ok(names.includes('Card number'), 'input in the cross-origin frame is named by its wrapping label');
  const ids = v3.interactive_tree.map((n) => n.i);
  assert.equal(new Set(ids).size, ids.length, 'IDs are unique across frames');

  const frames = v3.frames!;
  assert.deepEqual(frames.map((f) => f.id), frames.map((_, i) => i), 'frame ordinals 0..n');
  const byUrl = (part: string) => frames.find((f) => f.url.includes(part))!;
  assert.equal(byUrl('frames-same').parentId, 0);
  assert.equal(byUrl('frames-same').crossOrigin, false);
  assert.equal(byUrl('frames-cross').parentId, byUrl('frames-same').id);
  assert.equal(byUrl('frames-cross').crossOrigin, true);
  assert.equal(byUrl('frames-leaf').parentId, byUrl('frames-cross').id);
  assert.equal(byUrl('frames-leaf').crossOrigin, true);
  const sandboxed = frames.filter((f) => f.sandboxed);
  assert.equal(sandboxed.length, 2);
  assert.ok(sandboxed.every((f) => !f.error && f.origin === 'null' && f.crossOrigin), 'sandboxed frames are read (our isolated world runs even without allow-scripts)');
  const blocked = frames.find((f) => f.error);
  assert.ok(blocked && /failed to load/.test(blocked.error!), `an iframe whose page cannot load is listed with the reason: ${JSON.stringify(frames)}`);
  // Document order: the same-origin frame (first iframe) gets ordinal 1, its descendants follow.
  assert.equal(byUrl('frames-same').id, 1);
  assert.equal(byUrl('frames-cross').id, 2);
  assert.equal(byUrl('frames-leaf').id, 3);

  for (const n of v3.interactive_tree) {
    const f = n.f ?? 0;
    assert.match(n.i, f === 0 ? /^\d+$/ : new RegExp(`^f${f}_\\d+$`));
    const el = await describeResolved(lens, n.i);
    assert.equal(el.llmId, n.i.replace(/^f\d+_/, ''), `${n.i} resolves to the element carrying its local ID`);
  }
});

test('geometry is in the top-level viewport, offsets of nested frames added', async () => {
  const { page, lens } = await openFramesMain();
  const v3 = await lens.snapshot({ fullPage: true, boxes: true });
  for (const [name, frameUrlPart] of [['Leaf button', 'frames-leaf'], ['Closed in cross', 'frames-cross'], ['Same-origin button', 'frames-same']] as const) {
    const node = v3.interactive_tree.find((n) => n.n === name)!;
    const frame = page.frames().find((f) => f.url().includes(frameUrlPart))!;
    const locator = name === 'Closed in cross' ? frame.locator('#host') : frame.getByRole('button', { name });
    const bb = (await locator.boundingBox())!;
    assert.ok(Math.abs(node.box![0] - bb.x) <= 2 && Math.abs(node.box![1] - bb.y) <= 2, `${name}: box ${node.box} vs Playwright ${JSON.stringify(bb)}`);
  }
  // A real click at the reported centre lands on the button inside the third-level frame.
  const leaf = v3.interactive_tree.find((n) => n.n === 'Leaf button')!;
  const leafFrame = page.frames().find((f) => f.url().includes('frames-leaf'))!;
  await leafFrame.evaluate(() => { document.querySelector('button')!.onclick = () => { document.title = 'clicked'; }; });
  await page.mouse.click(leaf.xy[0], leaf.xy[1]);
  assert.equal(await leafFrame.evaluate(() => document.title), 'clicked');
});

test('an iframe half outside the viewport: content scrolled or clipped out of it is pruned', async () => {
  const { lens } = await h.open('frames-scrolled.html');
  const view = await lens.snapshot();
  const names = view.interactive_tree.map((n) => n.n);
  assert.deepEqual(names.sort(), ['Top button', 'Visible in frame'].sort());
  const full = await lens.snapshot({ fullPage: true });
  assert.deepEqual(full.interactive_tree.map((n) => n.n).sort(), ['Below the page fold', 'Scrolled out of frame', 'Top button', 'Visible in frame'].sort());
  assert.equal(view.meta.totalElements, 4);
  assert.equal(view.meta.prunedElements, 2);
});

// A frame's own viewport is the whole iframe, which can be far taller than the page's viewport: a
// viewport read lists only the part the page shows (engine option `view`), so nothing else crosses.
test('a viewport read of a frame crosses only what the page shows of it; a frame it does not show, nothing', async () => {
  for (const [file, listed] of [['frames-scrolled.html', ['Top button', 'Visible in frame']], ['frames-below.html', ['Top button']]] as const) {
    const { lens, context } = await h.open(file);
    try {
      const full = await lens.model({ fullPage: true });
      assert.ok(full.nodes.some((n) => n.name === 'Below the page fold'), `${file}: the frame is read`);
      let coldVisited = 0;
      for (const fresh of [true, false]) {
        const view = await lens.model({ fullPage: false, fresh });
        if (fresh) coldVisited = view.engine.visited;
        // A frame the page does not show is not walked again (its observer never catches up there: Chrome
        // stops rendering it), only counted from its last walk.
        else if (file === 'frames-below.html') assert.ok(view.engine.visited <= coldVisited / 2, `${file}: the warm read visited ${view.engine.visited} elements, the cold one ${coldVisited}`);
        assert.deepEqual(view.nodes.map((n) => n.name).sort(), [...listed].sort(), file);
        assert.equal(view.total, 4, `${file}: every target is still counted`);
        // Every entry that crossed is listed: none was read only to be pruned.
        if (fresh) assert.equal(view.engine.crossed, view.nodes.length, `${file}: entries crossed for ${view.nodes.length} listed`);
      }
    } finally {
      await context.close();
    }
  }
});

test('a modal in the parent covering an iframe marks the covered frame element occluded', async () => {
  const { lens } = await h.open('frames-covered.html');
  const v3 = await lens.snapshot();
  const leaf = v3.interactive_tree.find((n) => n.n === 'Leaf button')!;
  const check = v3.interactive_tree.find((n) => n.n === 'Leaf check')!;
  assert.equal(leaf.occ, true, 'button under the modal is occluded');
  assert.equal(check.occ, undefined, 'checkbox beside the modal is not');
});

test('frames removed during extraction: a result for the rest of the page, never a hang', async () => {
  const { lens } = await h.open('frames-churn.html');
  for (let i = 0; i < 8; i++) {
    const v3 = await lens.snapshot({ fullPage: true });
    assert.ok(v3.interactive_tree.some((n) => n.n === 'Stays'), 'main frame content is always there');
    for (const f of v3.frames ?? []) if (f.id !== 0 && f.error) assert.match(f.error, /detached|navigated|gone|load|not found|closed/i);
  }
});

test('axtree mode: one combined tree over all frames, IDs tie back to data-llm-id, names agree', async () => {
  const { lens } = await openFramesMain();
  const ax = AxTreeResult.parse(await lens.axtree());
  const semantic = SemanticResult.parse(await lens.snapshot({ mode: 'semantic', fullPage: true }));
  for (const want of FRAME_BUTTONS) {
    assert.equal(ax.nodes.filter((n) => n.name === want).length, 1, `${want} appears once in the AX nodes`);
  }
  assert.match(ax.outline, /\[\d+\] button: Main button/);
  assert.match(ax.outline, /\[f\d+_\d+\] button: Leaf button/);
  assert.ok(ax.meta.estimatedTokens > 0 && ax.meta.interactiveNodes >= FRAME_BUTTONS.length);

  // Every element the DOM path lists is in the AX path under the same ID, with the same name.
  const axById = new Map(ax.nodes.map((n) => [n.id, n]));
  let agreed = 0;
  for (const n of semantic.nodes) {
    const a = axById.get(n.id);
    assert.ok(a, `${n.id} ${n.role} "${n.name}" is in the AX nodes`);
    if (a.name === n.name) agreed++;
  }
  assert.ok(agreed / semantic.nodes.length >= 0.9, `names agree on ${agreed}/${semantic.nodes.length}`);

  // The EncodedId and the data-llm-id of one element resolve to the same element, in any frame.
  for (const name of ['Leaf button', 'Closed in cross', 'Main button']) {
    const node = ax.nodes.find((n) => n.name === name)!;
    assert.ok(node.axId && ax.xpathMap[node.axId], `${name} has a path`);
    const viaAx = await describeResolved(lens, node.axId!);
    const viaId = await describeResolved(lens, node.id);
    assert.deepEqual(viaAx, viaId);
    assert.equal(viaAx.text, name === 'Closed in cross' ? 'Closed in cross' : name);
  }
  assert.match(ax.xpathMap[ax.nodes.find((n) => n.name === 'Closed in cross')!.axId!], /#document.*#shadow-root\/button\[1\]$/);
});

test('unknown and malformed IDs are clear errors', async () => {
  const { lens } = await openFramesMain();
  await lens.snapshot();
  const core = coreOf(lens);
  await assert.rejects(core.resolve('nonsense', 'test'), { name: 'PagelensError', code: 'BAD_INPUT' });
  await assert.rejects(core.resolve('f99_1', 'test'), { code: 'UNKNOWN_ID' });
  await assert.rejects(core.resolve('99999', 'test'), { code: 'UNKNOWN_ID' });
  await assert.rejects(core.resolve('0-99999999', 'test'), { code: 'UNKNOWN_ID', message: /no accessibility tree/ });
  await lens.axtree();
  await assert.rejects(core.resolve('0-99999999', 'test'), { code: 'UNKNOWN_ID', message: /no longer resolves/ });
  // Through the public API the same refusals come back as action results.
  const r = await lens.act('click(f99_1)');
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'UNKNOWN_ID');
});

test('an ID from before a navigation never names an element of the new page', async () => {
  const { page, lens } = await h.open('frames-leaf.html');
  const before = await lens.snapshot();
  assert.equal(before.interactive_tree[0].n, 'Leaf button');
  await page.goto(h.originA + 'frames-scrolled.html');
  // The new document numbers from 1 again; "1" must not silently become its "Top button".
  await assert.rejects(coreOf(lens).resolve('1', 'test'), { code: 'NAVIGATED', message: /changed from .*frames-leaf\.html to .*frames-scrolled\.html; take a new snapshot/ });
  const after = await lens.snapshot();
  assert.equal((await describeResolved(lens, after.interactive_tree[0].i)).text, 'Top button');
});

test('a cross-site iframe\'s document does not keep the page "loading": its finish is reported to the iframe\'s own target', async () => {
  const { page, lens } = await h.open('actions-frames.html');
  // Watch the network first, then load the page again: the parent's session sees the iframe's
  // document request start, and only the iframe's own target hears it finish.
  await lens.waitForDomStability({ timeout: 3000 });
  await page.reload();
  // The wait ends as soon as the page is quiet; the long bound is for a loaded machine, where the
  // page's own activity read once took more than 6 s to answer.
  const settled = await lens.waitForDomStability({ timeout: 30_000, stabilityThreshold: 200, networkIdleThreshold: 200 });
  assert.equal(settled.stable, true, settled.reason);
  assert.doesNotMatch(settled.reason, /in flight/);
});
