// The command line as a user runs it: a real process, real Chromium, real output.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findChromium, CHROMIUM_ARGS } from '../../src/browser/chromium.js';
import { AxTreeResult } from '../../src/model/renderers/axtree.js';
import { SemanticResult, SemanticV3Result } from '../../src/model/contracts/schema.js';
import { FIXTURES } from '../support/harness.js';
import { runCli } from '../support/cli-helpers.js';

const run = runCli;

test('pagelens demo prints the demo payload and its token count, offline', async () => {
  const r = await run(['demo']);
  assert.equal(r.code, 0, r.stderr);
  const payload = SemanticV3Result.parse(JSON.parse(r.stdout));
  assert.equal(payload.title, 'Acme Outfitters — Checkout');
  const byName = new Map(payload.interactive_tree.map((n) => [n.n, n]));
  assert.equal(byName.get('Password')?.v, '***', 'the password is redacted');
  assert.ok(!r.stdout.includes('hunter2'));
  assert.equal(byName.get('Full name')?.v, 'Ada Lovelace');
  assert.equal(byName.get('Street')?.r, 'inp', 'a field labelled only by preceding text is named');
  assert.ok(payload.scrollable_containers.length >= 1, 'the cart list is scrollable');
  assert.match(r.stderr, new RegExp(`${payload.meta.estimatedTokens} tokens \\(o200k\\)`));
  // Then the offline agent places the order: four actions, each verified, then done.
  assert.equal(r.stderr.match(/→ verified/g)?.length, 4, r.stderr);
  assert.match(r.stderr, /click\(13\)\s+→ verified/);
  assert.match(r.stderr, /pagelens agent: done .*; verified/);
  assert.ok(!r.stderr.includes('hunter2'));
});

test('pagelens snapshot: semantic mode, text format, axtree mode', async () => {
  const page = join(FIXTURES, 'frames-leaf.html');
  const semantic = await run(['snapshot', page, '--mode', 'semantic', '--full-page']);
  assert.equal(semantic.code, 0, semantic.stderr);
  const s = SemanticResult.parse(JSON.parse(semantic.stdout));
  assert.deepEqual(s.nodes.map((n) => [n.role, n.name, n.state]), [['button', 'Leaf button', undefined], ['checkbox', 'Leaf check', 'checked']]);

  const text = await run(['snapshot', page, '--format', 'text']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^1 btn Leaf button$/m);
  assert.match(text.stdout, /^2 chk Leaf check \{checked\}$/m);

  const ax = await run(['snapshot', page, '--mode', 'axtree']);
  assert.equal(ax.code, 0, ax.stderr);
  const a = AxTreeResult.parse(JSON.parse(ax.stdout));
  assert.ok(a.nodes.some((n) => n.id === '1' && n.role === 'button' && n.name === 'Leaf button'));
});

test('bad input: a clear message on stderr and a non-zero exit', async () => {
  const missing = await run(['snapshot', '/no/such/page.html']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /BAD_INPUT: "\/no\/such\/page.html" is neither a URL nor an existing file/);
  assert.equal(missing.stdout, '');
  const badViewport = await run(['snapshot', join(FIXTURES, 'frames-leaf.html'), '--viewport', 'big']);
  assert.notEqual(badViewport.code, 0);
  assert.match(badViewport.stderr, /--viewport must look like 1280x800/);
  const badMode = await run(['snapshot', join(FIXTURES, 'frames-leaf.html'), '--mode', 'everything']);
  assert.notEqual(badMode.code, 0);
  assert.match(badMode.stderr, /Allowed choices are semantic_v3, semantic, axtree/);
});

test('--cdp attaches to a browser that is already running', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'pagelens-cdp-'));
  // In a process group of its own: the cleanup ends its helper processes too, which write to the profile.
  const chrome = spawn(findChromium(), ['--headless', ...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no DevTools endpoint: ${err}`)), 20_000);
      chrome.stderr.on('data', (d) => {
        err += d;
        const m = /DevTools listening on (ws:\/\/\S+)/.exec(err);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      });
    });
    const r = await run(['snapshot', join(FIXTURES, 'frames-leaf.html'), '--cdp', endpoint]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(SemanticV3Result.parse(JSON.parse(r.stdout)).interactive_tree.map((n) => n.n), ['Leaf button', 'Leaf check']);
    assert.equal(chrome.exitCode, null, 'the remote browser is left running');
  } finally {
    const exited = chrome.exitCode !== null ? Promise.resolve() : new Promise((r) => chrome.once('exit', r));
    try { process.kill(-chrome.pid!, 'SIGKILL'); } catch { /* the group is gone already */ }
    await exited;
    // A helper killed with the group may still be closing a file of the profile for a moment.
    rmSync(profile, { recursive: true, force: true, maxRetries: 50, retryDelay: 200 });
  }
});

test('a hostile local page cannot read files next to its folder through the loopback server', async () => {
  const base = mkdtempSync(join(tmpdir(), 'pagelens-hostile-'));
  try {
    // The sibling's name starts with the served folder's name, which a prefix check lets through.
    const secret = 'SECRET-b41c9e';
    mkdirSync(join(base, 'site'));
    mkdirSync(join(base, 'site-secret'));
    writeFileSync(join(base, 'site-secret/secret.txt'), secret);
    // Synchronous XHR during parsing, so the answers are in the button before load, when the CLI reads it.
    writeFileSync(join(base, 'site/hostile.html'), `<!doctype html><title>Hostile</title><button id="b">waiting</button>
<script>
  const got = ['/..%2fsite-secret%2fsecret.txt', '/%E0%A4%A'].map((path) => {
    const x = new XMLHttpRequest();
    try { x.open('GET', path, false); x.send(); } catch { return 'error'; }
    return x.status === 200 ? '200 ' + x.responseText : String(x.status);
  });
  document.getElementById('b').textContent = 'fetched: ' + got.join(',');
</script>`);
    const r = await run(['snapshot', join(base, 'site/hostile.html')]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), 'the secret never reaches the output');
    const payload = SemanticV3Result.parse(JSON.parse(r.stdout));
    assert.deepEqual(payload.interactive_tree.map((n) => n.n), ['fetched: 403,400'],
      'refused as a way out of the folder (checked before the page-mode rules), and the server survived the malformed escape');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
