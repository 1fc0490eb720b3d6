// Logins that last (issue 40): log in on a fixture site (an HttpOnly cookie, localStorage and
// IndexedDB), save, restart the MCP server process, load, and act as the logged-in user; the
// --state-check refuses to overwrite the good file after a logout; a file saved with
// PAGELENS_STATE_KEY holds none of the cookie's bytes and is refused when altered or wrongly keyed.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openPage } from '../../src/session/open.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { SECRET_COOKIE, call, idOf, ok, startLoginSite, type Site } from '../support/state-helpers.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../../bin/pagelens.js');
const CHECK = 'button "Log out"';

let site: Site;
let tmp: string;

before(async () => {
  site = await startLoginSite();
  tmp = await mkdtemp(join(tmpdir(), 'pagelens-state-'));
});
after(async () => {
  await site?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function server(args: string[], env: Record<string, string> = {}): Promise<{ client: Client; stderr: () => string; close(): Promise<void> }> {
  let stderr = '';
  const base = { ...process.env } as Record<string, string>;
  delete base.PAGELENS_STATE_KEY;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--tools', 'core,state', '--answers', 'json', ...args], env: { ...base, ...env }, stderr: 'pipe' });
  transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  const client = new Client({ name: 'pagelens-state-test', version: '0.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

describe('saved state across a restart of pagelens mcp', () => {
  test('log in, save on exit; restart with the file: logged in, acts as alice; after a logout the check keeps the good file', async () => {
    const file = join(tmp, 'alice.json');
    // 1. Log in and leave: the save on exit writes the state (the check passes: "Log out" is shown).
    const a = await server(['--save-storage-state', file, '--state-check', CHECK]);
    try {
      await ok(a.client, 'browser_navigate', { url: site.url });
      await ok(a.client, 'browser_wait_for', { text: 'Log in' });
      await ok(a.client, 'browser_click', { id: await idOf(a.client, 'Log in') });
      await ok(a.client, 'browser_wait_for', { text: 'Welcome alice' });
    } finally {
      await a.close();
    }
    assert.match(a.stderr(), /state saved to .*alice\.json: 1 cookie\(s\) for 1 domain\(s\), localStorage on 1 origin\(s\), IndexedDB on 1 origin\(s\)/);
    assert.ok(!a.stderr().includes(SECRET_COOKIE), 'no state value in the log');
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    const good = await readFile(file);

    // 2. A new process, started from the file: the page sees the cookie, localStorage and IndexedDB.
    const b = await server(['--storage-state', file, '--save-storage-state', file, '--state-check', CHECK]);
    try {
      await ok(b.client, 'browser_navigate', { url: site.url });
      await ok(b.client, 'browser_wait_for', { text: 'Welcome alice' });
      const noted = await ok(b.client, 'browser_click', { id: await idOf(b.client, 'Add note'), expect: 'element_appears:Note saved for alice' });
      assert.equal(noted.json?.action?.ok, true, noted.text);
      assert.equal(site.notes, 1, 'the server took the note from the logged-in cookie');
      // 3. Log out: the tool's save is refused by the check, the good file stays as it was.
      await ok(b.client, 'browser_click', { id: await idOf(b.client, 'Log out') });
      await ok(b.client, 'browser_wait_for', { text: 'Log in' });
      const refused = await ok(b.client, 'browser_storage_state', { action: 'save' });
      assert.equal(refused.json?.done, false, refused.text);
      assert.match(refused.text, /does not show .*keeps the last good state/);
      // A path the server was not given is refused: a state file is a credential.
      const elsewhere = await call(b.client, 'browser_storage_state', { action: 'save', path: join(tmpdir(), 'elsewhere.json') });
      assert.equal(elsewhere.isError, true);
      assert.match(elsewhere.text, /not a state file this server was given/);
    } finally {
      await b.close();
    }
    assert.match(b.stderr(), /state not saved: the page does not show/, 'the save on exit is refused too, and says so');
    assert.deepEqual(await readFile(file), good, 'the last good file is kept');
  });
});

describe('encrypted state (PAGELENS_STATE_KEY)', () => {
  const KEY = 'correct horse battery staple';
  let saved: string;

  before(async () => {
    process.env.PAGELENS_STATE_KEY = KEY;
    saved = join(tmp, 'sealed.state');
    const open = await openPage(site.url);
    try {
      await open.page.getByRole('button', { name: 'Log in' }).click();
      await open.page.getByText('Welcome alice').waitFor();
      const r = await open.lens.saveState(saved, { check: CHECK });
      assert.equal(r.saved, true, r.message);
      assert.equal(r.encrypted, true);
    } finally {
      await open.close();
    }
  });
  after(() => { delete process.env.PAGELENS_STATE_KEY; });

  test('the file holds none of the cookie\'s bytes, is 0600, and opens a logged-in page with the key', async () => {
    const bytes = await readFile(saved);
    for (const needle of [SECRET_COOKIE, Buffer.from(SECRET_COOKIE).toString('base64'), Buffer.from(SECRET_COOKIE).toString('hex'), 'idb-token-alice', 'alice']) {
      assert.equal(bytes.includes(needle), false, `found ${needle} in the encrypted file`);
    }
    assert.equal((await stat(saved)).mode & 0o777, 0o600);
    const open = await openPage(site.url, { storageState: saved });
    try {
      await open.page.getByText('Welcome alice').waitFor();
    } finally {
      await open.close();
    }
  });

  test('one flipped byte, a wrong key, a plaintext file: refused, nothing loaded', async () => {
    const bytes = await readFile(saved);
    for (const at of [10, bytes.length - 1]) {
      const flipped = Buffer.from(bytes);
      flipped[at]! ^= 0x01;
      const file = join(tmp, `flipped-${at}.state`);
      await writeFile(file, flipped);
      await assert.rejects(openPage(site.url, { storageState: file }), (e) => isPagelensError(e, 'BAD_INPUT') && /could not be decrypted.*nothing was loaded/.test(e.message));
    }
    process.env.PAGELENS_STATE_KEY = 'another key';
    try {
      await assert.rejects(openPage(site.url, { storageState: saved }), (e) => isPagelensError(e, 'BAD_INPUT') && /not the key it was saved with/.test(e.message));
    } finally {
      process.env.PAGELENS_STATE_KEY = KEY;
    }
    const plain = join(tmp, 'plain.json');
    await writeFile(plain, JSON.stringify({ cookies: [], origins: [] }));
    await assert.rejects(openPage(site.url, { storageState: plain }), (e) => isPagelensError(e, 'BAD_INPUT') && /not encrypted but PAGELENS_STATE_KEY is set/.test(e.message));
    delete process.env.PAGELENS_STATE_KEY;
    try {
      await assert.rejects(openPage(site.url, { storageState: saved }), (e) => isPagelensError(e, 'BAD_INPUT') && /is encrypted: set PAGELENS_STATE_KEY/.test(e.message));
    } finally {
      process.env.PAGELENS_STATE_KEY = KEY;
    }
  });
});
