// A refused ID stays refused over MCP (issue 20), driven as a client would: the SDK's Client over
// stdio, spawning `node bin/pagelens.js mcp`. A password is typed into the sign-in page's field,
// a button navigates to a page whose first element is a public comment box; retrying the same call
// is refused every time, the new page comes whole under new IDs (never as a delta that maps the
// old IDs onto it), and the password is never echoed nor typed anywhere.
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { FIXTURES } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
const SECRET = 'hunter2-Secret!';

interface V3Node { i: string; r: string; n: string; v?: string }
interface Answer {
  action?: { ok: boolean; action: string; error?: { code: string; message: string } };
  delta?: { added: V3Node[]; removed: string[]; changed: Array<{ i: string; n?: string }> } | 'no changes';
  snapshot?: { url: string; interactive_tree: V3Node[] };
  navigated?: { url: string };
}

let client: Client;
let site: StaticServer;

async function call(name: string, args: Record<string, unknown> = {}): Promise<{ answer: Answer; text: string }> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  assert.ok(!text.includes(SECRET), `${name} echoed the password: ${text}`);
  return { answer: JSON.parse(text.slice(text.indexOf('{'))) as Answer, text };
}

const idIn = (tree: V3Node[] | undefined, name: string) => {
  const n = tree?.find((x) => x.n === name);
  assert.ok(n, `no "${name}" in ${JSON.stringify(tree)}`);
  return n.i;
};

before(async () => {
  site = await serveFolder(FIXTURES);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, '--offline'], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  client = new Client({ name: 'pagelens-security-test', version: '0.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  await site?.close();
});

describe('a NAVIGATED refusal over MCP', { concurrency: false }, () => {
  test('a password typed into id 1, a navigating click, and the identical retry: refused every time, never typed into the next page', async () => {
    const opened = await call('browser_navigate', { url: `${site.url}sec-login.html` });
    const pw = idIn(opened.answer.snapshot?.interactive_tree, 'Password');
    const typed = await call('browser_type', { id: pw, text: SECRET });
    assert.equal(typed.answer.action?.ok, true, typed.text);
    const clicked = await call('browser_click', { id: idIn(opened.answer.snapshot?.interactive_tree, 'Continue') });
    assert.ok(clicked.answer.navigated, clicked.text);
    const next = clicked.answer.snapshot?.interactive_tree;
    idIn(next, 'Public comment');
    assert.ok(!next!.some((n) => opened.answer.snapshot!.interactive_tree.some((o) => o.i === n.i)), `the new page comes under new IDs: ${clicked.text}`);
    for (let attempt = 1; attempt <= 3; attempt++) {
      const retry = await call('browser_type', { id: pw, text: SECRET });
      assert.equal(retry.answer.action?.ok, false, `attempt ${attempt}: ${retry.text}`);
      assert.equal(retry.answer.action?.error?.code, 'NAVIGATED', `attempt ${attempt}: ${retry.text}`);
      const changed = retry.answer.delta && retry.answer.delta !== 'no changes' ? retry.answer.delta.changed : [];
      assert.ok(!changed.some((c) => c.i === pw), `no delta maps ${pw} onto the new page: ${retry.text}`);
    }
    const now = await call('page_snapshot');
    const comment = (now.answer as unknown as { interactive_tree: V3Node[] }).interactive_tree.find((n) => n.n === 'Public comment');
    assert.ok(comment && !comment.v, `the comment box is empty: ${now.text}`);
  });

  test('a navigation that came after the action answered: the next call sends the new page whole, and old IDs stay refused', async () => {
    const opened = await call('browser_navigate', { url: `${site.url}sec-login.html` });
    const tree = opened.answer.snapshot!.interactive_tree;
    const pw = idIn(tree, 'Password');
    await call('browser_click', { id: idIn(tree, 'Continue later') });
    // The click answered before the page left; wait until it has, through a tool that answers without acting.
    const deadline = Date.now() + 10_000;
    let first: Answer | undefined;
    while (Date.now() < deadline) {
      const r = await call('browser_type', { id: pw, text: SECRET });
      if (r.answer.action?.error?.code === 'NAVIGATED') { first = r.answer; break; }
      assert.equal(r.answer.action?.ok, true, r.text);
      await new Promise((res) => setTimeout(res, 100));
    }
    assert.ok(first, 'the page navigated');
    assert.equal(first.delta, undefined, `a refusal for a gone document sends no delta: ${JSON.stringify(first)}`);
    assert.ok(first.snapshot, 'it sends the new page whole');
    assert.ok(!first.snapshot.interactive_tree.some((n) => tree.some((o) => o.i === n.i)), JSON.stringify(first.snapshot.interactive_tree));
    const again = await call('browser_type', { id: pw, text: SECRET });
    assert.equal(again.answer.action?.error?.code, 'NAVIGATED', again.text);
  });

  test('an ID from another tab is refused there', async () => {
    const one = await call('browser_navigate', { url: `${site.url}sec-login.html` });
    const pw = idIn(one.answer.snapshot?.interactive_tree, 'Password');
    const two = await call('browser_tabs', { action: 'new', url: `${site.url}sec-comment.html` });
    const tree = (two.answer as unknown as { snapshot?: { interactive_tree: V3Node[] } }).snapshot?.interactive_tree;
    assert.ok(!tree?.some((n) => n.i === pw), `tab 2 hands out other IDs: ${two.text}`);
    const r = await call('browser_type', { id: pw, text: SECRET });
    assert.equal(r.answer.action?.ok, false, r.text);
    const now = await call('page_snapshot');
    const comment = (now.answer as unknown as { interactive_tree: V3Node[] }).interactive_tree.find((n) => n.n === 'Public comment');
    assert.ok(comment && !comment.v, `tab 2's comment box is empty: ${now.text}`);
  });
});
