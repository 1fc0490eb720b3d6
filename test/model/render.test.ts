// The page model and its renderers, without a browser: frames placed in top-level coordinates,
// pruning through an iframe's clip, hrefs resolved against each frame's base, and the exact
// output of semantic_v3, semantic and the text form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { composePage, globalId, parseGlobalId, type PlacedFrame } from '../../src/model/pagemodel/page.js';
import { renderSemantic, renderText, renderV3 } from '../../src/model/renderers/render.js';
import { FrameSnapshot, SemanticResult, SemanticV3Result, type FrameInfo, type RawNode } from '../../src/model/contracts/schema.js';

function frame(doc: string, nodes: RawNode[], extra: Partial<FrameSnapshot> = {}): FrameSnapshot {
  return FrameSnapshot.parse({
    doc, url: `http://a.test/${doc}.html`, base: `http://a.test/${doc}/`, title: doc, viewport: { width: 1000, height: 600 },
    scroll: { x: 0, y: 0, position: '0%' }, nodes, total: nodes.length, timeMs: 1, ...extra,
  });
}

const mainNodes: RawNode[] = [
  { id: '1', role: 'link', name: 'Home', tag: 'a', states: [], box: [10, 10, 40, 20], href: 'index.html' },
  { id: '2', role: 'textbox', name: 'Email', tag: 'input', value: 'a@b.c', states: ['required', 'focused'], box: [10, 50, 200, 30], type: 'email', placeholder: 'you@example.com' },
  { id: '3', role: 'button', name: 'x'.repeat(100), tag: 'button', states: ['disabled'], box: [10, 900, 80, 30], occ: true },
];
const childNodes: RawNode[] = [
  { id: '1', role: 'button', name: 'Pay', tag: 'button', states: [], box: [5, 5, 50, 20], shadow: true },
  { id: '2', role: 'list', name: 'Cart', tag: 'ul', states: [], box: [5, 400, 100, 100], scr: { depth: '0%', h: true } },
  { id: '3', role: 'checkbox', name: 'Gift', tag: 'input', states: ['checked'], box: [5, 40, 20, 20], href: '../terms' },
];
const frames: FrameInfo[] = [
  { id: 0, url: 'http://a.test/main.html', origin: 'http://a.test', parentId: null, crossOrigin: false, sandboxed: false },
  { id: 1, url: 'http://b.test/child.html', origin: 'http://b.test', parentId: 0, crossOrigin: true, sandboxed: false },
];

function compose(viewportOnly: boolean) {
  const main = frame('main0000', mainNodes);
  const placed: PlacedFrame[] = [
    { ordinal: 0, snapshot: main, offset: [0, 0], clip: [0, 0, 1000, 600] },
    // The iframe sits at (300, 100) and shows 300 x 200 of its content.
    { ordinal: 1, snapshot: frame('child000', childNodes, { warnings: ['the accessible name could not be computed for 1 element (x)'] }), offset: [300, 100], clip: [300, 100, 300, 200] },
  ];
  return composePage(main, placed, frames, viewportOnly, 12.5, ['frame 2: failed to load']);
}

test('global IDs: main frame bare, frames prefixed, and back', () => {
  assert.equal(globalId(0, '7'), '7');
  assert.equal(globalId(3, '7'), 'f3_7');
  assert.deepEqual(parseGlobalId('f3_7'), { frame: 3, local: '7' });
  assert.deepEqual(parseGlobalId(' 12 '), { frame: 0, local: '12' });
  assert.equal(parseGlobalId('f3-7'), null);
  assert.equal(parseGlobalId('button'), null);
});

