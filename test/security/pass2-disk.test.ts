// The second adversarial pass (issue 38), the disk and the network: a hostile local page that
// guesses the names of its folder's files and reads a dot-folder through a symlink, and a blocked
// loopback origin reached under its other names (0.0.0.0, 127.0.0.2, [::], a name that resolves to
// 127.0.0.1). Each server records what reaches it; each test proves the page got nothing.
import assert from 'node:assert/strict';
import { lookup } from 'node:dns/promises';
import { createServer, request, type Server } from 'node:http';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startOriginProxy } from '../../src/browser/originProxy.js';
import { referencesIn } from '../../src/browser/pageReferences.js';
import { serveFolder } from '../../src/browser/static.js';
import { BrowserSession } from '../../src/mcp/browser.js';
import { openPage } from '../../src/session/open.js';

interface Raw { status: number; body: string }

/** A GET with this exact request target (absolute-form through a proxy, a path otherwise). */
function get(port: number, path: string, host = `127.0.0.1:${port}`): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// ---- finding 1: the local-file server serves what the markup names, nothing a script guesses ----

const KEY = 'PRIVATE-KEY-7c1e';
const BANK = 'BANK-BALANCE-4410';
const CONFIG = 'CONFIG-API-KEY-99af';

/** ~ with a key in ~/.ssh, a bank page and a config script nothing names, a symlink into ~/.ssh, and a page whose script guesses. */
async function hostileHome(): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'pagelens-pass2-'));
  await mkdir(join(home, '.ssh'));
  await mkdir(join(home, 'Documents'));
  await mkdir(join(home, 'project'));
  await mkdir(join(home, 'assets'));
  await writeFile(join(home, '.ssh/id_rsa'), KEY);
  await writeFile(join(home, 'Documents/bank.html'), `<p>${BANK}</p>`);
  await writeFile(join(home, 'project/config.js'), `window.CONFIG = "${CONFIG}";`);
  await symlink('../.ssh/id_rsa', join(home, 'Documents/key.js'));
  // A symlink that stays inside and is no dotfile is not served either: a link leads where the disk says.
  await symlink('bg.png', join(home, 'assets/alias.png'));
  await symlink('page.html', join(home, 'page-link.html'));
  // What a page is made of, named in every way markup names a file: all of it must still load.
  await writeFile(join(home, 'assets/style.css'), '@import "more.css"; body { background: url("bg.png") }');
  await writeFile(join(home, 'assets/more.css'), 'p { color: red }');
  await writeFile(join(home, 'assets/bg.png'), 'png-from-css');
  await writeFile(join(home, 'assets/inline.png'), 'png-from-style-element');
  await writeFile(join(home, 'assets/attr.png'), 'png-from-style-attribute');
  await writeFile(join(home, 'assets/2x.png'), 'png-from-srcset');
  await writeFile(join(home, 'assets/app.js'), 'import { lib } from "./lib.js"; document.title = lib;');
  await writeFile(join(home, 'assets/lib.js'), 'export const lib = "module graph loaded";');
  await writeFile(join(home, 'page.html'), `<!doctype html><title>loading</title>
<link rel="stylesheet" href="assets/style.css">
<style>.a { background: url(assets/inline.png) }</style>
<div style="background-image: url('assets/attr.png')"></div>
<img srcset="assets/2x.png 2x" alt=""><img src="assets/alias.png" alt="">
<script src="Documents/key.js"></script>
<script type="module" src="assets/app.js"></script>
<p>src="Documents/bank.html" is text, not an attribute</p>
<ul id="out"></ul>
<script>
// Names no markup of the page gives: guessed, as a hostile page guesses its reader's files.
const guessed = ['Documents/bank.html', 'project/config.js', './project/config.js', 'Documents/key.js'];
const named = ['assets/style.css', 'assets/more.css', 'assets/bg.png', 'assets/inline.png', 'assets/attr.png', 'assets/2x.png', 'assets/lib.js'];
(async () => {
  const out = document.getElementById('out');
  for (const p of [...guessed, ...named]) {
    const r = await fetch(p).then(async (r) => r.status + ' ' + (await r.text()).slice(0, 40), () => 'failed');
    out.insertAdjacentHTML('beforeend', '<li><button></button></li>');
    out.lastElementChild.firstElementChild.textContent = p + ' ' + r;
  }
  document.body.dataset.done = '1';
})();
</script>`);
  return home;
}

