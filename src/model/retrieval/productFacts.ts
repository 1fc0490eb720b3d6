// What a page declares about its main item in structured data (JSON-LD `Product`, microdata
// `itemprop`, product meta tags): its price(s), currency, brand and name. Page content like any
// other, parsed defensively: a script that is not JSON, or a shape that is not schema.org's, adds
// nothing. extract() weighs these against what the page shows (src/model/retrieval/extract.ts).
import type { StructuredRead } from '../contracts/engineAnswers.js';
import { parseNumber } from './numbers.js';

export interface ProductFacts {
  /** Declared prices of the main item, most trusted source first (JSON-LD, microdata, meta). */
  prices: number[];
  /** Those the JSON-LD product states: the page's main entity, not one of many microdata items. */
  jsonLdPrices?: number[];
  currency?: string;
  brand?: string;
  name?: string;
  /** The document's language (`<html lang>`…): how its numbers are written when nothing else says. */
  lang?: string;
}

const PRODUCT_TYPES = /^(?:Product|ProductGroup|IndividualProduct|ProductModel|Vehicle|Car|Book|SomeProducts)$/;
const MAX_WALK = 2000;
/** A number as machines write it: digits and a dot. */
const MACHINE = /^\d+(?:\.\d+)?$/;

export function productFacts(read: StructuredRead): ProductFacts {
  const facts: ProductFacts = { prices: [] };
  const product = read.jsonLd.map(parseJson).map(firstProduct).find((p) => p !== null) ?? null;
  if (product) {
    facts.name = text(product.name);
    facts.brand = text(isObject(product.brand) ? product.brand.name : product.brand) ?? text(isObject(product.manufacturer) ? product.manufacturer.name : undefined);
    for (const offer of list(product.offers).slice(0, 20)) {
      if (!isObject(offer)) continue;
      const spec = list(offer.priceSpecification).find(isObject);
      for (const v of [offer.price, offer.lowPrice, spec?.price]) addPrice(facts, v);
      facts.currency ??= text(offer.priceCurrency) ?? text(spec?.priceCurrency);
    }
    if (facts.prices.length) facts.jsonLdPrices = [...facts.prices];
  }

  // Microdata: the properties of the page's own item. With several items side by side (cards of
  // recommended products), only the one that holds the title is the page's, if any; within it, the
  // properties closest to it (a recommended product nested inside sits deeper).
  const priced = new Set(read.props.filter((p) => (p.scope ?? 0) >= 0 && /price/i.test(p.name)).map((p) => p.scope ?? 0));
  const own = priced.size > 1 ? read.props.filter((p) => p.holdsTitle || p.scope === -1) : read.props;
  const shallowest = (name: string) => {
    const found = own.filter((p) => p.name === name);
    const min = Math.min(...found.map((p) => p.depth));
    return found.filter((p) => p.depth === min).map((p) => p.value);
  };
  for (const v of [...shallowest('price'), ...shallowest('lowPrice')]) addPrice(facts, v);
  facts.currency ??= shallowest('priceCurrency')[0];
  facts.brand ??= shallowest('brand')[0] ?? shallowest('manufacturer')[0];
  const meta = (re: RegExp) => read.meta.find((m) => re.test(m.name))?.value;
  if (read.lang) facts.lang = read.lang;
  addPrice(facts, meta(/^(?:product|og):price:amount$/) ?? meta(/^og:price$/));
  facts.currency ??= meta(/^(?:product|og):price:currency$/);
  facts.brand ??= meta(/^(?:product|og):brand$/);
  if (facts.brand !== undefined) {
    // "Acme | Shop name": the part before the site's own name, as titles are written.
    facts.brand = facts.brand.split(/\s+[|｜]\s+/)[0].trim();
    // An empty or unfilled template value ("$metabrand", "{{brand}}", "%brand%") declares nothing.
    if (!/\p{L}/u.test(facts.brand) || /^\$\w+$|\{\{.*\}\}|^%\w+%$/.test(facts.brand)) delete facts.brand;
  }
  return facts;
}

type Json = Record<string, unknown>;

// What pages wrap their JSON-LD in, for old browsers' sake: "/*<![CDATA[*/ … /*]]>*/", "<!-- … -->".
const WRAPPERS = /^\s*(?:\/\*\s*<!\[CDATA\[\s*\*\/|\/\/\s*<!\[CDATA\[|<!\[CDATA\[|<!--)|(?:\/\*\s*\]\]>\s*\*\/|\/\/\s*\]\]>|\]\]>|-->)\s*$/g;

function parseJson(s: string): unknown {
  try {
    // Raw line breaks and tabs inside strings are not JSON, but they are what pages write.
    return JSON.parse(s.replace(WRAPPERS, '').replace(/[\u0000-\u001f]+/g, ' '));
  } catch {
    return null; // not JSON: the page declares nothing there
  }
}

/** The first product described at the top of a JSON-LD document or its @graph, not one nested in another item. */
function firstProduct(doc: unknown): Json | null {
  const queue: unknown[] = Array.isArray(doc) ? [...doc] : [doc];
  let seen = 0;
  while (queue.length && seen++ < MAX_WALK) {
    const n = queue.shift();
    if (Array.isArray(n)) { queue.push(...n); continue; }
    if (!isObject(n)) continue;
    if (list(n['@type']).some((t) => typeof t === 'string' && PRODUCT_TYPES.test(t.replace(/^https?:\/\/schema\.org\//, '')))) return n;
    // A web page whose main entity is the product.
    if (n['@graph'] !== undefined) queue.push(n['@graph']);
    if (n.mainEntity !== undefined) queue.push(n.mainEntity);
  }
  return null;
}

function addPrice(facts: ProductFacts, v: unknown): void {
  const s = typeof v === 'number' ? String(v) : text(v);
  if (!s) return;
  // Machine-written ("1148.00", "23450") unless it carries local separators.
  const n = MACHINE.test(s) ? Number(s) : parseNumber(s);
  if (n !== undefined && n > 0 && !facts.prices.includes(n)) facts.prices.push(n);
}

function text(v: unknown): string | undefined {
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') return undefined;
  const t = v.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, 200) : undefined;
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function list(v: unknown): unknown[] {
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}
