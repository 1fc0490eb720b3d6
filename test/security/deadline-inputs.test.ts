// Every call answers by its deadline (issue 37): two inputs that held the Node event loop of
// `pagelens mcp`, so that its --call-timeout never fired, every later call starved and SIGTERM
// was ignored. An extract schema's `pattern` that backtracks polynomially (^a*a*a*a*a*a*a*a*$ on
// 70 a's and a b) now runs on a linear-time engine; a page with 2 MB values (an attribute, a text
// node, an input's value) has them cut inside the page engine, so its `full` snapshot answers.
// Each test starts its own server: one that stays blocked must not take the next test with it.
import assert from 'node:assert/strict';
import { LEGACY_SHAPE } from '../support/mcp-shape.js';
import { createServer, type Server } from 'node:http';
import { after, test, type TestContext } from 'node:test';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { untemplatize } from '../../src/model/renderers/templatize.js';
import { INPUT_BOUNDS } from '../../src/model/safety/inputBounds.js';
import { withLinearPatterns } from '../../src/model/safety/linearPattern.js';
import { boundedCount, countTokensDetailed, EXACT_RUN_LIMIT, LONG_RUN_BUDGET, RUN_SAMPLE } from '../../src/model/renderers/tokens.js';
import { startHarness, type Harness } from '../support/harness.js';
import { BIN } from '../support/mcp-parity-helpers.js';

// The server's deadline, and the test's own generous bound on one call (only an answer at all
// before it is the claim; past it the SDK gives up and the test fails saying so).
const CALL_TIMEOUT_S = 30;
const CALL_BOUND_MS = 90_000;
const TEST_TIMEOUT_MS = 240_000;
const BIG = 2_000_000;

const pages: Record<string, string> = {
  // 70 a's then a b: each extra `a*` in the pattern multiplies the ways a backtracking engine tries.
  '/redos.html': `<!doctype html><title>Order</title><main><h1>Order details</h1><p>Code: ${'a'.repeat(70)}b</p><p>Total: $12.00</p></main>`,
  '/big.html': `<!doctype html><title>Big values</title><main><h1>Big values</h1>
    <div data-x="${'x'.repeat(BIG)}">attribute</div>
    <p>${'y'.repeat(BIG)}</p>
    <label>Note <input id="note"></label>
    <script>document.getElementById('note').value = 'z'.repeat(${BIG});</script>
    <button>Save</button></main>`,
};

let site: Server | undefined;
let siteUrl = '';
let harness: Harness | undefined;

