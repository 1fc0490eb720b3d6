// extract() answers for the page's main item or says it cannot: the price of the product (not a
// recommendation's, not a saving), its name (not a reviews button), its declared brand, one value
// per field asked for, and the reason for each field it could not find.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { z } from 'zod';
import { fieldsAsked } from '../../src/model/retrieval/extract.js';
import { productFacts } from '../../src/model/retrieval/productFacts.js';
import { priceOf } from '../../src/model/retrieval/prices.js';
import { currencyOf } from '../../src/model/retrieval/money.js';
import { productCards } from '../../src/model/retrieval/mainItem.js';
import type { RagNode } from '../../src/model/retrieval/ragNodes.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const Product = z.object({ name: z.string(), price: z.number(), brand: z.string().optional() });

test('the price and name are the main item\'s: not a recommendation card\'s price, not "Save 20%", not a reviews button', async () => {
  const { lens } = await h.open('extract-product.html');
  const r = await lens.extract('the product', Product);
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.data?.price, 34.99, JSON.stringify(r));
  assert.equal(r.data?.name, 'Trail Runner 2', JSON.stringify(r));
  // No brand is shown or declared: missing, with the reason; "Our Brands" in the header is no brand.
  assert.equal(r.data?.brand, undefined, JSON.stringify(r));
  assert.ok(r.missing.includes('brand'));
  assert.match(r.reasons?.brand ?? '', /no brand/);
});

test('without a schema, a request for three fields answers each, and names what it could not find', async () => {
  const { lens } = await h.open('extract-product.html');
  const r = await lens.extract("the product's name, price and brand");
  const data = r.data as Record<string, unknown>;
  assert.equal(data.name, 'Trail Runner 2', JSON.stringify(r));
  assert.match(String(data.price), /34\.99/, JSON.stringify(r));
  assert.deepEqual(r.missing, ['brand'], JSON.stringify(r));
  assert.equal(r.ok, false, 'a field asked for is missing');
  assert.ok(r.reasons?.brand);
});

test('a price only a recommendation shows is no price of the product: missing, with the reason', async () => {
  const { page, lens } = await h.open('extract-product.html');
  await page.evaluate(() => document.querySelector('.price-row')!.remove());
  const r = await lens.extract('the product', z.object({ name: z.string(), price: z.number().optional() }));
  assert.equal(r.data?.price, undefined, JSON.stringify(r));
  assert.ok(r.missing.includes('price'));
  assert.match(r.reasons?.price ?? '', /Trail Runner 2/);
});

test('structured data: the declared price picks the shown one, the declared brand is the brand', async () => {
  const { page, lens } = await h.open('extract-product.html');
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.type = 'application/ld+json';
    s.textContent = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Trail Runner 2', brand: { '@type': 'Brand', name: 'Peakline' }, offers: { '@type': 'Offer', price: '34.99', priceCurrency: 'GBP' } });
    document.head.append(s);
  });
  const r = await lens.extract('the product', z.object({ name: z.string(), price: z.number(), currency: z.string(), brand: z.string() }));
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.deepEqual(r.data, { name: 'Trail Runner 2', price: 34.99, currency: 'GBP', brand: 'Peakline' });
  assert.ok(r.sources.price, 'the shown price is the source');
});

test('fields listed in an instruction; structured data read defensively', () => {
  assert.deepEqual(Object.keys(fieldsAsked("the product's name, price and brand")?.properties ?? {}), ['name', 'price', 'brand']);
  assert.deepEqual(Object.keys(fieldsAsked('get the title, author & publication date')?.properties ?? {}), ['title', 'author', 'publicationDate']);
  assert.equal(fieldsAsked('what is the price of the Dell S2721DGF'), undefined);
  const facts = productFacts({
    doc: 'x',
    jsonLd: ['not json', JSON.stringify({ '@graph': [{ '@type': 'WebPage' }, { '@type': ['Product'], brand: 'Acme', offers: [{ '@type': 'AggregateOffer', lowPrice: 12.5 }], isRelatedTo: { '@type': 'Product', offers: { price: 99 } } }] })],
    props: [{ name: 'price', value: '14.00', depth: 2 }, { name: 'price', value: '99.00', depth: 4 }],
    meta: [{ name: 'product:price:amount', value: '12.50' }],
  });
  assert.deepEqual(facts.prices, [12.5, 14]);
  assert.equal(facts.brand, 'Acme');
});