describe('pagelens snapshot ~/page.html: only what the page\'s markup names', () => {
  test('names in the page\'s own script are not references, and a symlink into ~/.ssh is not served', async () => {
    const home = await hostileHome();
    try {
      const open = await openPage(join(home, 'page.html'));
      try {
        await open.page.waitForFunction(() => document.body.dataset.done === '1', undefined, { timeout: 20_000 });
        const lines = await open.page.locator('button').allTextContents();
        const answer = (p: string) => lines.find((l) => l.startsWith(p + ' '))?.slice(p.length + 1) ?? 'missing';
        const seen = lines.join(' | ');
        console.log(`what the page read: ${seen}`);
        for (const p of ['Documents/bank.html', 'project/config.js', './project/config.js', 'Documents/key.js']) {
          assert.match(answer(p), /^404 /, `${p} was served: ${answer(p)}`);
        }
        for (const secret of [KEY, BANK, CONFIG]) assert.ok(!seen.includes(secret), `the page read ${secret}`);
        const content = await open.page.content();
        for (const secret of [KEY, BANK, CONFIG]) assert.ok(!content.includes(secret), `${secret} reached the document`);
        // What the markup names still loads: stylesheets and their @import and url(), a <style>
        // element, a style attribute, srcset, a module script and its static import.
        assert.match(answer('assets/style.css'), /^200 @import/);
        assert.match(answer('assets/more.css'), /^200 p \{/);
        assert.match(answer('assets/bg.png'), /^200 png-from-css/);
        assert.match(answer('assets/inline.png'), /^200 png-from-style-element/);
        assert.match(answer('assets/attr.png'), /^200 png-from-style-attribute/);
        assert.match(answer('assets/2x.png'), /^200 png-from-srcset/);
        assert.match(answer('assets/lib.js'), /^200 export const lib/);
        await open.page.waitForFunction(() => document.title === 'module graph loaded', undefined, { timeout: 10_000 });
      } finally {
        await open.close();
      }
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  test('asked directly after the page was served: guessed names and the symlink are 404', async () => {
    const home = await hostileHome();
    const server = await serveFolder(home, { page: 'page.html' });
    try {
      assert.equal((await get(server.port, '/page.html')).status, 200);
      for (const p of ['/Documents/bank.html', '/project/config.js', '/Documents/key.js', '/assets/alias.png']) {
        const r = await get(server.port, p);
        console.log(`GET ${p}: ${r.status} ${r.body.slice(0, 40)}`);
        assert.equal(r.status, 404, `${p}: ${r.status} ${r.body}`);
        for (const secret of [KEY, BANK, CONFIG]) assert.ok(!r.body.includes(secret), `${p} leaked ${secret}`);
      }
      assert.equal((await get(server.port, '/assets/style.css')).status, 200, 'a file the markup names is served');
    } finally {
      await server.close();
    }
    // The page itself may be a link (the user named it); what it names is still held to the rules.
    const linked = await serveFolder(home, { page: 'page-link.html' });
    try {
      assert.equal((await get(linked.port, '/page-link.html')).status, 200);
      assert.equal((await get(linked.port, '/Documents/key.js')).status, 404);
    } finally {
      await linked.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  test('what counts as a reference: attributes, CSS, static imports; never script text, event handlers or page text', () => {
    const html = `<a href="ok.html">x</a><img src=ok.png onerror="this.src='bad1.png'">
<p>src="bad2.html" background: url(bad3.png)</p><!-- <img src="bad4.png"> -->
<textarea><img src="bad5.png"></textarea>
<script>fetch("bad6.html"); const s = '<img src="bad7.png">';</script>
<script type="module">import { a } from "./ok.js"; fetch("bad8.css");</script>
<style>@import 'ok.css'; .x { background: url("ok2.png") }</style>`;
    const refs = referencesIn(html, 'text/html; charset=utf-8');
    assert.deepEqual(refs.filter((r) => r.includes('bad')), [], refs.join(' '));
    for (const r of ['ok.html', 'ok.png', './ok.js', 'ok.css', 'ok2.png']) assert.ok(refs.includes(r), `${r} missing from ${refs.join(' ')}`);
    // A served module: its static imports of scripts and styles; not its dynamic import(), fetch() or strings.
    const js = referencesIn('import a from "./a.js";export * from "./b.mjs";import"./c.css";import("./d.js");fetch("e.html");const f = "g.js";import "./h.html";', 'text/javascript');
    assert.deepEqual(js.sort(), ['./a.js', './b.mjs', './c.css']);
  });
});

// ---- finding 2: a blocked loopback origin under its other names ----

interface Site { servers: Server[]; port: number; seen: string[] }

/** One port on 127.0.0.1, 127.0.0.2 and ::1, every request recorded: whichever loopback name reaches it, it is seen. */
async function loopbackEverywhere(): Promise<Site> {
  const seen: string[] = [];
  const make = () => {
    const s = createServer((req, res) => { seen.push(`${req.method} ${req.headers.host} ${req.url}`); res.writeHead(200, { 'content-type': 'text/html' }).end('<button>secret of the blocked origin</button>'); });
    s.on('upgrade', (req, socket) => { seen.push(`UPGRADE ${req.url}`); socket.destroy(); });
    return s;
  };
  const first = make();
  await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
  const port = (first.address() as { port: number }).port;
  const servers = [first];
  for (const address of ['127.0.0.2', '::1']) {
    const s = make();
    // Where the machine has no such address, the other names still reach the first server.
    const ok = await new Promise<boolean>((r) => { s.once('error', () => r(false)); s.listen(port, address, () => r(true)); });
    if (ok) servers.push(s);
  }
  return { servers, port, seen };
}

async function closeSite(site: Site): Promise<void> {
  for (const s of site.servers) await new Promise((r) => s.close(r));
}

describe('--blocked-origins http://127.0.0.1:P holds for every name of that server', () => {
  test('0.0.0.0, 0, 127.0.0.2, [::], [::1] and this machine\'s own name are refused; the server sees no request', async () => {
    const site = await loopbackEverywhere();
    const names = [`0.0.0.0`, `0`, `127.0.0.2`, `[::]`, `[::1]`];
    // The machine's name resolves to loopback on most hosts (/etc/hosts): a name, not an address.
    const own = hostname();
    const ownResolves = await lookup(own).then((a) => /^127\.|^::1$/.test(a.address), () => false);
    if (ownResolves) names.push(own);
    try {
      const s = new BrowserSession({ blockedOrigins: [`http://127.0.0.1:${site.port}`] });
      try {
        const page = (await s.lens()).page;
        const outcomes: string[] = [];
        for (const name of names) {
          const url = `http://${name}:${site.port}/through-${name.replace(/[^\w.]/g, '')}`;
          // Refused by the first-hop route (an error), or by the origin proxy (its 403 says so).
          const outcome = await page.goto(url).then(
            async (r) => (r?.status() === 403 && (await r.allHeaders())['x-pagelens-blocked'] ? `refused by the proxy: ${(await r.allHeaders())['x-pagelens-blocked']}` : `loaded ${r?.status()}`),
            (e: Error) => `refused ${e.message.split('\n')[0]}`);
          outcomes.push(`${url}: ${outcome}`);
        }
        console.log(outcomes.join('\n'));
        console.log(`the blocked server saw: ${JSON.stringify(site.seen)}`);
        for (const o of outcomes) assert.match(o, /: refused /, o);
        // A refused navigation ends on Chrome's error page, which may still be committing: read it once it is there.
        let content = '';
        for (let k = 0; k < 20; k++) {
          await page.waitForLoadState('load').catch(() => {});
          const read = await page.content().then((c) => c, () => undefined);
          if (read !== undefined) { content = read; break; }
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.doesNotMatch(content, /secret of the blocked origin/);
      } finally {
        await s.close();
      }
      assert.deepEqual(site.seen, [], 'the blocked server saw a request');
    } finally {
      await closeSite(site);
    }
  });

  test('the proxy refuses a name by the address it resolves to, and connects to that address', async () => {
    const site = await loopbackEverywhere();
    // A rebinding name: resolves to 127.0.0.1 however it is spelt.
    const rebound = 'rebound.example';
    const lookupRebound = async (name: string) => (name === rebound ? [{ address: '127.0.0.1', family: 4 }] : []);
    /** GET url through a proxy with these rules. */
    const through = async (blocked: string[], url: string) => {
      const proxy = await startOriginProxy({ offline: false, allowed: [], blocked }, { lookup: lookupRebound });
      try {
        return { ...(await get(Number(new URL(proxy.server).port), url, new URL(url).host)), refused: [...proxy.refused] };
      } finally {
        await proxy.close();
      }
    };
    try {
      const blocked = [`http://loopback:${site.port}`];
      const rebinding = await through(blocked, `http://${rebound}:${site.port}/rebound`);
      console.log(`proxy GET http://${rebound}:${site.port}/: ${rebinding.status} ${rebinding.body.trim()}`);
      assert.equal(rebinding.status, 403, rebinding.body);
      assert.ok(rebinding.refused.some((r) => r.includes(rebound)), rebinding.refused.join('\n'));
      const zero = await through(blocked, `http://0.0.0.0:${site.port}/zero`);
      assert.equal(zero.status, 403, zero.body);
      assert.deepEqual(site.seen, []);
      // Where the rules let it pass, the connection goes to the address that was judged (the system
      // resolver knows no such name): no second lookup a rebinding DNS could answer differently.
      const passed = await through(['http://example.com:80'], `http://${rebound}:${site.port}/pinned`);
      assert.equal(passed.status, 200, passed.body);
      assert.deepEqual(site.seen, [`GET ${rebound}:${site.port} /pinned`]);
    } finally {
      await closeSite(site);
    }
  });
});
