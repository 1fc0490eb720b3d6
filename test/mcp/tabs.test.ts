// The MCP server's browser around the page, driven by the SDK's own Client over stdio against
// real headless Chromium: tabs (popups included), resize, drag over real mouse input, console
// messages, the mutation log; and where the browser comes from (--user-data-dir, --ws-endpoint).
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../src/browser/chromium.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES, startHarness } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');

interface V3Node { i: string; r: string; n: string }
interface Tab { index: number; url: string; title: string; current: boolean }
interface Answer {
  action?: { ok: boolean; detail?: string; warnings?: string[]; verification?: { success: boolean }; error?: { code: string; message: string } };
  snapshot?: { url: string; viewport: { width: number; height: number }; interactive_tree: V3Node[] };
  navigated?: { url: string };
  tabs?: Tab[];
}
interface CallResult { text: string; isError: boolean }

async function connect(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, ...args], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  const c = new Client({ name: 'pagelens-test-tabs', version: '0.0.0' });
  await c.connect(transport);
  return c;
}

async function callOn(c: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  const r = await c.callTool({ name, arguments: args });
  const content = r.content as Array<{ type: string; text?: string }>;
  return { text: content.filter((x) => x.type === 'text').map((x) => x.text).join('\n'), isError: r.isError === true };
}

let client: Client;
let site: StaticServer;
const call = (name: string, args: Record<string, unknown> = {}) => callOn(client, name, args);

async function answer(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const r = await call(name, args);
  assert.equal(r.isError, false, `${name} failed: ${r.text}`);
  return JSON.parse(r.text) as Answer;
}

/** browser_tabs answers the list as text lines, the current one starred. */
async function tabs(args: Record<string, unknown> = { action: 'list' }): Promise<string[]> {
  const r = await call('browser_tabs', args);
  assert.equal(r.isError, false, r.text);
  return r.text.split('\n').filter((l) => /^[* ] \d+: /.test(l));
}

async function tree(): Promise<{ url: string; viewport: { width: number; height: number }; interactive_tree: V3Node[] }> {
  const r = await call('page_snapshot');
  assert.equal(r.isError, false, r.text);
  return JSON.parse(r.text);
}

const idOf = (nodes: V3Node[], name: string) => {
  const n = nodes.find((x) => x.n === name);
  assert.ok(n, `no "${name}" in ${JSON.stringify(nodes)}`);
  return n.i;
};

