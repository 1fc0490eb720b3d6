// Re-snapshots reuse what earlier reads derived (names, style facts) wherever nothing changed.
// The differential test below proves the reuse invisible: random changes of every kind (text,
// attributes, insert/remove/move, style sheets, scrolling, values set by script, focus) are
// applied to real pages, and after each one the incremental read must equal a cold read, node
// for node, box for box. The cold read reuses nothing and leaves the caches as they were, so the
// incremental side carries its cache across the whole sequence.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { Lens } from '../../src/browser/lens.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { FIXTURES, rendered, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** One random change, made in the page's own world the way a page script would make it. */
const MUTATE = ([seed, step]: [number, number]) => {
  let state = (seed * 7919 + step * 104729) >>> 0;
  const rand = () => { state = (state + 0x6d2b79f5) >>> 0; let t = state; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
  const pick = <T,>(xs: ArrayLike<T>): T | undefined => xs.length ? xs[Math.floor(rand() * xs.length)] : undefined;
  const words = ['Save', 'Delete item', 'Next', 'Cart (2)', 'Open menu', 'Price $19', 'Sign in', 'More'];
  const all: Element[] = [];
  const collect = (root: ParentNode) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (/^(HTML|HEAD|BODY|SCRIPT|STYLE|META|LINK|TITLE)$/.test(el.tagName)) continue;
      all.push(el);
      if (el.shadowRoot) collect(el.shadowRoot);
    }
  };
  collect(document);
  const el = pick(all);
  if (!el) return 'nothing to change';
  const where = `<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}>`;
  const kind = Math.floor(rand() * 13);
  switch (kind) {
    case 0: {
      const texts: Text[] = [];
      const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n; n = w.nextNode()) if (/\S/.test(n.nodeValue ?? '')) texts.push(n as Text);
      const t = pick(texts);
      if (!t) { el.append(pick(words)!); return `text appended to ${where}`; }
      t.data = pick(words)!;
      return `text of ${where} changed`;
    }
    case 1: {
      const attrs: Array<[string, string | null]> = [
        ['hidden', ''], ['hidden', null], ['aria-label', pick(words)!], ['aria-label', null], ['title', pick(words)!],
        ['disabled', ''], ['disabled', null], ['role', pick(['button', 'link', 'none', 'foo button', 'checkbox', 'tab'])!], ['role', null],
        ['tabindex', '0'], ['aria-expanded', pick(['true', 'false'])!], ['aria-checked', 'true'], ['onclick', 'void 0'], ['href', '#x'], ['placeholder', pick(words)!],
      ];
      const [name, value] = pick(attrs)!;
      if (value === null) el.removeAttribute(name); else el.setAttribute(name, value);
      return `${value === null ? 'removed' : 'set'} ${name} on ${where}`;
    }
    case 2: {
      const styles = ['display:none', 'visibility:hidden', 'opacity:0', 'cursor:pointer', 'overflow:hidden;height:12px', 'text-transform:uppercase', 'position:fixed;top:0;left:0', ''];
      const v = pick(styles)!;
      el.setAttribute('style', v);
      return `style "${v}" on ${where}`;
    }
    case 3: {
      const donor = pick(all.filter((e) => e.classList.length));
      const cls = donor ? pick(donor.classList) : undefined;
      if (!cls) return 'no class to move';
      el.classList.toggle(cls);
      return `class ${cls} toggled on ${where}`;
    }
    case 4: {
      const made = pick(['button', 'a', 'input', 'label', 'span'])!;
      const n = document.createElement(made);
      if (made === 'a') n.setAttribute('href', '#new');
      if (made === 'span') n.setAttribute('onclick', 'void 0');
      if (made === 'label') { const target = pick(all.filter((e) => e.id && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(e.tagName))); if (target) n.setAttribute('for', target.id); }
      if (made !== 'input') n.textContent = pick(words)!;
      (el.parentNode ?? document.body).insertBefore(n, rand() < 0.5 ? el : el.nextSibling);
      return `new <${made}> beside ${where}`;
    }
    case 5: {
      const copy = el.cloneNode(true) as Element;
      copy.removeAttribute('id');
      el.after(copy);
      return `copy of ${where} inserted after it`;
    }
    case 6: {
      el.remove();
      return `${where} removed`;
    }
    case 7: {
      const to = pick(all.filter((e) => !el.contains(e) && !/^(INPUT|SELECT|TEXTAREA|IMG|BR|HR|IFRAME)$/.test(e.tagName)));
      if (!to) return 'nowhere to move';
      to.appendChild(el);
      return `${where} moved`;
    }
    case 8: {
      // Style sheets: a new rule (through the CSSOM, which no mutation shows) or a new <style>.
      const cls = pick(all.filter((e) => e.classList.length).map((e) => e.classList[0]));
      const rule = pick([`.${cls}{display:none}`, `.${cls}{cursor:pointer}`, `.${cls}::before{content:"New "}`, `.${cls}{overflow:hidden;max-height:20px}`])!;
      if (!cls) return 'no class for a rule';
      const own = document.querySelector('style[data-test-rules]') as HTMLStyleElement | null;
      if (own?.sheet && rand() < 0.5) own.sheet.insertRule(rule, own.sheet.cssRules.length);
      else { const s = document.createElement('style'); s.dataset.testRules = ''; s.textContent = rule; document.head.append(s); }
      return `rule ${rule}`;
    }
    case 9: {
      const scrollers = all.filter((e) => e.scrollHeight > e.clientHeight + 20 && /auto|scroll/.test(getComputedStyle(e).overflowY));
      const s = pick(scrollers);
      if (s && rand() < 0.5) { s.scrollTop = Math.floor(rand() * s.scrollHeight); return 'container scrolled'; }
      window.scrollTo(0, Math.floor(rand() * document.documentElement.scrollHeight));
      return 'page scrolled';
    }
    case 11: {
      // Geometry only: everything after a new block moves down, though none of it changed.
      const block = document.createElement('div');
      block.style.height = `${50 + Math.floor(rand() * 400)}px`;
      (el.parentNode ?? document.body).insertBefore(block, el);
      return `${where} pushed down`;
    }
    case 12: {
      const [w, h] = [pick(['', '40px', '300px', '50%'])!, pick(['', '10px', '120px', '600px'])!];
      (el as HTMLElement).style.width = w;
      (el as HTMLElement).style.height = h;
      return `${where} resized to ${w || 'auto'} x ${h || 'auto'}`;
    }
    default: {
      // State no mutation shows: a value or a check set by script, or focus.
      const fields = all.filter((e) => /^(INPUT|TEXTAREA|SELECT)$/.test(e.tagName)) as HTMLInputElement[];
      const f = pick(fields);
      if (!f) return 'no field';
      const r = rand();
      if (r < 0.33 && (f.type === 'checkbox' || f.type === 'radio')) { f.checked = !f.checked; return 'checked by script'; }
      if (r < 0.66 && f.tagName !== 'SELECT' && f.type !== 'file') { f.value = pick(words)!; return 'value set by script'; }
      f.focus();
      return 'field focused';
    }
  }
};

