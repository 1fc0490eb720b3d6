// Origin rules hold for every hop (issue 20): a link to an allowed URL that redirects to a blocked
// origin, an iframe through such a redirect, a WebSocket to it, and the same origin spelt another
// way (localhost vs 127.0.0.1, upper case, a trailing dot). The blocked origin is a loopback server
// that records whatever reaches it: each test proves it saw nothing.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { BrowserSession } from '../../src/mcp/browser.js';
import { originKey, refusalFor } from '../../src/model/safety/origins.js';

interface Site { server: Server; port: number; seen: string[] }

async function listen(handler: (path: string, res: import('node:http').ServerResponse) => void): Promise<Site> {
  const seen: string[] = [];
  const server = createServer((req, res) => { seen.push(`${req.method} ${req.url}`); handler(req.url ?? '/', res); });
  server.on('upgrade', (req, socket) => { seen.push(`UPGRADE ${req.url}`); socket.destroy(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port, seen };
}

let blocked: Site;
let allowed: Site;
/** The blocked origin as the page names it (localhost), and as the rule names it (127.0.0.1). */
let blockedByName: string;
let blockedRule: string;

before(async () => {
  blocked = await listen((_path, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<button>secret of the blocked origin</button>'));
  blockedByName = `http://localhost:${blocked.port}`;
  blockedRule = `http://127.0.0.1:${blocked.port}`;
  allowed = await listen((path, res) => {
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/redirect') return res.writeHead(302, { location: `${blockedByName}/after-redirect` }).end();
    if (path === '/link.html') return html('<a href="/redirect">go</a>');
    if (path === '/frame.html') return html('<iframe src="/redirect"></iframe><button>host page</button>');
    if (path === '/ws.html') {
      return html(`<button id="s">waiting</button><script>
        const ws = new WebSocket('ws://localhost:${blocked.port}/socket');
        ws.onopen = () => { s.textContent = 'open'; ws.send('exfiltrated'); };
        ws.onerror = () => { s.textContent = 'ws failed'; };
      </script>`);
    }
    html('<button>ok</button>');
  });
});

after(async () => {
  await new Promise((r) => blocked.server.close(r));
  await new Promise((r) => allowed.server.close(r));
});

const allowedUrl = (path: string) => `http://127.0.0.1:${allowed.port}${path}`;

async function withSession(opts: ConstructorParameters<typeof BrowserSession>[0], run: (s: BrowserSession) => Promise<void>): Promise<void> {
  const s = new BrowserSession(opts);
  try { await run(s); } finally { await s.close(); }
}

/** The page at /ws.html opens a WebSocket to the blocked origin: it must fail, not connect. */
async function expectWebSocketRefused(page: Page): Promise<void> {
  await page.goto(allowedUrl('/ws.html'));
  await page.waitForFunction(() => document.getElementById('s')?.textContent !== 'waiting', undefined, { timeout: 10_000 });
  assert.equal(await page.locator('#s').textContent(), 'ws failed');
}

describe('origin rules on every hop', () => {
  test('a link to an allowed URL that redirects to a blocked origin: the blocked origin sees no request', async () => {
    blocked.seen.length = 0;
    await withSession({ blockedOrigins: [blockedRule] }, async (s) => {
      const page = (await s.lens()).page;
      await page.goto(allowedUrl('/link.html'));
      await Promise.all([page.waitForEvent('requestfinished', (r) => r.url().endsWith('/redirect')).catch(() => {}), page.click('a')]);
      await page.waitForLoadState('load').catch(() => {});
      assert.doesNotMatch(await page.content(), /secret of the blocked origin/);
    });
    assert.deepEqual(blocked.seen, []);
  });

  test('an iframe through a redirect: the blocked origin sees no request', async () => {
    blocked.seen.length = 0;
    await withSession({ blockedOrigins: [blockedRule] }, async (s) => {
      const page = (await s.lens()).page;
      await page.goto(allowedUrl('/frame.html'), { waitUntil: 'load' });
      assert.equal(await page.locator('button').textContent(), 'host page');
    });
    assert.deepEqual(blocked.seen, []);
  });

  test('new WebSocket(...) to a blocked origin never connects', async () => {
    blocked.seen.length = 0;
    await withSession({ blockedOrigins: [blockedRule] }, async (s) => {
      const page = (await s.lens()).page;
      await expectWebSocketRefused(page);
    });
    assert.deepEqual(blocked.seen, []);
  });

  test('--allowed-origins: a redirect and a WebSocket out of the allowed origin are refused', async () => {
    blocked.seen.length = 0;
    await withSession({ allowedOrigins: [allowedUrl('')] }, async (s) => {
      const page = (await s.lens()).page;
      await page.goto(allowedUrl('/frame.html'), { waitUntil: 'load' });
      await expectWebSocketRefused(page);
    });
    assert.deepEqual(blocked.seen, []);
  });

  test('one origin spelt another way is the same origin: LOCALHOST., 127.0.0.1, [::1], default ports', async () => {
    blocked.seen.length = 0;
    await withSession({ blockedOrigins: [`http://LOCALHOST.:${blocked.port}/`] }, async (s) => {
      const page = (await s.lens()).page;
      for (const url of [`http://127.0.0.1:${blocked.port}/direct`, `http://localhost:${blocked.port}/direct`]) {
        await assert.rejects(page.goto(url), /ERR_BLOCKED_BY_CLIENT|ERR_/);
      }
    });
    assert.deepEqual(blocked.seen, []);
    assert.equal(originKey('HTTPS://Example.COM.:443/x'), originKey('https://example.com'));
    assert.equal(originKey('http://[::1]:8080'), originKey('http://127.0.0.2:8080'));
    assert.equal(originKey('ws://example.com/socket'), 'http://example.com:80');
    assert.equal(refusalFor('http://example.com/', { offline: true, allowed: [], blocked: [] }), 'offline: only loopback may be reached, not http://example.com:80');
    assert.equal(refusalFor('http://0x7f.1:99/', { offline: true, allowed: [], blocked: [] }), null, 'hex IPv4 for 127.0.0.1 is loopback');
  });
});

describe('the origin proxy outlives a browser that hangs up', () => {
  // Chromium's own background requests (updates, safe browsing) reach the proxy as CONNECT tunnels
  // that are refused; a browser closing while a refusal is on its way resets the socket. Past the
  // CONNECT, the HTTP server no longer listens for that socket's errors: an unhandled reset there
  // killed the CLI after it had printed its answer.
  test('a refused CONNECT, an unparseable one and a refused upgrade whose client resets: no uncaught error', async () => {
    const { startOriginProxy } = await import('../../src/browser/originProxy.js');
    const { connect } = await import('node:net');
    const proxy = await startOriginProxy({ offline: true, allowed: [], blocked: [] });
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.prependListener('uncaughtException', onUncaught);
    try {
      const port = Number(new URL(proxy.server).port);
      const requests = [
        'CONNECT update.example.com:443 HTTP/1.1\r\nhost: update.example.com:443\r\n\r\n',
        'CONNECT nonsense HTTP/1.1\r\nhost: nonsense\r\n\r\n',
        'GET ws://example.com/socket HTTP/1.1\r\nhost: example.com\r\nconnection: upgrade\r\nupgrade: websocket\r\n\r\n',
      ];
      for (const request of requests) {
        for (let i = 0; i < 20; i++) {
          await new Promise<void>((done) => {
            const s = connect(port, '127.0.0.1', () => {
              // A large write the server has not read keeps bytes in flight, so the reset reaches
              // the server while it answers (the refusal is written back, then the peer is gone).
              s.write(request + 'x'.repeat(i * 1000));
              setImmediate(() => { s.resetAndDestroy(); done(); });
            });
            s.on('error', () => done());
          });
        }
      }
      // Let the server see every reset before judging.
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      await proxy.close();
    }
    assert.deepEqual(uncaught.map(String), []);
  });
});
