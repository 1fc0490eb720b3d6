// Filling a schema from a page's content without a model: each field is matched, by its name and
// description, against the labels of the budgeted nodes ("Price", "Brand", a card's name and
// price, the page's main heading), near the part of the page the instruction is about, and its
// value converted to the field's type. A field nothing fits stays missing and is named as such.
import { z } from 'zod';
import { splitIdentifier } from '../tasks/lexical.js';
import { Bag, bm25, queryTerms } from './bm25.js';
import { AMOUNT, currencyOf } from './money.js';
import type { KeptNode } from './rag.js';
import type { RagNode } from './ragNodes.js';
import { mainItem, type MainItem } from './mainItem.js';
import { OTHER_PRICE, otherAmounts, priceOf, priceReading } from './prices.js';
import { inferNumberFormat, type NumberFormat } from './numberFormat.js';
import { BRAND_KEY, brandPhrase, FIELD_WORDS, isBrandValue } from './brand.js';
import { productCards } from './mainItem.js';
import { parseNumber } from './numbers.js';
import type { ProductFacts } from './productFacts.js';

/** The part of JSON Schema that describes data (what z.toJSONSchema writes for plain schemas). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  description?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  [key: string]: unknown;
}

/** A zod schema as JSON Schema (what a model is shown, and what the heuristic walks). */
export function toJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { unrepresentable: 'any' }) as JsonSchema;
}

export interface FillResult {
  data: unknown;
  /** Field path → the ID of the node its value came from. */
  sources: Record<string, string>;
  /** Field paths nothing on the page fitted. */
  missing: string[];
  /** Why each missing field is missing (the offline chooser always says). */
  reasons?: Record<string, string>;
  /** Field path → why its value may be misread (digits the page's number format does not settle). */
  uncertain?: Record<string, string>;
}

/** Beyond the payload: every node read from the page, and what it declares about its main item in structured data. */
export interface PageFacts { nodes: RagNode[]; facts?: ProductFacts }

/** What every field of one fill is judged against. */
interface FillContext {
  main: MainItem; facts: ProductFacts; reasons: Record<string, string>;
  /** How the page writes its numbers (numberFormat.ts): the decimal mark its prices use. */
  format: NumberFormat;
  /** Field path → why its value may be misread. */
  uncertain: Record<string, string>;
  /** The node the selling price was read from: the currency is the one it is written in. */
  priceNode?: RagNode;
  /** How many different prices a page with no main item shows (why none is the price). */
  manyPrices?: number;
}

const NAME_KEY = /^(?:name|title|product|productname|producttitle|heading|headline|item|itemname)$/i;
const PRICE_KEY = /price|cost|amount|total|fee/i;
const CURRENCY_KEY = /^currency$/i;
// A rating or a review count is no name ("4.5 out of 5 stars", "1,234 reviews").
const REVIEWS = /(?:reviews?|ratings?|stars?|bewertungen|avis|rese[ñn]as|recensioni|beoordelingen|opinie)/i;
const MIN_SCORE = 0.3;
/** Controls whose name can state the item's price: a format or purchase option, not a link to another offer. */
const PRICED_CONTROL = new Set(['button', 'radio', 'option', 'menuitemradio']);
/** Past this many different declared prices, the markup describes many items (cards, variants): only JSON-LD's are believed. */
const MAX_DECLARED = 3;
/** A page with no main item that shows this many different prices is a list: none is "the" price. */
const AMBIGUOUS_PRICES = 3;
/** An instruction asking for a list rather than one value. */
const PLURAL = /\b(?:all|every|each|list|items|products|rows|entries|results|prices)\b/i;

/**
 * Fills `schema` from the kept nodes (best first). Without a schema: `{ items: [{name, value}] }`
 * when the instruction asks for a list and rows were kept, else `{ extraction }`, the best node's
 * value (or text).
 */