/** The incremental read against cold ones, after each of `steps` random changes. */
async function differential(page: Page, lens: Lens, seed: number, steps: number): Promise<{ reused: number; compared: number }> {
  // Transitions would make two reads of one state differ by where an animation is.
  await page.addStyleTag({ content: '*,*::before,*::after{transition:none!important;animation:none!important}' });
  // The page's own motion (its timers, scroll handlers, images arriving) counted in its own world.
  await page.evaluate(() => {
    const w = window as unknown as { __moves: number };
    w.__moves = 0;
    new MutationObserver((rs) => { if (rs.some((r) => !r.attributeName?.startsWith('data-llm-'))) w.__moves++; })
      .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    for (const type of ['scroll', 'load', 'error', 'resize']) addEventListener(type, () => { w.__moves++; }, true);
  });
  const moves = () => page.evaluate(() => (window as unknown as { __moves: number }).__moves);
  await lens.model({ fullPage: true });
  let reused = 0;
  let moving = 0;
  let viewportReused = 0;
  let patched = 0;
  let deltas = 0;
  let skipped = 0;
  const sizes = [{ width: 1280, height: 800 }, { width: 900, height: 640 }];
  for (let step = 0; step < steps; step++) {
    // The window resized now and then: everything may move, though nothing in the page changed.
    if (step % 9 === 8) await page.setViewportSize(sizes[(step / 9 | 0) % 2]);
    const change = await page.evaluate(MUTATE, [seed, step] as [number, number]);
    await page.waitForTimeout(50);
    // Cold, incremental, cold: when both cold reads agree the page stood still, and the incremental
    // read in between must agree with them. A page still moving (a timer, an image arriving) is read again.
    for (let attempt = 1; ; attempt++) {
      const key = (m: PageModel) => JSON.stringify({ nodes: m.nodes, total: m.total });
      const m0 = await moves();
      // Every other step the viewport is read first, straight after the change: a read that
      // reused the last walk then would miss it. Otherwise it is read after the full reads, once
      // the page has rendered a frame, when it may visit only the targets near the viewport.
      const viewportFirst = step % 2 === 1;
      const readViewport = async () => {
        if (!viewportFirst) await rendered(page);
        return { seenWarm: await lens.model({ fullPage: false }), seenCold: await lens.model({ fullPage: false, fresh: true }) };
      };
      const early = viewportFirst ? await readViewport() : null;
      const before = await lens.model({ fullPage: true, fresh: true });
      const warm = await lens.model({ fullPage: true });
      const cold = await lens.model({ fullPage: true, fresh: true });
      if (key(before) === key(cold) && await moves() === m0) {
        if (key(warm) !== key(cold)) {
          const diff = warm.nodes.map((n, i) => [n, cold.nodes[i]] as const).find(([x, y]) => JSON.stringify(x) !== JSON.stringify(y));
          assert.fail(`step ${step} (${change}): the incremental read differs from a cold one\n  incremental: ${JSON.stringify(diff?.[0])}\n  cold:        ${JSON.stringify(diff?.[1])}\n  nodes ${warm.nodes.length} vs ${cold.nodes.length}`);
        }
        const { seenWarm, seenCold } = early ?? await readViewport();
        if (await moves() === m0) {
          if (key(seenWarm) !== key(seenCold)) {
            const diff = seenWarm.nodes.map((n, i) => [n, seenCold.nodes[i]] as const).find(([x, y]) => JSON.stringify(x) !== JSON.stringify(y));
            assert.fail(`step ${step} (${change}): the incremental viewport read differs from a cold one (visited ${seenWarm.engine.visited} vs ${seenCold.engine.visited})\n  incremental: ${JSON.stringify(diff?.[0])}\n  cold:        ${JSON.stringify(diff?.[1])}\n  nodes ${seenWarm.nodes.length} vs ${seenCold.nodes.length}, total ${seenWarm.total} vs ${seenCold.total}`);
          }
          if (seenWarm.engine.visited < seenCold.engine.visited) viewportReused++;
          // The warm read crossed as a delta against the read the host held, the main frame's at least.
          if ((warm.engine.deltas ?? 0) >= 1) deltas++;
          if ((warm.engine.crossed ?? Infinity) < warm.nodes.length) patched++;
          // And the engine took unchanged subtrees from its last walk instead of walking them.
          if (warm.engine.visited < cold.engine.visited) skipped++;
          reused += warm.engine.reusedNames;
          break;
        }
      }
      if (attempt >= 5) { moving++; break; }
      await page.waitForTimeout(300);
    }
  }
  assert.ok(moving <= steps / 10, `the page kept moving during ${moving} of ${steps} steps: too few comparisons`);
  // The short viewport read is what was compared, not a walk every time.
  assert.ok(viewportReused >= steps / 4, `the viewport read visited only the targets near the viewport in ${viewportReused} of ${steps} steps`);
  // The delta path is what was compared: the warm full read was patched from the held one, not read whole.
  assert.equal(deltas, steps - moving, `the warm full read crossed as a delta in only ${deltas} of ${steps - moving} compared steps`);
  // A scroll or a block pushed in above moves every box, so every node crosses then; most changes are smaller.
  assert.ok(patched >= steps / 10, `fewer nodes crossed than the warm full read lists in only ${patched} of ${steps} steps`);
  assert.ok(skipped >= steps / 4, `the warm full read skipped unchanged subtrees in only ${skipped} of ${steps} steps`);
  return { reused, compared: steps };
}

