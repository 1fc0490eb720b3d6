// Filling a schema from a page's content without a model: each field is matched, by its name and
// description, against the labels of the budgeted nodes ("Price", "Brand", a card's name and
// price, the page's main heading), near the part of the page the instruction is about, and its
// value converted to the field's type. A field nothing fits stays missing and is named as such.
import { z } from 'zod';
import { AMOUNT as PRICE_TEXT, Bag, bm25, queryTerms, splitIdentifier } from './lexical.js';
import type { KeptNode, RagNode } from './rag.js';

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
}

const NAME_KEY = /^(?:name|title|product|productname|producttitle|heading|headline|item|itemname)$/i;
const PRICE_KEY = /price|cost|amount|total|fee/i;
const MIN_SCORE = 0.3;
/** An instruction asking for a list rather than one value. */
const PLURAL = /\b(?:all|every|each|list|items|products|rows|entries|results|prices)\b/i;

/**
 * Fills `schema` from the kept nodes (best first). Without a schema: `{ items: [{name, value}] }`
 * when the instruction asks for a list and rows were kept, else `{ extraction }`, the best node's
 * value (or text).
 */
export function heuristicFill(kept: KeptNode[], schema?: JsonSchema, instruction = ''): FillResult {
  const nodes = kept.map((k) => k.node);
  const sources: Record<string, string> = {};
  const missing: string[] = [];
  if ((!schema || !kindOf(schema)) && PLURAL.test(instruction)) {
    // "the cart items and prices": every row item kept, with its value, in reading order.
    const items = nodes.filter((n) => n.kind === 'item').sort((a, b) => a.order - b.order);
    if (items.length >= 2) {
      items.forEach((n, i) => { sources[`items[${i}]`] = n.gid; });
      return { data: { items: items.map((n) => ({ name: n.name, ...(n.value && { value: n.value }) })) }, sources, missing };
    }
  }
  if (!schema || !kindOf(schema)) {
    // The best-scored node that has something to say (a value, a text), not a bare control.
    const best = kept.find((k) => k.node.kind !== 'control' || k.node.value)?.node;
    if (!best) return { data: { extraction: '' }, sources, missing: ['extraction'] };
    sources.extraction = best.gid;
    return { data: { extraction: best.value && best.kind !== 'heading' ? best.value : best.name }, sources, missing };
  }
  const anchor = kept[0]?.node.order ?? 0;
  const data = fillValue(schema, '', nodes, anchor, sources, missing, kept);
  return { data, sources, missing };
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

function fillValue(schema: JsonSchema, path: string, nodes: RagNode[], anchor: number, sources: Record<string, string>, missing: string[], kept: KeptNode[]): unknown {
  const s = unwrap(schema);
  const kind = kindOf(s);
  if (kind === 'object') return fillObject(s, path, nodes, anchor, sources, missing);
  if (kind === 'array') return fillArray(s, path, nodes, sources, missing, kept);
  const found = fieldValue(path || 'value', s, nodes, anchor);
  if (!found) { missing.push(path || 'value'); return undefined; }
  sources[path || 'value'] = found.node.gid;
  return found.value;
}

function fillObject(s: JsonSchema, path: string, nodes: RagNode[], anchor: number, sources: Record<string, string>, missing: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(s.properties ?? {});
  // Names first: the product's name pins down which price, brand and rating are its own.
  const ordered = [...keys.filter((k) => NAME_KEY.test(k)), ...keys.filter((k) => !NAME_KEY.test(k))];
  let near = anchor;
  for (const key of ordered) {
    const prop = s.properties![key];
    const p = path ? `${path}.${key}` : key;
    const kind = kindOf(prop);
    if (kind === 'object' || kind === 'array') { out[key] = fillValue(prop, p, nodes, near, sources, missing, []); continue; }
    const found = fieldValue(key, unwrap(prop), nodes, near);
    if (!found) {
      missing.push(p);
      if (Array.isArray(prop.type) && prop.type.includes('null') || prop.anyOf?.some((a) => a.type === 'null')) out[key] = null;
      continue;
    }
    if (NAME_KEY.test(key)) near = found.node.order;
    sources[p] = found.node.gid;
    out[key] = found.value;
  }
  return out;
}

/** A list: one entry per card or row when the items are objects, else the items' names. */
function fillArray(s: JsonSchema, path: string, nodes: RagNode[], sources: Record<string, string>, missing: string[], kept: KeptNode[]): unknown[] {
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
      const value = fillObject(items, `${path}[${i}]`, rowNodes, rowNodes[0].order, rowSources, rowMissing);
      // A row that yields none of the fields is not one of the things asked for.
      if (Object.keys(rowSources).length === 0) return;
      Object.assign(sources, rowSources);
      missing.push(...rowMissing);
      out.push(value);
    });
    if (!out.length) missing.push(path || 'items');
    return out;
  }
  const pool = nodes.filter((n) => n.kind === 'item').length ? nodes.filter((n) => n.kind === 'item') : kept.map((k) => k.node).filter((n) => n.kind === 'content');
  pool.sort((a, b) => a.order - b.order).forEach((n, i) => {
    const v = convert(items, n.name, n);
    if (v === undefined) return;
    sources[`${path}[${i}]`] = n.gid;
    out.push(v);
  });
  if (!out.length) missing.push(path || 'items');
  return out;
}

