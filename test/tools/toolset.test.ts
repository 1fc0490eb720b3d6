// What `pagelens mcp` offers as its user starts it (issue 43): the default tool set and what its
// definitions cost, the full set one flag away, a tool left out refused with the flag that brings
// it, and answers that say only what changed — always with the IDs to act on, each naming the page
// state it carries and what that state supersedes or builds on.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { TOOL_NAMES } from '../../src/tools/registry/dispatch.js';
import { TOOL_GROUPS } from '../../src/tools/registry/toolset.js';
import { FIXTURES } from '../support/harness.js';
import { BIN } from '../support/mcp-parity-helpers.js';

/**
 * The default set's definitions and the server's instructions together, in o200k tokens, as a
 * client sends them to the model (name, description, input schema per tool): 1,232 when set, 950
 * after other groups' options left the default definitions, 902 once `expect` was explained once
 * (in the instructions) and page_snapshot's ceiling moved to the explore group. A change that
 * grows them past this fails here; raise it only for a tool every task needs.
 */
const DEFAULT_SET_BUDGET = 910;

async function start(args: string[] = []): Promise<Client> {
  const client = new Client({ name: 'pagelens-toolset-test', version: '0.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--offline', ...args], env: { ...process.env } as Record<string, string>, stderr: 'pipe' }));
  return client;
}

async function text(c: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const r = await c.callTool({ name, arguments: args });
  return { text: (r.content as Array<{ type: string; text?: string }>).filter((x) => x.type === 'text').map((x) => x.text).join('\n'), isError: r.isError === true };
}

/** The element lines of a text answer (`12 btn Save`, `+ 13 chk feed the cat`, `~ 8 …`), by ID. */
function elementLines(answer: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of answer.split('\n')) {
    const m = /^(?:[+~] )?((?:f\d+_)?\d+) [a-z_]+/.exec(line);
    if (m) out.set(m[1], line);
  }
  return out;
}

function idOf(answer: string, pattern: RegExp): string {
  const hit = [...elementLines(answer)].find(([, line]) => pattern.test(line));
  assert.ok(hit, `no element line matching ${pattern} in:\n${answer}`);
  return hit[0];
}

describe('the tool set', () => {
  test('the default is the core group, within its token budget; --tools all is every tool', async () => {
    const c = await start();
    try {
      const { tools } = await c.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...TOOL_GROUPS.core].sort());
      let tokens = await countTokens(c.getInstructions() ?? '');
      for (const t of tools) tokens += await countTokens(JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema }));
      assert.ok(tokens <= DEFAULT_SET_BUDGET, `the default set costs ${tokens} tokens, over its budget of ${DEFAULT_SET_BUDGET}`);
      // Options of other groups' work are not shown by default (page_snapshot's other modes)...
      const snapshot = tools.find((t) => t.name === 'page_snapshot')!;
      assert.deepEqual(Object.keys(snapshot.inputSchema.properties ?? {}).filter((k) => k === 'mode' || k === 'format'), []);
      // ...but a call that gives one is served.
      const skeleton = await text(c, 'page_snapshot', { mode: 'skeleton' });
      assert.equal(skeleton.isError, false, skeleton.text);
      // Left out is refused by name, with the flag that brings it.
      const tabs = await text(c, 'browser_tabs', { action: 'list' });
      assert.equal(tabs.isError, true);
      assert.match(tabs.text, /not in this server's tool set: start it with --tools core,tabs/);
    } finally {
      await c.close();
    }
    const all = await start(['--tools', 'all']);
    try {
      const listed = (await all.listTools()).tools;
      assert.deepEqual(listed.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
      // With the groups whose work they serve, the options the default leaves out are shown.
      const snapshot = listed.find((t) => t.name === 'page_snapshot')!;
      assert.ok(['mode', 'format'].every((k) => k in (snapshot.inputSchema.properties ?? {})), JSON.stringify(snapshot.inputSchema));
    } finally {
      await all.close();
    }
  });

  test('every tool is in exactly one group', () => {
    const grouped = Object.values(TOOL_GROUPS).flat();
    assert.deepEqual([...grouped].sort(), [...TOOL_NAMES].sort());
    assert.equal(new Set(grouped).size, grouped.length);
  });
});

describe('answers', () => {
  let site: StaticServer;
  let c: Client;
  before(async () => {
    site = await serveFolder(FIXTURES);
    c = await start(['--tools', 'core,explore']);
  });
  after(async () => {
    await c?.close();
    await site?.close();
  });

  test('an action answers with what changed, each change with its ID; a read supersedes what came before', async () => {
    const nav = await text(c, 'browser_navigate', { url: `${site.url}actions-todo.html` });
    assert.equal(nav.isError, false, nav.text);
    assert.match(nav.text, /^ok: /);
    assert.match(nav.text, /\[s1: whole page\]/);
    const field = idOf(nav.text, /inp "?What needs to be done\?"?/);
    const typed = await text(c, 'browser_type', { id: field, text: 'feed the cat', submit: true });
    assert.equal(typed.isError, false, typed.text);
    assert.match(typed.text, /\[s2: changes since s1\]/);
    // Enter was pressed: the text is committed, and the answer does not say otherwise.
    assert.doesNotMatch(typed.text, /not committed/);
    // The answer is the delta, not the page: no line for what did not change, no coordinates.
    assert.ok(!/"xy"|unchanged/.test(typed.text), typed.text);
    const changes = typed.text.split('\n').filter((l) => /^[+~] /.test(l));
    assert.ok(changes.length > 0, `the added item is reported:\n${typed.text}`);
    for (const line of changes) assert.match(line, /^[+~] (?:f\d+_)?\d+ [a-z_]+/, `a change without an ID: ${line}`);
    // The IDs it reports are the page's: the page read again lists them.
    const read = await text(c, 'page_snapshot', {});
    assert.match(read.text, /^\[s3: whole page; supersedes s1–s2\]/);
    const now = elementLines(read.text);
    for (const line of changes) assert.ok(now.has(/^[+~] ((?:f\d+_)?\d+)/.exec(line)![1]), `${line} is not on the page:\n${read.text}`);
    // Nothing changed: one line of verdict and one of state, nothing more.
    const again = await text(c, 'browser_hover', { id: field });
    assert.deepEqual(again.text.split('\n').slice(1), ['[s4: changes since s3]', 'no changes on the page']);
    // dom_diff between two page states the answers named: the same lines, by ID.
    const diff = await text(c, 'dom_diff', { snapshotA: 's1', snapshotB: 's3' });
    assert.equal(diff.isError, false, diff.text);
    for (const line of changes.filter((l) => l.startsWith('+'))) assert.ok(diff.text.includes(line), `${line} missing from dom_diff:\n${diff.text}`);
  });
});