const FIXTURE_PAGES = ['rag-shop.html', 'todo-app.html', 'engine-labels.html', 'engine-shadow.html', 'dashboard.html'];
// Random changes to a page, each seed its own sequence: the lengths trade how many changes are
// compared against the suite's 15-minute budget on a 2-core machine.
const FIXTURE_STEPS = 36;
const CORPUS_STEPS = 30;

test('re-snapshots after random changes equal cold reads (project fixtures)', async () => {
  let reused = 0, compared = 0;
  for (const [k, file] of FIXTURE_PAGES.entries()) {
    const { page, lens, context } = await h.open(file);
    const r = await differential(page, lens, 11 + k, FIXTURE_STEPS);
    reused += r.reused; compared += r.compared;
    await context.close();
  }
  assert.equal(compared, FIXTURE_PAGES.length * FIXTURE_STEPS);
  // The reuse is real, not a cache that never answers.
  assert.ok(reused > compared, `names reused over ${compared} reads: ${reused}`);
});

// PAGELENS_CORPUS: where the corpus is when the checkout is not beside it (a git worktree).
const CORPUS = process.env.PAGELENS_CORPUS ?? join(FIXTURES, '../../../shared/corpus');

test('re-snapshots after random changes equal cold reads (corpus pages)', async (t) => {
  if (!existsSync(CORPUS)) { t.skip(`no corpus at ${CORPUS}`); return; }
  const server: StaticServer = await serveFolder(CORPUS);
  try {
    for (const [k, set] of ['shop', 'news', 'forms'].entries()) {
      const files = readdirSync(join(CORPUS, set)).filter((f) => f.endsWith('.html')).sort();
      let tested = false;
      // The set's first page that holds still by itself: a page whose own scripts never stop
      // (a slideshow swapping images) leaves no moment at which two reads can be compared.
      for (const file of files.slice(0, 6)) {
        const { page, lens, context } = await h.openUrl(`${server.url}${set}/${file}`);
        try {
          if (!await holdsStill(page)) continue;
          await differential(page, lens, 101 + k, CORPUS_STEPS);
          tested = true;
          break;
        } finally {
          await context.close();
        }
      }
      if (!tested) t.diagnostic(`${set}: none of the first pages held still; not compared`);
    }
  } finally {
    await server.close();
  }
});

