// Prices read by the page's number format (src/model/retrieval/numberFormat.ts): the decimal mark
// from what the page says about itself (declared machine values, its other amounts, its currency,
// its language), three-decimal and no-decimal currencies, and an `uncertain` flag when nothing
// settles "1,234". No browser: the fill runs on nodes and facts as the page would give them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { heuristicFill } from '../../src/model/retrieval/extract.js';
import { inferNumberFormat, langDecimal, minorDigits, readNumber } from '../../src/model/retrieval/numberFormat.js';
import { priceReading } from '../../src/model/retrieval/prices.js';
import { productFacts } from '../../src/model/retrieval/productFacts.js';
import type { KeptNode } from '../../src/model/retrieval/rag.js';
import type { RagNode } from '../../src/model/retrieval/ragNodes.js';

/** Every node kept, as the filter would hand them over (the fill reads only the node and its score). */
const keep = (nodes: RagNode[]): KeptNode[] => nodes.map((node) => ({ node, score: 1 }) as unknown as KeptNode);

const read = (text: string, ...signals: Parameters<typeof inferNumberFormat>) => readNumber(text, inferNumberFormat(...signals));

test('groupings that say their decimal mark themselves: de, fr, en, ch, Indian', () => {
  assert.deepEqual(read('1.299,99 €', {}), { value: 1299.99 });
  assert.deepEqual(read('1 299,99 €', {}), { value: 1299.99 }, 'fr: a space groups');
  assert.deepEqual(read('1\u202f299,99 €', {}), { value: 1299.99 }, 'fr: a narrow no-break space groups');
  assert.deepEqual(read('$1,299.99', {}), { value: 1299.99 });
  assert.deepEqual(read("CHF 1'299.50", {}), { value: 1299.5 }, 'ch: an apostrophe groups');
  assert.deepEqual(read('CHF 1’299.–', {}), { value: 1299 });
  assert.deepEqual(read('Rs 6,35,000', {}), { value: 635000 });
  assert.deepEqual(read('1.234.567 ₫', {}), { value: 1234567 }, 'many dots group');
  assert.deepEqual(read('24,99 €', {}), { value: 24.99 });
  assert.deepEqual(read('0,990 €', {}), { value: 0.99 }, 'a lone 0 is never grouped');
});

test('a lone separator before three digits, settled by the page\'s own numbers: its other amounts (declared values: the extraction test below)', () => {
  // The page's other amounts: "12,50 €" elsewhere makes "24,990 €" 24.99; "$1,299.00" makes "$24,990" 24990.
  assert.deepEqual(read('24,990 €', { shown: ['24,990 €', '12,50 €', '3,99 €'] }), { value: 24.99 });
  assert.deepEqual(read('$24,990', { shown: ['$24,990', '$1,299.00'] }), { value: 24990 });
  assert.deepEqual(read('3.499 €', { currency: 'EUR', lang: 'de-DE', shown: ['3.499 €', '1.299,00 €'] }), { value: 3499 });
});

