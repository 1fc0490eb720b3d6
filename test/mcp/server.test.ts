// The MCP server driven as a client would: the SDK's own Client over stdio, spawning
// `node bin/pagelens.js mcp` against real headless Chromium, on a loopback fixture with a
// cross-origin iframe and a closed shadow root. Plus the OpenAI definitions' strictness.
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
// ajv comes with the MCP SDK (it validates schemas with it too): an independent check of ours.
import { Ajv } from 'ajv';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import { toolDefinitions } from '../../src/tools/registry/dispatch.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES, startHarness } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');

interface V3Node { i: string; r: string; n: string; v?: string; f?: number }
interface Answer {
  action?: { ok: boolean; action: string; detail?: string; error?: { code: string; message: string } };
  modal?: Array<{ kind: string; type?: string; message?: string }>;
  delta?: { added: V3Node[]; removed: string[]; changed: Array<{ i: string; v?: string; n?: string }> } | 'no changes';
  snapshot?: { url: string; interactive_tree: V3Node[] };
  navigated?: { url: string };
  note?: string;
}
interface CallResult { text: string; isError: boolean; images: number }

let client: Client;
let a: StaticServer;
let b: StaticServer;
let tmp: string;
let stderr = '';

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  const r = await client.callTool({ name, arguments: args });
  const content = r.content as Array<{ type: string; text?: string }>;
  return { text: content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'), isError: r.isError === true, images: content.filter((c) => c.type === 'image').length };
}

async function answer(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const r = await call(name, args);
  assert.equal(r.isError, false, `${name} failed: ${r.text}`);
  return JSON.parse(r.text) as Answer;
}

const find = (tree: V3Node[], name: string, role?: string) => {
  const n = tree.find((x) => x.n === name && (!role || x.r === role));
  assert.ok(n, `no ${role ?? 'element'} "${name}" in ${JSON.stringify(tree)}`);
  return n;
};

