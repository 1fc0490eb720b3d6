// DOM RAG: the part of a page that matters for a task, within a hard token ceiling, with an
// account of what was left out. The reading of instructions and the lexical relevance are pure;
// chunking, the ceiling and the account are checked on real pages in real Chromium.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readsOf } from '../../src/browser/lens.js';
import { filterPage, readTaskNodes } from '../../src/core/rag.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { coversTarget, parseIntent } from '../../src/model/tasks/intent.js';
import { splitTask } from '../../src/model/tasks/tasks.js';
import { isAmount } from '../../src/model/retrieval/money.js';
import { chunkDomNodes, FilteredResult, getDomStats, indexChunks, needsFiltering, nodeBag, scoreChunkRelevance, type Chunk, type RagNode } from '../../src/model/retrieval/rag.js';
import { countTokens } from '../../src/model/renderers/tokens.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** Every node is accounted for: kept in the tree or counted in exactly one region's omitted line. */
function assertAccountAddsUp(p: FilteredResult): void {
  const left = p.omitted.reduce((s, o) => s + o.omitted, 0);
  assert.equal(p.filteredCount, p.tree.length);
  assert.equal(p.filteredCount + left, p.originalCount, `${p.filteredCount} kept + ${left} omitted ≠ ${p.originalCount}: ${JSON.stringify(p.omitted)}`);
  assert.equal(new Set(p.tree.map((n) => n.i)).size, p.tree.length, 'no node twice');
  assert.deepEqual(p.groups.flatMap((g) => g.ids).sort(), p.tree.map((n) => n.i).sort(), 'every kept node sits in one group');
}

async function assertWithin(p: FilteredResult, maxTokens: number): Promise<void> {
  const real = await countTokens(JSON.stringify(p));
  assert.ok(real <= maxTokens, `payload is ${real} tokens, over the ceiling of ${maxTokens}`);
  assert.equal(p.tokens, real, 'the payload states its own size');
  assert.equal(p.maxTokens, maxTokens);
}

test('instructions: verb, quoted value, target and context words, ordinals, positions, colours', () => {
  const typed = parseIntent('type "ada@example.com" into the Email field');
  assert.equal(typed.verb, 'type');
  assert.equal(typed.value, 'ada@example.com');
  assert.deepEqual(typed.target, ['email']);
  assert.ok(typed.roles.includes('textbox'));

  const second = parseIntent('click the second "Add to cart" button');
  assert.deepEqual([second.verb, second.ordinal, second.target, second.roles], ['click', 2, ['add', 'cart'], ['button']]);
  assert.equal(second.value, undefined, 'a quoted name to click is not a value');

  assert.deepEqual(pick(parseIntent('select "Express (1 day)" from Shipping')), { verb: 'select', value: 'Express (1 day)', target: ['shipping'] });
  assert.deepEqual(pick(parseIntent('search for wireless headphones')), { verb: 'type', value: 'wireless headphones', target: ['search'] });
  // Unquoted values keep the case the instruction wrote them in.
  assert.deepEqual(pick(parseIntent('type Bob into the Name field')), { verb: 'type', value: 'Bob', target: ['name'] });
  assert.deepEqual(pick(parseIntent('select Express (1 day) in Shipping')), { verb: 'select', value: 'Express (1 day)', target: ['shipping'] });
  assert.deepEqual(pick(parseIntent('uncheck "Keep me signed in"')), { verb: 'uncheck', target: ['remember'] });
  assert.deepEqual(pick(parseIntent('Navigate to https://example.com/a?b=1')), { verb: 'navigate', value: 'https://example.com/a?b=1', target: [] });
  assert.equal(parseIntent('scroll down the results').direction, 'down');
  assert.equal(parseIntent('done').verb, 'done');

  const price = parseIntent("what's the price of the Dell monitor?");
  assert.deepEqual([price.verb, price.target, price.within], ['extract', ['price'], ['dell', 'monitor']]);
  const add = parseIntent('add the Samsung Odyssey G7 to my basket');
  assert.deepEqual([add.verb, add.explicitVerb, add.target, add.within], ['click', true, ['add', 'basket'], ['samsung', 'odyssey', 'g7']]);
  const del = parseIntent("click the delete button of 'Buy milk'");
  assert.deepEqual([del.target, del.within], [['delete'], ['buy', 'milk']]);

  const corner = parseIntent('click the red button in the top-right corner');
  assert.deepEqual([corner.colors, corner.position], [['red'], { vertical: 'top', horizontal: 'right' }]);
  assert.equal(parseIntent('click back to top').position, undefined, '"to top" is a destination');
  assert.deepEqual(parseIntent('type "x" into the help center box').target, ['help', 'center'], 'a position word inside a name stays a word');
  assert.equal(parseIntent('click the last Remove button').ordinal, -1);
  assert.deepEqual(pick(parseIntent('Sign in')), { verb: 'click', target: ['login'] });
  // Target words are compared the way they were read: "log in" is covered by a button "Sign in".
  assert.equal(coversTarget('Sign in', parseIntent('log in')), 1);
  assert.equal(coversTarget('Email address', parseIntent('type your e-mail')), 1);
  assert.equal(coversTarget('Newsletter', parseIntent('type your e-mail')), 0);
});

