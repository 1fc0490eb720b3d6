// The rest of Playwright MCP's everyday scenarios, through `pagelens mcp` over stdio on real
// Chromium: select several options, prompt and confirm, type with submit, several files at once,
// resize seen in the page's text, waiting for text that arrives later, lone surrogates.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { StaticServer } from '../../src/browser/static.js';
import { McpClient, changedName, idOf, siteAndMcpWithUploads, type V3Node } from '../support/mcp-parity-helpers.js';

let mcp: McpClient;
let site: StaticServer;
let tmp: string;
let nodes: V3Node[];

let closeAll: () => Promise<void> = async () => {};

before(async () => { ({ mcp, site, tmp, close: closeAll } = await siteAndMcpWithUploads()); });
after(() => closeAll());

describe('pagelens mcp: everyday parity scenarios', { concurrency: false }, () => {
  test('lone surrogates in the page\'s text and console keep the answers valid', async () => {
    const r = await mcp.call('browser_navigate', { url: `${site.url}parity-misc.html` });
    assert.equal(r.isError, false, r.text);
    const nav = JSON.parse(r.text) as { snapshot: { interactive_tree: V3Node[] }; text: string[]; console?: string[] };
    nodes = nav.snapshot.interactive_tree;
    assert.ok(nav.text.some((l) => /^\S+ before /.test(l) && l.endsWith(' after')), JSON.stringify(nav.text));
    const c = await mcp.call('browser_console_messages');
    assert.match(c.text, /before .* after/);
  });

  test('select several options of a multiple select', async () => {
    const fruits = idOf(nodes, 'Fruits');
    const a = await mcp.answer('browser_select_option', { id: fruits, values: ['Banana', 'Cherry'] });
    assert.equal(a.action?.ok, true, JSON.stringify(a));
    assert.match(a.action?.detail ?? '', /now selected: "Banana", "Cherry"/, a.action?.detail);
  });

  test('a prompt answered with text, a confirm dismissed', async () => {
    const ask = idOf(nodes, 'Ask name');
    const opened = await mcp.answer('browser_click', { id: ask });
    assert.deepEqual(opened.modal?.[0], { kind: 'dialog', type: 'prompt', message: 'Your name?', defaultValue: 'nobody' });
    const done = await mcp.answer('browser_handle_dialog', { accept: true, promptText: 'Ada' });
    assert.equal(changedName(done, ask), 'Hello Ada', JSON.stringify(done));
    const confirmId = idOf(nodes, 'Confirm it');
    await mcp.answer('browser_click', { id: confirmId });
    const declined = await mcp.answer('browser_handle_dialog', { accept: false });
    assert.equal(changedName(declined, confirmId), 'Declined', JSON.stringify(declined));
  });

  test('type with submit presses Enter', async () => {
    const a = await mcp.answer('browser_type', { id: idOf(nodes, 'Query'), text: 'shoes', submit: true });
    assert.equal(changedName(a, idOf(nodes, 'Not submitted')), 'Submitted', JSON.stringify(a));
  });

  test('several files at once', async () => {
    const one = join(tmp, 'one.txt');
    const two = join(tmp, 'two.txt');
    await writeFile(one, '1');
    await writeFile(two, '2');
    const a = await mcp.answer('browser_file_upload', { id: idOf(nodes, 'Attachments'), paths: [one, two] });
    assert.equal(changedName(a, idOf(nodes, 'no files')), '2 files: one.txt, two.txt', JSON.stringify(a));
  });

  test('resize: the page\'s text says the new size', async () => {
    await mcp.answer('browser_resize', { width: 390, height: 780 });
    const wait = await mcp.call('browser_wait_for', { text: 'Window size: 390x780' });
    assert.equal(wait.isError, false, wait.text);
    const text = await mcp.call('browser_page_text');
    assert.match(text.text, /# Window size: 390x780/);
  });

  test('wait_for text that arrives after the click', async () => {
    await mcp.answer('browser_click', { id: idOf(nodes, 'Later') });
    const wait = await mcp.answer('browser_wait_for', { text: 'Arrived late' });
    assert.equal(wait.action?.ok, true, JSON.stringify(wait));
  });
});
