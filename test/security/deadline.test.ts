// No input blocks the server (issue 20): every MCP tool call has a deadline. A page that never
// settles must not make browser_tabs new wait forever, nor hold the queue: the call answers within
// the server's --call-timeout (a warning or TIMEOUT), and the next call is served. A page that
// floods history.pushState must not stall the browser for the session's other tabs.
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { after, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { CallDeadline } from '../../src/tools/registry/deadline.js';
import type { ToolResult } from '../../src/tools/registry/result.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
// The test's own generous bound: an answer at all before it is the whole claim (no timing assertion).
const TEST_TIMEOUT_MS = 90_000;

let client: Client;
let site: StaticServer;
let stderr = '';
let harness: Harness;
let held: Server | undefined;

async function call(name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  // The SDK's own request timeout is raised so that only the server's deadline can end the call.
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: TEST_TIMEOUT_MS });
  const content = r.content as Array<{ type: string; text?: string }>;
  return { text: content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'), isError: r.isError === true };
}

/** The server under test, with a short deadline so the test is quick (one for the file). */
async function startServer(): Promise<void> {
  if (client) return;
  site = await serveFolder(FIXTURES);
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, '--offline', '--call-timeout', '5'], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  client = new Client({ name: 'pagelens-deadline-test', version: '0.0.0' });
  await client.connect(transport);
}

/**
 * Starts the browser and waits until it is up and no call is at work in the background, so that
 * a timed call after it spends its deadline on the page. On a loaded machine the launch alone may
 * outlast the deadline (the call then answers TIMEOUT and the launch goes on): only a wait.
 */
async function browserStarted(): Promise<void> {
  await call('browser_tabs', { action: 'new' });
  await listUntil((text) => /^\* \d+: /m.test(text) && !/still at work/.test(text));
}

/**
 * Reads the tab list every 250 ms until `done` holds of it (or `reads` lists were read), and
 * answers the last one; every read must be served. The test's own timeout bounds the wait.
 */
