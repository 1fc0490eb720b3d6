// The heavier artifacts (issue 10): skeleton, full and hybrid carry the same IDs as semantic_v3 in
// every frame and shadow root, leave no script, style or secret in, never change the live page;
// templatize round-trips; set-of-mark labels change the image only around the labelled elements;
// lens.capture() runs the selection chain and says when it falls back.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { coreOf, type Lens } from '../../src/browser/lens.js';
import { layoutMarks, type Mark } from '../../src/browser/screenshot.js';
import { FullResult, HybridResult, SkeletonResult } from '../../src/model/renderers/artifacts.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { VISUAL_KEYWORDS } from '../../src/model/negotiation/modes.js';
import type { Box } from '../../src/model/contracts/schema.js';
import { templatize, untemplatize } from '../../src/model/renderers/templatize.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

interface Tag { tag: string; attrs: Record<string, string> }

/** Every start tag of an HTML string with its attributes (values as written). */
function startTags(html: string): Tag[] {
  const out: Tag[] = [];
  for (const m of html.matchAll(/<([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attrs: Record<string, string> = {};
    for (const a of m[2].matchAll(/([^\s=]+)(?:="([^"]*)")?/g)) attrs[a[1]] = a[2] ?? '';
    out.push({ tag: m[1].toLowerCase(), attrs });
  }
  return out;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** Start tags with their visibility (data-visible, else the parent's). */
function visibility(html: string): Array<Tag & { visible: boolean }> {
  const out: Array<Tag & { visible: boolean }> = [];
  const stack: Array<{ tag: string; visible: boolean }> = [{ tag: '#root', visible: true }];
  for (const m of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*(\/?)>/g)) {
    const tag = m[2].toLowerCase();
    if (m[1]) {
      const at = stack.map((s) => s.tag).lastIndexOf(tag);
      if (at > 0) stack.length = at;
      continue;
    }
    const attrs = startTags(m[0])[0].attrs;
    const visible = attrs['data-visible'] === undefined ? stack[stack.length - 1].visible : attrs['data-visible'] === 'true';
    out.push({ tag, attrs, visible });
    if (!VOID.has(tag) && !m[4]) stack.push({ tag, visible });
  }
  return out;
}

const llmIds = (skeleton: string) => [...skeleton.matchAll(/data-llm-id="([^"]+)"/g)].map((m) => m[1]);
const sorted = (xs: string[]) => [...xs].sort();

/** Runs `body` inside pagelens's isolated world of frame `ordinal`, to break the engine on purpose. */
async function sabotage(lens: Lens, ordinal: number, body: string): Promise<void> {
  const frame = (await coreOf(lens).frames.known()).find((f) => f.ordinal === ordinal);
  assert.ok(frame, `no frame ${ordinal}`);
  await frame.target.callFunction(frame.frameId, `function () { ${body} }`, []);
}

/** The document of every frame as the page's own scripts see it. */
async function liveDom(page: Page): Promise<string[]> {
  return Promise.all(page.frames().map((f) => f.evaluate(() => document.documentElement.outerHTML + '\n' + String((window as unknown as { __constructed?: number }).__constructed))));
}

for (const fixture of ['actions-frames.html', 'frames-main.html', 'artifacts-page.html']) {
  test(`${fixture}: the same IDs in semantic_v3, skeleton, full and the set-of-mark labels (frames and closed shadow roots included)`, async () => {
    const { lens } = await h.open(fixture, { loaded: fixture === 'frames-main.html' });
    const v3 = await lens.snapshot({ fullPage: true });
    const ids = sorted(v3.interactive_tree.map((n) => n.i));
    assert.ok(ids.some((i) => /^f\d+_/.test(i)), `a frame's elements are there: ${ids}`);

    const skeleton = SkeletonResult.parse(await lens.snapshot({ mode: 'skeleton', fullPage: true }));
    assert.deepEqual(sorted(llmIds(skeleton.skeletonDom)), ids);

    const full = FullResult.parse(await lens.snapshot({ mode: 'full' }));
    const tags = visibility(untemplatize(full.dom));
    // Seed 000 §5: every element says whether it is interactive and whether it is visible.
    const bare = tags.filter((t) => t.tag !== 'template' && (!/^(true|false)$/.test(t.attrs['data-interactive'] ?? '') || !/^(true|false)$/.test(t.attrs['data-visible'] ?? '')));
    assert.deepEqual(bare.slice(0, 3).map((t) => `<${t.tag} ${JSON.stringify(t.attrs)}>`), [], `${bare.length} elements without both annotations`);
    const withId = new Map(tags.filter((t) => t.attrs['data-id']).map((t) => [t.attrs['data-id'], t]));
    for (const n of v3.interactive_tree) {
      const t = withId.get(n.i);
      assert.ok(t, `${n.i} "${n.n}" has its data-id in the full DOM`);
      assert.equal(t.visible, true, n.i);
      if (n.r !== 'item' && !n.scr) assert.equal(t.attrs['data-interactive'], 'true', `${n.i} "${n.n}" is interactive`);
    }
    // Nothing interactive and visible in the full DOM is missing from semantic_v3.
    const shown = tags.filter((t) => t.attrs['data-id'] && t.attrs['data-interactive'] !== 'false' && t.visible).map((t) => t.attrs['data-id']);
    assert.deepEqual(shown.filter((i) => !ids.includes(i)), []);
    if (fixture !== 'frames-main.html') assert.ok(tags.some((t) => t.attrs['data-interactive'] === 'false'), 'headings and landmarks are tagged, not interactive');

    const viewport = await lens.snapshot();
    const hybrid = HybridResult.parse(await lens.snapshot({ mode: 'hybrid' }));
    assert.deepEqual(hybrid.interactive_tree.map((n) => n.i), viewport.interactive_tree.map((n) => n.i));
    assert.deepEqual(sorted(llmIds(hybrid.skeletonDom)), sorted(viewport.interactive_tree.map((n) => n.i)));
    const marks = layoutMarks(hybrid.interactive_tree, hybrid.viewport);
    assert.deepEqual(marks.map((m) => m.id), viewport.interactive_tree.filter((n) => !n.occ).map((n) => n.i));
    assert.equal(hybrid.meta.marks, marks.length);
  });
}

test('the closed shadow root and the cross-origin frame sit where they belong in the full DOM', async () => {
  const { lens } = await h.open('actions-frames.html');
  const v3 = await lens.snapshot({ fullPage: true });
  const shadow = v3.interactive_tree.find((n) => n.n === 'Shadow action')!.i;
  const pay = v3.interactive_tree.find((n) => n.n === 'Pay')!.i;
  const dom = untemplatize((await lens.snapshot({ mode: 'full' })).dom);
  assert.match(dom, new RegExp(`<closed-widget[^>]*><template shadowrootmode="closed"><button[^>]*data-id="${shadow}"[^>]*>Shadow action</button></template></closed-widget>`));
  assert.match(dom, new RegExp(`<iframe [^>]*title="Payment"[^>]*data-frame-id="1"[^>]*><html [^>]*data-frame-id="1"[^>]*>.*data-id="${pay}"[^>]*>Pay</button>.*</html></iframe>`, 's'));
  assert.match(pay, /^f1_/);
});

test('no script, style, comment or secret in skeleton, full or hybrid; the page\'s own data-id is kept apart', async () => {
  const { page, lens } = await h.open('artifacts-page.html');
  await page.fill('#pw', 'hunter2-typed');
  await page.fill('#cc', '4111111111111111');
  const skeleton = (await lens.snapshot({ mode: 'skeleton', fullPage: true })).skeletonDom;
  const full = await lens.snapshot({ mode: 'full' });
  const dom = untemplatize(full.dom);
  const hybrid = await lens.snapshot({ mode: 'hybrid' });
  for (const [what, text] of [['skeleton', skeleton], ['full', dom], ['hybrid', JSON.stringify({ ...hybrid, screenshot: '' })]] as const) {
    for (const secret of ['hunter2', 'markup-secret', '4111111111111111']) assert.ok(!text.includes(secret), `${what} has "${secret}"`);
    // semantic_v3 (in hybrid) says "***" for a password; the HTML artifacts leave even that out.
    if (what !== 'hybrid') assert.ok(!text.includes('***'), what);
    for (const heavy of [/<script/i, /<style/i, /<noscript/i, /<meta/i, /<link[^>]*stylesheet/i, /<path/i, /<!--/, /\sonclick=/i, /\sstyle="/i, /window\.__constructed/, /font: 14px/]) {
      assert.doesNotMatch(text, heavy, `${what}: ${heavy}`);
    }
  }
  // Templates in the full DOM are only pagelens's own: shadow roots and templatize's definitions.
  for (const t of startTags(full.dom).filter((x) => x.tag === 'template')) assert.ok('shadowrootmode' in t.attrs || /^(a|t\d+)$/.test(t.attrs.id), JSON.stringify(t));
  assert.doesNotMatch(dom, /template row/);
  // Form state as it is now: the typed holder value, the chosen option; the password field, no value at all.
  assert.match(dom, /<input id="pw" type="password" name="pw" data-id="\d+"[^>]*>/);
  assert.match(dom, /<option value="tw" selected=""[^>]*>Taiwan<\/option>/);
  assert.match(skeleton, /<input data-llm-id="\d+" name="pw" type="password" aria-label="Password">/);
  // The page's own data-id attributes are renamed, so data-id always means a pagelens ID.
  assert.match(dom, /data-page-id="product-3"/);
  assert.ok(startTags(dom).every((t) => !t.attrs['data-id'] || /^(f\d+_)?\d+$/.test(t.attrs['data-id'])));
  // The svg stays (its box, its label), without its body; a long data: URL is cut.
  assert.match(dom, /<svg width="16" height="16" viewBox="0 0 16 16"[^>]*><\/svg>/);
  assert.match(dom, /src="data:image\/gif;base64,…\(\d+ chars\)"/);
  assert.equal(full.meta.rawChars, dom.length);
});

test('the skeleton tells look-alikes apart: each "Subscribe" in its section, each "Edit" in its row, a select with its options', async () => {
  const { lens } = await h.open('artifacts-page.html');
  const sk = (await lens.snapshot({ mode: 'skeleton', fullPage: true })).skeletonDom;
  assert.match(sk, /<section aria-label="Newsletter">\n<input [^\n]*>\n<button data-llm-id="\d+" type="button">Subscribe<\/button>\n<\/section>/);
  assert.match(sk, /<section aria-label="Billing">\n<form>\n(?:[^\n]*\n)*?<button data-llm-id="\d+" type="button">Subscribe<\/button>\n<\/form>/);
  assert.match(sk, /<select data-llm-id="\d+" name="country" aria-label="Country"><option value="fr">France<\/option><option value="tw" selected>Taiwan<\/option><option value="jp">Japan<\/option><\/select>/);
  assert.match(sk, /<li>\n<span data-llm-id="\d+" role="item" value="\$6">Oolong<\/span>\n<button data-llm-id="\d+">Add<\/button>\n<\/li>/);

  const dash = await h.open('dashboard.html');
  const d = (await dash.lens.snapshot({ mode: 'skeleton', fullPage: true })).skeletonDom;
  const rows = [...d.matchAll(/<tr>\n(.*?)<\/tr>/gs)].map((m) => m[1]);
  assert.equal(rows.length, 8);
  for (const row of rows) assert.match(row, /^<td data-llm-id="\d+" role="item" value="\$\d+">\w+<\/td>\n.*<button data-llm-id="\d+">Edit<\/button>\n$/s);
  assert.match(d, /<select data-llm-id="\d+" name="status" aria-label="Status"><option selected>All<\/option><option>Active<\/option>/);
  assert.match(d, /<main aria-label="Projects">\n<section aria-label="Filters">\n<form role="search">/);

  // A scroll container holds its rows; the button after it stays outside.
  const inbox = await h.open('engine-scroll.html');
  const s = (await inbox.lens.snapshot({ mode: 'skeleton' })).skeletonDom;
  assert.match(s, /<div data-llm-id="\d+" role="[^"]+"[^>]*>\n(?:<button data-llm-id="\d+">Message \d+<\/button>\n)+<\/div>\n<button data-llm-id="\d+">After the list<\/button>/, s);
});

test('templatize round-trips on real full output, and shrinks what repeats', async () => {
  for (const fixture of ['artifacts-page.html', 'dashboard.html', 'frames-main.html', 'todo-app.html', 'actions-select.html']) {
    const { lens } = await h.open(fixture, { loaded: fixture === 'frames-main.html' });
    const full = await lens.snapshot({ mode: 'full' });
    const raw = untemplatize(full.dom);
    assert.equal(raw.length, full.meta.rawChars, fixture);
    assert.equal(templatize(raw).html, full.dom, fixture);
    assert.equal(full.meta.templatizedChars, full.dom.length);
    assert.ok(full.meta.templatizedChars <= full.meta.rawChars, fixture);
    if (fixture === 'artifacts-page.html' || fixture === 'dashboard.html') {
      assert.ok(full.meta.templates >= 1 && full.meta.instances >= 6, `${fixture}: ${JSON.stringify(full.meta)}`);
      assert.ok(full.meta.estimatedTokens < full.meta.rawTokens, fixture);
    }
  }
});

test('templatize: the seed\'s example, and the inputs that could break the rule', () => {
  const seed = '<div class="item"><span class="price">$10</span></div><div class="item"><span class="price">$20</span></div><div class="item"><span class="price">$30</span></div>';
  const t = templatize(seed);
  assert.equal(t.html, '<template id="t1"><div class="item"><span class="price">{{v}}</span></div></template><t1 v="$10"/><t1 v="$20"/><t1 v="$30"/>');
  assert.equal(untemplatize(t.html), seed);
  const cases = [
    '',
    'plain text',
    '<template id="t1"><b>page template</b></template><p>x</p>',                      // looks like a definition
    '<template id="t1"><b>a</b></template><li class="x">1</li><li class="x">2</li><li class="x">3</li>',
    '<t1 v="x"/><t1 v="y"/><li class="long-class-name">1</li><li class="long-class-name">2</li>', // the page uses <t1>
    '<li class="a">{{v}}</li><li class="a">{{v}}</li><li class="a">{{v}}</li>',       // the page's own braces
    '<li class="aaaaaaaa" title="{{x}}">1</li><li class="aaaaaaaa" title="{{x}}">2</li>',
    '<li class="aaaaaaaa" title="q&quot;&amp;">1"&amp;</li><li class="aaaaaaaa" title="z&amp;">2 &lt; 3</li>',
    '<ul><li class="row">one<li class="row">two</ul><p>unclosed <b>bold',              // implied end tags
    '<div><span class="k">a</span></div></div></p><div><span class="k">b</span></div>',  // stray end tags
    '<textarea><li class="q">x</li><li class="q">y</li></textarea><xmp><t1/></xmp>',  // raw text
    '<p title=\'single "quoted"\'>a</p><p title=\'single "quoted"\'>b</p><p title=x>c</p><p title=x>d</p>',
    '<img src="a.png" alt="one"><img src="b.png" alt="two"><img src="c.png" alt="three"><br><br><br>',
    '<!-- c --><div class="card"><!-- inner --><h3>A</h3></div><div class="card"><!-- inner --><h3>B</h3></div>',
    '<template shadowrootmode="open"><i class="m">1</i><i class="m">2</i></template><template shadowrootmode="open"><i class="m">1</i><i class="m">2</i></template>',
    '<a href="x" < b>c</a> < <a href="x" < b>d</a>',
  ];
  for (const c of cases) assert.equal(untemplatize(templatize(c).html), c, c);
  // Repeated shapes across different parents share one template.
  const card = (x: string) => `<li class="product-card featured shadow-lg"><b class="name">${x}</b></li>`;
  const shared = templatize(`<ul>${card('A')}${card('B')}${card('C')}</ul><ol>${card('D')}${card('E')}</ol>`);
  assert.equal(shared.templates, 1);
  assert.equal(shared.instances, 5);
  assert.equal(untemplatize(shared.html), `<ul>${card('A')}${card('B')}${card('C')}</ul><ol>${card('D')}${card('E')}</ol>`);
  // The page's own braces never become a slot.
  assert.ok(!templatize(cases[5]).html.includes('<template id="t'));
});

test('the live page is byte-identical before and after full and hybrid, and they make no request', async () => {
  for (const fixture of ['artifacts-page.html', 'actions-frames.html']) {
    const { page, lens } = await h.open(fixture);
    // The reads the artifacts make write pagelens's own data-llm-id on elements they tag first: once.
    await lens.model({ fullPage: true, structure: true, attributes: true });
    const before = await liveDom(page);
    const requests: string[] = [];
    page.context().on('request', (r) => requests.push(r.url()));
    await lens.snapshot({ mode: 'full' });
    await lens.snapshot({ mode: 'hybrid' });
    await lens.snapshot({ mode: 'hybrid', screenshot: { setOfMark: false, quality: 30 } });
    const after = await liveDom(page);
    assert.deepEqual(after, before, fixture);
    assert.deepEqual(requests, [], fixture);
    if (fixture === 'artifacts-page.html') assert.match(before[0], /\n1$/, 'one <tea-widget> constructed, by the page itself');
  }
});

/** Whether a pixel lies within `margin` of a box. */
const near = (x: number, y: number, b: Box, margin: number) => x >= b[0] - margin && x < b[0] + b[2] + margin && y >= b[1] - margin && y < b[1] + b[3] + margin;

test('the set-of-mark image differs from the plain one only around the labelled elements; labels never cover their element\'s centre', async () => {
  const { lens } = await h.open('dashboard.html');
  const plain = await lens.snapshot({ mode: 'hybrid', screenshot: { setOfMark: false } });
  const marked = await lens.snapshot({ mode: 'hybrid' });
  assert.equal(plain.setOfMark, false);
  assert.equal(plain.meta.marks, 0);
  assert.deepEqual(plain.interactive_tree, marked.interactive_tree);
  const decode = async (b64: string) => sharp(Buffer.from(b64, 'base64')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const a = await decode(plain.screenshot);
  const b = await decode(marked.screenshot);
  assert.deepEqual([a.info.width, a.info.height], [1280, 800]);
  const marks: Mark[] = layoutMarks(marked.interactive_tree, { width: a.info.width, height: a.info.height });
  assert.ok(marks.length > 30 && marks.length === marked.meta.marks, `${marks.length} marks`);
  for (const m of marks) {
    const node = marked.interactive_tree.find((n) => n.i === m.id)!;
    const [cx, cy] = node.xy;
    assert.ok(!near(cx, cy, m.label, 0), `label ${m.id} covers its element's centre`);
  }
  // Away from every label and element (16 px: a JPEG block of colour), nothing changed but JPEG noise.
  const channels = a.info.channels;
  let checked = 0;
  let worst = 0;
  for (let y = 0; y < a.info.height; y++) {
    for (let x = 0; x < a.info.width; x++) {
      if (marks.some((m) => near(x, y, m.label, 16) || near(x, y, m.box, 16))) continue;
      checked++;
      const at = (y * a.info.width + x) * channels;
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(a.data[at + c] - b.data[at + c]));
    }
  }
  assert.ok(checked > 0.3 * a.info.width * a.info.height, `${checked} pixels far from any mark`);
  assert.ok(worst <= 12, `pixels away from the labels differ by up to ${worst}`);
  // Each label is really drawn: its box differs clearly from the plain image.
  for (const m of marks) {
    let diff = 0;
    let n = 0;
    for (let y = m.label[1]; y < m.label[1] + m.label[3]; y++) {
      for (let x = m.label[0]; x < m.label[0] + m.label[2]; x++) {
        const at = (y * a.info.width + x) * channels;
        diff += Math.abs(a.data[at] - b.data[at]) + Math.abs(a.data[at + 1] - b.data[at + 1]) + Math.abs(a.data[at + 2] - b.data[at + 2]);
        n++;
      }
    }
    assert.ok(diff / n > 60, `label ${m.id} barely changed the image (${(diff / n).toFixed(1)})`);
  }
  // Colour-coded by role: a link's label and a button's are drawn in different colours.
  const link = marks.find((m) => m.role === 'link')!;
  const button = marks.find((m) => m.role === 'btn')!;
  assert.notDeepEqual(link.colour, button.colour);
});

test('hybrid: a JPEG of the viewport at the asked quality, a perceptual hash that changes with what is shown', async () => {
  const { page, lens } = await h.open('artifacts-page.html');
  const low = await lens.snapshot({ mode: 'hybrid', screenshot: { quality: 10, setOfMark: false } });
  const high = await lens.snapshot({ mode: 'hybrid', screenshot: { quality: 95, setOfMark: false } });
  assert.ok(Buffer.from(low.screenshot, 'base64').subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])), 'a JPEG');
  assert.ok(low.meta.screenshotBytes < high.meta.screenshotBytes, `${low.meta.screenshotBytes} < ${high.meta.screenshotBytes}`);
  assert.match(low.screenshotHash, /^[0-9a-f]{64}$/);
  const again = await lens.snapshot({ mode: 'hybrid', screenshot: { quality: 95, setOfMark: false } });
  assert.equal(again.screenshotHash, high.screenshotHash, 'the same view, the same hash');
  await page.evaluate(() => { document.body.style.background = '#000'; document.body.style.color = '#fff'; });
  const dark = await lens.snapshot({ mode: 'hybrid', screenshot: { quality: 95, setOfMark: false } });
  assert.notEqual(dark.screenshotHash, high.screenshotHash);
  assert.ok(high.meta.estimatedTokens > 0 && high.meta.estimatedTokens < 5000);
});

test('options that do not apply to a mode are BAD_INPUT', async () => {
  const { lens } = await h.open('frames-leaf.html');
  const refused = async (opts: object, re: RegExp) => {
    await assert.rejects(lens.snapshot(opts as never), (e) => isPagelensError(e, 'BAD_INPUT') && re.test((e as Error).message));
  };
  await refused({ mode: 'skeleton', boxes: true }, /boxes/);
  await refused({ mode: 'hybrid', boxes: true }, /boxes/);
  await refused({ mode: 'full', fullPage: true }, /fullPage/);
  await refused({ mode: 'hybrid', fullPage: true }, /fullPage/);
  await refused({ mode: 'full', screenshot: { quality: 50 } }, /screenshot/);
  await refused({ mode: 'hybrid', screenshot: { quality: 0 } }, /quality/);
  await assert.rejects(lens.capture({ query: 7 } as never), (e) => isPagelensError(e, 'BAD_INPUT'));
  await assert.rejects(lens.capture({ query: 'x', requested: 'everything' } as never), (e) => isPagelensError(e, 'BAD_INPUT'));
});

test('capture: every visual keyword class gets hybrid, a plain task semantic_v3, the backend\'s asks their mode', async () => {
  const { lens } = await h.open('artifacts-page.html');
  for (const [kind, words] of Object.entries(VISUAL_KEYWORDS)) {
    const r = await lens.capture({ query: `find the ${words[words.length - 1]} here` });
    assert.equal(r.mode, 'hybrid', kind);
    assert.equal(r.payload.mode, 'hybrid');
    assert.equal(r.fellBackFrom, undefined);
  }
  const plain = await lens.capture({ query: 'Click Subscribe' });
  assert.equal(plain.mode, 'semantic_v3');
  assert.match(plain.reason, /simple action \("click"\)/);
  assert.ok(plain.payload.mode === 'semantic_v3' && plain.payload.interactive_tree.length > 0);
  const full = await lens.capture({ query: 'Click Subscribe', requested: { status: 'needs_full_dom', reason: 'no such button' } as never });
  assert.equal(full.mode, 'full');
  assert.ok(full.payload.mode === 'full' && full.payload.dom.includes('Subscribe'));
  assert.equal((await lens.capture({ query: 'Click Subscribe', requested: 'skeleton' })).mode, 'skeleton');
  assert.equal((await lens.capture({ query: 'Click Subscribe', requested: { needsScreenshot: true } })).mode, 'hybrid');
});

test('capture: a forced V3 failure falls back to semantic and says so; when every mode fails, the error names each', async () => {
  const { lens } = await h.open('artifacts-page.html');
  // Only the viewport read (semantic_v3) breaks: semantic reads the whole page.
  // Both the engine's page reads break for a viewport read: `read` (whole or a delta) and `snapshot`.
  await sabotage(lens, 0, 'for (const k of ["read", "snapshot"]) { const f = globalThis.__pagelens[k]; globalThis.__pagelens[k] = (o, ...rest) => { if (o.viewportOnly) throw new Error("v3 sabotaged"); return f(o, ...rest); }; }');
  const r = await lens.capture({ query: 'Click Subscribe' });
  assert.equal(r.mode, 'semantic');
  assert.ok(r.payload.mode === 'semantic' && r.payload.nodes.some((n) => n.name === 'Subscribe'));
  assert.equal(r.fellBackFrom?.length, 1);
  assert.equal(r.fellBackFrom![0].mode, 'semantic_v3');
  assert.match(r.fellBackFrom![0].reason, /^failed \(ENGINE_ERROR: .*v3 sabotaged/);
  assert.match(r.reason, /^semantic_v3 failed \(ENGINE_ERROR: .*v3 sabotaged.*\): fell back to semantic \(first choice: a simple action/);

  await sabotage(lens, 0, 'globalThis.__pagelens.snapshot = globalThis.__pagelens.read = () => { throw new Error("x"); };');
  await assert.rejects(lens.capture({ query: 'Click Subscribe' }), (e) => {
    assert.ok(isPagelensError(e, 'ENGINE_ERROR'), String(e));
    assert.match((e as Error).message, /^No mode could read the page: semantic_v3 failed \(ENGINE_ERROR: .*x.*\); semantic failed \(.*\); skeleton failed \(.*\)\.$/);
    return true;
  });
  // A visual task starts with hybrid, and falls down the same chain.
  await assert.rejects(lens.capture({ query: 'the blue button' }), /No mode could read the page: hybrid failed .*; semantic_v3 failed .*; semantic failed .*; skeleton failed/);
});

test('capture: an empty viewport moves down the chain; a page with nothing to act on says so with the last payload', async () => {
  const below = await h.open('artifacts-below.html');
  const r = await below.lens.capture({ query: 'press continue' });
  assert.equal(r.mode, 'semantic');
  assert.deepEqual(r.fellBackFrom, [{ mode: 'semantic_v3', reason: 'came back empty (no interactive element in the viewport)' }]);
  assert.ok(r.payload.mode === 'semantic' && r.payload.nodes.some((n) => n.name === 'Continue'));

  const empty = await h.open('artifacts-empty.html');
  const e = await empty.lens.capture({ query: 'press continue' });
  assert.equal(e.mode, 'skeleton');
  assert.equal(e.payload.mode === 'skeleton' && e.payload.skeletonDom, '');
  assert.deepEqual(e.fellBackFrom?.map((f) => f.mode), ['semantic_v3', 'semantic']);
  assert.match(e.reason, /^nothing to act on in any mode/);
});

test('CLI: --mode skeleton|full|hybrid, --screenshot writes the JPEG, flags that do not apply are refused', { timeout: 300_000 }, async () => {
  const page = join(FIXTURES, 'artifacts-page.html');
  const out = join(tmpdir(), `pagelens-hybrid-${process.pid}.jpg`);
  try {
    const hybrid = await runCli(['snapshot', page, '--mode', 'hybrid', '--screenshot', out, '--quality', '40']);
    assert.equal(hybrid.code, 0, hybrid.stderr);
    const payload = HybridResult.parse(JSON.parse(hybrid.stdout));
    assert.ok(existsSync(out));
    assert.ok(readFileSync(out).equals(Buffer.from(payload.screenshot, 'base64')));
    assert.match(hybrid.stderr, new RegExp(`marked on a \\d+ KB screenshot written to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  } finally {
    rmSync(out, { force: true });
  }
  const skeleton = await runCli(['snapshot', page, '--mode', 'skeleton', '--full-page']);
  assert.equal(skeleton.code, 0, skeleton.stderr);
  assert.match(SkeletonResult.parse(JSON.parse(skeleton.stdout)).skeletonDom, /Subscribe/);
  const full = await runCli(['snapshot', page, '--mode', 'full']);
  assert.equal(full.code, 0, full.stderr);
  assert.match(full.stderr, /^pagelens: full DOM of \d+ elements/);
  const noBrowser = { PAGELENS_CHROMIUM: '/nonexistent/chromium', PAGELENS_DEBUG: '' };
  for (const [args, flag] of [
    [['--mode', 'full', '--boxes'], '--boxes'], [['--mode', 'skeleton', '--format', 'text'], '--format text'],
    [['--mode', 'full', '--full-page'], '--full-page'], [['--mode', 'hybrid', '--full-page'], '--full-page'],
    [['--screenshot', 'x.jpg'], '--screenshot'], [['--mode', 'skeleton', '--screenshot', 'x.jpg'], '--screenshot'],
    [['--mode', 'full', '--quality', '50'], '--quality'], [['--no-marks'], '--no-marks'],
  ] as Array<[string[], string]>) {
    const r = await runCli(['snapshot', 'http://127.0.0.1:9/never.html', ...args], { env: noBrowser });
    assert.notEqual(r.code, 0, args.join(' '));
    assert.match(r.stderr, /^pagelens: BAD_INPUT: /, args.join(' '));
    assert.ok(r.stderr.includes(flag), r.stderr);
    assert.doesNotMatch(r.stderr, /NO_BROWSER/);
  }
  const badQuality = await runCli(['snapshot', 'http://127.0.0.1:9/never.html', '--mode', 'hybrid', '--quality', '0'], { env: noBrowser });
  assert.match(badQuality.stderr, /^pagelens: BAD_INPUT: --quality expects an integer from 1 to 100/);
});

test('templatize writes the annotations every element carries once (rule 3) and undoes it exactly, a page\'s own bare attribute of that name included', () => {
  const row = (k: number) => `<p data-interactive="false" data-visible="true">para ${k} <b data-interactive="false" data-visible="true">${k}</b></p><hr data-interactive="false" data-visible="false">`;
  const page = `<main data-interactive="false" data-visible="true">${Array.from({ length: 12 }, (_, k) => row(k)).join(' ')}<input a1 data-interactive="true" data-visible="true"></main>`;
  const t = templatize(page).html;
  assert.equal(untemplatize(t), page);
  // One definition for all runs, line N naming aN; line 1 stays empty: a1 is a bare attribute of the page.
  const runs = /^<template id="a">([^<]*)<\/template>/.exec(t)![1].split('\n');
  assert.equal(runs[0], '', 'a1 is a bare attribute of the page: another name is used');
  assert.ok(runs.includes('data-interactive="false" data-visible="true"'), runs.join(' / '));
  assert.ok(t.length < page.length * 0.5, `${t.length} of ${page.length}`);
});

test('templatize: a shape that recurs anywhere (not only side by side) is one template; what its values share stays in it; several slots are one attribute', () => {
  // A menu whose entries alternate with hidden inputs: no two neighbours have the same tag.
  const entry = (k: number, name: string) => `<li class="menu-entry"> <a href="https://shop.example.com/catalog/index.php?page=main&amp;type=${k}&amp;lang=en" data-id="${k}">${name}</a> </li><input type="hidden" name="menu_${k}_main">`;
  const page = `<ul>${[['Jeans', 1], ['Knitwear', 2], ['Polos', 3], ['Scarves', 4]].map(([n, k]) => entry(k as number, n as string)).join('')}</ul>`;
  const t = templatize(page);
  assert.equal(untemplatize(t.html), page);
  assert.ok(t.instances >= 8, JSON.stringify(t));
  // The shared start and end of the href are in the template, the slot holds what differs.
  assert.match(t.html, /<template id="t\d+"><li (?:class="menu-entry"|a\d+)> <a href="https:\/\/shop\.example\.com\/catalog\/index\.php\?page=main&amp;type=\{\{v1\}\}&amp;lang=en" data-id="\{\{v2\}\}">\{\{v3\}\}<\/a> <\/li><\/template>/);
  // One attribute per instance, values split at "|".
  assert.match(t.html, /<t\d+ v="1\|1\|Jeans"\/>/);
  // Values with the separator, quotes and what looks like an escape round-trip.
  const odd = (v: string) => `<p class="long-shared-class-name" title="${v}">x ${v}</p>`;
  const tricky = ['a|b', '&#34;', '&#124;|&#38;', '&amp;&quot;', '"q"', '&#3', 'end&'].map(odd).join('');
  assert.equal(untemplatize(templatize(tricky).html), tricky);
});

test('templatize rule 3: a class list and attributes that recur side by side are written once and named', () => {
  // Cards of different shapes (k nested <b>s each), so no template covers them: their attributes recur all the same.
  const card = (k: number) => `<div class="product-card product-card--featured shadow-lg" data-track="card" data-id="${k}" data-interactive="false" data-visible="true">${'<b>'.repeat(k)}#${k}${'</b>'.repeat(k)}</div><span class="price-tag">${k}</span>`;
  const page = Array.from({ length: 10 }, (_, k) => card(k)).join('<hr>');
  const t = templatize(page).html;
  assert.equal(untemplatize(t), page);
  assert.match(t, /^<template id="a">(?:[^<]*\n)?class="product-card product-card--featured shadow-lg" data-track="card"(?:\n[^<]*)?<\/template>/);
  assert.ok(!t.slice(t.lastIndexOf('</template>')).includes('product-card--featured'), 'the class list is named in every tag');
});

test('templatize writes no definition that would not read back: a stray </template> or an open raw-text element in a shape', () => {
  for (const page of [
    '<b><t1 v="z"/></template>&amp;</b><b><t1 v="z"/></template>&amp;</b><b><t1 v="z"/></template>&amp;</b>',
    '<i class="some-long-class"><textarea></i><i class="some-long-class"><textarea></i>',
  ]) assert.equal(untemplatize(templatize(page).html), page, page);
});

test('templatize round-trips 3,000 random strings built from the pieces that could break its rules', () => {
  const parts = ['<li class="x">', '</li>', '<b>', '</b>', '<p a1 title="q|r">', '</p>', 'text', ' ', '|', '&#124;', '&#34;', '&#38;', '&amp;', '&quot;', '"', "'", '{{', '}}', '{{v}}', '{{v1}}',
    '<template id="t1">', '<template id="a1">', '</template>', '<t1 v="z"/>', '<t1/>', '<img src="a.png" data-id="1" data-interactive="false" data-visible="true">',
    ' data-interactive="true" data-visible="true"', '<div class="card big" data-x="1">', '</div>', '<span a2>', '</span>', '<!-- c -->', '<textarea>', '</textarea>',
    '<a href="/x?y=1&amp;z=2">', '</a>', '<br/>', 'é', '\ud83d\ude00', '<input a1 name="n" data-interactive="false" data-visible="true">', 'v1="x"', '=', '<', '>', '/', 'a1', ' a3 ', '<x a="1"/b="2">',
    // Rule 0: repeated values, what reads as a reference or as the dictionary.
    '<img src="https://cdn.example.com/media/x.jpg?w=200&amp;q=80 200w">', '<a href="https://cdn.example.com/media/y?ref=home&amp;q=80">', '&1;', '&12;', '&;', '&01;', '<template id="d">', '\n', 'title="a&1;b"'];
  // A fixed seed (mulberry32): the same strings on every run.
  let seed = 23;
  const random = () => { seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  for (let i = 0; i < 3000; i++) {
    let s = '';
    for (let k = 1 + Math.floor(random() * 40); k > 0; k--) s += parts[Math.floor(random() * parts.length)];
    if (random() < 0.7) s = s.repeat(1 + Math.floor(random() * 4)) + s.slice(0, Math.floor(random() * s.length));
    assert.equal(untemplatize(templatize(s).html), s, JSON.stringify(s));
  }
});

test('templatize rule 0: what attribute values repeat (an origin and path, a query-string tail, a srcset\'s one URL at every width, JSON keys) is written once in a dictionary, on real full output', async () => {
  const { lens } = await h.open('artifacts-shop-urls.html');
  const full = await lens.snapshot({ mode: 'full' });
  const raw = untemplatize(full.dom);
  assert.equal(raw.length, full.meta.rawChars);
  assert.equal(templatize(raw).html, full.dom);
  const dictionary = /^<template id="d">([^<]*)<\/template>/.exec(full.dom);
  assert.ok(dictionary, full.dom.slice(0, 300));
  const lines = dictionary[1].split('\n');
  const rest = full.dom.slice(dictionary[0].length);
  // The shared path of every image is in one line and nowhere else; the srcsets and the links
  // refer to lines, and every reference names one.
  const path = '/static/catalog/images/products/2026/autumn/sku-100';
  assert.ok(lines.some((l) => l.includes('/static/catalog/images/products/')), lines.join('\n'));
  assert.ok(!rest.includes('/static/catalog/images/products/'), rest);
  assert.ok(raw.split(path).length - 1 >= 20, 'the page repeats the path');
  assert.ok(!rest.includes('utm_medium=grid&amp;utm_campaign=autumn-2026'), 'the query-string tail is a line');
  const refs = [...rest.matchAll(/&(\d+);/g)].map((m) => Number(m[1]));
  assert.ok(refs.length >= 20 && refs.every((k) => k >= 1 && k <= lines.length), String(refs));
  // Slots of templates are never in a line nor cut by one.
  assert.ok(lines.every((l) => !l.includes('{{') && !l.includes('}}') && !l.includes('|')), lines.join('\n'));
  assert.ok(full.meta.estimatedTokens < full.meta.rawTokens * 0.6, JSON.stringify(full.meta));
});

test('templatize rule 0 round-trips what looks like a reference or a dictionary', () => {
  // Of different shapes (k nested <i>), so that no template takes them.
  const url = (k: number) => `${'<i>'.repeat(k)}<img src="https://cdn.example.com/media/catalog/product/cache/${k}.jpg" alt="x${k}">${'</i>'.repeat(k)}<br>`;
  const many = Array.from({ length: 8 }, (_, k) => url(k)).join('');
  for (const page of [
    many,
    `<p>&1;</p>${many}`, // the page's own text reads as a reference: no dictionary
    `${many}<a title="&12;x">y</a>`,
    `<template id="d">a\nb</template>${many}`, // the page starts like a dictionary
    '<template id="d">&1;</template><p>&1;</p>',
    `<template id="d"></template>${many}`,
    `<template id="d">${many}`,
    `${many.replace(/catalog/g, 'cat|alog')}`, // "|" splits a value: no line holds it
    `${many.replace(/product/g, '{{v1}}')}`, // the page's own braces
    `${many.replace(/\.jpg/g, '&amp;\n')}`,
    `${many}&#124;&#34;&#38;|"`,
  ]) {
    const t = templatize(page).html;
    assert.equal(untemplatize(t), page, page);
  }
  const t = templatize(many).html;
  assert.match(t, /^<template id="d">[^<]*https:\/\/cdn\.example\.com\/media\/catalog\/product\/cache\/[^<]*<\/template>/);
  assert.ok(!templatize(`<p>&1;</p>${many}`).html.startsWith('<template id="d">'));
});

test('templatize rule 0 round-trips 1,000 random documents whose attribute values repeat URL pieces among the strings that could break it', () => {
  const pieces = ['https://cdn.example.com/', 'media/', 'catalog/', '?w=', '200', '&amp;q=80', ' 200w, ', '|', '{{v1}}', '{{', '}}', '&#124;', '&#34;', '&#38;', '&quot;', 'é', '\ud83d\ude00', '\n', '<', '>', '&1;', '&', '1;', ';', 'a1', 'x', ' ', '/', '</template>', '<template id="d">'];
  const tags = ['img', 'a', 'i', 'b', 'li', 'textarea'];
  let seed = 2026;
  const random = () => { seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = <T>(a: T[]) => a[Math.floor(random() * a.length)];
  const value = () => { let v = ''; for (let k = 1 + Math.floor(random() * 8); k > 0; k--) v += pick(pieces); return v; };
  let dictionaries = 0;
  for (let i = 0; i < 1000; i++) {
    const values = Array.from({ length: 4 }, value);
    let s = random() < 0.1 ? '<template id="d">' : '';
    for (let e = 3 + Math.floor(random() * 25); e > 0; e--) {
      const tag = pick(tags);
      s += `<${tag} src="${pick(values)}${random() < 0.5 ? value() : ''}" title="${pick(values)}">${'<b>'.repeat(e % 3)}${random() < 0.3 ? value() : 'x'}${'</b>'.repeat(e % 3)}</${tag}>`;
    }
    const t = templatize(s).html;
    if (/^<template id="d">[^<]/.test(t)) dictionaries++;
    assert.equal(untemplatize(t), s, JSON.stringify(s));
  }
  assert.ok(dictionaries >= 50, `only ${dictionaries} documents got a dictionary: the test would not exercise rule 0`);
});