test('quotes: a quoted target name is kept verbatim, a quote that says where or gives a value is not; "one" can be a name', () => {
  assert.equal(parseIntent('Click "tortor."').exactName, 'tortor.');
  assert.equal(parseIntent('check “Remember me”').exactName, 'Remember me', 'curly quotes too');
  assert.equal(parseIntent('click the delete button of "Buy milk"').exactName, undefined, 'the quote names the row, not the button');
  assert.equal(parseIntent('type "ada" into Name').exactName, undefined, 'the quote is the value');
  assert.equal(parseIntent('click "x"').exactName, undefined, 'a glyph is named by what it does (Close)');
  assert.deepEqual(pick(parseIntent('Click button ONE')), { verb: 'click', target: ['one'] });
  assert.deepEqual(pick(parseIntent('click the blue one')), { verb: 'click', target: [] });
  // Task splitting reads quotes the same way: a separator inside a curly single quote is part of the value.
  assert.deepEqual(splitTask('Type “a, b” into Name, then click ‘Save, then close’; select "x; y" in Z'),
    ['Type “a, b” into Name', 'click ‘Save, then close’', 'select "x; y" in Z']);
});

function pick(i: ReturnType<typeof parseIntent>): object {
  return { verb: i.verb, ...(i.value !== undefined && { value: i.value }), target: i.target };
}

test('relevance: stemming and UI synonyms ("log in" finds "Sign in", "basket" finds "cart"), idf over the page', () => {
  const node = (gid: string, role: string, name: string, extra: Partial<RagNode> = {}): RagNode => ({ gid, role, name, states: [], box: [0, Number(gid) * 40, 100, 20], frame: 0, kind: 'control', path: [], order: Number(gid), ...extra });
  const chunk = (id: string, nodes: RagNode[]): Chunk => ({ id, region: 'R0', regionLabel: 'MAIN', label: `R0 MAIN ${id}`, nodes, context: '' });
  const chunks = [
    chunk('C1', [node('1', 'button', 'Sign in'), node('2', 'textbox', 'Email address', { attrs: { name: 'login_email' } })]),
    chunk('C2', [node('3', 'link', 'Shopping cart (2)')]),
    chunk('C3', [node('4', 'link', 'Prices and plans'), node('5', 'link', 'About us')]),
  ];
  const corpus = indexChunks(chunks);
  const best = (q: string) => [...chunks].sort((a, b) => scoreChunkRelevance(b, q, corpus) - scoreChunkRelevance(a, q, corpus))[0].id;
  assert.equal(best('log in'), 'C1');
  assert.equal(best('go to my basket'), 'C2');
  assert.equal(best('pricing'), 'C3', 'stemming: pricing ~ prices');
  assert.equal(best('type your e-mail'), 'C1');
  assert.equal(scoreChunkRelevance(chunks[2], 'log in', corpus), 0, 'nothing in common, nothing scored');
  const stats = getDomStats(chunks.flatMap((c) => c.nodes));
  assert.equal(stats.total, 5);
  assert.equal(needsFiltering(chunks.flatMap((c) => c.nodes)), false);
  assert.equal(needsFiltering(chunks.flatMap((c) => c.nodes), { maxNodes: 3 }), true);
});

