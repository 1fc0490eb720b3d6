// Parity with Playwright MCP's input scenarios, through `pagelens mcp` over stdio on real
// Chromium: click buttons and double clicks, modifiers, typing slowly with punctuation, file
// inputs named as Chrome names them, uploads retried after a missing file, two dialogs in a row,
// screenshots in every format and scope, console messages per page and by level.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { StaticServer } from '../../src/browser/static.js';
import { McpClient, changedName, idOf, siteAndMcpWithUploads, type V3Node } from '../support/mcp-parity-helpers.js';

let mcp: McpClient;
let site: StaticServer;
let tmp: string;
let nodes: V3Node[];

async function openInput(): Promise<void> {
  const a = await mcp.answer('browser_navigate', { url: `${site.url}parity-input.html` });
  nodes = a.snapshot!.interactive_tree;
}

let closeAll: () => Promise<void> = async () => {};

before(async () => { ({ mcp, site, tmp, close: closeAll } = await siteAndMcpWithUploads()); });
after(() => closeAll());

describe('pagelens mcp: input parity', { concurrency: false }, () => {
  test('a heading with a double-click handler is listed and double-clicked', async () => {
    await openInput();
    const h = idOf(nodes, 'Click me twice');
    const a = await mcp.answer('browser_click', { id: h, doubleClick: true });
    assert.equal(a.action?.ok, true, JSON.stringify(a));
    assert.equal(changedName(a, h), 'Double clicked', JSON.stringify(a.delta));
  });

  test('button right and middle; modifiers held', async () => {
    const menu = idOf(nodes, 'Menu');
    const r = await mcp.answer('browser_click', { id: menu, button: 'right' });
    assert.equal(changedName(r, menu), 'Right clicked', JSON.stringify(r));
    const aux = idOf(nodes, 'Wheel button');
    const m = await mcp.answer('browser_click', { id: aux, button: 'middle' });
    assert.equal(changedName(m, aux), 'Middle clicked', JSON.stringify(m));
    const mods = idOf(nodes, 'Modifiers');
    const s = await mcp.answer('browser_click', { id: mods, modifiers: ['Shift', 'Alt'] });
    assert.equal(changedName(s, mods), 'shift:true alt:true ctrl:false', JSON.stringify(s));
    const bad = await mcp.call('browser_click', { id: mods, button: 'back' });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /BAD_INPUT.*button/s);
  });

  test('a click\'s answer carries the console messages and page errors it caused', async () => {
    const a = await mcp.answer('browser_click', { id: idOf(nodes, 'Log') });
    const lines = (a.console ?? []).join('\n');
    assert.match(lines, /\[info\] Log pressed/, JSON.stringify(a));
    assert.match(lines, /\[error\] Something broke/);
    assert.match(lines, /Boom from the click/);
    assert.doesNotMatch(lines, /input page loaded/, 'only what the click caused');
  });

  test('a request the action caused that failed is reported', async () => {
    const a = await mcp.answer('browser_click', { id: idOf(nodes, 'Save') });
    assert.match((a.failedRequests ?? []).join('\n'), /GET http:\/\/127\.0\.0\.1:\d+\/missing-endpoint\.json → 404/, JSON.stringify(a));
  });

  test('type slowly sends key events for punctuation too', async () => {
    const field = idOf(nodes, 'Slow field');
    const a = await mcp.answer('browser_type', { id: field, text: 'Hi, you! (ok?)', slowly: true });
    assert.equal(a.action?.ok, true, JSON.stringify(a));
    const wait = await mcp.call('browser_wait_for', { text: 'Shift H i , Space y o u Shift ! Space Shift ( o k Shift ? Shift )' });
    assert.equal(wait.isError, false, `key events: ${wait.text}`);
  });

  test('an unlabelled file input is named "Choose File"; a missing file keeps the chooser open for a retry', async () => {
    const input = idOf(nodes, 'Choose File');
    const opened = await mcp.answer('browser_click', { id: input });
    assert.equal(opened.modal?.[0]?.kind, 'fileChooser', JSON.stringify(opened));
    const missing = await mcp.call('browser_file_upload', { paths: [join(tmp, 'nope.txt')] });
    assert.equal(missing.isError, true, missing.text);
    assert.match(missing.text, /nope\.txt/);
    const file = join(tmp, 'notes.txt');
    await writeFile(file, 'hello');
    const ok = await mcp.answer('browser_file_upload', { paths: [file] });
    assert.equal(ok.action?.ok, true, JSON.stringify(ok));
    const chosen = idOf(nodes, 'nothing chosen');
    assert.equal(changedName(ok, chosen), 'notes.txt', JSON.stringify(ok.delta));
  });

  test('two dialogs in a row: each answered at once, then the action finishes', async () => {
    const btn = idOf(nodes, 'Two alerts');
    const first = await mcp.answer('browser_click', { id: btn });
    assert.equal(first.modal?.[0]?.message, 'first alert', JSON.stringify(first));
    const t0 = Date.now();
    const second = await mcp.answer('browser_handle_dialog', { accept: true });
    // Not a timing assertion on the page: the answer must come from the second dialog, not the 15 s fallback.
    assert.equal(second.modal?.[0]?.message, 'second alert', `${Date.now() - t0} ms: ${JSON.stringify(second)}`);
    assert.doesNotMatch(JSON.stringify(second), /had not finished/, `answered by the second dialog, not by giving up on the first after ${Date.now() - t0} ms`);
    const done = await mcp.answer('browser_handle_dialog', { accept: true });
    assert.equal(done.action?.ok, true, JSON.stringify(done));
    assert.equal(changedName(done, btn), 'Both alerts shown', JSON.stringify(done));
    assert.equal(done.action?.warnings, undefined, JSON.stringify(done.action));
  });

  test('screenshots: png by type, jpeg and webp, full page, one element; bad combinations refused', async () => {
    const formats: Array<[string | undefined, string]> = [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['webp', 'image/webp']];
    for (const [type, mime] of formats) {
      const r = await mcp.call('browser_take_screenshot', { type });
      assert.equal(r.isError, false, r.text);
      assert.equal(r.images[0]?.mimeType, mime);
      const meta = await sharp(Buffer.from(r.images[0].data, 'base64')).metadata();
      assert.equal(meta.format, type);
      assert.equal(meta.width, 1280);
    }
    const full = await mcp.call('browser_take_screenshot', { fullPage: true });
    assert.equal(full.images[0].mimeType, 'image/png');
    const fullMeta = await sharp(Buffer.from(full.images[0].data, 'base64')).metadata();
    assert.ok(fullMeta.height! > 0 && fullMeta.width === 1280, JSON.stringify(fullMeta));
    const el = await mcp.call('browser_take_screenshot', { id: idOf(nodes, 'Menu', 'btn'), type: 'jpeg' });
    assert.equal(el.isError, false, el.text);
    const elMeta = await sharp(Buffer.from(el.images[0].data, 'base64')).metadata();
    assert.ok(elMeta.width! < 300 && elMeta.height! < 100, `an element, not the page: ${elMeta.width}x${elMeta.height}`);
    // The default is the set-of-mark view as PNG (issue 42: lossless text, as clients expect); JPEG when asked.
    const marked = await mcp.call('browser_take_screenshot');
    assert.equal(marked.images[0].mimeType, 'image/png');
    assert.equal((await sharp(Buffer.from(marked.images[0].data, 'base64')).metadata()).format, 'png');
    assert.deepEqual([(JSON.parse(marked.text) as { type: string }).type, (JSON.parse(marked.text) as { marks: number }).marks > 0], ['png', true]);
    const markedJpeg = await mcp.call('browser_take_screenshot', { marks: true, type: 'jpeg' });
    assert.equal(markedJpeg.images[0].mimeType, 'image/jpeg');
    assert.equal((await sharp(Buffer.from(markedJpeg.images[0].data, 'base64')).metadata()).format, 'jpeg');
    assert.ok((JSON.parse(markedJpeg.text) as { marks: number }).marks > 0);
    const bad = await mcp.call('browser_take_screenshot', { id: idOf(nodes, 'Menu', 'btn'), fullPage: true });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /BAD_INPUT/);
  });

  test('console messages: the current page by default, all pages with all, filtered by level', async () => {
    await mcp.answer('browser_navigate', { url: `${site.url}parity-console-a.html` });
    await mcp.answer('browser_navigate', { url: `${site.url}parity-console-b.html` });
    const now = await mcp.call('browser_console_messages');
    assert.match(now.text, /from page B/);
    assert.doesNotMatch(now.text, /from page A/, now.text);
    const all = await mcp.call('browser_console_messages', { all: true });
    assert.match(all.text, /from page A[\s\S]*from page B/, all.text);
    const warnings = await mcp.call('browser_console_messages', { all: true, level: 'warning' });
    assert.match(warnings.text, /warning on page A/);
    assert.doesNotMatch(warnings.text, /from page/, warnings.text);
    const debug = await mcp.call('browser_console_messages', { level: 'debug' });
    assert.match(debug.text, /debug on page B/);
  });
});