export function heuristicFill(kept: KeptNode[], schema?: JsonSchema, instruction = '', page?: PageFacts): FillResult {
  const nodes = kept.map((k) => k.node);
  const sources: Record<string, string> = {};
  const missing: string[] = [];
  const reasons: Record<string, string> = {};
  if ((!schema || !kindOf(schema)) && PLURAL.test(instruction)) {
    // "the cart items and prices": every row item kept, with its value, in reading order.
    const items = nodes.filter((n) => n.kind === 'item').sort((a, b) => a.order - b.order);
    if (items.length >= 2) {
      items.forEach((n, i) => { sources[`items[${i}]`] = n.gid; });
      return { data: { items: items.map((n) => ({ name: n.name, ...(n.value && { value: n.value }) })) }, sources, missing, reasons };
    }
  }
  // "the product's name, price and brand" without a schema: one field each, not one answer for three.
  const asked = schema && kindOf(schema) ? schema : fieldsAsked(instruction);
  const all = page?.nodes.length ? page.nodes : nodes;
  const facts = page?.facts ?? { prices: [] };
  const ctx: FillContext = { main: mainItem(all), facts, reasons, format: pageFormat(all, facts), uncertain: {} };
  if (!asked) {
    // The best-scored node that has something to say (a value, a text), not a bare control.
    const best = kept.find((k) => k.node.kind !== 'control' || k.node.value)?.node;
    if (!best) return { data: { extraction: '' }, sources, missing: ['extraction'], reasons: { extraction: 'nothing on the page fits the instruction' } };
    sources.extraction = best.gid;
    return { data: { extraction: best.value && best.kind !== 'heading' ? best.value : best.name }, sources, missing, reasons };
  }
  const anchor = kept[0]?.node.order ?? 0;
  const data = fillValue(asked, '', page?.nodes.length ? all : nodes, anchor, sources, missing, kept, ctx);
  return { data, sources, missing, reasons, ...(Object.keys(ctx.uncertain).length && { uncertain: ctx.uncertain }) };
}

/** At most this many of the page's amounts are read for its number format. */
const FORMAT_AMOUNTS = 300;
const ALL_AMOUNTS = new RegExp(AMOUNT.source, 'gu');

/**
 * How the page writes numbers, from what it says about itself: the amounts it shows anywhere, its currency (declared, else as its first amount writes it), its language.
 */
function pageFormat(nodes: RagNode[], facts: ProductFacts): NumberFormat {
  const shown: string[] = [];
  for (const n of nodes) {
    if (shown.length >= FORMAT_AMOUNTS) break;
    const text = n.kind === 'content' ? (n.role === 'text' ? n.name : n.value ?? n.name) : n.kind === 'item' ? n.value ?? '' : n.kind === 'control' && PRICED_CONTROL.has(n.role) ? n.name : '';
    for (const m of text.matchAll(ALL_AMOUNTS)) shown.push(m[0]);
  }
  const currency = facts.currency ?? shown.map(currencyOf).find((c) => c !== undefined);
  return inferNumberFormat({ shown, ...(currency && { currency }), ...(facts.lang && { lang: facts.lang }) });
}

/**
 * The fields an instruction lists, as a schema of strings ("the product's name, price and brand"
 * → name, price, brand); undefined for a single thing asked.
 */
export function fieldsAsked(instruction: string): JsonSchema | undefined {
  const body = instruction.toLowerCase()
    .replace(/^\s*(?:please\s+)?(?:extract|get|read|find|fetch|give\s+me|tell\s+me|show\s+me|list|what\s+(?:is|are))\s+/, '')
    .replace(/^(?:the|a|an)\s+/, '')
    .replace(/^[\p{L}\p{N}-]+(?:'s|’s|s')\s+/u, '')
    .replace(/\s+(?:of|for|on|from)\s+(?:the|this)\s+.*$/, '');
  const parts = body.split(/\s*(?:,|;|&|\band\b|\bplus\b)\s*/).map((p) => p.replace(/^(?:the|its|their)\s+/, '').trim()).filter(Boolean);
  if (parts.length < 2 || parts.some((p) => p.split(/\s+/).length > 3 || !/^[\p{L}\s-]+$/u.test(p))) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const p of parts) properties[p.replace(/\s+(\p{L})/gu, (_, c: string) => c.toUpperCase())] = { type: 'string' };
  return { type: 'object', properties };
}

