// The extension offers the tool registry's tools (issue 19): the same definitions and dispatcher as
// the MCP server, reached through the service worker (self.pagelens.tools, also the tools/list and
// tools/call messages), with the same answers as the CDP host on the same fixture. The CDP host's
// answers come from runTool on a lens; the extension's from extension/dist loaded unpacked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { gotoSettled } from '../../src/browser/goto.js';
import { Lens } from '../../src/browser/lens.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import { watchConsole, watchNetwork } from '../../src/browser/tools/context.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import { toolDefinitions } from '../../src/tools/registry/dispatch.js';
import type { ToolResult } from '../../src/tools/registry/types.js';
import { launchWithExtension, openTab, sameStartAs, type ExtensionBrowser } from '../support/extension-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let harness: Harness;
let ext: ExtensionBrowser;

before(async () => {
  harness = await startHarness();
  ext = await launchWithExtension('pagelens-ext-tools-');
});

after(async () => {
  await ext?.close();
  await harness?.close();
});

interface ToolList { tools: Array<{ name: string; description: string; inputSchema: object }>; unavailable: Array<{ name: string; reason: string }> }

const extList = (tabId: number) => ext.worker.evaluate((id) => (self as any).pagelens.tools.list(id), tabId) as Promise<ToolList>;
const extCall = (tabId: number, name: string, args: object = {}) =>
  ext.worker.evaluate(([id, n, a]) => (self as any).pagelens.tools.call(id, n, a), [tabId, name, args] as const) as Promise<ToolResult>;

let tabs = 0;

/** The same fixture on both hosts: the CDP host's lens (console and requests watched from the start, as the MCP holder does) and the extension's tab. */
async function both(path: string): Promise<{ cdp: { page: Page; lens: Lens }; tabId: number; extPage: Page }> {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  watchConsole(page);
  watchNetwork(page);
  const lens = await Lens.attach(page, { numbering: await sameStartAs(ext) });
  // A URL of its own, the same on both hosts: the service worker finds the tab by its URL.
  const url = `${harness.originA}${path}?tab=${++tabs}`;
  await gotoSettled(page, url);
  await page.waitForLoadState('load');
  const { page: extPage, tabId } = await openTab(ext, url);
  // Playwright, which drives this browser for the test, dismisses a dialog nobody listens for:
  // a listener that does nothing leaves it to the extension, as a user's browser would.
  extPage.on('dialog', () => {});
  return { cdp: { page, lens }, tabId, extPage };
}

const data = <T = any>(r: ToolResult): T => r.data as T;
const essentials = (s: SemanticV3Result) => s.interactive_tree.map((n) => ({ i: n.i, r: n.r, n: n.n }));
const idOf = (s: SemanticV3Result, name: string) => {
  const n = s.interactive_tree.find((x) => x.n === name);
  assert.ok(n, `${name} in ${JSON.stringify(essentials(s))}`);
  return n.i;
};

