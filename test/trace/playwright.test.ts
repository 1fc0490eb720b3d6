// The Playwright trace beside a pagelens run: `pagelens agent --playwright-trace` (one group a
// step, named after the step's number in the run record, the screencast kept: the only secret
// was in a password field) and `pagelens mcp --save-trace DIR --playwright-traces` on a GET form
// (the password and a card number travel in a URL; the card number is drawn in a plain field, so
// the screenshots are left out). In both, every entry of the zip is searched for each typed
// secret, raw, URL-encoded (UTF-8, "+" or %20 for a space) and JSON-escaped: none is there.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { readTrace } from '../../src/trace/readTrace.js';
import { readZip } from '../../src/trace/zip.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');

let tmp: string;
let site: StaticServer;
before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'pagelens-pwtrace-test-'));
  site = await serveFolder(FIXTURES);
});
after(async () => {
  await site?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** The forms a secret takes in a recording: raw, percent-encoded (either way of writing a space), JSON-escaped. */
function formsOf(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  return [...new Set([secret, uri, uri.replace(/%20/g, '+'), uri.toLowerCase(), JSON.stringify(secret).slice(1, -1), JSON.stringify(JSON.stringify(secret)).slice(3, -3)])];
}

/** No form of any secret in any entry (read by our reader, and every deflated entry inflated by zlib directly), nor in the file's bytes. */
async function assertScrubbed(file: string, secrets: string[]): Promise<Map<string, Buffer>> {
  const bytes = await readFile(file);
  const { entries } = readZip(bytes);
  const forms = secrets.flatMap(formsOf);
  for (const f of forms) {
    assert.equal(bytes.includes(f), false, `${JSON.stringify(f)} is in the zip's bytes`);
    for (const [name, data] of entries) assert.equal(data.includes(f), false, `${JSON.stringify(f)} is in ${name}`);
  }
  for (let p = bytes.indexOf('PK\x03\x04'); p >= 0; p = bytes.indexOf('PK\x03\x04', p + 4)) {
    if (bytes.readUInt16LE(p + 8) !== 8) continue;
    const start = p + 30 + bytes.readUInt16LE(p + 26) + bytes.readUInt16LE(p + 28);
    const data = inflateRawSync(bytes.subarray(start, start + bytes.readUInt32LE(p + 18)));
    for (const f of forms) assert.equal(data.includes(f), false, `${JSON.stringify(f)} is in a deflated entry`);
  }
  return entries;
}

/** The names of the groups in the trace's events, in order. */
function groupsOf(entries: Map<string, Buffer>): string[] {
  const events = [...entries].filter(([n]) => n.endsWith('.trace')).flatMap(([, d]) => d.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; method?: string; title?: string }));
  return events.filter((e) => e.type === 'before' && e.method === 'tracingGroup').map((e) => e.title ?? '');
}

const AGENT_SECRET = 'tr0ub 4&dor';

test('pagelens agent --playwright-trace: one group a step, numbered as the run record, no form of the typed password in any entry', { timeout: 40_000 }, async () => {
  const record = join(tmp, 'run.zip');
  const file = join(tmp, 'run.playwright.zip');
  const r = await runCli(['agent', `Enter the username "ada" and the password "${AGENT_SECRET}" into the text fields and press login.`, '--url', join(FIXTURES, 'agent-signin-pair.html'), '--trace', record, '--playwright-trace', file, '--max-steps', '6']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /Playwright trace written to .*npx playwright show-trace/);
  const entries = await assertScrubbed(file, [AGENT_SECRET]);
  const { record: rec } = await readTrace(record);
  assert.ok(rec.steps.some((s) => s.masked.length), 'the password was typed and learnt');
  assert.deepEqual(groupsOf(entries), rec.steps.map((s) => `pagelens step ${s.step}`));
  // Each group holds DOM snapshots (the page as the step found and left it), and the password
  // field's value in them is masked; the screencast stays (a password field is drawn as dots).
  const trace = entries.get('trace.trace')!.toString('utf8');
  assert.ok((trace.match(/"type":"frame-snapshot"/g) ?? []).length >= rec.steps.length);
  assert.match(trace, /"__playwright_value_":"\*\*\*","type":"password"/);
  assert.ok([...entries.keys()].some((n) => n.endsWith('.jpeg')), 'the screencast frames are kept');
});