function kindOf(s: JsonSchema): string | undefined {
  if (s.enum) return 'enum';
  const t = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  if (t) return t;
  const inner = s.anyOf?.find((a) => kindOf(a) && kindOf(a) !== 'null');
  return inner ? kindOf(inner) : undefined;
}

function unwrap(s: JsonSchema): JsonSchema {
  if (s.type || s.enum || !s.anyOf) return s;
  return s.anyOf.find((a) => kindOf(a) && kindOf(a) !== 'null') ?? s;
}

function fillValue(schema: JsonSchema, path: string, nodes: RagNode[], anchor: number, sources: Record<string, string>, missing: string[], kept: KeptNode[], ctx: FillContext): unknown {
  const s = unwrap(schema);
  const kind = kindOf(s);
  if (kind === 'object') return fillObject(s, path, nodes, anchor, sources, missing, ctx);
  if (kind === 'array') return fillArray(s, path, nodes, sources, missing, kept, ctx);
  const found = fieldValue(path || 'value', s, nodes, anchor, ctx);
  if (!found) { missing.push(path || 'value'); ctx.reasons[path || 'value'] ??= notFound(path || 'value', ctx); return undefined; }
  if (found.node) sources[path || 'value'] = found.node.gid;
  return found.value;
}

function fillObject(s: JsonSchema, path: string, nodes: RagNode[], anchor: number, sources: Record<string, string>, missing: string[], ctx: FillContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(s.properties ?? {});
  // Names first: the product's name pins down which price, brand and rating are its own.
  // Then prices: the currency is the one the price is written in.
  const rank = (k: string) => (NAME_KEY.test(k) ? 0 : PRICE_KEY.test(k) ? 1 : 2);
  const ordered = [...keys].sort((a, b) => rank(a) - rank(b));
  let near = anchor;
  for (const key of ordered) {
    const prop = s.properties![key];
    const p = path ? `${path}.${key}` : key;
    const kind = kindOf(prop);
    if (kind === 'object' || kind === 'array') { out[key] = fillValue(prop, p, nodes, near, sources, missing, [], ctx); continue; }
    const found = fieldValue(key, unwrap(prop), nodes, near, ctx);
    if (!found) {
      missing.push(p);
      ctx.reasons[p] ??= notFound(key, ctx);
      if (Array.isArray(prop.type) && prop.type.includes('null') || prop.anyOf?.some((a) => a.type === 'null')) out[key] = null;
      continue;
    }
    if (NAME_KEY.test(key) && found.node) near = found.node.order;
    if (found.node) sources[p] = found.node.gid;
    if (found.uncertain) ctx.uncertain[p] = found.uncertain;
    out[key] = found.value;
  }
  return out;
}

