// The hierarchical index: L0 page, L1 regions (landmarks; blocks on a page without them), L2 a
// region's elements, L3 one element in depth (across shadow roots and inside a cross-origin
// iframe), with selector hints that Playwright resolves back to exactly their element.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { ElementContext } from '../../src/model/explore/explore.js';
import { parseGlobalId } from '../../src/model/pagemodel/page.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('L0 and L1 on the dashboard: landmarks in reading order with paths, summaries, counts and subsections', async () => {
  const { lens } = await h.open('dashboard.html');
  const l0 = await lens.pageOverview();
  assert.equal(l0.status, 'complete');
  assert.deepEqual(l0.landmarks, { count: 4, kinds: ['header', 'nav', 'main', 'footer'] });
  assert.equal(l0.forms, 1);
  assert.match(l0.text, /^PAGE: http:\/\/127\.0\.0\.1:\d+\/dashboard\.html\nTITLE: "Projects — Dashboard"\nVIEWPORT: 1280x800\nSTATUS: complete\n\nLANDMARKS: 4 \(header, nav, main, footer\)\nINTERACTIVE: 47 elements\nFORMS: 1/);

  const l1 = await lens.regions();
  assert.equal(l1.snapshotId, l0.snapshotId, 'one snapshot answers both');
  assert.deepEqual(l1.regions.map((r) => `${r.id} ${r.landmark} ${r.xpath}`), [
    'R0 header /body/header', 'R1 nav /body/nav.sidebar', 'R2 main /body/main#content', 'R3 footer /body/footer',
  ]);
  const [header, nav, main, footer] = l1.regions;
  assert.deepEqual(header.byKind, { buttons: 1, links: 1, menus: 1 });
  assert.equal(nav.summary, 'navigation with 6 items: Dashboard, Projects, Teams, Reports, Settings, …');
  assert.deepEqual(main.purposes, ['search', 'filter', 'data table with 8 rows', 'pagination']);
  assert.deepEqual(main.subsections, ['Filters', 'ActiveProjects']);
  assert.deepEqual(main.interactiveCounts, { buttons: 11, links: 4, inputs: 13, other: 0 });
  assert.equal(footer.interactive, 2);
  assert.match(l1.text, /\[R2\] MAIN \/body\/main#content "Projects"\n {7}Summary: "search, filter, data table with 8 rows, pagination; key: Search, Apply Filters, Reset"\n {7}Interactive: 28 \(11 buttons, 4 links, 3 inputs, 1 select, 9 checkboxes\)\n {7}Subsections: Filters, ActiveProjects/);
});