/** No DOM change by the page itself over half a second. */
async function holdsStill(page: Page): Promise<boolean> {
  return page.evaluate(() => new Promise<boolean>((resolve) => {
    let moved = false;
    const o = new MutationObserver((rs) => { if (rs.some((r) => !r.attributeName?.startsWith('data-llm-'))) moved = true; });
    o.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    setTimeout(() => { o.disconnect(); resolve(!moved); }, 500);
  }));
}

test('a re-snapshot after one change re-derives only what the change touched', async () => {
  const { page, lens } = await h.open('rag-shop.html');
  await lens.model({ fullPage: true });
  const quiet = await lens.model({ fullPage: true });
  const cold = await lens.model({ fullPage: true, fresh: true });
  assert.equal(cold.engine.reusedNames, 0);
  const named = quiet.nodes.filter((n) => n.name).length;
  assert.ok(quiet.engine.reusedNames >= named * 0.5, `${quiet.engine.reusedNames} of ${named} names reused with nothing changed`);
  // A link's text changes: its own name is derived again and shows the new text.
  const first = quiet.nodes.find((n) => n.role === 'link' && n.name)!;
  await page.evaluate((id) => { const a = document.querySelector(`[data-llm-id="${id}"]`)!; a.textContent = 'Renamed link'; }, first.id);
  const after = await lens.model({ fullPage: true });
  assert.equal(after.nodes.find((n) => n.id === first.id)?.name, 'Renamed link');
  assert.ok(after.engine.reusedNames > 0 && after.engine.reusedNames < quiet.engine.reusedNames + 1);
});