test('the extension lists the registry\'s tools: each MCP tool is offered with the same definition, or unavailable with the reason', async () => {
  const { tabId } = await both('mcp-page.html');
  const list = await extList(tabId);
  const mcp = toolDefinitions('mcp');
  const listed = [...list.tools.map((t) => t.name), ...list.unavailable.map((u) => u.name)].sort();
  assert.deepEqual(listed, mcp.map((t) => t.name).sort(), 'every tool of the registry, none twice, none missing');
  for (const t of list.tools) assert.deepEqual(t, mcp.find((m) => m.name === t.name), `${t.name}: the same definition as the MCP server's`);
  for (const u of list.unavailable) assert.ok(u.reason.length > 20, `${u.name} says why: ${JSON.stringify(u.reason)}`);
  for (const name of ['page_snapshot', 'browser_wait_for', 'browser_click', 'browser_type', 'browser_navigate', 'browser_handle_dialog', 'browser_console_messages', 'browser_drag', 'browser_resize', 'browser_more']) {
    assert.ok(list.tools.some((t) => t.name === name), `${name} is offered; unavailable: ${JSON.stringify(list.unavailable)}`);
  }
  // The same list as a tools/list message from an extension page (the side panel, an agent UI).
  const panel = await ext.context.newPage();
  await panel.goto(`chrome-extension://${new URL(ext.worker.url()).host}/sidepanel.html`);
  const viaMessage = await panel.evaluate((id) => (globalThis as any).chrome.runtime.sendMessage({ type: 'tools/list', tabId: id }), tabId);
  assert.deepEqual(viaMessage, list);
  const called = await panel.evaluate((id) => (globalThis as any).chrome.runtime.sendMessage({ type: 'tools/call', tabId: id, name: 'page_snapshot', arguments: { format: 'text' } }), tabId);
  assert.match(called.text, /^\[s\d+: whole page[^\]]*\]\npage: MCP fixture </);
  assert.match(called.text, /\bbtn Ask\b/);
  await panel.close();
  // A tool it cannot run is refused with the reason, never run halfway.
  const refused = await extCall(tabId, 'browser_file_upload', { paths: ['/tmp/x'] });
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^BAD_INPUT: browser_file_upload is unavailable on this host: files cannot be handed/);
  // Tabs too: the host's reason, not the library's "pass a browser holder".
  const tabsRefused = await extCall(tabId, 'browser_tabs', { action: 'list' });
  assert.match(tabsRefused.text, /^BAD_INPUT: browser_tabs is unavailable on this host: tabs are the user's in the extension/);
  // Exploration, observe/act/extract and the page's text run above the port (src/core): offered here too.
  for (const name of ['dom_overview', 'snapshot_regions', 'expand_region', 'element_context', 'dom_search', 'dom_diff', 'observe', 'act', 'extract', 'browser_page_text', 'browser_network_requests', 'browser_take_screenshot']) {
    assert.ok(list.tools.some((t) => t.name === name), `${name} is offered; unavailable: ${JSON.stringify(list.unavailable)}`);
  }
});

test('page_snapshot and a click by ID answer the same on both hosts', async () => {
  const { cdp, tabId, extPage } = await both('mcp-page.html');
  const a = data<SemanticV3Result>(await runTool(cdp.lens, 'page_snapshot'));
  const b = data<SemanticV3Result>(await extCall(tabId, 'page_snapshot'));
  assert.deepEqual(essentials(b), essentials(a));
  const ca = data(await runTool(cdp.lens, 'browser_click', { id: idOf(a, 'Add item') }));
  const cb = data(await extCall(tabId, 'browser_click', { id: idOf(b, 'Add item') }));
  assert.equal(ca.action.ok, true, JSON.stringify(ca));
  assert.equal(cb.action.ok, true, JSON.stringify(cb));
  assert.deepEqual(cb.delta, ca.delta, 'the same delta against the tree each client saw');
  assert.deepEqual(cb.delta.added.map((n: { r: string; n: string }) => [n.r, n.n]), [['btn', 'New item']]);
  assert.equal(await extPage.locator('#list button').count(), 1);
  // The viewport through the port: Playwright's setViewportSize there, Emulation over chrome.debugger here.
  const sa = data(await runTool(cdp.lens, 'browser_resize', { width: 600, height: 400 }));
  const sb = data(await extCall(tabId, 'browser_resize', { width: 600, height: 400 }));
  assert.equal(sb.action.ok, true, JSON.stringify(sb));
  assert.equal(sb.action.detail, sa.action.detail);
  assert.deepEqual(await extPage.evaluate(() => [innerWidth, innerHeight]), [600, 400]);
  assert.deepEqual(sb.delta, sa.delta);
});