test('L2: a region and a subsection, with the seed\'s element lines, options, rows on one line, and deeper subsections', async () => {
  const { lens } = await h.open('dashboard.html');
  const filters = await lens.expandRegion('R2.Filters');
  assert.equal(filters.xpath, '/body/main#content/section.filters');
  const lines = filters.text.split('\n');
  const line = (re: RegExp) => lines.find((l) => re.test(l));
  assert.match(line(/SEARCHBOX/)!, /^ {2}SEARCHBOX "Search projects\.\.\." @ref:\d+ \[placeholder\]$/);
  assert.match(line(/"Search" /)!, /^ {2}BUTTON "Search" @ref:\d+ \[type=submit\]$/);
  assert.match(line(/COMBOBOX/)!, /^ {2}COMBOBOX "Status" @ref:\d+ = "All" \[options: All, Active, Archived, Pending Review\]$/);
  assert.match(line(/Start date/)!, /^ {2}DATEPICKER "Start date" @ref:\d+$/);
  assert.deepEqual(filters.subsections.map((s) => s.id), ['R2.Filters.FilterOptions']);
  const status = filters.elements.find((e) => 'ref' in e && e.name === 'Status');
  assert.ok(status && 'ref' in status);
  assert.equal(status.optionCount, 4);
  // The whole main region: table rows one per line, every ID there.
  const main = await lens.expandRegion('r2');
  assert.equal(main.id, 'R2');
  assert.match(main.text, /\n {2}ITEM "Cygnus" @ref:\d+ = "\$3600" \| CHECKBOX "Select Cygnus" @ref:\d+ \| BUTTON "Edit" @ref:\d+\n/);
  assert.equal(main.total, main.elements.length);
  const deeper = await lens.expandRegion('R2.ActiveProjects');
  assert.deepEqual(deeper.subsections.map((s) => s.id), ['R2.ActiveProjects.DataTable', 'R2.ActiveProjects.Pagination']);
  // A small budget: subsections that do not fit are one line each.
  const small = await lens.expandRegion('R2', { limit: 10 });
  assert.ok(small.collapsed.some((c) => c.id === 'R2.ActiveProjects'), small.text);
  assert.match(small.text, /MORE \(expand for their elements\):\n {2}\[R2\.ActiveProjects\] SECTION "Active projects": 21/);
  await assert.rejects(lens.expandRegion('R9'), (e) => isPagelensError(e, 'BAD_INPUT') && /regions: R0, R1, R2, R3/.test(e.message));
  await assert.rejects(lens.expandRegion('R2', { limit: 0 }), (e) => isPagelensError(e, 'BAD_INPUT'));
  await assert.rejects(lens.regions({ group: false } as never), (e) => isPagelensError(e, 'BAD_INPUT') && /group/.test(e.message));
});

test('a page without landmarks still gets regions: its blocks and its form, named by the heading above', async () => {
  const { lens } = await h.open('no-landmarks.html');
  const l1 = await lens.regions();
  assert.deepEqual(l1.regions.map((r) => `${r.id} ${r.landmark} ${r.xpath} "${r.name}"`), [
    'R0 block /body/div.top ""', 'R1 form /body/div.box[1]/form "Sign in"', 'R2 block /body/div.box[2] "Latest news"', 'R3 block /body/div.bottom ""',
  ]);
  assert.deepEqual(l1.regions[1].purposes, ['login']);
  const news = await lens.expandRegion('R2');
  assert.match(news.text, /ITEM "The vote passed 7 to 2\." @ref:\d+ \| LINK "Council approves the new bridge" @ref:\d+/);
  // The password field: its kind says so, its value never leaves the page.
  const form = await lens.expandRegion('R1');
  const pass = form.elements.find((e) => 'ref' in e && e.kind === 'PASSWORD');
  assert.ok(pass && 'ref' in pass);
  const done = await lens.act(`setValue(${pass.ref}, "hunter2")`);
  assert.equal(done.ok, true, done.error?.message);
  const ctx = await lens.elementContext(pass.ref);
  assert.equal(ctx.value, '***');
  assert.ok(!JSON.stringify(ctx).includes('hunter2'));
  assert.ok(!JSON.stringify(await lens.expandRegion('R1')).includes('hunter2'));
});

test('region IDs stay with their landmarks across snapshots, through a re-render and a new landmark', async () => {
  const { page, lens } = await h.open('dashboard.html');
  const before = await lens.regions();
  await page.evaluate(() => {
    const aside = document.createElement('aside');
    aside.setAttribute('aria-label', 'Tips');
    aside.innerHTML = '<a href="/tips">Tips</a>';
    document.querySelector('nav')!.after(aside);
    // The footer re-rendered: another element, the same landmark.
    const footer = document.querySelector('footer')!;
    footer.replaceWith(footer.cloneNode(true));
    document.getElementById('rows')!.innerHTML += '';
  });
  const afterwards = await lens.regions({ refresh: true });
  assert.notEqual(afterwards.snapshotId, before.snapshotId);
  const byPath = (rs: typeof before.regions) => Object.fromEntries(rs.map((r) => [r.xpath, r.id]));
  const was = byPath(before.regions);
  const now = byPath(afterwards.regions);
  for (const path of Object.keys(was)) assert.equal(now[path], was[path], path);
  assert.equal(now['/body/aside'], 'R4');
  // A lens of its own reads the same IDs for the same page.
  const other = await h.open('dashboard.html');
  assert.deepEqual((await other.lens.regions()).regions.map((r) => r.id), before.regions.map((r) => r.id));
});