/** Polls a tool until its text matches: events reach the server asynchronously. No time is asserted. */
async function eventually(name: string, args: Record<string, unknown>, re: RegExp): Promise<string> {
  let text = '';
  for (let k = 0; k < 50; k++) {
    text = (await call(name, args)).text;
    if (re.test(text)) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${name} never matched ${re}: ${text}`);
}

before(async () => {
  site = await serveFolder(FIXTURES, { replacements: {} });
  client = await connect(['--offline']);
});

after(async () => {
  await client?.close();
  await site?.close();
});

describe('pagelens mcp: the browser around the page', { concurrency: false }, () => {
  test('console messages since the page opened, by level; uncaught errors included', async () => {
    await answer('browser_navigate', { url: `${site.url}mcp-console.html` });
    const info = (await call('browser_console_messages')).text;
    assert.match(info, /^\[info\] page loaded/m);
    assert.match(info, /^\[warning\] low disk space/m);
    assert.doesNotMatch(info, /debug detail/, 'debug is below the default level');
    assert.match((await call('browser_console_messages', { level: 'debug' })).text, /^\[debug\] debug detail/m);
    const before = (await call('browser_console_messages', { level: 'error' })).text;
    assert.equal(before, 'no console messages');
    await answer('browser_click', { id: idOf((await tree()).interactive_tree, 'Fail') });
    const errors = await eventually('browser_console_messages', { level: 'error' }, /boom in handler/);
    assert.match(errors, /^\[error\] payment failed: card declined/m);
    assert.doesNotMatch(errors, /page loaded/);
    const bad = await call('browser_console_messages', { level: 'verbose' });
    assert.equal(bad.isError, true);
  });

  test('recent_events reports a toast the page already removed', async () => {
    const r = await answer('browser_click', { id: idOf((await tree()).interactive_tree, 'Save'), expect: 'element_appears:Saved successfully' });
    assert.equal(r.action?.verification?.success, true, JSON.stringify(r));
    await eventually('browser_wait_for', { textGone: 'Saved successfully' }, /waited/);
    const events = await call('recent_events', { limit: 20 });
    assert.equal(events.isError, false, events.text);
    assert.match(events.text, /Added.*Saved successfully/);
    assert.match(events.text, /Removed.*Saved successfully/);
  });

  test('a reload at the same URL is a new document: the answer is a snapshot, not a delta', async () => {
    await answer('browser_navigate', { url: `${site.url}mcp-reload.html` });
    const nodes = (await tree()).interactive_tree;
    const reloaded = await answer('browser_click', { id: idOf(nodes, 'Reload') });
    assert.ok(reloaded.navigated, JSON.stringify(reloaded));
    assert.ok(reloaded.snapshot?.interactive_tree.some((n) => n.n === 'Reload'), JSON.stringify(reloaded));
    // Without a change of document or address, the answer stays a delta.
    const still = await answer('browser_hover', { id: idOf(reloaded.snapshot!.interactive_tree, 'Tab 2') });
    assert.equal(still.snapshot, undefined, JSON.stringify(still));
    assert.equal(still.navigated, undefined, JSON.stringify(still));
  });

  test('browser_resize changes the viewport the snapshot reports', async () => {
    const r = await answer('browser_resize', { width: 640, height: 480 });
    assert.ok(r.action?.ok, JSON.stringify(r));
    assert.deepEqual((await tree()).viewport, { width: 640, height: 480 });
    await answer('browser_resize', { width: 1280, height: 800 });
    assert.deepEqual((await tree()).viewport, { width: 1280, height: 800 });
    assert.equal((await call('browser_resize', { width: 5, height: 480 })).isError, true);
  });

  test('browser_drag moves a card into a bin with real mouse input, and HTML5 drag-and-drop works too', async () => {
    await answer('browser_navigate', { url: `${site.url}mcp-drag.html` });
    const nodes = (await tree()).interactive_tree;
    const r = await answer('browser_drag', { startId: idOf(nodes, 'Card A'), endId: idOf(nodes, 'Bin 2') });
    assert.ok(r.action?.ok, JSON.stringify(r));
    assert.equal(r.action?.verification?.success, true, JSON.stringify(r.action));
    assert.match((await call('browser_wait_for', { text: 'status: Card A in Bin 2' })).text, /waited/);
    const native = await answer('browser_drag', { startId: idOf(nodes, 'Native item'), endId: idOf(nodes, 'Native zone'), expect: 'element_appears:native: dropped native-item' });
    assert.equal(native.action?.verification?.success, true, JSON.stringify(native.action));
    // A drag that drops nowhere (Card B back onto itself) is done but flagged: nothing changed.
    const nothing = await answer('browser_drag', { startId: idOf(nodes, 'Card B'), endId: idOf(nodes, 'Card B') });
    assert.equal(nothing.action?.verification?.success, false, JSON.stringify(nothing.action));
    assert.match(nothing.action?.warnings?.join(' ') ?? '', /no change after the drag/);
    const gone = await call('browser_drag', { startId: '9999', endId: idOf(nodes, 'Bin 1') });
    assert.equal(gone.isError, true);
    assert.match(gone.text, /UNKNOWN_ID|NAVIGATED/);
  });

  test('tabs: a popup the site opens is listed; select, close and new move the current tab', async () => {
    await answer('browser_navigate', { url: `${site.url}mcp-tabs.html` });
    assert.deepEqual((await tabs()).map((l) => l.slice(0, 5)), ['* 0: ']);
    await answer('browser_click', { id: idOf((await tree()).interactive_tree, 'Open popup') });
    const listed = await (async () => {
      for (let k = 0; k < 50; k++) {
        const l = await tabs();
        if (l.length === 2 && /mcp-drag\.html/.test(l[1])) return l;
        await new Promise((r) => setTimeout(r, 100));
      }
      return tabs();
    })();
    assert.equal(listed.length, 2, listed.join('\n'));
    assert.match(listed[0], /^\* 0: "Tabs fixture"/);
    assert.match(listed[1], /^  1: "Drag fixture" <.*mcp-drag\.html>/);
    // The current tab stays where the agent was until it selects another.
    assert.match((await tree()).url, /mcp-tabs\.html$/);
    const selected = await tabs({ action: 'select', index: 1 });
    assert.match(selected[1], /^\* 1:/);
    const popup = await tree();
    assert.match(popup.url, /mcp-drag\.html$/);
    assert.ok(popup.interactive_tree.some((n) => n.n === 'Card A'));
    // Acting works in the popup, with its own IDs.
    const r = await answer('browser_drag', { startId: idOf(popup.interactive_tree, 'Card B'), endId: idOf(popup.interactive_tree, 'Bin 1') });
    assert.equal(r.action?.verification?.success, true, JSON.stringify(r.action));
    const closed = await tabs({ action: 'close' });
    assert.deepEqual(closed.map((l) => l.slice(0, 5)), ['* 0: ']);
    assert.match((await tree()).url, /mcp-tabs\.html$/);
    const opened = await call('browser_tabs', { action: 'new', url: `${site.url}mcp-console.html` });
    assert.equal(opened.isError, false, opened.text);
    assert.match(opened.text, /^\* 1: "Console fixture"/m);
    assert.match(opened.text, /"interactive_tree"/, 'a new tab with a URL answers with its snapshot');
    assert.match((await tree()).url, /mcp-console\.html$/);
    await tabs({ action: 'select', index: 0 });
    assert.match((await tree()).url, /mcp-tabs\.html$/);
    const bad = await call('browser_tabs', { action: 'select', index: 7 });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^BAD_INPUT: No tab 7: 2 tab/);
    assert.match((await call('browser_tabs', { action: 'select' })).text, /^BAD_INPUT: browser_tabs select needs index/);
    await tabs({ action: 'close', index: 1 });
    assert.equal((await tabs()).length, 1);
  });

  test('browser_close closes the browser; the next call opens a fresh page', async () => {
    const r = await call('browser_close');
    assert.equal(r.isError, false, r.text);
    const t = await tree();
    assert.equal(t.url, 'about:blank');
    assert.equal((await tabs()).length, 1);
  });
});

describe('where the browser comes from', () => {
  test('--user-data-dir keeps the profile on disk; with --isolated it is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pagelens-profile-'));
    try {
      const c = await connect(['--offline', '--user-data-dir', dir]);
      try {
        const r = JSON.parse((await callOn(c, 'browser_navigate', { url: `${site.url}mcp-tabs.html` })).text) as Answer;
        assert.ok(r.snapshot?.interactive_tree.some((n) => n.n === 'Open popup'), JSON.stringify(r));
        assert.equal((await callOn(c, 'browser_tabs', { action: 'list' })).text.split('\n').length, 1, 'the profile\'s first page is used, not a second one');
      } finally {
        await c.close();
      }
      assert.ok((await readdir(dir)).includes('Default'), 'Chromium wrote its profile there');
      const refused = await runCli(['mcp', '--user-data-dir', dir, '--isolated']);
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /BAD_INPUT: --isolated/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('--ws-endpoint connects to a Playwright browser server', async () => {
    const server = await chromium.launchServer({ executablePath: findChromium(), args: CHROMIUM_ARGS, headless: true });
    try {
      const c = await connect(['--ws-endpoint', server.wsEndpoint()]);
      try {
        const r = JSON.parse((await callOn(c, 'browser_navigate', { url: 'data:text/html,<button>Remote</button>' })).text) as Answer;
        assert.deepEqual(r.snapshot?.interactive_tree.map((n) => [n.r, n.n]), [['btn', 'Remote']]);
      } finally {
        await c.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('runTool without a browser holder', () => {
  test('browser_tabs and browser_close say they need one; console and resize work on the lens', async () => {
    const h = await startHarness();
    try {
      const { lens } = await h.open('mcp-console.html');
      await assert.rejects(runTool(lens, 'browser_tabs', { action: 'list' }), (e) => isPagelensError(e, 'BAD_INPUT') && /needs the browser holder/.test(e.message));
      await assert.rejects(runTool(lens, 'browser_close', {}), (e) => isPagelensError(e, 'BAD_INPUT'));
      // Without a holder the console is watched from the first tool call on.
      assert.equal((await runTool(lens, 'browser_console_messages', {})).text, 'no console messages');
      await lens.page.evaluate(() => console.warn('late warning'));
      const r = await runTool(lens, 'browser_console_messages', { level: 'warning' });
      assert.match(r.text, /^\[warning\] late warning/);
      const resized = await runTool(lens, 'browser_resize', { width: 700, height: 500 });
      assert.equal(resized.isError, undefined, resized.text);
      assert.deepEqual(lens.page.viewportSize(), { width: 700, height: 500 });
    } finally {
      await h.close();
    }
  });
});
