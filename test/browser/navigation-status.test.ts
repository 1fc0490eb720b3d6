// A page the server answers with 4xx or 5xx is not the page asked for: opening it fails (LOAD_FAILED,
// exit code non-zero in the CLI), a navigate action fails (NAVIGATION_FAILED), and both carry the status.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { openPage } from '../../src/session/open.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { runCli } from '../support/cli-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let server: Server;
let origin: string;
before(async () => {
  h = await startHarness();
  // A server that answers with the status its path names: /status/501 is a 501 with an HTML body.
  server = createServer((req, res) => {
    const m = /^\/status\/(\d{3})$/.exec(req.url ?? '');
    const status = m ? Number(m[1]) : 200;
    res.writeHead(status, { 'content-type': 'text/html' });
    res.end(`<!doctype html><title>answer ${status}</title><h1>answer ${status}</h1><a href="/status/200">home</a>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await h?.close();
  await new Promise((r) => server?.close(r));
});

test('navigate: the status of the document reached; 404 and 501 fail with it', async () => {
  const { lens } = await h.open('actions-form.html');
  const fine = await lens.act(`navigate("${origin}/status/200")`);
  assert.equal(fine.ok, true, JSON.stringify(fine));
  assert.equal(fine.status, 200);
  for (const code of [404, 501]) {
    const r = await lens.act(`navigate("${origin}/status/${code}")`);
    assert.equal(r.ok, false, JSON.stringify(r));
    assert.equal(r.status, code);
    assert.equal(r.error?.code, 'NAVIGATION_FAILED');
    assert.match(r.error!.message, new RegExp(`answered ${code}`));
  }
  // A missing fixture from the project's own static server.
  const missing = await lens.act(`navigate("${h.originA}no-such-page.html")`);
  assert.equal(missing.ok, false);
  assert.equal(missing.status, 404);
  const reload = await lens.act('reload()');
  assert.equal(reload.ok, false, 'reloading the 404 page is a 404 again');
  assert.equal(reload.status, 404);
});

test('openPage: the status of the page opened; a 404 is LOAD_FAILED with the status', async () => {
  const open = await openPage(`${origin}/status/200`);
  try {
    assert.equal(open.status, 200);
  } finally {
    await open.close();
  }
  await assert.rejects(openPage(`${origin}/status/404`), (e) => isPagelensError(e, 'LOAD_FAILED') && e.details?.status === 404 && /answered 404/.test(e.message));
});

test('the CLI exits non-zero on a 404 or 501 page and says so', async () => {
  for (const code of [404, 501]) {
    const r = await runCli(['snapshot', `${origin}/status/${code}`]);
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, new RegExp(`LOAD_FAILED.*answered ${code}`));
    assert.equal(r.stdout, '');
  }
});
