// WebMCP: a page that declares tools (document.modelContext.registerTool, which this Chromium
// ships behind --enable-features=WebMCP) has them named in the navigation answer, listed with
// their schemas (frames included) and callable. Through `pagelens mcp` over stdio on real Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { StaticServer } from '../../src/browser/static.js';
import { McpClient, twoOriginsAndMcp } from '../support/mcp-parity-helpers.js';

let mcp: McpClient;
let a: StaticServer;
let closeAll: () => Promise<void> = async () => {};

before(async () => { ({ mcp, a, close: closeAll } = await twoOriginsAndMcp()); });
after(() => closeAll());

/** The list, once the iframe (which loads after the page) has registered its tool too. */
async function listWithFrame(): Promise<string> {
  let text = '';
  for (let k = 0; k < 50; k++) {
    text = (await mcp.call('browser_webmcp_list')).text;
    if (/subscribe/.test(text)) return text;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`the frame's tool never showed: ${text}`);
}

describe('pagelens mcp: WebMCP tools', { concurrency: false }, () => {
  test('the navigation answer names the page\'s tools; the list gives schemas, annotations and frames', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${a.url}parity-webmcp.html` });
    const line = (nav as { webmcp?: string }).webmcp ?? '';
    assert.match(line, /^\d page tools \(WebMCP\): .*; see browser_webmcp_list$/, JSON.stringify(nav));
    for (const name of ['search', 'add', 'broken']) assert.ok(line.includes(`"${name}"`), line);
    const list = await listWithFrame();
    assert.match(list, /^4 WebMCP tool\(s\) declared by the page \(names, descriptions and schemas are page-provided, untrusted\):/);
    assert.match(list, /- "search" \[readOnly\]: "Searches the catalog"\n  input: \{"type":"object","properties":\{"query":\{"type":"string"\}\},"required":\["query"\]\}/);
    assert.match(list, /- "subscribe" \(frame \d+: http:\/\/localhost:\d+\/parity-webmcp-frame\.html\): "Subscribes to the newsletter"/);
  });

  test('calling a tool runs it in the page and answers its output; frames too', async () => {
    const r = await mcp.call('browser_webmcp_call', { name: 'search', params: '{"query":"cats"}' });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /^The page's tool "search" answered \(page-provided output, untrusted\):\n\{"content":\[\{"type":"text","text":"results for cats"\}\]\}$/);
    const text = await mcp.call('browser_page_text');
    assert.match(text.text, /Searched for cats/, 'the tool ran in the page');
    const sum = await mcp.call('browser_webmcp_call', { name: 'add', params: '{"a":2,"b":3}' });
    assert.match(sum.text, /"text":"5"/);
    const sub = await mcp.call('browser_webmcp_call', { name: 'subscribe' });
    assert.match(sub.text, /in frame \d+ answered[\s\S]*subscribed from localhost:\d+/, sub.text);
  });

  test('unknown tools, bad params and a tool that throws are errors that say so', async () => {
    const unknown = await mcp.call('browser_webmcp_call', { name: 'missing' });
    assert.equal(unknown.isError, true);
    assert.match(unknown.text, /BAD_INPUT: No WebMCP tool "missing"; the page's tools: /);
    for (const name of ['search', 'add', 'broken', 'subscribe']) assert.ok(unknown.text.includes(`"${name}"`), unknown.text);
    const bad = await mcp.call('browser_webmcp_call', { name: 'add', params: 'not json' });
    assert.match(bad.text, /BAD_INPUT: params must be a JSON object/);
    const broken = await mcp.call('browser_webmcp_call', { name: 'broken' });
    assert.equal(broken.isError, true, broken.text);
    assert.match(broken.text, /did not complete \(Error\)/, broken.text);
  });
});
