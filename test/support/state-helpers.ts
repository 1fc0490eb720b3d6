// A fixture site behind a login, for the saved-state tests (issue 40): logging in sets an HttpOnly
// cookie (by the server), a localStorage entry and an IndexedDB record (by the page), and the page
// shows "Welcome alice" only when all three are there; "Add note" needs the cookie on the server.
// Plus the MCP client helpers these tests share.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** The cookie's value: the tests look for these bytes in saved files. */
export const SECRET_COOKIE = 'sidSECRET7f3a9c41e2';

const PAGE = `<!doctype html><title>Notes</title><div id=app>loading</div><script>
function idb(mode, fn) {
  return new Promise((resolve) => {
    const r = indexedDB.open('auth', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('kv');
    r.onerror = () => resolve(undefined);
    r.onsuccess = () => {
      const db = r.result; const tx = db.transaction('kv', mode); const q = fn(tx.objectStore('kv'));
      tx.oncomplete = () => { db.close(); resolve(q.result); }; tx.onerror = () => { db.close(); resolve(undefined); };
    };
  });
}
async function render() {
  const me = await fetch('/me');
  const user = localStorage.getItem('user');
  const token = await idb('readonly', (s) => s.get('token'));
  const app = document.getElementById('app');
  if (me.ok && user === 'alice' && token === 'idb-token-alice') {
    app.innerHTML = '<p>Welcome alice</p><button id=note>Add note</button><button id=out>Log out</button><p id=msg></p>';
    document.getElementById('note').onclick = async () => { const r = await fetch('/note', { method: 'POST' }); document.getElementById('msg').textContent = r.ok ? 'Note saved for alice' : 'Not logged in'; };
    document.getElementById('out').onclick = async () => { await fetch('/logout', { method: 'POST' }); localStorage.removeItem('user'); await idb('readwrite', (s) => s.delete('token')); render(); };
  } else {
    app.innerHTML = '<p>Signed out (cookie ' + me.ok + ', storage ' + !!user + ', idb ' + !!token + ')</p><button id=in>Log in</button>';
    document.getElementById('in').onclick = async () => { await fetch('/login', { method: 'POST' }); localStorage.setItem('user', 'alice'); await idb('readwrite', (s) => s.put('idb-token-alice', 'token')); render(); };
  }
}
render();
</script>`;

export interface Site { url: string; notes: number; close(): Promise<void> }

export async function startLoginSite(): Promise<Site> {
  const site = { url: '', notes: 0, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const authed = (req.headers.cookie ?? '').split(/;\s*/).includes(`sid=${SECRET_COOKIE}`);
    if (req.method === 'POST' && req.url === '/login') { res.writeHead(204, { 'set-cookie': `sid=${SECRET_COOKIE}; HttpOnly; Path=/; Max-Age=3600` }); return res.end(); }
    if (req.method === 'POST' && req.url === '/logout') { res.writeHead(204, { 'set-cookie': 'sid=; Path=/; Max-Age=0' }); return res.end(); }
    if (req.url === '/me') { res.writeHead(authed ? 200 : 401); return res.end(); }
    if (req.method === 'POST' && req.url === '/note') { if (authed) site.notes++; res.writeHead(authed ? 204 : 401); return res.end(); }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  site.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  site.close = () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
  return site;
}

export interface V3Node { i: string; r: string; n: string }
export interface CallResult { text: string; isError: boolean; json?: { snapshot?: { interactive_tree: V3Node[] }; interactive_tree?: V3Node[]; action?: { ok: boolean; error?: { code: string } }; done?: boolean; error?: { code: string; message: string } } }

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  const r = await client.callTool({ name, arguments: args });
  const text = (r.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  let json: CallResult['json'];
  try { json = JSON.parse(text.split('\n')[0]!); } catch { /* a text answer */ }
  return { text, isError: r.isError === true, ...(json && { json }) };
}

export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  const r = await call(client, name, args);
  assert.equal(r.isError, false, `${name} failed: ${r.text}`);
  return r;
}

/** The ID of the element with this name in the current page's snapshot. */
export async function idOf(client: Client, name: string): Promise<string> {
  const r = await ok(client, 'page_snapshot');
  const tree = r.json?.interactive_tree ?? r.json?.snapshot?.interactive_tree ?? [];
  const n = tree.find((x) => x.n === name);
  assert.ok(n, `no "${name}" in ${r.text.slice(0, 400)}`);
  return n.i;
}