test('a confirm dialog: reported as modal state, actions refused while it is open, accepted with browser_handle_dialog', async () => {
  const { cdp, tabId, extPage } = await both('mcp-page.html');
  const a = data<SemanticV3Result>(await runTool(cdp.lens, 'page_snapshot'));
  const b = data<SemanticV3Result>(await extCall(tabId, 'page_snapshot'));
  const ra = data(await runTool(cdp.lens, 'browser_click', { id: idOf(a, 'Ask') }));
  const rb = data(await extCall(tabId, 'browser_click', { id: idOf(b, 'Ask') }));
  assert.deepEqual(ra.modal, [{ kind: 'dialog', type: 'confirm', message: 'Proceed?' }]);
  assert.deepEqual(rb, ra, 'the same answer: the modal state and what to do');
  const blocked = await extCall(tabId, 'page_snapshot');
  assert.equal(blocked.isError, true);
  assert.match(blocked.text, /confirm dialog is open \("Proceed\?"\): answer it with browser_handle_dialog/);
  const da = data(await runTool(cdp.lens, 'browser_handle_dialog', { accept: true }));
  const db = data(await extCall(tabId, 'browser_handle_dialog', { accept: true }));
  assert.equal(db.action?.ok, true, JSON.stringify(db));
  assert.equal(db.action.detail, da.action.detail, 'the click\'s words (the shared act pipeline) and the dialog\'s (the registry)');
  assert.match(db.action.detail, /; accepted the confirm "Proceed\?"$/);
  assert.deepEqual(db.delta, da.delta);
  // browser_wait_for reads the text the engine sees in its isolated world, on both hosts.
  const wa = data(await runTool(cdp.lens, 'browser_wait_for', { text: 'confirmed: yes' }));
  const wb = data(await extCall(tabId, 'browser_wait_for', { text: 'confirmed: yes' }));
  assert.equal(wb.action.ok, true, JSON.stringify(wb));
  assert.deepEqual(wb.action, wa.action);
  assert.equal(await extPage.locator('#confirm-out').textContent(), 'confirmed: yes');
  assert.equal(await cdp.page.locator('#confirm-out').textContent(), 'confirmed: yes');
});

/** The browser's own 404 for /favicon.ico comes whenever it asks, on either host: not the page's words. */
const pageLines = (r: ToolResult) => r.text.split('\n').filter((l) => !l.includes('/favicon.ico')).join('\n');

test('console messages: the page\'s, then the ones a click caused, the same on both hosts', async () => {
  const { cdp, tabId } = await both('mcp-console.html');
  const la = await runTool(cdp.lens, 'browser_console_messages', { level: 'debug' });
  const lb = await extCall(tabId, 'browser_console_messages', { level: 'debug' });
  assert.match(la.text, /\[info\] page loaded/);
  assert.equal(pageLines(lb), pageLines(la));
  const a = data<SemanticV3Result>(await runTool(cdp.lens, 'page_snapshot'));
  const b = data<SemanticV3Result>(await extCall(tabId, 'page_snapshot'));
  const ca = data(await runTool(cdp.lens, 'browser_click', { id: idOf(a, 'Fail') }));
  const cb = data(await extCall(tabId, 'browser_click', { id: idOf(b, 'Fail') }));
  assert.ok(ca.console?.some((l: string) => /payment failed: card declined/.test(l)), JSON.stringify(ca));
  assert.deepEqual(cb.console, ca.console, 'the click\'s answer carries the same console lines');
  const ea = await runTool(cdp.lens, 'browser_console_messages', { level: 'error' });
  let eb = await extCall(tabId, 'browser_console_messages', { level: 'error' });
  // The uncaught error is thrown from a timer just after the click: wait for it on both.
  for (let i = 0; i < 20 && !/boom in handler/.test(eb.text); i++) eb = await extCall(tabId, 'browser_console_messages', { level: 'error' });
  assert.match(eb.text, /\[error\] payment failed: card declined/);
  assert.match(eb.text, /\[error\] Error: boom in handler/);
  assert.equal(pageLines(eb).split('\n')[0], pageLines(ea).split('\n')[0]);
  // The debugger given back (as after a task) and taken again: the log goes on, nothing lost or doubled.
  await ext.worker.evaluate((id) => (self as any).pagelens.release(id), tabId);
  const again = await extCall(tabId, 'browser_console_messages', { level: 'error' });
  assert.equal(pageLines(again), pageLines(eb));
});

