// Elements an agent must act on are listed even when only a listener says so: a heading that
// reacts to a double click, an aria-labelled element that reacts to hover, a draggable card and
// the drop target listening for dragover/drop. Through `pagelens mcp` over stdio on real Chromium.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { FIXTURES } from '../support/harness.js';
import { McpClient, changedName, idOf, type V3Node } from '../support/mcp-parity-helpers.js';

let mcp: McpClient;
let site: StaticServer;
let nodes: V3Node[];

before(async () => {
  site = await serveFolder(FIXTURES, { replacements: {} });
  mcp = await McpClient.start(['--offline']);
});

after(async () => {
  await mcp?.close();
  await site?.close();
});

describe('pagelens mcp: gesture targets are listed', { concurrency: false }, () => {
  test('listeners for dblclick, hover, dragover/drop and draggable sources give IDs; delegation on the body does not', async () => {
    const nav = await mcp.answer('browser_navigate', { url: `${site.url}parity-gestures.html` });
    nodes = nav.snapshot!.interactive_tree;
    for (const name of ['Rename me', 'Account menu', 'Card A', 'Trash bin']) idOf(nodes, name);
    assert.ok(!nodes.some((n) => /Plain text/.test(n.n)), `a paragraph under a delegating body is not a target: ${JSON.stringify(nodes)}`);
    // page_snapshot lists them too.
    const again = await mcp.tree();
    idOf(again, 'Trash bin');
  });

  test('double-click the heading, hover the menu, drag the card into the bin', async () => {
    const title = idOf(nodes, 'Rename me');
    const d = await mcp.answer('browser_click', { id: title, doubleClick: true });
    assert.equal(changedName(d, title), 'Renamed', JSON.stringify(d));
    const h = await mcp.answer('browser_hover', { id: idOf(nodes, 'Account menu') });
    assert.ok(h.delta !== 'no changes' && h.delta?.added.some((n) => n.n === 'Sign out'), JSON.stringify(h));
    const bin = idOf(nodes, 'Trash bin');
    const drag = await mcp.answer('browser_drag', { startId: idOf(nodes, 'Card A'), endId: bin });
    assert.equal(changedName(drag, bin), 'Trash bin: Card A', JSON.stringify(drag));
  });
});
