// Every answer has a ceiling: each tool has a default (o200k tokens) and a `ceiling` argument to
// move it; an answer cut says what was left out and how to get it (since=…, browser_more page=…,
// query=…). And a budgeted snapshot never comes back empty when a node fits. Through
// `pagelens mcp` over stdio on real Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StaticServer } from '../../src/browser/static.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { McpClient, twoOriginsAndMcp } from '../support/mcp-parity-helpers.js';

let mcp: McpClient;
let a: StaticServer;
let closeAll: () => Promise<void> = async () => {};

before(async () => { ({ mcp, a, close: closeAll } = await twoOriginsAndMcp()); });
after(() => closeAll());

describe('pagelens mcp: every answer has a ceiling', { concurrency: false }, () => {
  test('the tools whose answers run long take a ceiling argument (every answer is held under its default all the same)', async () => {
    const { tools } = await mcp.client.listTools();
    const movable = tools.filter((t) => t.inputSchema.properties && 'ceiling' in t.inputSchema.properties).map((t) => t.name);
    for (const name of ['page_snapshot', 'browser_console_messages', 'browser_network_requests', 'browser_tabs', 'dom_overview', 'dom_search']) assert.ok(movable.includes(name), `${name} takes no ceiling`);
  });

  test('console messages: 400 messages come under the default ceiling, with "N more: since=…"; since and ceiling move it', async () => {
    await mcp.answer('browser_navigate', { url: `${a.url}parity-console-flood.html` });
    const first = await mcp.call('browser_console_messages');
    assert.ok(await countTokens(first.text) <= 2000, `${await countTokens(first.text)} tokens`);
    const more = /(\d+) more messages: browser_console_messages since=(\d+)$/.exec(first.text);
    assert.ok(more, first.text.slice(-300));
    const shown = first.text.split('\n').filter((l) => l.startsWith('[info]')).length;
    assert.equal(shown + Number(more[1]), 400);
    const next = await mcp.call('browser_console_messages', { since: Number(more[2]) });
    assert.match(next.text.split('\n')[0], new RegExp(`message number ${shown + 1} from`), next.text.slice(0, 200));
    const all = await mcp.call('browser_console_messages', { ceiling: 20_000 });
    assert.doesNotMatch(all.text, /more messages/);
    assert.match(all.text, /message number 400 from/);
  });

  test('a big answer is cut into pages that say so; browser_more reads the next; ceiling moves the cut', async () => {
    await mcp.answer('browser_navigate', { url: `${a.url}parity-long.html` });
    const p1 = await mcp.call('page_snapshot', { mode: 'full', ceiling: 1000 });
    const foot = /\[page_snapshot answer cut at 1000 tokens: page 1 of (\d+): browser_more page=2 for the next, or ask page_snapshot with query=/.exec(p1.text);
    assert.ok(foot, p1.text.slice(-300));
    assert.ok(await countTokens(p1.text) <= 1000 + 60, `${await countTokens(p1.text)} tokens`);
    const pages = Number(foot[1]);
    const p2 = await mcp.call('browser_more', { page: 2 });
    assert.match(p2.text, new RegExp(`page 2 of ${pages}`));
    const last = await mcp.call('browser_more', { page: pages });
    assert.match(last.text, new RegExp(`page ${pages} of ${pages}\\]$`));
    // The pages put back together are the whole answer.
    const whole = await mcp.call('page_snapshot', { mode: 'full', ceiling: 200_000 });
    assert.doesNotMatch(whole.text, /answer cut at/);
    const beyond = await mcp.call('browser_more', { page: pages + 1 });
    assert.equal(beyond.isError, true);
    const dflt = await mcp.call('page_snapshot', { mode: 'full' });
    assert.ok(await countTokens(dflt.text) <= 8000 + 60, `default ceiling: ${await countTokens(dflt.text)} tokens`);
  });

  test('a budgeted snapshot keeps the best nodes when the ceiling is small, never zero when one fits', async () => {
    await mcp.answer('browser_navigate', { url: `${a.url}mcp-page.html` });
    const r = await mcp.call('page_snapshot', { query: 'pay the invoice', maxTokens: 150 });
    assert.equal(r.isError, false, r.text);
    const p = JSON.parse(r.text) as { filteredCount: number; tokens: number; tree: Array<{ n: string }> };
    assert.ok(p.filteredCount >= 2, r.text);
    assert.ok(p.tokens <= 150 && await countTokens(r.text) <= 150, r.text);
    assert.ok(p.tree.some((n) => n.n === 'Pay'), `the Pay button is among the kept: ${r.text}`);
  });
});