async function startSite(): Promise<string> {
  if (site) return siteUrl;
  site = createServer((req, res) => {
    const body = pages[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  await new Promise<void>((r) => site!.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}`;
  return siteUrl;
}

interface Mcp { call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; ms: number }> }

/** A fresh `pagelens mcp --call-timeout 30` with its browser up and the page open, ended with the test. */
async function serverOn(t: TestContext, path: string): Promise<Mcp> {
  const url = await startSite();
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...LEGACY_SHAPE, '--offline', '--call-timeout', String(CALL_TIMEOUT_S)], env: { ...process.env } as Record<string, string>, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  const client = new Client({ name: 'pagelens-deadline-inputs-test', version: '0.0.0' });
  await client.connect(transport);
  t.after(async () => {
    const pid = transport.pid;
    await client.close().catch(() => {});
    // A server whose event loop is held ignores SIGTERM (and would hold a core for the next tests): ended by its id.
    if (pid) try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
  });
  const mcp: Mcp = {
    async call(name, args = {}) {
      const t0 = Date.now();
      // The SDK's own timeout is raised past the server's deadline: only the server should end a call.
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_BOUND_MS })
        .catch((e: Error) => { throw new Error(`${name} did not answer within ${CALL_BOUND_MS / 1000} s (${e.message}); server stderr:\n${stderr.slice(-2000)}`); });
      const content = r.content as Array<{ type: string; text?: string }>;
      return { text: content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'), isError: r.isError === true, ms: Date.now() - t0 };
    },
  };
  const opened = await mcp.call('browser_navigate', { url: url + path });
  assert.equal(opened.isError, false, opened.text);
  return mcp;
}

/** The attribute, the text node and the input's value of big.html, each cut where it entered, saying how long it was. */
function assertCut(dom: string): void {
  const marker = '…[cut: 2,000,000 chars]';
  assert.ok(dom.includes(`<div data-x="${'x'.repeat(INPUT_BOUNDS.attributeValue)}${marker}"`), 'the attribute');
  assert.ok(dom.includes(`>${'y'.repeat(INPUT_BOUNDS.textNode)}${marker}<`), 'the text node');
  assert.match(dom, /value="z{1000}…\[cut: 2,000,000 chars\]"/, 'the input\'s value');
  assert.ok(dom.length < INPUT_BOUNDS.textNode + 10_000, `${dom.length} chars`);
}

/** The server still serves calls: the tab list answers, and not with TIMEOUT. */
async function stillServed(mcp: Mcp): Promise<void> {
  const listed = await mcp.call('browser_tabs', { action: 'list' });
  assert.equal(listed.isError, false, listed.text);
  assert.match(listed.text, /^\* \d+: /m, listed.text);
}

after(async () => {
  site?.close();
  await harness?.close();
});

for (const pattern of ['^a*a*a*a*a*a*a*a*$', '^.*.*.*.*.*.*.*.*=$']) {
  test(`an extract schema with the polynomial pattern ${pattern} answers within the call deadline, and the next call is served`, { timeout: TEST_TIMEOUT_MS }, async (t) => {
    const mcp = await serverOn(t, '/redos.html');
    const schema = JSON.stringify({ type: 'object', properties: { code: { type: 'string', pattern } } });
    const r = await mcp.call('extract', { instruction: 'the order code', schema });
    t.diagnostic(`extract answered in ${r.ms} ms: ${r.text.slice(0, 300)}`);
    // A result (the code does not match) or BAD_INPUT: an answer, not the deadline's TIMEOUT.
    assert.doesNotMatch(r.text, /^TIMEOUT/, r.text);
    if (r.isError && /^BAD_INPUT/.test(r.text)) assert.match(r.text, /pattern/);
    else assert.match(r.text, /"code":"a{70}b"/, 'the value was found, and checked against the pattern');
    await stillServed(mcp);
  });
}

test('every pattern of a schema runs on the linear-time engine, wherever zod keeps it; zod\'s own formats are left alone', () => {
  const key = `${'a'.repeat(70)}b`;
  const cases: Array<[object, unknown]> = [
    [{ type: 'object', properties: { code: { type: 'string', pattern: '^a*a*a*a*a*a*a*a*$' } } }, { code: key }],
    // Inside closures of zod's converter: the additionalProperties check and the propertyNames guard.
    [{ type: 'object', patternProperties: { '^a*a*a*a*a*a*a*a*$': { type: 'string' } }, additionalProperties: false }, { [key]: 'x' }],
    [{ type: 'object', propertyNames: { pattern: '^.*.*.*.*.*.*.*.*=$' } }, { [key]: 'x' }],
    [{ type: 'array', items: { anyOf: [{ type: 'string', pattern: '^.*.*.*.*.*.*.*.*=$' }, { type: 'number' }] } }, [key]],
  ];
  for (const [schema, value] of cases) {
    const built = withLinearPatterns(schema, () => z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]));
    assert.equal(built.safeParse(value).success, false, JSON.stringify(schema));
  }
  assert.equal(globalThis.RegExp, RegExp, 'the global is put back');
  const fine = { type: 'object', properties: { total: { type: 'string', pattern: '^\\$\\d+\\.\\d{2}$' }, mark: { type: 'string', format: 'emoji' } } } as const;
  const built = withLinearPatterns(fine, () => z.fromJSONSchema(fine));
  assert.equal(built.safeParse({ total: '$12.00', mark: '🙂' }).success, true);
  assert.equal(built.safeParse({ total: '$12.0' }).success, false);
  // A value past the ceiling is matched on its first INPUT_BOUNDS.patternInput characters only.
  const tail = withLinearPatterns({ pattern: 'b$' }, () => z.fromJSONSchema({ type: 'string', pattern: 'b$' }));
  assert.equal(tail.safeParse(`${'a'.repeat(INPUT_BOUNDS.patternInput)}b`).success, false);
  assert.equal(tail.safeParse(`${'a'.repeat(INPUT_BOUNDS.patternInput - 1)}b`).success, true);
});

test('a pattern the linear-time engine cannot run is refused with BAD_INPUT saying why', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const mcp = await serverOn(t, '/redos.html');
  for (const [pattern, why] of [['^(?=a)a+b$', /lookaround/], ['^(?<!x)a+b$', /lookaround/], ['^(a)b\\1$', /backreference/]] as const) {
    const schema = JSON.stringify({ type: 'object', properties: { code: { type: 'string', pattern } } });
    const r = await mcp.call('extract', { instruction: 'the order code', schema });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /^BAD_INPUT/, r.text);
    assert.match(r.text, why, r.text);
  }
  await stillServed(mcp);
});

test('a full snapshot of a page with 2 MB values answers within the call deadline, cut with a marker, and the next call is served', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const mcp = await serverOn(t, '/big.html');
  const r = await mcp.call('page_snapshot', { mode: 'full', ceiling: 200_000 });
  t.diagnostic(`page_snapshot full answered in ${r.ms} ms, ${r.text.length} chars`);
  assert.equal(r.isError, false, r.text.slice(0, 500));
  assert.doesNotMatch(r.text, /answer cut at/, 'the whole answer fits in one page of 200,000 tokens');
  assertCut(untemplatize((JSON.parse(r.text) as { dom: string }).dom));
  // The default ceiling pages it; browser_more reads on.
  const paged = await mcp.call('page_snapshot', { mode: 'full' });
  assert.equal(paged.isError, false, paged.text.slice(0, 500));
  assert.match(paged.text, /\[page_snapshot answer cut at 8000 tokens: page 1 of \d+: browser_more page=2/, paged.text.slice(-300));
  const next = await mcp.call('browser_more', { page: 2 });
  assert.equal(next.isError, false, next.text.slice(0, 500));
  await stillServed(mcp);
});

test('the library: lens.snapshot full, skeleton and hybrid of a page with 2 MB values finish, bounded', { timeout: TEST_TIMEOUT_MS }, async () => {
  const url = await startSite();
  harness = await startHarness();
  const { lens } = await harness.openUrl(`${url}/big.html`);
  const full = await lens.snapshot({ mode: 'full' });
  assert.equal(full.mode, 'full');
  assert.ok(full.meta.rawChars < INPUT_BOUNDS.textNode + 10_000, `rawChars ${full.meta.rawChars}`);
  assertCut(untemplatize(full.dom));
  for (const mode of ['skeleton', 'hybrid'] as const) {
    const s = await lens.snapshot({ mode });
    assert.ok(JSON.stringify({ ...s, screenshot: '' }).length < 20_000, mode);
  }
});

test('counting the tokens of megabytes without a space merges a bounded amount, and says the count is an estimate', async () => {
  // BPE merges a chunk in time that grows with the square of its length: what is bounded is how
  // many characters go to the tokenizer in chunks of EXACT_RUN_LIMIT (2 MB of CJK took 15 s).
  // One run of 5 MB (the rest of it at its own rate), and 2,000 runs of 2,000 letters (each run met
  // past the budget at the rate of a sample): both within LONG_RUN_BUDGET of whole chunks.
  for (const huge of ['x'.repeat(5_000_000), `${'x'.repeat(2000)} `.repeat(2000)]) {
    const pieces: number[] = [];
    const spy = (text: string) => { pieces.push(text.length); return Math.ceil(text.length / 4); };
    const n = boundedCount(spy, huge);
    assert.equal(n.estimated, true);
    const whole = pieces.filter((p) => p > RUN_SAMPLE + 1).reduce((a, b) => a + b, 0);
    assert.ok(whole <= LONG_RUN_BUDGET + EXACT_RUN_LIMIT, `${whole} characters counted in whole chunks`);
    assert.ok(Math.abs(n.tokens - huge.length / 4) / (huge.length / 4) < 0.01, `${n.tokens} for ${huge.length / 4}`);
  }
  // The real tokenizer: answered, an estimate close to the count (1 token per 8 a's; 1 per CJK letter or so).
  const word = await countTokensDetailed('a'.repeat(5_000_000));
  assert.equal(word.estimated, true);
  assert.ok(Math.abs(word.tokens - 625_000) < 12_500, String(word.tokens));
  const cjk = Array.from({ length: 2_000_000 }, (_, i) => '的一是不了人我在有他这为之大来以个中上们'[(i * 7919) % 20]).join('');
  const counted = await countTokensDetailed(cjk);
  assert.equal(counted.estimated, true);
  assert.ok(counted.tokens > 500_000 && counted.tokens < 2_500_000, String(counted.tokens));
});