test('a saving is no price: "Save 20% — now £34.99" states 34.99, "Save 20%" alone none', () => {
  assert.equal(priceOf('Save 20% — now £34.99', false), 34.99);
  assert.equal(priceOf('Save 20%', true), undefined);
  assert.equal(priceOf('You save £9.00 (20%)', false), undefined);
  assert.equal(priceOf('-15 % 16,90 €', false), 16.9);
  assert.equal(priceOf('129.00', true), 129);
  assert.equal(priceOf('129.00', false), undefined);
});

const Offer = z.object({ name: z.string().nullable().optional(), price: z.number().nullable().optional(), currency: z.string().nullable().optional(), brand: z.string().nullable().optional() });

test('the price the product shows beats the markup of other products\' cards; JSON-LD wrapped in CDATA, with a raw line break, is read', async () => {
  const { lens } = await h.open('extract-markup.html');
  const r = await lens.extract('the product', Offer);
  assert.equal(r.data?.price, 229.99, JSON.stringify(r));
  assert.equal(r.data?.currency, '$', JSON.stringify(r));
  assert.equal(r.data?.brand, 'Voltaic', JSON.stringify(r));
});

test('an amount above the product\'s name is another product\'s: no price, with the reason; a byline link names the brand', async () => {
  const { lens } = await h.open('extract-out-of-stock.html');
  const r = await lens.extract('the product', Offer);
  assert.equal(r.data?.price ?? null, null, JSON.stringify(r));
  assert.ok(r.missing.includes('price'), JSON.stringify(r));
  assert.match(r.reasons?.price ?? '', /Sea Salt Crisps/);
  assert.equal(r.data?.brand, 'Acme Foods', JSON.stringify(r));
});

test('the current price, not the one before it: "€ 17,10 € 18,00 -5%" with the regular price declared and listed ("Listino")', async () => {
  const { lens } = await h.open('extract-list-price.html');
  const r = await lens.extract('the product', Offer);
  assert.equal(r.data?.price, 17.1, JSON.stringify(r));
  assert.equal(r.data?.currency, 'EUR', JSON.stringify(r));
});

test('a product laid out in table rows: its rows are its own; an old price before it, "72 折" and "1點=1元" are no price; 元 is a currency', async () => {
  const { lens } = await h.open('extract-layout-table.html');
  const r = await lens.extract('the product', Offer);
  assert.equal(r.data?.name, 'UNIFLAME 不鏽鋼碗籃組 660416', JSON.stringify(r));
  assert.equal(r.data?.price, 2320, JSON.stringify(r));
  assert.equal(r.data?.currency, '元', JSON.stringify(r));
});

test('the brand from a byline in another language, else from a spec table far below the title; "De quoi s\'agit-il ?" is no byline', async () => {
  const { page, lens } = await h.open('extract-spec-brand.html');
  const r = await lens.extract('the product', Offer);
  assert.equal(r.data?.brand, 'Retevo', JSON.stringify(r));
  assert.equal(r.data?.price, 21.99, JSON.stringify(r));
  assert.equal(r.data?.currency, '€', JSON.stringify(r));
  await page.evaluate(() => document.getElementById('byline')!.remove());
  const spec = await lens.extract('the product', Offer);
  assert.equal(spec.data?.brand, 'Retevo', JSON.stringify(spec));
});

test('a purchase option states the price in its name; a recommended price, a saving and a bundle\'s total are not the price; the title is the name', async () => {
  const { lens } = await h.open('extract-offers.html');
  const r = await lens.extract('the product', Offer);
  assert.equal(r.data?.price, 8.33, JSON.stringify(r));
  assert.equal(r.data?.name, 'Kräuterwerk Grillgewürz Texas, 230 g im Streuer', JSON.stringify(r));
  assert.equal(r.data?.brand, 'Kräuterwerk', JSON.stringify(r));
  assert.equal(r.data?.currency, '€', JSON.stringify(r));
});

test('a page with no main item (no title, no buy button) that shows several prices: no price is "the" price, missing with the reason', async () => {
  const { lens } = await h.open('extract-no-main.html');
  const r = await lens.extract('the product', Offer);
  assert.equal(r.data?.price ?? null, null, JSON.stringify(r));
  assert.ok(r.missing.includes('price'), JSON.stringify(r));
  assert.match(r.reasons?.price ?? '', /3 different prices and no main item/);
});