test('browser_drag: a card dragged into a bin with the real mouse, the same on both hosts', async () => {
  const { cdp, tabId, extPage } = await both('mcp-drag.html');
  const a = data<SemanticV3Result>(await runTool(cdp.lens, 'page_snapshot'));
  const b = data<SemanticV3Result>(await extCall(tabId, 'page_snapshot'));
  const da = data(await runTool(cdp.lens, 'browser_drag', { startId: idOf(a, 'Card A'), endId: idOf(a, 'Bin 1') }));
  const db = data(await extCall(tabId, 'browser_drag', { startId: idOf(b, 'Card A'), endId: idOf(b, 'Bin 1') }));
  assert.equal(da.action.ok, true, JSON.stringify(da));
  assert.equal(db.action.ok, true, JSON.stringify(db));
  assert.equal(db.action.verification?.success, true, JSON.stringify(db.action.verification));
  assert.equal(db.action.detail, da.action.detail);
  assert.deepEqual(db.delta, da.delta);
  assert.equal(await extPage.locator('#status').textContent(), 'status: Card A in Bin 1');
  assert.equal(await cdp.page.locator('#status').textContent(), 'status: Card A in Bin 1');
  // HTML5 drag-and-drop (draggable, dragstart/drop) from the same real mouse.
  const na = data(await runTool(cdp.lens, 'browser_drag', { startId: idOf(a, 'Native item'), endId: idOf(a, 'Native zone') }));
  const nb = data(await extCall(tabId, 'browser_drag', { startId: idOf(b, 'Native item'), endId: idOf(b, 'Native zone') }));
  assert.equal(await cdp.page.locator('#native-status').textContent(), 'native: dropped native-item', JSON.stringify(na));
  assert.equal(await extPage.locator('#native-status').textContent(), 'native: dropped native-item', JSON.stringify(nb));
  assert.deepEqual(nb.delta, na.delta);
});

/** An exploration answer with what differs by nature between two reads: the snapshot IDs (random) and the snapshot's age. */
function sameShape(r: ToolResult, ids: string[]): { text: string; data: unknown } {
  let text = r.text;
  let json = JSON.stringify(r.data);
  for (const id of ids) { text = text.replaceAll(id, 'SNAP'); json = json.replaceAll(id, 'SNAP'); }
  const clean = (x: string) => x.replace(/"(\w*(?:Ms|ms))":\d+(\.\d+)?/g, '"$1":0').replace(/\b(age|taken) \d+(\.\d+)? ?(ms|s)\b/g, '$1 N').replace(/\(\d+(\.\d+)? s apart\)/g, '(N s apart)');
  return { text: clean(text), data: JSON.parse(clean(json)) };
}

test('exploration: dom_overview, snapshot_regions, expand_region, element_context, dom_search and dom_diff answer the same on both hosts', async () => {
  const { cdp, tabId, extPage } = await both('dashboard.html');
  const call = async (name: string, args: object = {}) => {
    const a = await runTool(cdp.lens, name, args);
    const b = await extCall(tabId, name, args);
    assert.ok(!a.isError, `${name} on the CDP host: ${a.text}`);
    assert.ok(!b.isError, `${name} in the extension: ${b.text}`);
    return { a, b };
  };
  const ov = await call('dom_overview', {});
  const ids = [data(ov.a).snapshotId, data(ov.b).snapshotId];
  assert.match(ov.b.text, /^DOM OVERVIEW http:\/\/127\.0\.0\.1:\d+\/dashboard\.html\?tab=\d+$/m);
  assert.match(ov.b.text, /^\[INTERACTIVES (\d+ of )?39\]$/m);
  // The URL differs only by the tab's own query (each host has its tab).
  const url = (x: { text: string; data: unknown }) => JSON.parse(JSON.stringify(x).replace(/tab=\d+/g, 'tab=N'));
  assert.deepEqual(url(sameShape(ov.b, ids)), url(sameShape(ov.a, ids)), 'dom_overview: the same text and data (snapshot IDs and age aside)');

  const rg = await call('snapshot_regions', {});
  assert.equal(data(rg.b).snapshotId, ids[1], 'the extension answers from the snapshot dom_overview took (its cache)');
  assert.deepEqual(url(sameShape(rg.b, ids)), url(sameShape(rg.a, ids)), 'snapshot_regions');
  const regionsOf = data<{ regions: Array<{ id: string }> }>(rg.b).regions.map((r) => r.id);
  assert.ok(regionsOf.length >= 3, JSON.stringify(regionsOf));
  const main = regionsOf.find((r) => /main/i.test(r)) ?? regionsOf[1];

  const ex = await call('expand_region', { region: main });
  assert.deepEqual(url(sameShape(ex.b, ids)), url(sameShape(ex.a, ids)), `expand_region ${main}`);

  const se = await call('dom_search', { query: 'role:button' });
  assert.deepEqual(url(sameShape(se.b, ids)), url(sameShape(se.a, ids)), 'dom_search role:button');
  const firstButton = data<{ elements: Array<{ ref: string }> }>(se.b).elements[0]?.ref;
  assert.ok(firstButton, se.b.text);

  const ctx = await call('element_context', { target: firstButton });
  assert.deepEqual(url(sameShape(ctx.b, ids)), url(sameShape(ctx.a, ids)), `element_context ${firstButton}`);

  // A change on both pages, a fresh snapshot, and the difference between the two.
  for (const p of [cdp.page, extPage]) await p.evaluate(() => { const h = document.createElement('h2'); h.textContent = 'Added heading'; document.querySelector('main')!.prepend(h); });
  const ov2 = await call('dom_overview', { filters: { headings: true } });
  const ids2 = [...ids, data(ov2.a).snapshotId, data(ov2.b).snapshotId];
  assert.notEqual(data(ov2.b).snapshotId, ids[1], 'a change a person would notice: a new snapshot');
  const da = await runTool(cdp.lens, 'dom_diff', { snapshotA: ids[0], snapshotB: ids2[2] });
  const db = await extCall(tabId, 'dom_diff', { snapshotA: ids[1], snapshotB: ids2[3] });
  assert.ok(!db.isError, db.text);
  assert.match(db.text, /Added heading/);
  const norm = (r: ToolResult) => url(sameShape(r, ids2));
  assert.deepEqual(norm(db), norm(da), 'dom_diff');
});