test('a currency or a language is a convention: it confirms the common reading, or flags it, never flips it alone', () => {
  assert.deepEqual(read('3.499 €', { currency: 'EUR', lang: 'de-CH' }), { value: 3.499 }, 'Swiss German writes a decimal dot');
  assert.deepEqual(read('€1,234', { currency: 'EUR', lang: 'en' }), { value: 1234 });
  const de = read('3.499 €', { currency: 'EUR', lang: 'de-DE' });
  assert.equal(de?.value, 3.499);
  assert.match(de?.uncertain ?? '', /"3\.499" reads as 3\.499 or 3499: its lang writes "," as the decimal mark, but none of the page's own numbers/);
  const brl = read('R$ 3.499', { currency: 'BRL' });
  assert.equal(brl?.value, 3.499);
  assert.match(brl?.uncertain ?? '', /its currency writes ","/);
  assert.ok(read('1,234 €', { currency: 'EUR', lang: 'fr' })?.uncertain);
  // "$" is dollars or pesos, and Mexico writes a decimal dot in Spanish: the language alone flags, it does not flip.
  const peso = read('$3.340', { lang: 'es', currency: '$' });
  assert.equal(peso?.value, 3.34);
  assert.match(peso?.uncertain ?? '', /"3\.340" reads as 3\.34 or 3340: its language writes "," as the decimal mark, but none of the page's own numbers/);
  assert.equal(langDecimal('pt_BR'), ',');
  assert.equal(langDecimal('en-ZA'), ',');
  assert.equal(langDecimal('ja'), '.');
});

test('three-decimal currencies (KWD, BHD, TND) and no-decimal ones (JPY, KRW, IDR)', () => {
  assert.equal(minorDigits('KWD'), 3);
  assert.equal(minorDigits('¥'), undefined, '¥ is yen or yuan: not known');
  assert.equal(minorDigits('円'), 0);
  assert.deepEqual(read('4.059 KWD', { currency: 'KWD', lang: 'de' }), { value: 4.059 });
  assert.deepEqual(readNumber('4.059 KWD', {}, 'KWD'), { value: 4.059 });
  assert.deepEqual(read('24,990 TND', { currency: 'TND' }), { value: 24.99 });
  assert.deepEqual(priceReading('BHD 2.449', false, inferNumberFormat({ lang: 'en' })), { value: 2.449 }, 'the amount\'s own currency has three decimals');
  assert.deepEqual(priceReading('¥1,980', false, inferNumberFormat({ currency: 'JPY' })), { value: 1980 });
  assert.deepEqual(read('₩15,000', { currency: 'KRW' }), { value: 15000 });
  assert.deepEqual(read('1.980円', { currency: 'JPY', shown: ['1.980円', '1.234.567円'] }), { value: 1980 });
  // A dot before three digits in a currency with no decimals: the digits still read as written, flagged.
  const rp = read('Rp 34.000', { currency: 'IDR' });
  assert.equal(rp?.value, 34);
  assert.match(rp?.uncertain ?? '', /its currency has no decimals/);
});

test('ambiguous digits nothing settles are read the common way and flagged', () => {
  const comma = read('1,234', {});
  assert.equal(comma?.value, 1234);
  assert.match(comma?.uncertain ?? '', /"1,234" reads as 1234 or 1\.234: nothing on the page/);
  const dot = read('€2.449', {});
  assert.equal(dot?.value, 2.449);
  assert.ok(dot?.uncertain);
  // A weak key (the language) against the currency's two decimals: read, and flagged.
  assert.equal(read('€1,234', { lang: 'en', currency: 'EUR' })?.uncertain, undefined, 'grouping in English is what English writes');
  // Votes that split evenly settle nothing.
  assert.ok(read('1,234 €', { shown: ['12,50 €', '$3.99'] })?.uncertain);
});

test('extraction: the page\'s language and other prices read the main price, and an unsettled one is marked uncertain', () => {
  const node = (i: number, name: string, value?: string, extra: Partial<RagNode> = {}): RagNode => ({ gid: `n${i}`, role: 'value', name, ...(value && { value }), states: [], box: [0, i * 20, 300, 18], frame: 0, kind: 'content', path: [], order: i, ...extra });
  const page = (price: string, more: RagNode[], lang?: string) => {
    const nodes = [node(0, 'Fahrrad Trekking 28"', undefined, { kind: 'heading', role: 'heading', level: 1 }), node(1, 'Preis', price), ...more];
    const facts = productFacts({ doc: 'd', jsonLd: [], props: [], meta: [], ...(lang && { lang }) });
    return heuristicFill(keep(nodes), { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } }, 'the product', { nodes, facts });
  };
  const de = page('2.449 €', [node(5, 'Versand', '4,95 €')], 'de');
  assert.equal((de.data as { price: number }).price, 2449);
  assert.equal(de.uncertain, undefined);
  const langOnly = page('2.449 €', [], 'de');
  assert.equal((langOnly.data as { price: number }).price, 2.449);
  assert.match(langOnly.uncertain?.price ?? '', /its lang writes ","/);
  const shown = page('24,990 €', [node(5, 'Versand', '4,95 €')]);
  assert.equal((shown.data as { price: number }).price, 24.99, 'the shipping line writes a decimal comma');
  const none = page('1,234 €', []);
  assert.equal((none.data as { price: number }).price, 1234);
  assert.match(none.uncertain?.price ?? '', /reads as 1234 or 1\.234/);
  // A declared machine value settles it: no flag, the declared value.
  const nodes = [node(0, 'Bike', undefined, { kind: 'heading', role: 'heading', level: 1 }), node(1, 'Price', '1,234 €')];
  const facts = productFacts({ doc: 'd', jsonLd: [JSON.stringify({ '@type': 'Product', offers: { price: '1.234', priceCurrency: 'EUR' } })], props: [], meta: [] });
  const declared = heuristicFill(keep(nodes), { type: 'object', properties: { price: { type: 'number' } } }, 'the price', { nodes, facts });
  assert.equal((declared.data as { price: number }).price, 1.234);
  assert.equal(declared.uncertain, undefined);
});