/** A list: one entry per card or row when the items are objects, else the items' names. */
function fillArray(s: JsonSchema, path: string, nodes: RagNode[], sources: Record<string, string>, missing: string[], kept: KeptNode[], ctx: FillContext): unknown[] {
  // The rows of a list are many items: no main item, no page-level facts, judge each row on its own.
  const rowCtx: FillContext = { main: { holds: () => true }, facts: { prices: [] }, reasons: ctx.reasons, format: ctx.format, uncertain: ctx.uncertain };
  const items = unwrap(s.items ?? {});
  const rows = new Map<string, RagNode[]>();
  for (const n of nodes) {
    const row = [...n.path].reverse().find((p) => p.kind === 'row');
    if (!row) continue;
    rows.set(row.gid, [...rows.get(row.gid) ?? [], n]);
  }
  const out: unknown[] = [];
  if (kindOf(items) === 'object') {
    const ordered = [...rows.values()].sort((a, b) => a[0].order - b[0].order);
    ordered.forEach((rowNodes, i) => {
      const rowMissing: string[] = [];
      const rowSources: Record<string, string> = {};
      const value = fillObject(items, `${path}[${i}]`, rowNodes, rowNodes[0].order, rowSources, rowMissing, rowCtx);
      // A row that yields none of the fields is not one of the things asked for.
      if (Object.keys(rowSources).length === 0) return;
      Object.assign(sources, rowSources);
      missing.push(...rowMissing);
      out.push(value);
    });
    if (!out.length) { missing.push(path || 'items'); ctx.reasons[path || 'items'] = 'no row or card on the page yields any of the fields'; }
    return out;
  }
  const pool = nodes.filter((n) => n.kind === 'item').length ? nodes.filter((n) => n.kind === 'item') : kept.map((k) => k.node).filter((n) => n.kind === 'content');
  pool.sort((a, b) => a.order - b.order).forEach((n, i) => {
    const v = convert(items, n.name, n);
    if (v === undefined) return;
    sources[`${path}[${i}]`] = n.gid;
    out.push(v);
  });
  if (!out.length) { missing.push(path || 'items'); ctx.reasons[path || 'items'] = 'no list on the page yields such items'; }
  return out;
}

/** A field's answer: the node it was read from (none when only the page's structured data states it). */
interface Found { node?: RagNode; value: unknown; score: number; uncertain?: string }