async function listUntil(done: (text: string) => boolean, reads = Infinity): Promise<string> {
  for (let k = 1; ; k++) {
    const listed = await call('browser_tabs', { action: 'list' });
    assert.equal(listed.isError, false, `${listed.text}\n--- server stderr ---\n${stderr}`);
    if (done(listed.text) || k >= reads) return listed.text;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The current tab's line of a tab list. */
const currentLine = (text: string) => text.split('\n').find((l) => l.startsWith('*')) ?? '';

after(async () => {
  held?.closeAllConnections();
  held?.close();
  await client?.close();
  await site?.close();
  await harness?.close();
});

test('browser_tabs new on a page that never settles answers within the call deadline, and the next call is served', { timeout: TEST_TIMEOUT_MS * 2 }, async (t) => {
  await startServer();
  await browserStarted();
  const opened = await call('browser_tabs', { action: 'new', url: `${site.url}security-urlchurn.html` });
  t.diagnostic(`browser_tabs new answered: ${opened.text.slice(0, 400)}`);
  // Either an answer that says the page never settled, or a TIMEOUT naming the tool: never a hang, never silence.
  if (opened.isError) assert.match(opened.text, /^TIMEOUT: browser_tabs did not finish within 5 s/, opened.text);
  else assert.match(opened.text, /never settled/, opened.text);
  // Every later call is served. The given-up call may still be at work on a loaded machine, so
  // the list is asked again until the tab shows the page or says it is going there (the test's
  // own timeout bounds it).
  await listUntil((text) => /<http:[^>]*security-urlchurn\.html/.test(currentLine(text)));
});

test('a page flooding history.pushState does not stall the session: a tab opens beside it, and its title is read', { timeout: TEST_TIMEOUT_MS * 2 }, async (t) => {
  await startServer();
  await browserStarted();
  const opened = await call('browser_tabs', { action: 'new', url: `${site.url}security-pushstate.html` });
  t.diagnostic(`browser_tabs new answered: ${opened.text.slice(0, 400)}`);
  // With Chrome's flooding protection off (Playwright's default), the browser process drowns in
  // the page's history updates: no new tab ever opens and no title is read, whatever the wait.
  const beside = await call('browser_tabs', { action: 'new' });
  t.diagnostic(`the tab beside it: ${beside.text.slice(0, 400)}`);
  // On a loaded machine even a new tab may outlast the deadline: then the list shows it once it is
  // open (the test's own timeout bounds the wait).
  const opens = (text: string) => /^\* \d+: \(no title\) <about:blank>$/.test(currentLine(text))
    && text.split('\n').some((l) => /^ {2}\d+: "pushState flood" <http:[^>]*security-pushstate\.html/.test(l));
  if (!opens(beside.text)) await listUntil(opens);
});

test('a tab whose navigation outlived its call says where it is going, until the page commits', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  await startServer();
  // A page whose answer is held until the test releases it: the navigation stays in flight.
  let release!: () => void;
  const released = new Promise<void>((r) => { release = r; });
  let asked!: () => void;
  const requested = new Promise<void>((r) => { asked = r; });
  held = createServer((_req, res: ServerResponse) => { asked(); void released.then(() => res.end('<!doctype html><title>Held</title><p>held page')); });
  await new Promise<void>((r) => held!.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(held.address() as { port: number }).port}/held.html`;
  await browserStarted();
  const opened = await call('browser_tabs', { action: 'new', url });
  assert.match(opened.text, /^TIMEOUT: browser_tabs did not finish within 5 s/, opened.text);
  // The request is held, so once the page has asked for it, it stays in flight. Its event may
  // reach the server under test a little after our server saw it: a few reads are allowed.
  await requested;
  let line = currentLine(await listUntil((text) => currentLine(text).includes('loading'), 41));
  assert.ok(line.endsWith(` <about:blank> loading <${url}>`), line);
  release();
  line = currentLine(await listUntil((text) => currentLine(text).includes('"Held"')));
  assert.equal(line.replace(/^\* \d+: /, ''), `"Held" <${url}>`, 'once the page has committed, it is no longer loading');
});

test('waiting for a page that keeps changing its URL and text ends at its bound and says it never settled', { timeout: TEST_TIMEOUT_MS }, async () => {
  harness = await startHarness();
  const { lens } = await harness.open('security-urlchurn.html');
  const r = await lens.waitForDomStability({ timeout: 2000 });
  assert.equal(r.stable, false, JSON.stringify(r));
  assert.match(r.reason, /^the page never settled \(\d+ URL changes in [\d.]+ s\)/, r.reason);
});

test('a click given up at its deadline is never sent later: the page it would land on gets no press', { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  await startServer();
  await browserStarted();
  const url = `${site.url}late-press.html`;
  const opened = await call('browser_navigate', { url });
  assert.equal(opened.isError, false, opened.text);
  const shot = JSON.parse((await call('page_snapshot')).text) as { interactive_tree: Array<{ i: string; n?: string }> };
  const button = shot.interactive_tree.find((n) => n.n === 'Press me');
  assert.ok(button, JSON.stringify(shot));
  // The pointer's move holds the page 9 s, past the 5 s deadline; the press would come after it.
  const clicked = await call('browser_click', { id: button.i });
  assert.match(clicked.text, /^TIMEOUT: browser_click did not finish within 5 s/, clicked.text);
  // Once the abandoned call has run out, the page shows whether a press reached it.
  const line = currentLine(await listUntil((text) => !/still at work/.test(text) && /"pressed \d+"/.test(currentLine(text))));
  assert.ok(line.includes('"pressed 0"'), `no press after the TIMEOUT answer: ${line}`);
});

test('a call answered while an earlier one is still at work keeps its JSON whole: the warning is a note of its own', async () => {
  const deadline = new CallDeadline(0.05);
  let finish!: () => void;
  const stuck = new Promise<ToolResult>((resolve) => { finish = () => resolve({ text: '{}', data: {} }); });
  const late = await deadline.run('browser_navigate', { url: 'http://127.0.0.1/slow' }, () => stuck);
  assert.equal(late.isError, true);
  assert.match(late.text, /^TIMEOUT: browser_navigate did not finish within 0.05 s/);
  const answer = { nodes: [{ i: '1', n: 'Search' }] };
  const next = await deadline.run('page_snapshot', {}, async () => ({ text: JSON.stringify(answer), data: answer }));
  assert.deepEqual(JSON.parse(next.text), answer);
  assert.equal(next.notes?.length, 1);
  assert.match(next.notes![0], /^warning: an earlier call is still at work on the page in the background: browser_navigate \(given up \d+ s ago\)/);
  finish();
  await stuck;
  await new Promise((r) => setImmediate(r));
  const quiet = await deadline.run('page_snapshot', {}, async () => ({ text: '{}', data: {} }));
  assert.equal(quiet.notes, undefined, 'once the earlier call is done, no note');
});