interface Found { node: RagNode; value: unknown; score: number }

/** The node that best answers one field, and its value in the field's type. */
function fieldValue(key: string, s: JsonSchema, nodes: RagNode[], anchor: number): Found | undefined {
  const words = [splitIdentifier(key), s.description ?? ''];
  const q = queryTerms(words);
  const isName = NAME_KEY.test(key);
  const isPrice = PRICE_KEY.test(key);
  let best: Found | undefined;
  for (const n of nodes) {
    const text = valueText(n, isName, isPrice);
    if (!text) continue;
    const value = convert(s, text, n);
    if (value === undefined) continue;
    const label = labelBag(n);
    // "price" is the price, "old price" only partly: words the field does not have weigh against.
    const extra = [...label.tf.keys()].filter((t) => !q.has(t)).length;
    let score = bm25(label, q) * (label.tf.size ? 0.7 + 0.3 * (1 - extra / label.tf.size) : 1);
    if (isName) score += n.kind === 'heading' ? (n.level === 1 ? 0.9 : 0.45) : n.kind === 'item' ? 0.5 : 0;
    if (isPrice && PRICE_TEXT.test(text)) score += n.kind === 'item' ? 0.45 : 0.5;
    // A control's own name is not data (a button "Add to cart" is no answer to "name").
    if (n.kind === 'control' && !n.value) score *= 0.3;
    const proximity = 1 / (1 + Math.abs(n.order - anchor) / 15);
    score *= 0.6 + 0.4 * proximity;
    if (score >= MIN_SCORE && (!best || score > best.score)) best = { node: n, value, score };
  }
  return best;
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
  if (n.kind === 'control') return n.value && n.value !== '***' ? n.value : undefined;
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

/**
 * The first number in a text, read the way the text writes it: "$1,299.99" and "1.299,99 €" are
 * both 1299.99; "4.6 out of 5" is 4.6.
 */
export function parseNumber(text: string): number | undefined {
  const m = /-?\d[\d\s.,']*/.exec(text.replace(/\u00a0/g, ' '));
  if (!m) return undefined;
  let s = m[0].trim().replace(/[\s']/g, '').replace(/[.,]$/, '');
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) {
    // The later separator is the decimal one.
    s = lastDot > lastComma ? s.replace(/,/g, '') : s.replace(/\./g, '').replace(',', '.');
  } else if (lastComma >= 0) {
    // "1,299" groups thousands; "12,5" has decimals.
    s = /,\d{3}$/.test(s) && !/,\d{3},?\d{1,2}$/.test(s) ? s.replace(/,/g, '') : s.replace(/,(?=[^,]*$)/, '.').replace(/,/g, '');
  } else if ((s.match(/\./g) ?? []).length > 1) {
    s = s.replace(/\.(?=.*\.)/g, '');
  }
  const v = Number(s);
  return Number.isFinite(v) ? v : undefined;
}
