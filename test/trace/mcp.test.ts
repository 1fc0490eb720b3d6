// `pagelens mcp --save-trace DIR`: a session over stdio (the SDK's own client) is one archive, each
// tool call a step whose observation is exactly the text the client got; the typed password is in
// no byte of it; and a server killed mid-session (SIGKILL) leaves an archive with the calls before.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { readTrace } from '../../src/trace/readTrace.js';
import { FIXTURES } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
const SECRET = 'hunter2-mcp';

let site: StaticServer;
let tmp: string;
before(async () => {
  site = await serveFolder(FIXTURES);
  tmp = await mkdtemp(join(tmpdir(), 'pagelens-mcp-trace-'));
});
after(async () => {
  await site?.close();
  await rm(tmp, { recursive: true, force: true });
});

async function connect(dir: string): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--offline', '--save-trace', dir], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'pagelens-trace-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args });
  return (r.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/** The one archive a session left in `dir`, once it is there. */
async function archiveIn(dir: string): Promise<string> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.zip'));
  assert.equal(files.length, 1, `one archive a session: ${files.join(', ')}`);
  return join(dir, files[0]);
}

test('an MCP session with --save-trace: each call a step, the answer as the client got it, no typed secret', { timeout: 60_000 }, async () => {
  const dir = join(tmp, 'session');
  const { client } = await connect(dir);
  const said: string[] = [];
  said.push(await call(client, 'browser_navigate', { url: site.url + 'agent-signin-pair.html' }));
  const id = (name: string) => new RegExp(`^(\\d+) \\w+ ${name}$`, 'm').exec(said[0])![1];
  said.push(await call(client, 'browser_type', { id: id('Username'), text: 'ada' }));
  said.push(await call(client, 'browser_type', { id: id('Password'), text: SECRET }));
  said.push(await call(client, 'browser_click', { id: '9999' }));
  said.push(await call(client, 'browser_click', { id: id('Login') }));
  await client.close();
  const file = await archiveIn(dir);
  // The server closes the archive as it exits (stdin closed): wait for its end record.
  let read = await readTrace(file);
  for (let i = 0; !read.record.end && i < 100; i++) { await new Promise((r) => setTimeout(r, 100)); read = await readTrace(file); }
  const { record, images } = read;
  assert.equal(record.meta.face, 'mcp');
  assert.ok(record.end, 'the session closed its archive');
  assert.deepEqual(record.steps.map((s) => s.tool), ['browser_navigate', 'browser_type', 'browser_type', 'browser_click', 'browser_click']);
  for (const [i, s] of record.steps.entries()) {
    assert.equal(s.observation?.text, said[i].split(SECRET).join('***'), `step ${s.step}: the answer as the client got it`);
    assert.equal(s.observation?.tokens, await countTokens(said[i]));
    assert.ok(s.screenshot && images.get(s.screenshot.file)?.length, `step ${s.step} has a screenshot`);
    assert.ok(s.boxes.length >= 3, `step ${s.step} has the boxes of the IDs shown`);
  }
  assert.equal(record.steps[3].verdict.outcome, 'refused');
  assert.equal(record.steps[3].verdict.refusal?.code, 'UNKNOWN_ID');
  assert.equal(record.steps[4].action?.id, id('Login'));
  assert.deepEqual(record.steps[2].masked, [`the text of the call on ${id('Password')} (a secret field)`]);
  assert.equal((await readFile(file)).includes(SECRET), false, 'the typed secret is in no byte of the archive');
});

test('a session killed mid-way (SIGKILL): its archive still holds the calls before', { timeout: 60_000 }, async () => {
  const dir = join(tmp, 'killed');
  const { client, transport } = await connect(dir);
  await call(client, 'browser_navigate', { url: site.url + 'agent-signin-pair.html' });
  await call(client, 'page_snapshot', {});
  process.kill(transport.pid!, 'SIGKILL');
  await client.close().catch(() => {});
  const { record, recovered } = await readTrace(await archiveIn(dir));
  assert.equal(recovered, false, 'the archive was whole after each step');
  assert.equal(record.end, undefined, 'the run did not close');
  assert.deepEqual(record.steps.map((s) => s.tool), ['browser_navigate', 'page_snapshot']);
  assert.ok(record.steps.every((s) => s.screenshot && s.boxes.length));
});