// A viewport read after a change (census.ts): once the page has rendered the change, it walks only
// what changed and looks at the targets near the viewport, yet counts the whole page's targets,
// and what a clip cuts off, as a walk of the whole page would.
test('a viewport read after a change walks only what changed, and counts as a whole-page walk does', async () => {
  const { page, lens } = await h.open('viewport-census.html');
  const key = (m: PageModel) => JSON.stringify({ nodes: m.nodes, total: m.total });
  // [what, the change, whether it stays inside one small subtree]
  const changes: Array<[string, () => Promise<unknown>, boolean]> = [
    ['a button in view is renamed', () => page.evaluate(() => { document.querySelector('#row1 button')!.textContent = 'Open first'; }), true],
    ['a link far below is hidden (one target fewer)', () => page.evaluate(() => { document.querySelector('#row500 a')!.setAttribute('style', 'display:none'); }), true],
    ['a button is added far below (one target more)', () => page.evaluate(() => { document.getElementById('row550')!.append(Object.assign(document.createElement('button'), { textContent: 'Extra' })); }), true],
    ['a button is added where the strip cuts it off', () => page.evaluate(() => { document.querySelector('#strip div')!.append(Object.assign(document.createElement('button'), { textContent: 'Archived' })); }), true],
    ['nothing changed', async () => {}, true],
    // Only the side panel's text changes, yet the strip beside it narrows and cuts off one more button.
    ['the panel beside the strip grows', () => page.evaluate(() => { document.getElementById('side')!.textContent = 'A much longer side panel than before, so long'; }), true],
    ['a row in view is removed (what follows moves up)', () => page.evaluate(() => { document.getElementById('row2')!.remove(); }), false],
    ['a row in view is hidden by a class', () => page.evaluate(() => { document.getElementById('row3')!.classList.add('gone'); }), false],
  ];
  await lens.model({ fullPage: false });
  await rendered(page);
  await lens.model({ fullPage: false });
  for (const [what, change, local] of changes) {
    await change();
    await rendered(page);
    const warm = await lens.model({ fullPage: false });
    const cold = await lens.model({ fullPage: false, fresh: true });
    assert.equal(key(warm), key(cold), `${what}: the viewport read differs from a cold one (total ${warm.total} vs ${cold.total})`);
    if (local) assert.ok(warm.engine.visited < cold.engine.visited / 4, `${what}: the viewport read looked at ${warm.engine.visited} elements of ${cold.engine.visited}`);
  }
  // What the changes did shows: the total follows them, and the strip counts the button it cuts off.
  const last = await lens.model({ fullPage: false });
  const strip = last.nodes.find((n) => n.name === 'Filters');
  assert.ok(strip?.hidden && strip.hidden.n >= 4, JSON.stringify(strip));
});

// Geometry that moves with no mutation at all: the live walk (src/page/walk/liveWalk.ts) must see
// each of these in a read made right after it, though no observer has told it anything yet.
test('the warm read sees geometry that moved without a mutation, straight after the change', async () => {
  const { page, lens } = await h.open('live-geometry.html');
  // An image that arrives only when the test lets it: its load pushes what follows it down.
  let release!: () => void;
  const held = new Promise<void>((r) => { release = r; });
  await page.route('**/held-image.svg', async (route) => {
    await held;
    await route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="180"><rect width="200" height="180" fill="#ccc"/></svg>' });
  });
  await page.evaluate(() => { const img = document.createElement('img'); img.alt = ''; img.src = 'held-image.svg'; document.getElementById('slot')!.append(img); });
  const key = (m: PageModel) => JSON.stringify({ nodes: m.nodes, total: m.total });
  const rule = (i: number, prop: string, value: string) => page.evaluate(([i, prop, value]) => {
    const sheet = (document.getElementById('rules') as HTMLStyleElement).sheet!;
    (sheet.cssRules[i] as CSSStyleRule).style.setProperty(prop, value);
  }, [i, prop, value] as [number, string, string]);
  const changes: Array<[string, () => Promise<unknown>]> = [
    ['a rule moves a target (a transform through the CSSOM)', () => rule(1, 'transform', 'translate(40px, 30px)')],
    ['a rule resizes an element, what follows moves down', () => rule(0, 'height', '140px')],
    ['what a clipping box holds grows through a rule: the box now scrolls', () => rule(3, 'height', '400px')],
    ['a container scrolled', () => page.evaluate(() => { document.getElementById('scroller')!.scrollTop = 250; })],
    ['the page scrolled', () => page.evaluate(() => window.scrollTo(0, 700))],
    ['the page scrolled back', () => page.evaluate(() => window.scrollTo(0, 0))],
    ['nothing changed', async () => {}],
    // What covers a target is decided by the whole page: these cover targets that did not move.
    ['an overlay slides over targets (a Web Animation set by script: no mutation, no event)', () => page.evaluate(() => {
      const a = document.getElementById('overlay')!.animate([{ transform: 'none' }, { transform: 'translateX(-890px)' }], { duration: 1000, fill: 'forwards' });
      a.pause();
      a.currentTime = 1000;
    })],
    ['nothing changed, the overlay still over them', async () => {}],
    ['an image arrived and pushed what follows down', async () => {
      release();
      await page.waitForFunction(() => (document.querySelector('#slot img') as HTMLImageElement).complete);
    }],
    ['the window resized', () => page.setViewportSize({ width: 900, height: 640 })],
    ['focus moved', () => page.evaluate(() => document.getElementById('last')!.focus())],
    ['a rule shrinks the clipping box\'s content again', () => rule(3, 'height', '10px')],
    ['nothing changed since the rule', async () => {}],
    ['a popover shown by script covers targets', () => page.evaluate(() => (document.getElementById('pop') as HTMLElement & { showPopover(): void }).showPopover())],
  ];
  await lens.model({ fullPage: true });
  await lens.model({ fullPage: true });
  for (const [what, change] of changes) {
    await change();
    const warm = await lens.model({ fullPage: true });
    const cold = await lens.model({ fullPage: true, fresh: true });
    if (key(warm) !== key(cold)) {
      const diff = warm.nodes.map((n, i) => [n, cold.nodes[i]] as const).find(([x, y]) => JSON.stringify(x) !== JSON.stringify(y));
      assert.fail(`${what}: the warm read differs from a cold one\n  warm: ${JSON.stringify(diff?.[0])}\n  cold: ${JSON.stringify(diff?.[1])}\n  nodes ${warm.nodes.length} vs ${cold.nodes.length}, total ${warm.total} vs ${cold.total}`);
    }
    assert.ok((warm.engine.deltas ?? 0) >= 1, `${what}: the warm read crossed whole`);
    // A scroll of the page moves every box and nothing else: the kept walk is replayed, not walked again.
    if (what.startsWith('the page scrolled')) {
      assert.ok(warm.engine.visited < cold.engine.visited / 2, `${what}: the warm read walked ${warm.engine.visited} elements of ${cold.engine.visited}`);
    }
  }
});

