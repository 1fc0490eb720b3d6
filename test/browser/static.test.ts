// The loopback file server as a hostile page would probe it: raw request paths (http.request does
// not normalise `..` or `%2f` the way fetch and new URL() do), sibling folders, symlinks.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { serveFolder, type StaticServer } from '../../src/browser/static.js';

const SECRET = 'TOP-SECRET-7f3a';
const PAGE = '<!doctype html><title>Page</title><p>hello {{WHO}}</p>';

let base: string;
let server: StaticServer;

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

function get(path: string, method = 'GET', port = server.port): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  base = mkdtempSync(join(tmpdir(), 'pagelens-static-'));
  // `site-secret` starts with `site`: a prefix check on the path would let it through.
  mkdirSync(join(base, 'site/sub'), { recursive: true });
  mkdirSync(join(base, 'site-secret'));
  writeFileSync(join(base, 'site-secret/secret.txt'), SECRET);
  writeFileSync(join(base, 'outside.txt'), SECRET);
  writeFileSync(join(base, 'site/page.html'), PAGE);
  writeFileSync(join(base, 'site/index.html'), '<title>Index</title>');
  writeFileSync(join(base, 'site/sub/index.html'), '<title>Sub</title>');
  writeFileSync(join(base, 'site/style.css'), 'p{color:red}');
  writeFileSync(join(base, 'site/..notes.txt'), 'dots are a name, not a parent');
  symlinkSync(join(base, 'outside.txt'), join(base, 'site/link.txt'));
  symlinkSync(join(base, 'site-secret'), join(base, 'site/linkdir'));
  symlinkSync('page.html', join(base, 'site/alias.html'));
  server = await serveFolder(join(base, 'site'));
});

after(async () => {
  await server.close();
  rmSync(base, { recursive: true, force: true });
});

test('paths that leave the folder are refused and never return the secret', async () => {
  const escapes = [
    '/..%2fsite-secret%2fsecret.txt',
    '/../site-secret/secret.txt',
    '/%2e%2e/site-secret/secret.txt',
    '/%2E%2E%2Fsite-secret%2Fsecret.txt',
    '/sub/../../site-secret/secret.txt',
    '/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/../outside.txt',
    '/link.txt', // a symlink in the folder pointing outside it
    '/linkdir/secret.txt', // a symlinked folder pointing outside it
    `/${encodeURIComponent(join(base, 'site-secret/secret.txt'))}`, // an absolute path, encoded
    `/${join(base, 'outside.txt')}`, // …and as is (//tmp/…)
    '//etc/passwd',
    '/..\\site-secret\\secret.txt',
  ];
  for (const path of escapes) {
    const r = await get(path);
    assert.ok(r.status === 403 || r.status === 404, `${path}: got ${r.status}`);
    assert.ok(!r.body.includes(SECRET), `${path} leaked the secret`);
  }
  assert.equal((await get('/..%2fsite-secret%2fsecret.txt')).status, 403);
  assert.equal((await get('/link.txt')).status, 403);
  // Absolute-form request targets (as to a proxy) are not paths in the folder.
  const absolute = await get(`http://127.0.0.1:${server.port}/../site-secret/secret.txt`);
  assert.equal(absolute.status, 400);
  assert.ok(!absolute.body.includes(SECRET));
});

test('a malformed escape is a 400 and the server keeps answering', async () => {
  for (const path of ['/%E0%A4%A', '/%', '/page%2.html', '/%00page.html']) {
    assert.equal((await get(path)).status, 400, path);
  }
  const next = await get('/page.html');
  assert.equal(next.status, 200);
  assert.equal(next.body, PAGE);
});

test('files in the folder: content types, index.html, no-store, symlinks that stay inside', async () => {
  const page = await get('/page.html?x=1');
  assert.equal(page.status, 200);
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(page.headers['cache-control'], 'no-store');
  assert.equal(page.body, PAGE);
  const css = await get('/style.css');
  assert.equal(css.headers['content-type'], 'text/css');
  assert.equal(css.body, 'p{color:red}');
  assert.equal((await get('/')).body, '<title>Index</title>');
  assert.equal((await get('/sub/')).body, '<title>Sub</title>');
  assert.equal((await get('/alias.html')).body, PAGE);
  assert.equal((await get('/..notes.txt')).status, 200, 'a name starting with two dots is not a parent');
  assert.equal((await get('/missing.html')).status, 404);
  assert.equal((await get('/sub')).status, 404, 'a folder without its slash is not a file');
});

test('HEAD sends headers without a body; other methods get 405', async () => {
  const head = await get('/page.html', 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-type'], 'text/html; charset=utf-8');
  assert.equal(head.headers['content-length'], String(Buffer.byteLength(PAGE)));
  assert.equal(head.body, '');
  assert.equal((await get('/missing.html', 'HEAD')).status, 404);
  for (const method of ['POST', 'PUT', 'DELETE']) {
    const r = await get('/page.html', method);
    assert.equal(r.status, 405, method);
    assert.equal(r.headers.allow, 'GET, HEAD');
  }
});

test('replacements in HTML, and a folder reached through a symlink', async () => {
  symlinkSync(join(base, 'site'), join(base, 'site-link'));
  const s = await serveFolder(join(base, 'site-link'), { host: 'localhost', replacements: { '{{WHO}}': 'world' } });
  try {
    assert.match(s.url, /^http:\/\/localhost:\d+\/$/);
    const page = await get('/page.html', 'GET', s.port);
    assert.equal(page.body, PAGE.replace('{{WHO}}', 'world'));
    assert.equal(page.headers['content-length'], String(Buffer.byteLength(page.body)));
    assert.equal((await get('/style.css', 'GET', s.port)).body, 'p{color:red}', 'only HTML is rewritten');
    assert.equal((await get('/..%2fsite-secret%2fsecret.txt', 'GET', s.port)).status, 403);
    assert.equal((await get('/link.txt', 'GET', s.port)).status, 403);
  } finally {
    await s.close();
  }
});