test('chunking keeps each product card and each form whole', async () => {
  const { lens } = await h.open('rag-shop.html');
  const { model, nodes } = await readTaskNodes(readsOf(lens).rag, { content: true });
  const chunks = chunkDomNodes(nodes);
  const chunkOf = new Map<string, string>();
  for (const c of chunks) for (const n of c.nodes) { assert.ok(!chunkOf.has(n.gid), `${n.gid} is in two chunks`); chunkOf.set(n.gid, c.id); }
  assert.equal(chunkOf.size, nodes.length, 'every node is in a chunk');

  const cards = model.structure.filter((s) => s.kind === 'row');
  assert.deepEqual(cards.map((c) => c.name), ['LG UltraGear 27GP850', 'Dell S2721DGF', 'ASUS TUF VG27AQ', 'AOC 27G2']);
  for (const card of cards) {
    const inCard = nodes.filter((n) => n.path.some((p) => p.gid === card.gid));
    assert.deepEqual(inCard.map((n) => n.role).sort(), ['button', 'item'], `card ${card.name}: its name (with its price) and its button`);
    assert.equal(new Set(inCard.map((n) => chunkOf.get(n.gid))).size, 1, `card ${card.name} is split`);
    assert.match(chunks.find((c) => c.id === chunkOf.get(inCard[0].gid))!.label, new RegExp(`card "${card.name}"`));
  }
  const form = model.structure.find((s) => s.kind === 'form' && s.role === 'form' && !s.name)!;
  const inForm = nodes.filter((n) => n.path.some((p) => p.gid === form.gid));
  assert.deepEqual(inForm.map((n) => n.name), ['Quantity', 'Add to cart', 'Add to wishlist']);
  assert.equal(new Set(inForm.map((n) => chunkOf.get(n.gid))).size, 1, 'the buy form is split');
  // The 24 category links are a region of their own, not mixed into the product.
  const navChunks = chunks.filter((c) => c.nodes.some((n) => n.name === 'Monitors' && n.role === 'link' && n.path.some((p) => p.name === 'Categories')));
  assert.equal(navChunks.length, 1);
  assert.ok(navChunks[0].nodes.every((n) => n.role === 'link'));
});

test('a query snapshot: the content asked about, within the ceiling, every other node accounted for by region; its IDs act', async () => {
  const { page, lens } = await h.open('rag-shop.html');
  // A plain snapshot never runs the content pass: the card's price carries no ID yet.
  await lens.snapshot({ fullPage: true });
  const priceTagged = () => page.evaluate(() => document.querySelectorAll('.card .price')[1].hasAttribute('data-llm-id'));
  assert.equal(await priceTagged(), false);

  const p = await lens.snapshot({ query: 'price of the Dell S2721DGF', maxTokens: 600 });
  FilteredResult.parse(p);
  assert.equal(p.mode, 'filtered');
  await assertWithin(p, 600);
  assertAccountAddsUp(p);
  const dell = p.tree.find((n) => n.r === 'item' && n.n === 'Dell S2721DGF');
  assert.deepEqual(dell && { n: dell.n, v: dell.v }, { n: 'Dell S2721DGF', v: '$279.00' }, JSON.stringify(p.tree));
  const best = [...p.groups].sort((a, b) => b.rel - a.rel)[0];
  assert.match(best.in, /card "Dell S2721DGF"/, `the Dell card is the most relevant group: ${JSON.stringify(p.groups)}`);
  assert.ok(p.tokenReduction > 50, `reduction ${p.tokenReduction}%`);
  const nav = p.omitted.find((o) => o.region.startsWith('R1 NAV "Categories"'));
  assert.deepEqual(nav && [nav.omitted, nav.what], [24, '24 links (Categories)']);
  assert.equal(await priceTagged(), true, 'the content pass ran for the query');

  // Content questions get content: a labelled value from a definition list.
  const spec = await lens.snapshot({ query: 'what is the refresh rate', maxTokens: 400 });
  await assertWithin(spec, 400);
  assert.ok(spec.tree.some((n) => n.r === 'val' && n.n === 'Refresh rate' && n.v === '240 Hz'), JSON.stringify(spec.tree));

  // The IDs are handed out: the Dell card's button, from the payload, acts.
  const q = await lens.snapshot({ query: 'add the Dell S2721DGF to the cart', maxTokens: 500 });
  const group = q.groups.find((g) => g.in.includes('card "Dell S2721DGF"'))!;
  const button = q.tree.find((n) => group.ids.includes(n.i) && n.r === 'btn')!;
  const r = await lens.act(`click(${button.i})`);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(await page.evaluate(() => (window as any).added), ['Dell S2721DGF']);
});