// A read of a page that did not change takes the last read's occlusion answers (hit tests cost most
// of a viewport read on a big page), but only while the whole page is still: each change here covers
// or uncovers targets with no mutation, and the read after it must test again.
test('a read keeps occlusion answers only while the page is still', async () => {
  const { page, lens } = await h.open('live-geometry.html');
  const key = (m: PageModel) => JSON.stringify({ nodes: m.nodes, total: m.total });
  const changes: Array<[string, () => Promise<unknown>]> = [
    ['nothing changed', async () => {}],
    ['an overlay slides over targets (a Web Animation set by script)', () => page.evaluate(() => {
      const a = document.getElementById('overlay')!.animate([{ transform: 'none' }, { transform: 'translateX(-890px)' }], { duration: 1000, fill: 'forwards' });
      a.pause();
      a.currentTime = 1000;
    })],
    ['the overlay is gone again', () => page.evaluate(() => { for (const a of document.getAnimations()) a.cancel(); })],
    ['a rule moves a target (a transform through the CSSOM)', () => page.evaluate(() => {
      ((document.getElementById('rules') as HTMLStyleElement).sheet!.cssRules[1] as CSSStyleRule).style.setProperty('transform', 'translate(40px, 30px)');
    })],
    ['a popover shown by script covers targets', () => page.evaluate(() => (document.getElementById('pop') as HTMLElement & { showPopover(): void }).showPopover())],
  ];
  // Both reads keep answers while the page is still: the viewport's (census.ts) and the full page's (liveWalk.ts).
  for (const fullPage of [false, true]) {
    await page.evaluate(() => {
      for (const a of document.getAnimations()) a.cancel();
      (document.getElementById('pop') as HTMLElement & { hidePopover(): void }).hidePopover();
      ((document.getElementById('rules') as HTMLStyleElement).sheet!.cssRules[1] as CSSStyleRule).style.removeProperty('transform');
    });
    await lens.model({ fullPage });
    for (const [what, change] of changes) {
      await rendered(page);
      // The read before the change: its answers are what a careless read after it would keep.
      await lens.model({ fullPage });
      await change();
      await rendered(page);
      const warm = await lens.model({ fullPage });
      const cold = await lens.model({ fullPage, fresh: true });
      assert.equal(key(warm), key(cold), `${what}: the ${fullPage ? 'full-page' : 'viewport'} read differs from a cold one`);
    }
  }
  // The overlay and the popover covered something: the test compared reads that differ.
  const covered = await lens.model({ fullPage: false, fresh: true });
  assert.ok(covered.nodes.some((n) => n.occ), JSON.stringify(covered.nodes.map((n) => [n.name, n.occ])));
});

