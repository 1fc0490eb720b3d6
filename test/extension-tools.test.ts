// The extension offers the tool registry's tools (issue 19): the same definitions and dispatcher as
// the MCP server, reached through the service worker (self.pagelens.tools, also the tools/list and
// tools/call messages), with the same answers as the CDP host on the same fixture. The CDP host's
// answers come from runTool on a lens; the extension's from extension/dist loaded unpacked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { gotoSettled } from '../src/browser/goto.js';
import { Lens } from '../src/browser/lens.js';
import type { SemanticV3Result } from '../src/model/contracts/schema.js';
import { watchConsole } from '../src/tools/cdp.js';
import { runTool, toolDefinitions } from '../src/tools/registry.js';
import type { ToolResult } from '../src/tools/types.js';
import { launchWithExtension, openTab, type ExtensionBrowser } from './extension-helpers.js';
import { startHarness, type Harness } from './harness.js';

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

/** The same fixture on both hosts: the CDP host's lens (console watched from the start, as the MCP holder does) and the extension's tab. */
async function both(path: string): Promise<{ cdp: { page: Page; lens: Lens }; tabId: number; extPage: Page }> {
  const context = await harness.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  watchConsole(page);
  const lens = await Lens.attach(page);
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
  assert.match(called.text, /^page: MCP fixture </);
  assert.match(called.text, /\bbtn Ask\b/);
  await panel.close();
  // A tool it cannot run is refused with the reason, never run halfway.
  const refused = await extCall(tabId, 'dom_overview', {});
  assert.equal(refused.isError, true);
  assert.match(refused.text, /^BAD_INPUT: dom_overview is unavailable on this host: exploration/);
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