/** The element a selector hint names, through Playwright in the element's own frame and root. */
async function resolveHint(page: Page, hint: string, frameUrl?: string): Promise<string[]> {
  let rest = hint;
  let scope = frameUrl ? page.frames().find((f) => f.url() === frameUrl)! : page.mainFrame();
  assert.ok(scope, `frame ${frameUrl}`);
  const hosts: string[] = [];
  for (let m = /^\[(frame f\d+|shadow ([^\]]+))\]\s*/.exec(rest); m; m = /^\[(frame f\d+|shadow ([^\]]+))\]\s*/.exec(rest)) {
    if (m[2]) hosts.push(m[2]);
    rest = rest.slice(m[0].length);
  }
  let locator = hosts.length ? scope.locator(hosts[0]) : scope.locator(rest);
  for (const host of hosts.slice(1)) locator = locator.locator(host);
  if (hosts.length) locator = locator.locator(rest);
  return locator.evaluateAll((els) => els.map((e) => e.getAttribute('data-llm-id') ?? '?'));
}

async function assertHintsResolve(page: Page, ctx: ElementContext): Promise<void> {
  assert.ok(ctx.selectorHints.length >= 2, `${ctx.ref}: ${ctx.selectorHints.join(' | ')}`);
  for (const hint of ctx.selectorHints) {
    assert.deepEqual(await resolveHint(page, hint, ctx.frameUrl), [parseGlobalId(ctx.ref)!.local], `${ctx.ref}: ${hint}`);
  }
}

test('L3 on the dashboard: XPath, box, attributes, options with the selected one, the chain around it, neighbours by direction', async () => {
  const { page, lens } = await h.open('dashboard.html');
  const byCss = await lens.elementContext('#status');
  assert.equal(byCss.kind, 'COMBOBOX');
  assert.equal(byCss.xpath, '/html[1]/body[1]/main[1]/section[1]/form[1]/fieldset[1]/select[1]');
  assert.equal(byCss.inViewport, true);
  assert.ok(byCss.bbox && byCss.bbox.width > 50 && byCss.bbox.x > 200);
  assert.equal(byCss.attributes.id, 'status');
  assert.deepEqual(byCss.options!.map((o) => `${o.label}${o.selected ? '*' : ''}`), ['All*', 'Active', 'Archived', 'Pending Review']);
  assert.deepEqual(byCss.parents.map((p) => `${p.kind} ${p.name}`), ['MAIN Projects', 'REGION Filters', 'SEARCH ', 'FIELDSET Filter options']);
  assert.equal(byCss.region, 'R2.Filters.FilterOptions');
  const byId = await lens.elementContext(`@ref:${byCss.ref}`);
  assert.equal(byId.ref, byCss.ref);
  const names = Object.fromEntries(Object.entries(byCss.nearby).map(([d, n]) => [d, n!.name]));
  // Left of it, on its row, is the sidebar's last link; nothing stands between them.
  assert.deepEqual(names, { left: 'Help', right: 'Start date', up: 'Search projects...', down: 'Apply Filters' });
  assert.match(byCss.text, /PARENT CONTEXT:\n {2}MAIN @ref:\d+ "Projects"\n {2}└── REGION @ref:\d+ "Filters"\n {6}└── SEARCH @ref:\d+\n {10}└── FIELDSET @ref:\d+ "Filter options"\n {14}└── THIS ELEMENT/);
  assert.match(byCss.text, /OPTIONS:\n {2}\[0\] "All" \(selected\)\n {2}\[1\] "Active"/);
  assert.match(byCss.text, /NEARBY INTERACTIVE:\n {2}← LINK @ref:\d+ "Help"\n {2}→ DATEPICKER @ref:\d+ "Start date"\n {2}↑ SEARCHBOX @ref:\d+ "Search projects\.\.\."\n {2}↓ BUTTON @ref:\d+ "Apply Filters"/);
  await assertHintsResolve(page, byCss);
  // Every control of the page gets hints that find exactly it, the 8 Edit buttons included.
  const model = await lens.model({ fullPage: true });
  for (const n of model.nodes.filter((x) => x.role !== 'item')) await assertHintsResolve(page, await lens.elementContext(n.gid));
  // A selector is one element or it is refused.
  await assert.rejects(lens.elementContext('button.row-action'), (e) => isPagelensError(e, 'AMBIGUOUS') && /matches 8 elements/.test(e.message));
  await assert.rejects(lens.elementContext('button[[['), (e) => isPagelensError(e, 'BAD_INPUT'));
  await assert.rejects(lens.elementContext('#nothing-here'), (e) => isPagelensError(e, 'UNKNOWN_ID'));
});