// A row's identity (its title text) is kept from an earlier read while nothing in the row or above
// it changed (rows.ts, changes.ts untouchedSince). A class set on an element around the list changes
// what every row's title reads as (text-transform is inherited) with no change inside the rows.
test('a warm read takes a row\'s identity again when an element around the row changed', async () => {
  const { page, lens } = await h.open('reread-row-inherited.html');
  await lens.model({ fullPage: true });
  const before = await lens.model({ fullPage: true });
  // The row's title is listed as the row's item.
  assert.ok(before.nodes.some((n) => n.role === 'item' && n.name === 'Trail shoes'), JSON.stringify(before.nodes.map((n) => n.name)));
  await page.evaluate(() => { document.getElementById('wrap')!.className = 'shout'; });
  const warm = await lens.model({ fullPage: true });
  const cold = await lens.model({ fullPage: true, fresh: true });
  assert.deepEqual(warm.nodes.map((n) => [n.role, n.name]), cold.nodes.map((n) => [n.role, n.name]));
  assert.ok(warm.nodes.some((n) => n.role === 'item' && n.name === 'TRAIL SHOES'), JSON.stringify(warm.nodes.map((n) => n.name)));
});

// Occlusion after a text change (src/page/changes/editedRegions.ts): a warm read keeps an earlier hit
// test's answer only where it proves the answer unchanged. Each page here has a target that no
// change moves, and something that is no target (so has no kept box) that a text change moves over
// it or off it: a warm read that re-tested only the targets that moved, or near the changed text,
// would keep the old answer.
const COVERS: Array<{ file: string; what: string; watch: string; prepare?: string; change: [string, string] }> = [
  { file: 'reread-overlay.html', what: 'a text change grows a card and moves its absolute badge over a fixed bar\'s button', watch: 'Buy now', change: ['#title', 'a\nb\nc\nd\ne\nf\ng\nh\ni'] },
  { file: 'reread-fixed-child.html', what: 'a text change inside a fixed-size target moves its fixed child over a button', watch: 'Target', change: ['#label', 'a\nb\nc\nd\ne\nf\ng'] },
  { file: 'reread-sticky.html', what: 'a text change lengthens a section and brings its sticky bar back over a fixed button', watch: 'Menu', prepare: 'window.scrollTo(0, 70)', change: ['#grow', 'a\nb\nc\nd\ne\nf\ng\nh'] },
  { file: 'reread-overflow.html', what: 'a fixed-size button\'s label that overflowed onto its neighbour gets short', watch: 'Near', change: ['#text', 'Go'] },
];

for (const c of COVERS) {
  test(`a warm read after text changed equals a cold one, occlusion included: ${c.what}`, async () => {
    const { page, lens, context } = await h.open(c.file);
    try {
      if (c.prepare) await page.evaluate(c.prepare);
      const key = (m: PageModel) => JSON.stringify({ nodes: m.nodes, total: m.total });
      const covered = (m: PageModel) => m.nodes.find((n) => n.name === c.watch)?.occ;
      // Two warm reads: the second holds occlusion answers of the first (the page is still).
      await lens.model({ fullPage: true });
      await lens.model({ fullPage: true });
      const before = await lens.model({ fullPage: true, fresh: true });
      await page.evaluate(([sel, text]) => { (document.querySelector(sel)!.firstChild as Text).data = text; }, c.change);
      const warm = await lens.model({ fullPage: true });
      const cold = await lens.model({ fullPage: true, fresh: true });
      // The case is real: the change turned the watched button's answer over.
      assert.notEqual(covered(cold), covered(before), `${c.watch}: covered ${covered(before)} before the change and ${covered(cold)} after`);
      if (key(warm) !== key(cold)) {
        const diff = warm.nodes.map((n, i) => [n, cold.nodes[i]] as const).find(([x, y]) => JSON.stringify(x) !== JSON.stringify(y));
        assert.fail(`the warm read differs from a cold one\n  warm: ${JSON.stringify(diff?.[0])}\n  cold: ${JSON.stringify(diff?.[1])}`);
      }
    } finally {
      await context.close();
    }
  });
}
