// After an upload on a page with a dialog answered earlier, a cross-origin iframe and a closed
// shadow root, every later read answers (issue 37's second case: page_snapshot got CDP_TIMEOUT
// and dom_overview no answer in 45 s). The page is the project's own fixture; the reads after
// the upload must answer within the server's deadline, with the page as it is.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { serveFolder } from '../../src/browser/static.js';
import { FIXTURES } from '../support/harness.js';
import { McpClient, idOf, type Answer } from '../support/mcp-parity-helpers.js';

test('click a file input, upload, then snapshot, overview and the tab list all answer', { timeout: 240_000 }, async () => {
  const replacements: Record<string, string> = {};
  const a = await serveFolder(FIXTURES, { replacements });
  const b = await serveFolder(FIXTURES, { host: 'localhost', replacements });
  replacements['{{ORIGIN_A}}'] = a.url.slice(0, -1);
  replacements['{{ORIGIN_B}}'] = b.url.slice(0, -1);
  const tmp = await mkdtemp(join(tmpdir(), 'pagelens-upload-'));
  await writeFile(join(tmp, 'doc.txt'), 'hello');
  const mcp = await McpClient.start(['--offline', '--upload-dir', tmp, '--call-timeout', '30']);
  try {
    const nav = await mcp.answer('browser_navigate', { url: `${a.url}upload-hostile.html` });
    const tree = nav.snapshot!.interactive_tree;
    const asked = await mcp.answer('browser_click', { id: idOf(tree, 'Replace') });
    assert.equal(asked.modal?.[0]?.type, 'confirm');
    await mcp.answer('browser_handle_dialog', { accept: true });
    const chooser = await mcp.answer('browser_click', { id: idOf(tree, 'Document') });
    assert.equal(chooser.modal?.[0]?.kind, 'fileChooser', JSON.stringify(chooser));
    const up = await mcp.answer('browser_file_upload', { paths: [join(tmp, 'doc.txt')] });
    assert.equal(up.action?.ok, true, JSON.stringify(up));
    const snap = await mcp.call('page_snapshot');
    assert.equal(snap.isError, false, snap.text);
    assert.match(snap.text, /Shadow action/);
    const overview = await mcp.call('dom_overview');
    assert.equal(overview.isError, false, overview.text);
    const text = await mcp.call('browser_page_text');
    assert.equal(text.isError, false, text.text);
    assert.match(text.text, /picked: doc\.txt/, 'the page got the file');
    const tabs = await mcp.call('browser_tabs', { action: 'list' });
    assert.match(tabs.text, /Upload among frames/);
    const later = JSON.parse((await mcp.call('browser_navigate', { url: `${a.url}upload-hostile.html` })).text) as Answer;
    assert.equal(later.action?.ok, true);
  } finally {
    await mcp.close();
    await a.close();
    await b.close();
    await rm(tmp, { recursive: true, force: true });
  }
});