test('exploration inside a cross-origin iframe: element_context gives the same frame hop, box and hints on both hosts', async () => {
  const { cdp, tabId } = await both('actions-frames.html');
  const a = data<SemanticV3Result>(await runTool(cdp.lens, 'page_snapshot', { fullPage: true }));
  const b = data<SemanticV3Result>(await extCall(tabId, 'page_snapshot', { fullPage: true }));
  const pa = idOf(a, 'Pay');
  const pb = idOf(b, 'Pay');
  assert.equal(pb, pa);
  assert.match(pb, /^f1_/);
  const ca = await runTool(cdp.lens, 'element_context', { target: pa });
  const cb = await extCall(tabId, 'element_context', { target: pb });
  assert.ok(!cb.isError, cb.text);
  const ids = [data(ca).snapshotId, data(cb).snapshotId];
  assert.equal(data(cb).xpath, '/html[1]/body[1]/iframe[1]/#document/html[1]/body[1]/button[1]');
  assert.equal(data(cb).selectorHints[0], '[frame f1] #pay');
  assert.deepEqual(sameShape(cb, ids), sameShape(ca, ids));
  const bySelector = await extCall(tabId, 'element_context', { target: '[frame f1] #card' });
  assert.equal(data(bySelector).name, 'Card number', bySelector.text);
});

/**
 * An answer with what differs by nature between two reads: timings, the tab's own query in the URL,
 * the token count of a snapshot, which counts its timing's digits too (12 ms vs 8 ms), and the age
 * of a recent mutation ("[0s ago]" on one host, "[1s ago]" on a loaded machine).
 */
const comparable = (x: unknown) => JSON.parse(JSON.stringify(x).replace(/"(\w*(?:Ms|ms))":\d+(\.\d+)?/g, '"$1":0').replace(/\[\d+s ago\]/g, '[Ns ago]').replace(/"estimatedTokens":\d+/g, '"estimatedTokens":0').replace(/tab=\d+/g, 'tab=N'));