test('the token ceiling holds on a 20,000-element page, and the omitted account adds up', { timeout: 180_000 }, async () => {
  const { page, lens } = await h.open('rag-huge.html');
  assert.ok(await page.evaluate(() => document.getElementsByTagName('*').length) >= 20_000);
  for (const maxTokens of [2000, 400]) {
    const p = await lens.snapshot({ query: 'add Product 1234 to the cart', maxTokens });
    await assertWithin(p, maxTokens);
    assertAccountAddsUp(p);
    assert.ok(p.originalCount > 10_000, `${p.originalCount} nodes read`);
    const card = p.groups.find((g) => g.in.includes('card "Product 1234"'));
    assert.ok(card, `${maxTokens} tokens: the card of Product 1234 is kept: ${JSON.stringify(p.groups)}`);
    assert.ok(p.tree.some((n) => card.ids.includes(n.i) && n.r === 'btn' && n.n === 'Add to cart'));
    assert.deepEqual(p.omitted.map((o) => o.region.split(' ')[1]), ['HEADER', 'NAV', 'MAIN', 'FOOTER']);
    assert.match(p.omitted.find((o) => o.region.includes('NAV'))!.what, /^400 links/);
  }
  // A broad query fills the budget, and still never passes it.
  const broad = await lens.snapshot({ query: 'reorder a shipped order', maxTokens: 1000 });
  await assertWithin(broad, 1000);
  assertAccountAddsUp(broad);
  assert.ok(broad.tree.some((n) => n.n === 'Reorder'));
  // A ceiling below the account of what was left out cannot be met: refused, not exceeded.
  await assert.rejects(lens.snapshot({ query: 'add Product 1234 to the cart', maxTokens: 30 }), (e) => isPagelensError(e, 'BAD_INPUT') && /below the smallest payload/.test(e.message));
});

test('a field found by its label, by its placeholder and by a synonym', async () => {
  const { lens } = await h.open('rag-login.html');
  const model = await lens.model({ fullPage: true, attributes: true });
  const id = (name: string) => model.nodes.find((n) => n.attrs?.name === name)!.gid;
  const signIn = model.nodes.find((n) => n.role === 'button' && n.name === 'Sign in')!.gid;
  const cases: Array<[string, string, string]> = [
    ['label', 'type "ada@example.com" into Email address', id('login_email')],
    ['placeholder', 'type "refund" into the help center box', id('kw')],
    ['synonym (log in → Sign in)', 'log in', signIn],
    ['synonym (e-mail → Email)', 'enter your e-mail', id('login_email')],
    ['synonym (sign up → Create account)', 'sign up', model.nodes.find((n) => n.name === 'Create account')!.gid],
  ];
  for (const [how, query, expected] of cases) {
    const p = await lens.snapshot({ query, maxTokens: 300 });
    await assertWithin(p, 300);
    assertAccountAddsUp(p);
    assert.ok(p.tree.some((n) => n.i === expected), `${how}: "${query}" keeps ${expected}: ${JSON.stringify(p.tree)}`);
    const o = await lens.observe(query);
    assert.equal(o.candidates[0]?.id, expected, `${how}: "${query}" ranks ${expected} first: ${JSON.stringify(o.candidates.slice(0, 3))}`);
  }
  // The placeholder is all that names the search field here: its accessible name is "Query".
  assert.equal(model.nodes.find((n) => n.gid === id('kw'))!.name, 'Query');
});

test('a re-ranker can reorder the chunks; one that fails is said, and the lexical ranking stands', async () => {
  const { lens } = await h.open('rag-login.html');
  const core = readsOf(lens).rag;
  const footerFirst = { rerank: async (_q: string, chunks: Array<{ label: string }>) => chunks.map((c) => (c.label.includes('FOOTER') ? 0.9 : 0.05)) };
  const ranked = await filterPage(core, { query: 'log in', maxTokens: 500, content: true, reranker: footerFirst });
  assert.match(ranked.payload.groups.sort((a, b) => b.rel - a.rel)[0].in, /FOOTER/);
  const broken = { rerank: async () => { throw new Error('embedding service down'); } };
  const lexical = await filterPage(core, { query: 'log in', maxTokens: 500, content: true, reranker: broken });
  assert.ok(lexical.payload.warnings?.some((w) => /re-ranker failed \(.*embedding service down/.test(w)), JSON.stringify(lexical.payload.warnings));
  assert.match(lexical.payload.groups.sort((a, b) => b.rel - a.rel)[0].in, /MAIN › form/);
});

test('amounts of money in any currency a shop prints: signs and codes, before or after the number', () => {
  for (const t of ['$299.99', '16,90 €', 'CHF 19.50', 'Rs 23,450', 'R$ 10,00', '1 299 kr', '¥1,200', 'EUR 5']) assert.ok(isAmount(t), t);
  for (const t of ['Art.1049084', '15 Farben', 'Version 2.0', 'ABC123', 'Mars 2021', '12 krona']) assert.ok(!isAmount(t), t);
});

test('a heading that carries an amount among its words says a price', () => {
  const heading: RagNode = { gid: '9', role: 'heading', name: 'Indesit Washing Machine 6kg - £50 (Salford)', states: [], box: [0, 0, 10, 10], frame: 0, kind: 'heading', path: [], order: 0 };
  assert.ok(nodeBag(heading).tf.has('price'));
  assert.ok(!nodeBag({ ...heading, name: 'Indesit Washing Machine 6kg (Salford)' }).tf.has('price'));
});
