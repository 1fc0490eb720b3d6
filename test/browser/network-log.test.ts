// The request log says what the server answered (issue 42): a fetch answered 404 whose body the
// page never read ends, for the browser, as net::ERR_ABORTED after its status came; the console
// says "the server responded with a status of 404", and so must the log. The failure alone is
// shown only when no answer came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { launchChromium } from '../../src/browser/chromium.js';
import { gotoSettled } from '../../src/browser/goto.js';
import { Lens } from '../../src/browser/lens.js';
import { watchNetwork } from '../../src/browser/tools/context.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import { NetworkLog, failed, renderRequest, type RequestEntry } from '../../src/tools/logs/requests.js';

test('a request answered 404, then aborted, is listed with its status; one never answered with its failure', () => {
  const log = new NetworkLog();
  log.sent('a', { method: 'GET', url: 'http://127.0.0.1/api/missing', type: 'fetch' }, false);
  log.answered('a', 404);
  log.failed('a', 'net::ERR_ABORTED');
  log.sent('b', { method: 'GET', url: 'http://127.0.0.1/api/down', type: 'fetch' }, false);
  log.failed('b', 'net::ERR_CONNECTION_REFUSED');
  log.sent('c', { method: 'GET', url: 'http://127.0.0.1/api/slow', type: 'xhr' }, false);
  const [answered, refused, pending] = log.entries;
  assert.equal(renderRequest(answered), 'GET http://127.0.0.1/api/missing → 404 (fetch)');
  assert.equal(renderRequest(refused), 'GET http://127.0.0.1/api/down → net::ERR_CONNECTION_REFUSED (fetch)');
  assert.equal(renderRequest(pending), 'GET http://127.0.0.1/api/slow → pending (xhr)');
  assert.ok(failed(answered) && failed(refused) && !failed(pending));
});

// The same on real Chromium: a loopback server answers 404 to fetches the page gives up on after
// the headers (an AbortController, a body cancelled), and one port answers nothing at all.
test('on Chromium: fetches answered 404 and then aborted are listed as 404 in text and data; a refused one with its failure', async () => {
  const server = createServer((req, res) => {
    if (req.url === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end('<!doctype html><title>Requests</title><p>Requests</p>'); return; }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.write('not here');
    // The body never ends on its own: the page's abort is what closes it.
    if (req.url !== '/missing-read') return;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
  const refusedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    watchNetwork(page);
    const lens = await Lens.attach(page);
    await gotoSettled(page, `${origin}/`);
    await page.evaluate(async (refused) => {
      const c = new AbortController();
      const aborted = await fetch('/missing-aborted', { signal: c.signal });
      c.abort();
      const cancelled = await fetch('/missing-cancelled');
      await cancelled.body?.cancel();
      await fetch(`http://127.0.0.1:${refused}/down`).catch(() => {});
      return aborted.status;
    }, refusedPort);
    const settled = /missing-aborted → 404[\s\S]*missing-cancelled → 404|missing-cancelled → 404[\s\S]*missing-aborted → 404/;
    let r = await runTool(lens, 'browser_network_requests');
    for (let k = 0; k < 50 && !(settled.test(r.text) && /\/down → net::/.test(r.text)); k++) r = await runTool(lens, 'browser_network_requests');
    assert.match(r.text, /^GET http:\/\/127\.0\.0\.1:\d+\/missing-aborted → 404 \(fetch\)$/m, r.text);
    assert.match(r.text, /^GET http:\/\/127\.0\.0\.1:\d+\/missing-cancelled → 404 \(fetch\)$/m, r.text);
    assert.match(r.text, /^GET http:\/\/127\.0\.0\.1:\d+\/down → net::ERR_CONNECTION_REFUSED \(fetch\)$/m, r.text);
    assert.doesNotMatch(r.text, /missing-\w+ → net::/, r.text);
    // The structured answer says the same: a status, and no failure beside it.
    const requests = (r.data as { requests: RequestEntry[] }).requests;
    for (const e of requests.filter((q) => /missing-/.test(q.url))) assert.deepEqual([e.status, e.failure], [404, undefined], JSON.stringify(e));
    const down = requests.find((q) => q.url.endsWith('/down'));
    assert.deepEqual([down?.status, down?.failure], [undefined, 'net::ERR_CONNECTION_REFUSED']);
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