test('composePage places frames, keeps what the clip shows, resolves hrefs per frame and keeps every warning', () => {
  const full = compose(false);
  assert.deepEqual(full.nodes.map((n) => n.gid), ['1', '2', '3', 'f1_1', 'f1_2', 'f1_3']);
  const pay = full.nodes.find((n) => n.gid === 'f1_1')!;
  assert.deepEqual(pay.box, [305, 105, 50, 20], 'offset added');
  assert.equal(pay.frame, 1);
  assert.equal(full.nodes.find((n) => n.gid === '1')!.href, 'http://a.test/main0000/index.html');
  assert.equal(full.nodes.find((n) => n.gid === 'f1_3')!.href, 'http://a.test/terms', 'resolved against the frame\'s own base');
  assert.equal(full.total, 6);
  assert.deepEqual(full.docs, { 0: 'main0000', 1: 'child000' });
  assert.deepEqual(full.warnings, ['frame 2: failed to load', 'frame 1: the accessible name could not be computed for 1 element (x)']);
  assert.equal(full.timeMs, 12.5);

  // Viewport mode: the disabled button (y 900) is below the viewport, and the cart (y 400 inside
  // the frame) is outside the iframe's visible part.
  const view = compose(true);
  assert.deepEqual(view.nodes.map((n) => n.gid), ['1', '2', 'f1_1', 'f1_3']);
  assert.equal(view.total, 6, 'total still counts what was pruned');
});

test('semantic_v3: minified keys in legend order, names cut at the V3 limit, frames listed', () => {
  const v3 = SemanticV3Result.parse(renderV3(compose(false)));
  const email = v3.interactive_tree[1];
  assert.deepEqual(Object.keys(email), ['i', 'r', 'n', 'v', 's', 'xy']);
  assert.deepEqual(email, { i: '2', r: 'inp', n: 'Email', v: 'a@b.c', s: 'required,focused', xy: [110, 65] });
  const long = v3.interactive_tree[2];
  assert.equal(long.n.length, 80, 'semantic_v3 names stop at 80 characters');
  assert.ok(long.n.endsWith('…'));
  assert.equal(long.occ, true);
  assert.deepEqual(v3.interactive_tree[3], { i: 'f1_1', r: 'btn', n: 'Pay', xy: [330, 115], f: 1 });
  assert.deepEqual(v3.interactive_tree[4].scr, { depth: '0%', h: true });
  assert.deepEqual(v3.scrollable_containers, [{ id: 'f1_2', depth: '0%', hasMore: true }]);
  assert.equal(v3.frames?.length, 2);
  assert.equal(v3.warnings?.length, 2);
  assert.deepEqual(v3.meta, { totalElements: 6, viewportElements: 6, prunedElements: 0, occludedElements: 1, extractionTimeMs: 12.5, estimatedTokens: 0 });
  assert.deepEqual(renderV3(compose(true), { boxes: true }).interactive_tree[0].box, [10, 10, 40, 20]);
});

test('semantic: full keys, bounds, shadow and frame facts', () => {
  const s = SemanticResult.parse(renderSemantic(compose(false)));
  assert.deepEqual(s.nodes[1], {
    id: '2', role: 'textbox', name: 'Email', value: 'a@b.c', state: 'required,focused', type: 'email', placeholder: 'you@example.com',
    frameId: 0, bounds: { x: 10, y: 50, width: 200, height: 30 },
  });
  assert.deepEqual(s.nodes[3], { id: 'f1_1', role: 'button', name: 'Pay', isInShadow: true, frameId: 1, bounds: { x: 305, y: 105, width: 50, height: 20 } });
  assert.equal(s.nodes[2].occluded, true);
});

test('the text form: one line per element, warnings first, nothing else', () => {
  const text = renderText(compose(false));
  assert.equal(text, [
    'page: main0000 <http://a.test/main0000.html> scrolled 0%',
    'warning: frame 2: failed to load',
    'warning: frame 1: the accessible name could not be computed for 1 element (x)',
    '1 link Home',
    '2 inp Email = "a@b.c" {required,focused}',
    `3 btn ${'x'.repeat(79)}… {disabled} (covered)`,
    'f1_1 btn Pay',
    'f1_2 list Cart (scrolls, 0%, more)',
    'f1_3 chk Gift {checked}',
  ].join('\n'));
});