test('L3 across shadow roots: the XPath steps into each root, hints say which root they belong to and find their element', async () => {
  const { page, lens } = await h.open('engine-shadow.html');
  const model = await lens.model({ fullPage: true });
  const open = model.nodes.find((n) => n.name === 'Open shadow button')!;
  const ctx = await lens.elementContext(open.gid);
  assert.match(ctx.xpath, /^\/html\[1\]\/body\[1\]\/div\[1\]\/#shadow-root\/button\[1\]$/);
  assert.ok(ctx.selectorHints.every((s) => s.startsWith('[shadow #open-host] ')), ctx.selectorHints.join(' | '));
  assert.deepEqual(ctx.hints[0].shadow, [{ host: '#open-host', closed: false }]);
  await assertHintsResolve(page, ctx);
  // Closed roots: no selector engine outside pagelens reaches them; the hint still names the root
  // and finds its element through the lens.
  const closed = model.nodes.find((n) => n.name === 'Closed shadow button')!;
  const inClosed = await lens.elementContext(closed.gid);
  assert.match(inClosed.xpath, /\/div\[2\]\/#shadow-root\/button\[1\]$/);
  assert.ok(inClosed.selectorHints.every((s) => s.startsWith('[closed shadow #closed-host] ')), inClosed.selectorHints.join(' | '));
  for (const hint of inClosed.selectorHints) assert.equal((await lens.elementContext(hint)).ref, closed.gid, hint);
});

test('L3 inside a cross-origin iframe: frame hop in the XPath, top-level box, hints in the frame\'s document', async () => {
  const { page, lens } = await h.open('actions-frames.html');
  const model = await lens.model({ fullPage: true });
  const pay = model.nodes.find((n) => n.name === 'Pay')!;
  assert.equal(pay.frame, 1);
  const ctx = await lens.elementContext(pay.gid);
  assert.equal(ctx.frame, 1);
  assert.match(ctx.frameUrl!, /^http:\/\/localhost:\d+\/actions-frame-inner\.html$/);
  assert.equal(ctx.xpath, '/html[1]/body[1]/iframe[1]/#document/html[1]/body[1]/button[1]');
  assert.deepEqual([ctx.bbox!.x, ctx.bbox!.y], [pay.box[0], pay.box[1]]);
  assert.ok(ctx.selectorHints.every((s) => s.startsWith('[frame f1] ')), ctx.selectorHints.join(' | '));
  assert.equal(ctx.selectorHints[0], '[frame f1] #pay');
  await assertHintsResolve(page, ctx);
  assert.equal((await lens.elementContext('[frame f1] #card')).name, 'Card number');
  // The closed shadow root of the same page.
  const inShadow = await lens.elementContext(model.nodes.find((n) => n.name === 'Shadow action')!.gid);
  assert.match(inShadow.xpath, /\/closed-widget\[1\]\/#shadow-root\/button\[1\]$/);
});
