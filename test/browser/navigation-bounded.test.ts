// Every call answers by its deadline, and the session survives it (issue 37). A navigation answers
// once the document has committed and a bounded settle has passed, with the page as it stands and
// what was still loading, instead of waiting for a script that never comes; a page whose main
// thread never yields is named as such when a call runs out of time, and a fresh tab gets out of it.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { after, before, test } from 'node:test';
import { McpClient, type Answer } from '../support/mcp-parity-helpers.js';

let server: Server;
let origin = '';
let mcp: McpClient;

before(async () => {
  server = createServer((req, res) => {
    // A render-blocking script whose server never answers (a third-party script on a filtered network).
    if (req.url === '/never.js') return;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (req.url === '/blocked') {
      res.end('<!doctype html><title>Blocked</title><h1>Shop</h1><button>Buy now</button><script src="/never.js"></script><p>After the script</p>');
    } else if (req.url === '/spin') {
      res.end('<!doctype html><title>Spin</title><button onclick="for (;;) {}">Spin for ever</button>');
    } else {
      res.end('<!doctype html><title>Plain</title><button>Plain button</button>');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const addr = server.address();
  origin = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  mcp = await McpClient.start(['--offline', '--call-timeout', '20']);
});

after(async () => {
  await mcp?.close();
  server.closeAllConnections();
  server.close();
});

test('browser_navigate to a page whose script never arrives answers with the page as it stands, and says it was still loading', { timeout: 120_000 }, async () => {
  const r = await mcp.call('browser_navigate', { url: `${origin}/blocked` });
  assert.equal(r.isError, false, r.text);
  const a = JSON.parse(r.text) as Answer;
  assert.equal(a.action?.ok, true, r.text);
  assert.match((a.action?.warnings ?? []).join('\n'), /still loading/, r.text);
  // What it was waiting for, by origin: the script that never came.
  assert.match((a.action?.warnings ?? []).join('\n'), /1 request still in flight \(1 to http:\/\/127\.0\.0\.1:\d+\)/, r.text);
  assert.ok(a.snapshot?.interactive_tree.some((n) => n.n === 'Buy now'), r.text);
  const next = await mcp.call('browser_navigate', { url: `${origin}/plain` });
  assert.equal(next.isError, false, next.text);
});

test('a page whose main thread never yields is named when a call runs out of time, and a new tab works', { timeout: 180_000 }, async () => {
  const nav = await mcp.answer('browser_navigate', { url: `${origin}/spin` });
  const id = nav.snapshot!.interactive_tree.find((n) => n.n === 'Spin for ever')!.i;
  const click = await mcp.call('browser_click', { id });
  const again = click.isError ? click : await mcp.call('page_snapshot');
  assert.equal(again.isError, true, again.text);
  assert.match(again.text, /TIMEOUT/, again.text);
  assert.match(again.text, /main thread has not answered/, again.text);
  const tabs = await mcp.call('browser_tabs', { action: 'new' });
  assert.equal(tabs.isError, false, tabs.text);
  const fresh = await mcp.call('browser_navigate', { url: `${origin}/plain` });
  assert.equal(fresh.isError, false, fresh.text);
  assert.match(fresh.text, /Plain button/);
  // An ID of the stuck page is not the new page's.
  const stale = await mcp.call('browser_click', { id });
  assert.equal(stale.isError, true, stale.text);
});

test('with --recover-stuck-tabs the call after a stuck page closes its tab and works in a fresh one', { timeout: 180_000 }, async () => {
  const own = await McpClient.start(['--offline', '--call-timeout', '10', '--recover-stuck-tabs']);
  try {
    const nav = await own.answer('browser_navigate', { url: `${origin}/spin` });
    const id = nav.snapshot!.interactive_tree.find((n) => n.n === 'Spin for ever')!.i;
    const click = await own.call('browser_click', { id });
    assert.equal(click.isError, true, click.text);
    assert.match(click.text, /main thread has not answered/, click.text);
    const next = await own.call('browser_navigate', { url: `${origin}/plain` });
    assert.equal(next.isError, false, next.text);
    assert.match(next.text, /recovered: tab 0 did not answer/, next.text);
    assert.match(next.text, /Plain button/, next.text);
    const tabs = await own.call('browser_tabs', { action: 'list' });
    assert.equal(tabs.text.split('\n').filter((l) => /^\*? ?\d+: /.test(l)).length, 1, `the stuck tab is gone: ${tabs.text}`);
    const stale = await own.call('browser_click', { id });
    assert.equal(stale.isError, true, `an ID of the stuck page is refused: ${stale.text}`);
  } finally {
    await own.close();
  }
});

test('going back to the blank page a tab opened with is a move; going back from there has no page to go to', { timeout: 120_000 }, async () => {
  // A server of its own: the shared one may still be at work on the stuck page of the test above.
  const own = await McpClient.start(['--offline']);
  try {
    await own.answer('browser_navigate', { url: `${origin}/plain` });
    const back = await own.call('browser_navigate_back');
    assert.equal(back.isError, false, back.text);
    assert.match(back.text, /went back to about:blank/, back.text);
    const none = await own.call('browser_navigate_back');
    assert.equal(none.isError, true, none.text);
    assert.match(none.text, /no page to go back to/, none.text);
  } finally {
    await own.close();
  }
});