test('observe, act and extract: the same candidates, the same action and the same data on both hosts', async () => {
  const { cdp, tabId, extPage } = await both('rag-shop.html');
  const oa = await runTool(cdp.lens, 'observe', { instruction: 'add the Dell S2721DGF to the cart' });
  const ob = await extCall(tabId, 'observe', { instruction: 'add the Dell S2721DGF to the cart' });
  assert.ok(!ob.isError, ob.text);
  assert.equal(data(ob).candidates[0].name, 'Add to cart');
  assert.match(data(ob).candidates[0].description, /card "Dell S2721DGF"/);
  assert.deepEqual(data(ob), data(oa), 'the same candidates, ranking, intent and token count');
  // Too close to call: refused with the candidates on both.
  const va = data(await runTool(cdp.lens, 'act', { instruction: 'click Add to cart' }));
  const vb = data(await extCall(tabId, 'act', { instruction: 'click Add to cart' }));
  assert.equal(vb.action.error?.code ?? vb.action.ok, 'AMBIGUOUS', JSON.stringify(vb));
  assert.deepEqual(comparable(vb), comparable(va));
  // A precise one: chosen, clicked with verification, the same answer and delta.
  const aa = data(await runTool(cdp.lens, 'act', { instruction: 'add the Dell S2721DGF to the cart' }));
  const ab = data(await extCall(tabId, 'act', { instruction: 'add the Dell S2721DGF to the cart' }));
  assert.equal(ab.action.ok, true, JSON.stringify(ab));
  assert.equal(ab.action.verification?.success, true, JSON.stringify(ab.action.verification));
  assert.deepEqual(await extPage.evaluate(() => (window as any).added), ['Dell S2721DGF']);
  assert.deepEqual(comparable(ab), comparable(aa));
  // extract, on a product page.
  const product = await both('extract-product.html');
  const schema = JSON.stringify({ type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name', 'price'] });
  const ea = await runTool(product.cdp.lens, 'extract', { instruction: 'the product', schema });
  const eb = await extCall(product.tabId, 'extract', { instruction: 'the product', schema });
  assert.deepEqual(data(eb).data, { name: 'Trail Runner 2', price: 34.99 }, eb.text);
  assert.deepEqual(data(eb), data(ea), 'the same data, sources and missing fields');
});

test('browser_page_text: the same headings and text blocks, frames included, on both hosts', async () => {
  const { cdp, tabId } = await both('actions-frames.html');
  const a = await runTool(cdp.lens, 'browser_page_text');
  const b = await extCall(tabId, 'browser_page_text');
  assert.ok(!b.isError, b.text);
  assert.ok(b.text.length > 20, b.text);
  // Every line starts with its element's ID on both hosts. The numbers can differ where a host's
  // engine numbered elements before the host said where the document starts (the auto-tagger of a
  // page never read yet): each host refuses the other's, so the words are compared.
  const words = (t: string) => t.split('\n').map((l) => l.replace(/^(f\d+_)?\d+ /, '')).join('\n');
  for (const t of [a.text, b.text]) assert.ok(t.split('\n').every((l) => /^(f\d+_)?\d+ /.test(l)), t);
  assert.equal(words(b.text), words(a.text));
  const text = await both('extract-product.html');
  const pa = await runTool(text.cdp.lens, 'browser_page_text');
  const pb = await extCall(text.tabId, 'browser_page_text');
  assert.match(pb.text, /Trail Runner 2/);
  assert.equal(words(pb.text), words(pa.text));
});

test('browser_network_requests: the requests the page makes, failed first, on both hosts; the extension\'s log starts at its first call and says so', async () => {
  const { cdp, tabId, extPage } = await both('mcp-page.html');
  // The first call attaches the extension's debugger: its log starts here.
  assert.ok(!(await extCall(tabId, 'page_snapshot')).isError);
  for (const p of [cdp.page, extPage]) {
    await p.evaluate(() => Promise.all([fetch('/no-such-file.json').then((r) => r.status), fetch('/mcp-page.html?again=1').then((r) => r.status)]));
  }
  const settled = async (call: () => Promise<ToolResult>) => {
    let r = await call();
    // Each host reports a response as its own event: wait until both requests have their status.
    for (let k = 0; k < 50 && !/no-such-file\.json → 404[\s\S]*again=1 → 200|again=1 → 200[\s\S]*no-such-file\.json → 404/.test(r.text); k++) r = await call();
    return r;
  };
  const a = await settled(() => runTool(cdp.lens, 'browser_network_requests'));
  const b = await settled(() => extCall(tabId, 'browser_network_requests'));
  assert.ok(!b.isError, b.text);
  const lines = (r: ToolResult) => r.text.split('\n').filter((l) => /^(GET|POST) /.test(l)).map((l) => l.replace(/tab=\d+/g, 'tab=N'));
  // The failed one first on both.
  assert.match(lines(b)[0], /^GET http:\/\/127\.0\.0\.1:\d+\/no-such-file\.json → 404 \(fetch\)$/);
  assert.equal(lines(a)[0], lines(b)[0]);
  assert.ok(lines(b).some((l) => /\/mcp-page\.html\?again=1 → 200 \(fetch\)$/.test(l)), b.text);
  // The difference, by nature: the CDP host watched from the page's opening (its document request is listed);
  // the extension attached its debugger at its first call, and says that earlier requests are not in its log.
  assert.ok(lines(a).some((l) => /\/mcp-page\.html\?tab=N → 200 \(document\)$/.test(l)), a.text);
  assert.ok(!lines(b).some((l) => /\(document\)$/.test(l)), b.text);
  assert.match(b.text, /\(requests are logged from the extension's first tool call on this tab .*; earlier ones, such as the page's own load, are not in this log\)/);
  assert.deepEqual(lines(b), lines(a).filter((l) => !/\(document\)$/.test(l)), 'the same requests since the extension began watching');
  const fa = await extCall(tabId, 'browser_network_requests', { failedOnly: true });
  assert.deepEqual(lines(fa), [lines(b)[0]]);
});

test('browser_take_screenshot: the set-of-mark view is the hybrid snapshot\'s on both hosts; a plain PNG of the visible tab; what needs Playwright or sharp is refused with the reason', async () => {
  const { cdp, tabId, extPage } = await both('mcp-page.html');
  const a = await runTool(cdp.lens, 'browser_take_screenshot');
  const b = await extCall(tabId, 'browser_take_screenshot');
  assert.ok(!b.isError, b.text);
  // PNG by default, marks and all (issue 42); the extension draws it with its canvas.
  assert.equal(b.images?.[0]?.mimeType, 'image/png');
  assert.equal(Buffer.from(b.images![0].data, 'base64').subarray(1, 4).toString(), 'PNG');
  assert.ok(data(b).marks > 0, b.text);
  const jpeg = await extCall(tabId, 'browser_take_screenshot', { marks: true, type: 'jpeg' });
  assert.equal(jpeg.images?.[0]?.mimeType, 'image/jpeg', jpeg.text);
  assert.equal(data(jpeg).marks, data(b).marks);
  // The same marks drawn (the same elements); the images are each host's own capture.
  const same = (r: ToolResult) => { const { bytes: _b, screenshotHash: _h, url, ...rest } = data(r); return { ...rest, url: url.replace(/tab=\d+/, 'tab=N') }; };
  assert.deepEqual(same(b), same(a));
  assert.equal(Buffer.from(b.images![0].data, 'base64').length, data(b).bytes);
  const png = await extCall(tabId, 'browser_take_screenshot', { type: 'png' });
  assert.ok(!png.isError, png.text);
  const [w, h] = await extPage.evaluate(() => [Math.round(innerWidth * devicePixelRatio), Math.round(innerHeight * devicePixelRatio)]);
  // What Chrome photographs is the visible part of the tab (captureVisibleTab): the tab's width, at most its height.
  assert.deepEqual([data(png).of, data(png).type, data(png).width], ['visible tab', 'png', w]);
  assert.ok(data(png).height > 0 && data(png).height <= h, png.text);
  assert.equal(Buffer.from(png.images![0].data, 'base64').subarray(1, 4).toString(), 'PNG');
  const full = await extCall(tabId, 'browser_take_screenshot', { fullPage: true });
  assert.equal(full.isError, true);
  assert.match(full.text, /^BAD_INPUT: a whole page or one element is captured by scrolling and clipping with Playwright on the CDP host/);
  const webp = await extCall(tabId, 'browser_take_screenshot', { type: 'webp', marks: false });
  assert.match(webp.text, /^BAD_INPUT: a plain webp image is encoded with sharp on the CDP host/);
});