/** The node that best answers one field, and its value in the field's type. */
function fieldValue(key: string, s: JsonSchema, nodes: RagNode[], anchor: number, ctx: FillContext): Found | undefined {
  const words = [splitIdentifier(key), s.description ?? ''];
  const q = queryTerms(words);
  const isName = NAME_KEY.test(key);
  const isPrice = PRICE_KEY.test(key);
  const isBrand = BRAND_KEY.test(key);
  const isCurrency = CURRENCY_KEY.test(key);
  // The currency the page declares; else the one its item's prices are written in ("€", "CHF").
  if (isCurrency && ctx.facts.currency) return { value: convert(s, ctx.facts.currency, EMPTY_NODE), score: 1 };
  // No price could be told apart: neither can its currency.
  if (isCurrency && ctx.manyPrices) return undefined;
  const priced = isCurrency && ctx.priceNode ? currencyOf(AMOUNT.exec(valueText(ctx.priceNode, false, true) ?? '')?.[0] ?? '') : undefined;
  if (priced) return { node: ctx.priceNode, value: convert(s, priced, ctx.priceNode!), score: 1 };
  // Fields of "the product": from the main item's own part of the page (see mainItem.ts).
  const ofItem = isName || isPrice || isBrand || isCurrency;
  const all: Found[] = [];
  let best: Found | undefined;
  // The selling price is none of the amounts the item's part of the page calls old, list, shipping…
  const sellingPrice = isPrice && !OTHER_PRICE.test(splitIdentifier(key));
  // …and follows the item's name: an amount above it (a sponsored strip, a banner) is another's,
  // unless it stands on the title's own line.
  const title = ctx.main.title;
  const aboveTitle = (n: RagNode) => !!title && n.order < title.order && n.box[1] + n.box[3] / 2 < title.box[1];
  const own = ofItem ? nodes.filter((n) => ctx.main.holds(n) && !(sellingPrice && aboveTitle(n))) : nodes;
  const others = sellingPrice ? otherPrices(own, ctx.main, ctx.format) : new Set<number>();
  // "Gesamtpreis: <span>24,65 €</span>" reads as the labelled value and the amount inside it, side by side.
  const labelledOther = new Map(own.filter((n) => n.kind === 'content' && n.role === 'value' && OTHER_PRICE.test(n.name)).map((n) => [n.order, priceOf(n.value ?? '', true, ctx.format)]));
  const besideOther = (n: RagNode, amount: number) => [-2, -1, 1, 2].some((d) => labelledOther.get(n.order + d) === amount);
  for (const n of own) {
    // A button or an option that states an amount ("Audio CD $12.49", "One-time purchase 8,71 €") offers the item at it.
    const text = valueText(n, isName, isPrice) ?? (isPrice && n.kind === 'control' && PRICED_CONTROL.has(n.role) ? n.name : undefined);
    if (!text) continue;
    if (isName && REVIEWS.test(text) && /\d/.test(text)) continue;
    if (isBrand && FIELD_WORDS.test(text.trim())) continue;
    let value: unknown;
    let uncertain: string | undefined;
    let phrased = false;
    if (isBrand && !(n.kind === 'content' && (n.role === 'value' || n.role === 'cell'))) {
      // Running text names a brand only in so many words ("Visit the Tefal Store", "Marca: Roborock");
      // a heading or a sentence that merely contains the word "brand" is no brand.
      const said = brandPhrase(n.kind === 'control' ? n.name : text);
      if (!said) continue;
      value = convert(s, said, n);
      phrased = true;
    } else if (isCurrency) {
      const written = AMOUNT.exec(text);
      value = written ? currencyOf(written[0]) : undefined;
      if (value === undefined) continue;
      // The first amount of the item is its price's: the currency is read there, not weighed.
      const found = { node: n, value: convert(s, String(value), n), score: 1 };
      return found.value === undefined ? undefined : found;
    } else if (isPrice) {
      // The price asked for and an old, list or saved one are different fields.
      if (n.kind === 'content' && n.role === 'value' && OTHER_PRICE.test(n.name) !== OTHER_PRICE.test(splitIdentifier(key))) continue;
      const reading = priceReading(text, n.kind === 'content' && n.role === 'value' && PRICE_KEY.test(n.name), ctx.format);
      const amount = reading?.value;
      if (amount === undefined || others.has(amount) || besideOther(n, amount)) continue;
      uncertain = reading?.uncertain;
      const kind = kindOf(s);
      value = kind === 'number' ? amount : kind === 'integer' ? Math.round(amount) : convert(s, text, n);
    } else {
      value = convert(s, text, n);
    }
    if (value === undefined) continue;
    const label = labelBag(n);
    // "price" is the price, "old price" only partly: words the field does not have weigh against.
    const extra = [...label.tf.keys()].filter((t) => !q.has(t)).length;
    let score = bm25(label, q) * (label.tf.size ? 0.7 + 0.3 * (1 - extra / label.tf.size) : 1);
    if (isName) score += n.kind === 'heading' ? (n.level === 1 ? 0.9 : 0.45) : n.kind === 'item' ? 0.5 : 0;
    if (isPrice && AMOUNT.test(text)) score += n.kind === 'item' ? 0.45 : 0.5;
    // A control's own name is not data (a button "Add to cart" is no answer to "name").
    if (n.kind === 'control' && !n.value && !(isPrice && PRICED_CONTROL.has(n.role))) score *= 0.3;
    // A byline says it is the brand in so many words, whatever it is (a link, a line of text).
    if (phrased) score = Math.max(score, 0.8);
    if (isPrice) {
      // A product's price follows its name closely (the first amount after the title, before the old
      // price, the instalments and the shipping); above the name an amount belongs to something else.
      const after = n.order - (ctx.main.title?.order ?? anchor);
      score *= 0.25 + 0.75 / (1 + (after >= 0 ? after : -3 * after) / 10);
    } else {
      const proximity = 1 / (1 + Math.abs(n.order - anchor) / 15);
      score *= 0.6 + 0.4 * proximity;
    }
    // The main item's title is its name, wherever the words asked for point.
    if (isName && n === ctx.main.title) score = Math.max(score, 1);
    if (score < MIN_SCORE) continue;
    const found: Found = { node: n, value, score, ...(uncertain && { uncertain }) };
    all.push(found);
    if (!best || score > best.score) best = found;
  }
  // The page declares the price it sells at: an old, list or saved amount is another field.
  if (sellingPrice) {
    // No title, no buy button, and several different prices: no one of them is "the" price.
    const amounts = new Set(all.map((f) => (typeof f.value === 'number' ? f.value : parseNumber(String(f.value)))));
    if (!ctx.main.title && !ctx.main.buy && !ctx.facts.prices.length && amounts.size >= AMBIGUOUS_PRICES) {
      ctx.manyPrices = amounts.size;
      return undefined;
    }
    const price = declaredPrice(best, all, s, ctx, others);
    if (price?.node) ctx.priceNode = price.node;
    return price;
  }
  if (isBrand && ctx.facts.brand) {
    // The brand the page declares ("Marca: Roborock" where the markup wraps the words around it too);
    // the visible text that says it, when there is one, is its source.
    const declared = brandPhrase(ctx.facts.brand) ?? ctx.facts.brand;
    const shown = all.find((f) => typeof f.value === 'string' && f.value.trim().toLowerCase() === declared.toLowerCase());
    return shown ?? { value: convert(s, declared, EMPTY_NODE), score: 1 };
  }
  if (isBrand && !best) {
    // Not beside the title: a spec table further down ("Brand | Norton"), outside other products' cards.
    const inProductCard = productCards(nodes);
    const spec = nodes.find((n) => isBrandValue(n) && !inProductCard(n));
    const value = spec && convert(s, spec.value!, spec);
    if (spec && value !== undefined) return { node: spec, value, score: MIN_SCORE };
  }
  return best;
}