const MCP_SECRET = 'hunter"2 &x/ü';
const CARD = '4111 2222 3333 4444';

test('pagelens mcp --save-trace --playwright-traces: a Playwright trace beside the archive, a group a call, no typed secret in any form, no screenshot of a drawn card number', { timeout: 40_000 }, async () => {
  const dir = join(tmp, 'mcp');
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--offline', '--save-trace', dir, '--playwright-traces'], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'pagelens-pwtrace-test', version: '0.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    return (res.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
  };
  const page = await call('browser_navigate', { url: site.url + 'trace-getform-card.html' });
  const id = (name: string) => new RegExp(`^(\\d+) \\w+ ${name}$`, 'm').exec(page)![1];
  await call('browser_type', { id: id('User'), text: 'ada' });
  await call('browser_type', { id: id('Password'), text: MCP_SECRET });
  await call('browser_type', { id: id('Card'), text: CARD });
  const sent = await call('browser_click', { id: id('Sign in') });
  assert.match(sent, /\?user=ada/, 'the form went (its URL carries the values, masked in the answer)');
  await client.close();
  const archive = join(dir, (await readdir(dir)).find((f) => /^mcp-.*\.zip$/.test(f) && !f.endsWith('.playwright.zip'))!);
  const file = archive.replace(/\.zip$/, '.playwright.zip');
  // Written as the browser session closes, after the client went: wait for it to be there.
  for (let i = 0; i < 200 && !(await stat(file).catch(() => undefined)); i++) await new Promise((r) => setTimeout(r, 50));
  const entries = await assertScrubbed(file, [MCP_SECRET, CARD]);
  let read = await readTrace(archive);
  for (let i = 0; !read.record.end && i < 100; i++) { await new Promise((r) => setTimeout(r, 50)); read = await readTrace(archive); }
  assert.deepEqual(groupsOf(entries), read.record.steps.map((s) => `pagelens step ${s.step}: ${s.tool}`));
  const network = entries.get('trace.network')?.toString('utf8') ?? '';
  assert.match(network, /trace-getform-card\.html\?user=ada&pw=\*\*\*&cc=\*\*\*/, 'the request that carried them is there, scrubbed');
  assert.equal([...entries.keys()].filter((n) => /\.(jpe?g|png)$/.test(n)).length, 0, 'the card number was drawn: no screenshot is kept');
  assert.equal(entries.get('trace.trace')!.includes('"screencast-frame"'), false);
});

test('the library: startTrace(lens, { playwrightTrace }) writes a group a step, scrubbed', { timeout: 30_000 }, async () => {
  const { openPage } = await import('../../src/session/open.js');
  const { startTrace } = await import('../../src/trace/library.js');
  const secret = 'lib "s3cret" pw';
  const open = await openPage(join(FIXTURES, 'agent-signin-pair.html'), {});
  try {
    const file = join(tmp, 'lib.playwright.zip');
    const trace = startTrace(open.lens, { playwrightTrace: file });
    const snap = await open.lens.snapshot();
    const pw = snap.interactive_tree.find((n) => n.n === 'Password')!.i;
    assert.equal((await open.lens.act(`setValue(${pw}, ${JSON.stringify(secret)})`)).ok, true);
    await open.lens.snapshot();
    await open.lens.act(`click(${snap.interactive_tree.find((n) => n.n === 'Login')!.i})`);
    const { playwright } = await trace.stop(join(tmp, 'lib.zip'));
    assert.equal(playwright?.path, file);
    assert.deepEqual(groupsOf(await assertScrubbed(file, [secret])), ['pagelens step 1', 'pagelens step 2']);
  } finally {
    await open.close();
  }
});