test('a product card is a small row with a price; a big repeated section with a shipping cost and a "Brand" row is not one', () => {
  const row = (gid: string) => ({ gid, kind: 'row' as const, role: 'generic', name: '' });
  const node = (i: number, path: RagNode['path'], name: string, value?: string): RagNode => ({ gid: `n${i}`, role: 'value', name, ...(value && { value }), states: [], box: [0, i * 20, 100, 18], frame: 0, kind: 'content', path, order: i });
  const nodes: RagNode[] = [
    node(0, [row('card')], 'price', '£12.00'), node(1, [row('card')], 'Brand', 'Other'),
    ...Array.from({ length: 30 }, (_, i) => node(2 + i, [row('panel')], i === 0 ? 'Postage' : i === 5 ? 'Brand' : `Spec ${i}`, i === 0 ? 'EUR 5,95' : i === 5 ? 'Duracell' : 'x')),
  ];
  const inCard = productCards(nodes);
  assert.equal(inCard(nodes[1]), true, 'a small priced row is another product');
  assert.equal(inCard(nodes[7]), false, 'a 30-node section is not a card, though it shows a price');
});

test('amounts in more currencies and languages: "270,00 Kn", "2320 元", "現省$241" (a saving), "Was £40 now £30", a rate', () => {
  assert.equal(priceOf('270,00 Kn', false), 270);
  assert.equal(currencyOf('270,00 Kn'), 'Kn');
  assert.equal(priceOf('一次付清特價 72 折 2320 元', false), 2320);
  assert.equal(priceOf('現省$241', true), undefined);
  assert.equal(priceOf('Was £40 now £30', false), 30);
  assert.equal(priceOf('UVP 49,99 € – 39,99 €', false), 39.99);
  assert.equal(priceOf('(1點=1元)', true), undefined);
  assert.equal(priceOf('1 299 kr', false), 1299);
});

test('the extraction bench scores as the product-extraction benchmark does, and lists every wrong answer', async () => {
  const { score, wrongAnswers, priceRight, halfOf, runExtractBench } = await import('../../bench/extract.js');
  assert.deepEqual(halfOf(['c.html', 'a.html', 'd.html', 'b.html'], 'even'), ['a.html', 'c.html']);
  assert.deepEqual(halfOf(['c.html', 'a.html', 'd.html', 'b.html'], 'odd'), ['b.html', 'd.html']);
  const results = [
    { page: 'a', price: { got: 34.99, want: ['34.99'] }, brand: { got: 'Acme', want: ['ACME'] }, ms: 1 },
    { page: 'b', price: { got: 20, want: ['29.99'] }, brand: { got: null, want: ['Peak'] }, ms: 1 },
    { page: 'c', price: { got: null, want: [] }, brand: { got: 'Zara', want: [] }, ms: 1 },
  ];
  assert.deepEqual(score(results, 'price'), { precision: 0.5, recall: 0.5, f1: 0.5, answered: 2, right: 1, expected: 2 });
  assert.equal(score(results, 'brand').right, 1);
  assert.deepEqual(wrongAnswers(results, 'price'), ['b: price 20, annotated "29.99"']);
  assert.equal(wrongAnswers(results, 'brand').length, 2);
  // Decimal matching, as evaluate.py does: "23.450" is 23.45 and "17.10" is 17.1; 23450 is another number.
  assert.ok(priceRight(23.45, ['23.450']) && priceRight(17.1, ['17.10']) && priceRight(229.99, ['229.99 ']));
  assert.equal(priceRight(23450, ['23.450']), false);
  // Two real pages of the shared corpus when it is there (its default place, or PAGELENS_CORPUS_SHOP).
  const shop = process.env.PAGELENS_CORPUS_SHOP;
  const run = await runExtractBench({ ...(shop && { folder: shop }), limit: 2, quiet: true });
  if ('skipped' in run) { console.log(`extraction bench on the corpus skipped: ${run.skipped}`); return; }
  assert.equal(run.results.length, 2);
  assert.ok(run.results.every((r) => !r.error), JSON.stringify(run.results));
});

test('a price only an og:price tag declares ("2,900원~") is the price, not a card\'s below the title', async () => {
  const { lens } = await h.open('extract-og-price.html');
  const r = await lens.extract("the product's name, price and brand", z.object({ name: z.string().nullable().optional(), price: z.number().nullable().optional() }));
  assert.equal((r.data ?? r.partial as { price?: number }).price, 2900, JSON.stringify(r));
});