// The price block: from the title to a little past the buy button (or this far past the title).
const PRICE_BLOCK = 10;
const PRICE_BLOCK_NO_BUY = 30;

/**
 * The amounts the item's own price block calls old, list, shipping… (what stands between its title
 * and its buy button, not the cards further down, whose old prices are theirs). A list price with
 * no other price beside it is the price: nothing was taken off it.
 */
function otherPrices(own: RagNode[], main: MainItem, format: NumberFormat): Set<number> {
  const { title, buy } = main;
  const lo = title?.order ?? (buy ? buy.order - PRICE_BLOCK_NO_BUY : -Infinity);
  const hi = buy ? Math.max(buy.order, title?.order ?? 0) + PRICE_BLOCK : title ? title.order + PRICE_BLOCK_NO_BUY : Infinity;
  const block = own.filter((n) => n.order >= lo && n.order <= hi);
  const others = otherAmounts(block, format);
  const shown = block.map((n) => priceOf(valueText(n, false, true) ?? '', false, format)).filter((a): a is number => a !== undefined);
  return shown.some((a) => !others.has(a)) ? others : new Set();
}

/**
 * A price against the prices the page declares for its main item. The shown price that is one of
 * them wins (with the declared value when the page prints its cents small, without a separator:
 * "173<sup>34</sup> Lei" reads 17334, declared 173.34). Else one price declared is believed over
 * what is shown; several different ones (markup of other products' cards, variants) are not, and
 * the price the item shows is the answer. With no price shown, the declared one is the answer (no
 * node to point at). A declared price the page calls old is no candidate.
 */
function declaredPrice(best: Found | undefined, all: Found[], s: JsonSchema, ctx: FillContext, others: Set<number>): Found | undefined {
  const stated = ctx.facts.prices.filter((d) => !others.has(d));
  // Many different prices describe many items (cards, variants): then only the JSON-LD product's count.
  const declared = stated.length > MAX_DECLARED ? stated.filter((d) => ctx.facts.jsonLdPrices?.includes(d)) : stated;
  if (!declared.length) return best;
  const kind = kindOf(s);
  const typed = (v: number) => (kind === 'number' ? v : kind === 'integer' ? Math.round(v) : String(v));
  const amount = (f: Found) => (typeof f.value === 'number' ? f.value : parseNumber(String(f.value)));
  const agreeing = all
    .map((f) => ({ f, d: declared.find((d) => Math.abs(d - (amount(f) ?? NaN)) < 0.005 || sameDigits(d, amount(f))) }))
    .filter((a) => a.d !== undefined)
    .sort((a, b) => b.f.score - a.f.score)[0];
  // A declared value the shown one agrees with settles how its digits read.
  if (agreeing) return { node: agreeing.f.node, score: agreeing.f.score, value: typed(agreeing.d!) };
  if (best && declared.length > 1) return best;
  return { value: typed(declared[0]), score: 1 };
}