before(async () => {
  const replacements: Record<string, string> = {};
  a = await serveFolder(FIXTURES, { replacements });
  b = await serveFolder(FIXTURES, { host: 'localhost', replacements });
  replacements['{{ORIGIN_A}}'] = a.url.slice(0, -1);
  replacements['{{ORIGIN_B}}'] = b.url.slice(0, -1);
  tmp = await mkdtemp(join(tmpdir(), 'pagelens-mcp-'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, '--offline', '--upload-dir', tmp], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  client = new Client({ name: 'pagelens-test', version: '0.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  await a?.close();
  await b?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('pagelens mcp over stdio', { concurrency: false }, () => {
  let tree: V3Node[] = [];

  test('lists every tool with a valid JSON Schema and sends the legend once, in the instructions', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['browser_navigate', 'page_snapshot', 'dom_overview', 'browser_click', 'browser_type', 'browser_handle_dialog', 'browser_file_upload', 'observe', 'act', 'extract', 'browser_tabs', 'browser_close', 'browser_resize', 'browser_drag', 'recent_events', 'browser_console_messages']) assert.ok(names.includes(n), n);
    const ajv = new Ajv({ strict: false });
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.ok(ajv.validateSchema(t.inputSchema), `${t.name}: ${JSON.stringify(ajv.errors)}`);
      ajv.compile(t.inputSchema);
    }
    assert.match(client.getInstructions() ?? '', /LEGEND for interactive_tree/);
    assert.ok(!tools.some((t) => /LEGEND/.test(t.description ?? '')));
  });

  test('browser_navigate answers with the new page\'s snapshot, iframe and closed shadow root included', async () => {
    const r = await answer('browser_navigate', { url: `${a.url}mcp-page.html` });
    assert.ok(r.action?.ok, JSON.stringify(r.action));
    assert.ok(r.navigated?.url.endsWith('mcp-page.html'));
    assert.ok(r.snapshot, 'a navigation sends the snapshot');
    tree = r.snapshot.interactive_tree;
    const pay = find(tree, 'Pay', 'btn');
    assert.ok(pay.f !== undefined && /^f\d+_/.test(pay.i), `Pay is in the frame: ${JSON.stringify(pay)}`);
    find(tree, 'Shadow action', 'btn');
    assert.equal(r.delta, undefined);
  });

  test('page_snapshot in json and text', async () => {
    const json = JSON.parse((await call('page_snapshot')).text) as { interactive_tree: V3Node[] };
    assert.deepEqual(json.interactive_tree.map((n) => n.i), tree.map((n) => n.i));
    const text = await call('page_snapshot', { format: 'text' });
    assert.match(text.text, /Pay/);
    assert.equal(text.isError, false);
  });

  test('a click by ID inside the cross-origin iframe reaches it', async () => {
    const r = await answer('browser_click', { id: find(tree, 'Pay', 'btn').i });
    assert.ok(r.action?.ok, JSON.stringify(r.action));
    const waited = await answer('browser_wait_for', { text: 'paid trusted' });
    assert.ok(waited.action?.ok, JSON.stringify(waited));
  });

  test('browser_type answers with a delta: the field\'s value changed, nothing resent', async () => {
    const name = find(tree, 'Name', 'inp');
    const r = await answer('browser_type', { id: name.i, text: 'Ada' });
    assert.ok(r.action?.ok, JSON.stringify(r.action));
    assert.equal(r.snapshot, undefined);
    assert.ok(r.delta && r.delta !== 'no changes', JSON.stringify(r));
    const change = r.delta.changed.find((c) => c.i === name.i);
    assert.equal(change?.v, ' → Ada');
    assert.equal(r.delta.added.length, 0);
    assert.ok((await answer('browser_wait_for', { text: 'name: Ada' })).action?.ok);
  });

  test('a delta names the element an action added', async () => {
    const r = await answer('browser_click', { id: find(tree, 'Add item', 'btn').i });
    assert.ok(r.delta && r.delta !== 'no changes', JSON.stringify(r));
    assert.deepEqual(r.delta.added.map((n) => [n.r, n.n]), [['btn', 'New item']]);
    assert.deepEqual(r.delta.removed, []);
  });

  test('a dialog is reported as modal state and answered with browser_handle_dialog', async () => {
    const r = await answer('browser_click', { id: find(tree, 'Ask', 'btn').i });
    assert.deepEqual(r.modal?.map((m) => [m.kind, m.type, m.message]), [['dialog', 'confirm', 'Proceed?']]);
    // While it is open, other actions are refused with what to do.
    const blocked = await call('browser_click', { id: find(tree, 'Ask', 'btn').i });
    assert.equal(blocked.isError, true);
    assert.match(blocked.text, /browser_handle_dialog/);
    const done = await answer('browser_handle_dialog', { accept: true });
    assert.ok(done.action?.ok, JSON.stringify(done));
    assert.match(done.action?.detail ?? '', /accepted the confirm "Proceed\?"/);
    assert.ok((await answer('browser_wait_for', { text: 'confirmed: yes' })).action?.ok);

    await answer('browser_click', { id: find(tree, 'Greet', 'btn').i });
    await answer('browser_handle_dialog', { accept: true, promptText: 'Grace' });
    assert.ok((await answer('browser_wait_for', { text: 'hello Grace' })).action?.ok);
  });

  test('browser_file_upload sets files on the chooser a click opened', async () => {
    const file = join(tmp, 'report.txt');
    await writeFile(file, 'hello');
    const input = tree.find((n) => /Attachment/.test(n.n));
    assert.ok(input, JSON.stringify(tree));
    const clicked = await answer('browser_click', { id: input.i });
    assert.deepEqual(clicked.modal, [{ kind: 'fileChooser', multiple: false }]);
    const r = await answer('browser_file_upload', { paths: [file] });
    assert.match(r.action?.detail ?? '', /set 1 file\(s\) on the open chooser/);
    assert.ok(r.action?.ok, JSON.stringify(r));
    assert.ok((await answer('browser_wait_for', { text: 'files: report.txt' })).action?.ok);
  });

  test('a click by ID inside a closed shadow root', async () => {
    const r = await answer('browser_click', { id: find(tree, 'Shadow action', 'btn').i });
    assert.ok(r.action?.ok, JSON.stringify(r.action));
    assert.ok((await answer('browser_wait_for', { text: 'shadow: clicked' })).action?.ok);
  });

  test('observe, act and extract by instruction', async () => {
    const o = JSON.parse((await call('observe', { instruction: 'click the Pay button' })).text) as { candidates: Array<{ id: string; name: string }> };
    assert.equal(o.candidates[0].id, find(tree, 'Pay', 'btn').i);
    const acted = await answer('act', { instruction: 'type bob into the Name field' });
    assert.ok(acted.action?.ok, JSON.stringify(acted));
    assert.ok((await answer('browser_wait_for', { text: 'name: bob' })).action?.ok);
    const x = await call('extract', { instruction: 'the heading', schema: JSON.stringify({ type: 'object', properties: { heading: { type: 'string' } } }) });
    assert.deepEqual(JSON.parse(x.text).data, { heading: 'Checkout' });
    const badSchema = await call('extract', { instruction: 'the heading', schema: '{oops' });
    assert.equal(badSchema.isError, true);
    assert.match(badSchema.text, /^BAD_INPUT: schema/);
  });

  test('a budgeted snapshot (query + maxTokens) stays under its ceiling', async () => {
    const r = await call('page_snapshot', { query: 'pay with card', maxTokens: 300 });
    assert.equal(r.isError, false, r.text);
    const data = JSON.parse(r.text) as { mode: string; tree: Array<{ n: string }> };
    assert.equal(data.mode, 'filtered');
    assert.ok(data.tree.length > 0);
    const tokens = await countTokens(r.text);
    assert.ok(tokens <= 300, `${tokens} tokens`);
  });

  test('bad arguments and unknown IDs are tool errors; the server keeps serving', async () => {
    const bad = await call('browser_click', { id: 42 });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^BAD_INPUT: Invalid arguments of browser_click: id: /);
    const extra = await call('page_snapshot', { mode: 'pixels' });
    assert.equal(extra.isError, true);
    assert.match(extra.text, /^BAD_INPUT/);
    const conflict = await call('page_snapshot', { maxTokens: 100 });
    assert.match(conflict.text, /^BAD_INPUT: maxTokens only applies with query/);
    const unknown = await call('no_such_tool');
    assert.match(unknown.text, /^BAD_INPUT: Unknown tool/);
    const gone = await call('browser_click', { id: '9999' });
    assert.equal(gone.isError, true);
    assert.match(gone.text, /UNKNOWN_ID|NAVIGATED|STALE_ID/);
    const after = await call('page_snapshot');
    assert.equal(after.isError, false);
    assert.ok(JSON.parse(after.text).interactive_tree.length > 0);
  });

  test('a set-of-mark screenshot comes back as an image', async () => {
    const r = await call('browser_take_screenshot');
    assert.equal(r.isError, false, r.text);
    assert.equal(r.images, 1);
    assert.ok(JSON.parse(r.text).marks > 0);
  });

  test('after a navigation by click, the new page\'s snapshot; browser_navigate_back returns', async () => {
    const r = await answer('browser_click', { id: find(tree, 'Next page', 'link').i });
    assert.ok(r.navigated?.url.endsWith('actions-thanks.html'), JSON.stringify(r));
    assert.ok(r.snapshot?.interactive_tree.some((n) => n.n === 'Back'));
    const back = await answer('browser_navigate_back');
    assert.ok(back.navigated?.url.endsWith('mcp-page.html'), JSON.stringify(back));
    assert.ok(back.snapshot);
  });

  test('stdout carried only the protocol; logs went to stderr', () => {
    assert.match(stderr, /ready on stdio/);
  });
});

describe('toolDefinitions', () => {
  test('openai: strict, every object closed with every property required', () => {
    const defs = toolDefinitions('openai');
    assert.ok(defs.length >= 20);
    const walk = (s: Record<string, unknown>, where: string): void => {
      if (s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'))) {
        assert.equal(s.additionalProperties, false, where);
        const props = Object.keys((s.properties ?? {}) as object);
        assert.deepEqual([...(s.required as string[] ?? [])].sort(), props.sort(), where);
      }
      for (const [k, v] of Object.entries(s)) {
        if (k === 'properties') for (const [p, ps] of Object.entries(v as object)) walk(ps as Record<string, unknown>, `${where}.${p}`);
        else if (k === 'items' && v && typeof v === 'object') walk(v as Record<string, unknown>, `${where}[]`);
        else if (k === 'anyOf') (v as Array<Record<string, unknown>>).forEach((x, i) => walk(x, `${where}|${i}`));
      }
    };
    for (const d of defs) {
      assert.equal(d.type, 'function');
      assert.equal(d.function.strict, true, d.function.name);
      walk(d.function.parameters, d.function.name);
    }
    const overview = defs.find((d) => d.function.name === 'dom_overview');
    assert.deepEqual(Object.keys(overview!.function.parameters.properties as object), ['tabName', 'filters', 'visible', 'viewport', 'max_rows']);
    // OpenAI callers have no server instructions: the legend of the text form and the expect grammar come with page_snapshot.
    assert.match(defs.find((d) => d.function.name === 'page_snapshot')!.function.description, /Lines: ID role name[\s\S]*expect[^:\n]*: navigation/);
  });

  test('pagelens tools prints them; a bad --format is refused', async () => {
    const r = await runCli(['tools', '--format', 'openai']);
    assert.equal(r.code, 0, r.stderr);
    const defs = JSON.parse(r.stdout) as Array<{ function: { name: string } }>;
    // The default set, as pagelens mcp offers it; --tools all prints every tool.
    assert.deepEqual(defs.map((d) => d.function.name), toolDefinitions('openai', { tools: ['core'] }).map((d) => d.function.name));
    const all = JSON.parse((await runCli(['tools', '--format', 'openai', '--tools', 'all'])).stdout) as Array<{ function: { name: string } }>;
    assert.deepEqual(all.map((d) => d.function.name), toolDefinitions('openai').map((d) => d.function.name));
    const mcp = JSON.parse((await runCli(['tools', '--format', 'mcp'])).stdout) as Array<{ name: string; inputSchema: object }>;
    assert.ok(mcp.every((t) => t.name && t.inputSchema));
    assert.notEqual((await runCli(['tools', '--format', 'yaml'])).code, 0);
  });

  test('mcp: input schemas as JSON Schema objects, no $schema or defaults', () => {
    for (const d of toolDefinitions('mcp')) {
      assert.equal(d.inputSchema.type, 'object', d.name);
      assert.ok(!JSON.stringify(d.inputSchema).includes('$schema'));
    }
  });
});

describe('runTool on a lens (the library face)', () => {
  test('validates arguments into BAD_INPUT, reads null as not given, and acts with a delta', async () => {
    const h = await startHarness();
    try {
      const { lens } = await h.open('mcp-page.html');
      await assert.rejects(runTool(lens, 'browser_click', { id: 5 }), (e) => isPagelensError(e, 'BAD_INPUT') && /expected string/.test(e.message));
      await assert.rejects(runTool(lens, 'browser_clack', {}), (e) => isPagelensError(e, 'BAD_INPUT') && /Unknown tool/.test(e.message));
      // OpenAI strict calls send every parameter, null for the ones not meant.
      const snap = await runTool(lens, 'page_snapshot', { mode: null, fullPage: null, format: null, query: null, maxTokens: null });
      const tree = (snap.data as { interactive_tree: V3Node[] }).interactive_tree;
      const add = find(tree, 'Add item', 'btn');
      const r = await runTool(lens, 'browser_click', { id: add.i, doubleClick: null, modifiers: null, expect: 'element_appears:New item' });
      const data = r.data as Answer & { action: { verification?: { success: boolean } } };
      assert.equal(r.isError, undefined);
      assert.equal(data.action.verification?.success, true);
      assert.ok(data.delta && data.delta !== 'no changes');
      assert.deepEqual(data.delta.added.map((n) => n.n), ['New item']);
    } finally {
      await h.close();
    }
  });
});

describe('pagelens mcp --port (Streamable HTTP)', () => {
  test('serves the same tools on 127.0.0.1', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); });
    });
    const child = spawn(process.execPath, [BIN, 'mcp', ...LEGACY_SHAPE, '--port', String(port), '--offline'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => { if (/ready on http/.test(d.toString())) resolve(); });
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      const c = new Client({ name: 'pagelens-test-http', version: '0.0.0' });
      await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      assert.ok((await c.listTools()).tools.some((t) => t.name === 'browser_navigate'));
      const r = await c.callTool({ name: 'browser_navigate', arguments: { url: 'data:text/html,<button>Hi</button>' } });
      const body = JSON.parse((r.content as Array<{ text: string }>)[0].text) as Answer;
      assert.deepEqual(body.snapshot?.interactive_tree.map((n) => [n.r, n.n]), [['btn', 'Hi']]);
      await c.close();
      assert.equal(out, '', 'nothing on stdout');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
