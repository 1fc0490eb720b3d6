// What an action's answer must carry, through `pagelens mcp` over stdio on real Chromium: the
// HTTP status of the page it loaded, the popup it opened (and how to switch to it), the file it
// downloaded (name, size, where it was saved) without losing the tab.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { FIXTURES } from '../support/harness.js';
import { McpClient, idOf, statusServer, type Answer } from '../support/mcp-parity-helpers.js';

let mcp: McpClient;
let site: StaticServer;
let status: Awaited<ReturnType<typeof statusServer>>;
let downloads: string;

before(async () => {
  site = await serveFolder(FIXTURES, { replacements: {} });
  status = await statusServer();
  downloads = await mkdtemp(join(tmpdir(), 'pagelens-downloads-'));
  mcp = await McpClient.start(['--offline', '--downloads-dir', downloads]);
});

after(async () => {
  await mcp?.close();
  await site?.close();
  await status?.close();
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

describe('pagelens mcp: answers carry what happened', { concurrency: false }, () => {
  test('a navigation answers with the HTTP status; a 402 or 404 page is flagged, not a plain ok', async () => {
    const ok = await mcp.answer('browser_navigate', { url: `${status.url}status/200` });
    assert.equal(ok.navigated?.status, 200, JSON.stringify(ok.navigated));
    assert.equal(ok.action?.warnings, undefined);
    for (const code of [402, 404]) {
      const r = await mcp.call('browser_navigate', { url: `${status.url}status/${code}` });
      const a = JSON.parse(r.text) as Answer;
      assert.equal(a.navigated?.status, code, r.text);
      // Not a plain ok: either refused as a failed navigation, or ok with a warning naming the status.
      const flagged = (r.isError && a.action?.ok === false && (a.action.error?.message ?? '').includes(String(code))) || !!a.action?.warnings?.some((w) => w.includes(`HTTP ${code}`));
      assert.ok(flagged, r.text);
      assert.ok(a.snapshot, 'the error page is still shown');
    }
  });

  test('a request that failed is in the action\'s answer; browser_network_requests lists failed first, static on request', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${status.url}app` });
    const save = idOf(nav.snapshot!.interactive_tree, 'Save');
    const a = await mcp.answer('browser_click', { id: save });
    assert.match((a.failedRequests ?? []).join('\n'), /^POST http:\/\/127\.0\.0\.1:\d+\/status\/500\?save → 500 \(fetch\)$/, JSON.stringify(a));
    const list = await mcp.call('browser_network_requests');
    const lines = list.text.split('\n');
    assert.match(lines[0], /^2 requests, 1 failed \(1 images, fonts, stylesheets and media left out: static=true\)$/, list.text);
    assert.match(lines[1], /^POST .*\/status\/500\?save → 500 \(fetch\)$/, list.text);
    assert.match(lines[2], /^GET .*\/app → 200 \(document\)$/, list.text);
    const withStatic = await mcp.call('browser_network_requests', { static: true });
    assert.match(withStatic.text, /GET .*logo\.png → 200 \(image\)/, withStatic.text);
  });

  test('a click that opens a popup reports the new tab and how to switch; the current tab stays', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${site.url}parity-links.html` });
    const tree = nav.snapshot!.interactive_tree;
    const a = await mcp.answer('browser_click', { id: idOf(tree, 'Open in a popup') });
    assert.match(a.popup?.url ?? '', /parity-console-a\.html$/, JSON.stringify(a));
    assert.match(a.popup?.note ?? '', /browser_tabs select 1/, a.popup?.note);
    assert.equal(a.navigated, undefined, 'the clicking tab did not navigate');
    const list = await mcp.call('browser_tabs', { action: 'list' });
    assert.match(list.text, /\* 0: .*parity-links\.html/, list.text);
    await mcp.call('browser_tabs', { action: 'close', index: 1 });
  });

  test('a download keeps the session and says the file, its size and where it was saved', async () => {
    const tree = await mcp.tree();
    const a = await mcp.answer('browser_click', { id: idOf(tree, 'Download the report') });
    const d = a.downloads?.[0];
    assert.ok(d, JSON.stringify(a));
    assert.equal(d.file, 'report.csv');
    assert.equal(d.savedTo, join(downloads, 'report.csv'));
    assert.equal(d.bytes, (await readFile(join(FIXTURES, 'parity-report.csv'))).length);
    assert.equal(await readFile(d.savedTo!, 'utf8'), await readFile(join(FIXTURES, 'parity-report.csv'), 'utf8'));
    // The tab and the connection are still there: the next action works on the same page.
    const again = await mcp.answer('browser_click', { id: idOf(tree, 'Open a window') });
    assert.match(again.popup?.url ?? '', /parity-console-b\.html$/, JSON.stringify(again));
  });

  test('a popup whose page answers late is still reported: the answer waits for the tab the page opened', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${status.url}app` });
    const a = await mcp.answer('browser_click', { id: idOf(nav.snapshot!.interactive_tree, 'Open a slow popup') });
    assert.match(a.popup?.url ?? '', /\/slow\/1500$/, JSON.stringify(a));
    assert.match(a.popup?.note ?? '', /^opened in tab \d+; .*browser_tabs select \d+/, a.popup?.note);
  });
});