/** "17334" shown for 173.34 declared: the same digits, the cents set apart by markup, not by a separator. */
function sameDigits(declared: number, shown: number | undefined): boolean {
  return shown !== undefined && Number.isInteger(shown) && !Number.isInteger(declared) && Math.abs(declared * 100 - shown) < 0.5;
}

const EMPTY_NODE: RagNode = { gid: '', role: 'text', name: '', states: [], box: [0, 0, 0, 0], frame: 0, kind: 'content', path: [], order: 0 };

/** Why a field stays missing, in words an agent can act on. */
function notFound(key: string, ctx: FillContext): string {
  const main = ctx.main.title ? `the main item ("${ctx.main.title.name.slice(0, 60)}")` : ctx.main.buy ? 'the main item (around its buy button)' : '';
  if (PRICE_KEY.test(key) && ctx.manyPrices) return `the page shows ${ctx.manyPrices} different prices and no main item (no title heading, no buy button) to say which one is asked for`;
  if (PRICE_KEY.test(key)) return main ? `no price shown in ${main}'s part of the page, and none declared in its structured data (prices in other cards and savings are not its price)` : 'no amount on the page reads as a price of what was asked, and none is declared in structured data';
  if (BRAND_KEY.test(key)) return main ? `no brand shown in ${main}'s part of the page or declared in its structured data` : 'no brand shown or declared on the page';
  return `nothing on the page fits "${key}" with confidence`;
}

/** What a node says about itself, for matching a field name: its label, not its value. */
function labelBag(n: RagNode): Bag {
  const bag = new Bag();
  if (n.kind === 'content') {
    if (n.role === 'text') bag.add(n.name, 0.5);
    else bag.add(n.name, 1);
  } else if (n.kind === 'control') bag.add(n.name, 0.8).add(n.placeholder, 0.6);
  else if (n.kind === 'heading') bag.add(n.name, 0.2);
  else bag.add(n.name, 0.3);
  return bag;
}

/** The text a node offers as a value: a labelled value's value, a card's price or name, a heading's text. */
function valueText(n: RagNode, isName: boolean, isPrice: boolean): string | undefined {
  if (n.kind === 'item') return isPrice ? n.value : isName ? n.name : n.value ?? n.name;
  if (n.kind === 'heading') return n.name;
  // A link's name is its text: a byline ("Visit the Tefal Store") is a link.
  if (n.kind === 'control') return n.value && n.value !== '***' ? n.value : n.role === 'link' && !isName && !isPrice ? n.name : undefined;
  if (n.role === 'text') return n.name;
  return n.value ?? n.name;
}

const FALSE_WORDS = /\b(?:out\s+of\s+stock|unavailable|not\s+available|sold\s+out|no|false|none|discontinued|ausverkauft|épuisé)\b/i;
const TRUE_WORDS = /\b(?:in\s+stock|available|yes|true|ships|instock|lieferbar|disponible)\b/i;

/** The value in the field's type, or undefined when the text does not have one. */
function convert(s: JsonSchema, text: string, n: RagNode): unknown {
  const kind = kindOf(s);
  switch (kind) {
    case 'number': case 'integer': {
      const v = parseNumber(text);
      if (v === undefined) return undefined;
      return kind === 'integer' ? Math.round(v) : v;
    }
    case 'boolean':
      if (FALSE_WORDS.test(text)) return false;
      if (TRUE_WORDS.test(text)) return true;
      if (n.kind === 'control' && n.states.includes('checked')) return true;
      return undefined;
    case 'enum': {
      const lower = text.toLowerCase();
      return s.enum!.find((e) => typeof e === 'string' && lower.includes(e.toLowerCase()));
    }
    case 'string': case undefined: return text.trim() || undefined;
    default: return undefined;
  }
}

export { parseNumber } from './numbers.js';
