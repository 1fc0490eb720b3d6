// observe / actOn / extract over the budgeted tree: offline with the heuristic ranker, and with an
// LLM chooser against a loopback server that speaks the Chat Completions protocol.
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { ChatClient, llmChooser, llmConfigFromEnv } from '../../src/agent/llm.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { FilteredResult } from '../../src/model/retrieval/rag.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { runCli } from '../support/cli-helpers.js';
import { FIXTURES, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const added = (page: { evaluate: (f: () => unknown) => Promise<unknown> }) => page.evaluate(() => (window as any).added);

test('observe ranks candidates with a description and the action that carries the instruction out', async () => {
  const { lens } = await h.open('rag-shop.html');
  const o = await lens.observe('add the Dell S2721DGF to the cart');
  const [top, next] = o.candidates;
  assert.equal(o.chooser, 'heuristic');
  assert.equal(o.ambiguous, false);
  assert.equal(top.role, 'button');
  assert.equal(top.name, 'Add to cart');
  assert.match(top.description, /card "Dell S2721DGF"/);
  assert.equal(top.suggestedAction, `click(${top.id})`);
  assert.ok(top.confidence > next.confidence, JSON.stringify(o.candidates));
  assert.ok(o.tokens <= 2000);

  const search = await lens.observe('type "curved" into the search box', { limit: 1 });
  assert.equal(search.candidates.length, 1);
  assert.equal(search.candidates[0].role, 'searchbox');
  assert.equal(search.candidates[0].suggestedAction, `setValue(${search.candidates[0].id}, "curved")`);
  await assert.rejects(lens.observe('  '), (e) => isPagelensError(e, 'BAD_INPUT'));
  await assert.rejects(lens.observe('x', { limit: 0 }), (e) => isPagelensError(e, 'BAD_INPUT'));
});

test('actOn refuses an ambiguous instruction with the candidates, and acts on a precise one with verification', async () => {
  const { page, lens } = await h.open('rag-shop.html');
  const vague = await lens.actOn('click Add to cart');
  assert.equal(vague.ok, false);
  assert.equal(vague.error?.code, 'AMBIGUOUS', JSON.stringify(vague));
  assert.match(vague.error!.message, /too closely/);
  assert.ok(vague.candidates.length >= 2 && vague.candidates.every((c) => c.name === 'Add to cart'), JSON.stringify(vague.candidates));
  assert.deepEqual(await added(page), [], 'nothing was clicked');

  const dell = await lens.actOn('add the Dell S2721DGF to the cart');
  assert.equal(dell.ok, true, JSON.stringify(dell));
  assert.equal(dell.verification?.success, true, JSON.stringify(dell.verification));
  assert.match(dell.chosen!.description, /Dell S2721DGF/);
  assert.deepEqual(await added(page), ['Dell S2721DGF']);

  const last = await lens.actOn('click the last Add to cart button');
  assert.equal(last.ok, true, JSON.stringify(last));
  assert.deepEqual(await added(page), ['Dell S2721DGF', 'AOC 27G2']);
});

test('actOn types into a field with verification, never echoes a password, and refuses what it cannot do', async () => {
  const { page, lens } = await h.open('rag-login.html');
  const email = await lens.actOn('type "ada@example.com" into Email address');
  assert.equal(email.ok, true, JSON.stringify(email));
  assert.equal(email.verification?.verifiedOutcome, 'value_changes');
  assert.equal(await page.inputValue('#em'), 'ada@example.com');

  const pw = await lens.actOn('type "hunter2" into the password field');
  assert.equal(pw.ok, true, JSON.stringify(pw));
  assert.ok(!JSON.stringify(pw).includes('hunter2'), 'the password is not in the result');
  assert.equal(await page.inputValue('#pw'), 'hunter2');

  const signIn = await lens.actOn('log in');
  assert.equal(signIn.ok, true, JSON.stringify(signIn));
  assert.equal(signIn.chosen?.name, 'Sign in');
  assert.equal(await page.textContent('#status'), 'Signing in…');

  const nothing = await lens.actOn('click the purple unicorn');
  assert.equal(nothing.ok, false);
  assert.equal(nothing.error?.code, 'NOT_ACTIONABLE', JSON.stringify(nothing));
  await assert.rejects(lens.actOn('enter your password'), (e) => isPagelensError(e, 'BAD_INPUT') && /what to type/.test(e.message));
  await assert.rejects(lens.actOn('what is the price'), (e) => isPagelensError(e, 'BAD_INPUT') && /extract/.test(e.message));
});

test('extract fills a zod schema from a product page, a list from its cards, and answers a question', async () => {
  const { lens } = await h.open('rag-shop.html');
  const Product = z.object({
    name: z.string(), price: z.number(), oldPrice: z.number(), brand: z.string(), rating: z.number(),
    inStock: z.boolean().describe('whether it is available'), refreshRate: z.string(),
  });
  const p = await lens.extract('the product on this page', Product);
  assert.equal(p.ok, true, JSON.stringify(p));
  assert.deepEqual(p.data, { name: 'Samsung Odyssey G7 27" Curved Gaming Monitor', price: 299.99, oldPrice: 379.99, brand: 'Samsung', rating: 4.6, inStock: true, refreshRate: '240 Hz' });
  assert.deepEqual(Object.keys(p.sources).sort(), Object.keys(Product.shape).sort());
  assert.equal(p.chooser, 'heuristic');

  const related = await lens.extract('the related products', z.array(z.object({ name: z.string(), price: z.number() })));
  assert.equal(related.ok, true, JSON.stringify(related));
  assert.deepEqual(related.data, [
    { name: 'LG UltraGear 27GP850', price: 349 }, { name: 'Dell S2721DGF', price: 279 }, { name: 'ASUS TUF VG27AQ', price: 259 }, { name: 'AOC 27G2', price: 199 },
  ]);

  // Without a schema, a plural instruction gets the rows with their values.
  const list = await lens.extract('list all related products');
  const items = (list.data as { items?: Array<{ name: string; value?: string }> }).items ?? [];
  assert.ok(items.some((i) => i.name.includes('Dell S2721DGF') && i.value?.includes('279')), JSON.stringify(list.data));
  assert.ok(items.length >= 4, JSON.stringify(list.data));

  const free = await lens.extract('what is the price of the Dell S2721DGF');
  assert.deepEqual(free.data, { extraction: '$279.00' });

  // A field the page does not have is missing, and the whole is not passed off as valid.
  const partial = await lens.extract('the product', z.object({ name: z.string(), warrantyYears: z.number() }));
  assert.equal(partial.ok, false);
  assert.ok(partial.missing.includes('warrantyYears'), JSON.stringify(partial));
  assert.equal(partial.data, undefined);
  assert.ok(partial.issues?.some((i) => i.startsWith('warrantyYears')));
  await assert.rejects(lens.extract('x', { not: 'a schema' } as never), (e) => isPagelensError(e, 'BAD_INPUT'));
});

// ---- the LLM path, against a loopback Chat Completions server ----

interface Exchange { body: { model: string; messages: Array<{ role: string; content: string }>; response_format?: unknown }; headers: IncomingHttpHeaders }

async function chatServer(answer: (body: Exchange['body'], n: number) => string) {
  const requests: Exchange[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => { raw += d; });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') { res.writeHead(404).end(); return; }
      const body = JSON.parse(raw) as Exchange['body'];
      requests.push({ body, headers: req.headers });
      const content = answer(body, requests.length);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `c${requests.length}`, object: 'chat.completion', model: body.model, choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The tree the model was shown (the first user message carries it). */
function treeOf(body: Exchange['body']): FilteredResult {
  const user = body.messages.find((m) => m.role === 'user')!.content;
  return JSON.parse(user.slice(user.indexOf('Tree: ') + 'Tree: '.length)) as FilteredResult;
}

test('with an LLM: it chooses among the budgeted candidates, an invalid answer is retried once, extract fills the schema', async () => {
  // The model first names an ID that is not in the tree, then the Dell card's button.
  const choose = await chatServer((body, n) => {
    if (n === 1) return JSON.stringify({ choices: [{ id: '99999', confidence: 0.9 }] });
    const tree = treeOf(body);
    const group = tree.groups.find((g) => g.in.includes('Dell'))!;
    const button = tree.tree.find((t) => group.ids.includes(t.i) && t.r === 'btn')!;
    return '```json\n' + JSON.stringify({ choices: [{ id: button.i, confidence: 0.95, reason: "the Dell card's button" }], ambiguous: false }) + '\n```';
  });
  try {
    const { page, lens } = await h.open('rag-shop.html');
    const chooser = llmChooser(new ChatClient({ baseUrl: choose.url, apiKey: 'test-key', model: 'test-model' }));
    // Offline this is too close to call (five "Add to cart"); the model decides.
    const r = await lens.actOn('click Add to cart', { chooser });
    assert.equal(r.ok, true, JSON.stringify(r));
    assert.equal(r.chooser, 'llm:test-model');
    assert.deepEqual(await added(page), ['Dell S2721DGF']);
    assert.equal(choose.requests.length, 2, 'one invalid answer, one retry');
    const [first, retry] = choose.requests;
    assert.equal(first.headers.authorization, 'Bearer test-key');
    assert.equal(first.body.model, 'test-model');
    assert.deepEqual(first.body.response_format, { type: 'json_object' });
    assert.ok(await countTokens(first.body.messages[1].content) <= 2200, 'the model sees the budgeted tree, not the page');
    assert.deepEqual(retry.body.messages.map((m) => m.role), ['system', 'user', 'assistant', 'user']);
    assert.match(retry.body.messages[3].content, /"99999" is not the i of any node/);
  } finally {
    await choose.close();
  }

  const fill = await chatServer((body) => {
    const tree = treeOf(body);
    const h1 = tree.tree.find((t) => t.r === 'h1')!;
    const price = tree.tree.find((t) => t.r === 'val' && t.n === 'price')!;
    return JSON.stringify({ data: { name: h1.n, price: Number(price.v!.replace('$', '')) }, sources: { name: h1.i, price: price.i } });
  });
  try {
    const { lens } = await h.open('rag-shop.html');
    const chooser = llmChooser(new ChatClient({ baseUrl: fill.url, model: 'test-model' }));
    const x = await lens.extract('the product', z.object({ name: z.string(), price: z.number() }), { chooser });
    assert.equal(x.ok, true, JSON.stringify(x));
    assert.deepEqual(x.data, { name: 'Samsung Odyssey G7 27" Curved Gaming Monitor', price: 299.99 });
    assert.deepEqual(Object.keys(x.sources).sort(), ['name', 'price']);
    assert.equal(x.chooser, 'llm:test-model');
    assert.equal(fill.requests[0].headers.authorization, undefined, 'no key, no header');
    assert.match(fill.requests[0].body.messages[1].content, /"price":\{"type":"number"\}/);
  } finally {
    await fill.close();
  }
});

test('with an LLM that answers garbage twice: the offline ranking is used, and said', async () => {
  const broken = await chatServer(() => 'I think it is the blue one');
  try {
    const { lens } = await h.open('rag-login.html');
    const o = await lens.observe('log in', { chooser: llmChooser(new ChatClient({ baseUrl: broken.url, model: 'm' })) });
    assert.equal(broken.requests.length, 2);
    assert.equal(o.chooser, 'heuristic');
    assert.ok(o.warnings?.some((w) => /llm:m failed .*invalid JSON twice/.test(w)), JSON.stringify(o.warnings));
    assert.equal(o.candidates[0].name, 'Sign in');
  } finally {
    await broken.close();
  }
  assert.equal(llmConfigFromEnv({}), null);
  assert.deepEqual(llmConfigFromEnv({ OPENAI_API_KEY: 'k' }), { baseUrl: 'https://api.openai.com/v1', apiKey: 'k', model: 'gpt-4o-mini' });
  assert.deepEqual(llmConfigFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1/', PAGELENS_MODEL: 'local' }), { baseUrl: 'http://127.0.0.1:9/v1', model: 'local' });
});

test('the command line: snapshot --query --max-tokens, observe, extract --schema; misplaced flags refused before a browser starts', { timeout: 120_000 }, async () => {
  const shop = join(FIXTURES, 'rag-shop.html');
  const snap = await runCli(['snapshot', shop, '--query', 'price of the Dell S2721DGF', '--max-tokens', '500']);
  assert.equal(snap.code, 0, snap.stderr);
  const p = FilteredResult.parse(JSON.parse(snap.stdout));
  assert.ok(p.tokens <= 500 && await countTokens(snap.stdout.trim()) <= 500);
  assert.match(snap.stderr, /nodes kept .* tokens \(o200k, limit 500\)/);

  const env = { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' };
  const obs = await runCli(['observe', shop, 'add the Dell S2721DGF to the cart'], { env });
  assert.equal(obs.code, 0, obs.stderr);
  assert.match(JSON.parse(obs.stdout).candidates[0].description, /Dell/);
  assert.match(obs.stderr, /\(heuristic, from a \d+-token tree\), best click\(/);

  const ext = await runCli(['extract', shop, 'the product', '--schema', '{"name":"string","price":"number","brand":"string"}'], { env });
  assert.equal(ext.code, 0, ext.stderr);
  assert.deepEqual(JSON.parse(ext.stdout).data, { name: 'Samsung Odyssey G7 27" Curved Gaming Monitor', price: 299.99, brand: 'Samsung' });

  const noBrowser = { PAGELENS_CHROMIUM: '/nonexistent/chromium', PAGELENS_DEBUG: '' };
  for (const [args, flag] of [
    [['snapshot', 'http://127.0.0.1:9/x.html', '--max-tokens', '500'], '--max-tokens'],
    [['snapshot', 'http://127.0.0.1:9/x.html', '--query', 'x', '--mode', 'semantic'], '--query'],
    [['snapshot', 'http://127.0.0.1:9/x.html', '--query', 'x', '--full-page'], '--full-page'],
    [['snapshot', 'http://127.0.0.1:9/x.html', '--query', 'x', '--max-tokens', 'lots'], '--max-tokens'],
    [['extract', 'http://127.0.0.1:9/x.html', 'x', '--schema', '{"a":"date"}'], '--schema'],
  ] as Array<[string[], string]>) {
    const r = await runCli(args, { env: noBrowser });
    assert.notEqual(r.code, 0, args.join(' '));
    assert.match(r.stderr, /^pagelens: BAD_INPUT: /, args.join(' '));
    assert.ok(r.stderr.includes(flag), `${args.join(' ')}: ${r.stderr}`);
  }
});

test('observe and regions number the page\'s regions the same way: the region observe names holds its candidate', async () => {
  const { page, lens } = await h.open('rag-shop.html');
  // The navigation comes last in the document but stands first on the screen: reading order and
  // the page's layout disagree about which region is first.
  await page.setContent(`<main style="margin-top: 80px"><h1>Trail shoes</h1><p>Light, grippy, waterproof.</p><button>Add to basket</button></main>
    <nav aria-label="Site" style="position: absolute; top: 0; left: 0"><a href="#home">Home</a> <a href="#help">Help</a></nav>`);
  await lens.regions();
  // A banner appears above them later: the regions keep their IDs (R0, R1) and it takes the next one.
  await page.evaluate(() => document.body.insertAdjacentHTML('afterbegin', '<header style="height: 60px"><a href="#cart">Cart</a></header>'));
  const regions = await lens.regions({ refresh: true });
  for (const instruction of ['open the Help page', 'add to basket', 'open the cart']) {
    const top = (await lens.observe(instruction)).candidates[0];
    assert.ok(top, instruction);
    const rid = /\bin (R\d+)\b/.exec(top.description)?.[1];
    assert.ok(rid, top.description);
    assert.ok(regions.regions.some((r) => r.id === rid), `${rid} is one of the regions listed: ${regions.regions.map((r) => r.id).join(', ')}`);
    const expanded = await lens.expandRegion(rid, { limit: 500 });
    assert.ok(expanded.elements.some((e) => JSON.stringify(e).includes(`"${top.id}"`)), `${rid} (${top.description}) holds ${top.id}: ${expanded.text}`);
  }
});
