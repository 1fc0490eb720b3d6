// Grounding recall of DOM RAG on the corpus: for queries built from what a page is for (forms:
// "type your email", "enter your password", "search for …" from the Formasaurus field labels;
// shops: "add to cart", "price of <product>"), is the target's ID in the filtered payload within
// 2,000 (and 1,000) tokens? Side by side with the unfiltered semantic_v3 full page and Playwright's
// AI snapshot on the same pages in the same run: recall within 2k tokens, payload tokens, time.
//   Run: node dist/bench/ragRecall.js [--limit N] [--sets forms,shop]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../src/browser/chromium.js';
import type { Lens } from '../src/browser/lens.js';
import type { FilteredResult } from '../src/model/retrieval/rag.js';
import type { SemanticV3Result } from '../src/model/contracts/schema.js';
import { countTokens, loadTokenizer } from '../src/model/renderers/tokens.js';
import { CORPUS } from './inputs.js';
import { htmlPagesIn, visitPages } from './measurePage.js';
import { median, pct } from './stats.js';

/** Formasaurus field type → the instruction a user would give for it. */
export const FIELD_QUERIES: Record<string, string> = {
  e1: 'type your email', p1: 'enter your password', us: 'enter your username', ue: 'enter your username or email',
  qq: 'search for running shoes', n1: 'enter your first name', n3: 'enter your last name', nf: 'enter your full name',
  ph: 'enter your phone number', Zi: 'enter your zip code', Ci: 'enter your city', Co: 'select your country',
  rC: 'check remember me', CC: 'write a comment', Bs: 'submit the form',
};
const ADD_TO_CART = /add(?:ing)?\s+to\s+(?:shopping\s+)?(?:cart|basket|bag|trolley)|buy\s+(?:it\s+)?now|in\s+den\s+warenkorb|ajouter\s+au\s+panier|añadir\s+al\s+carrito|aggiungi\s+al\s+carrello|in\s+winkelwagen/i;
export const BUDGETS = [2000, 1000] as const;

export interface RagQuery {
  kind: string;
  query: string;
  /** Target IDs (any one grounds the query) and, for content, the text the answer must show. */
  ids: string[];
  text?: string;
}

export interface QueryResult {
  set: string;
  page: string;
  kind: string;
  query: string;
  /** Per budget: the target is in the payload; the payload's tokens; the time of lens.snapshot({ query, maxTokens }). */
  filtered: Record<number, { hit: boolean; tokens: number; ms: number }>;
  v3: { present: boolean; tokens: number; ms: number };
  playwright: { present: boolean; tokens: number; ms: number };
  error?: string;
}

const norm = (s: string) => s.replace(/\s+/g, '').toLowerCase();
const digits = (s: string) => s.replace(/\D/g, '');

/** A price text is shown when a node (or line) writes it, spacing aside, or its 4+ digits. */
function showsPrice(candidates: string[], price: string): boolean {
  const p = norm(price);
  const d = digits(price);
  return candidates.some((c) => norm(c).includes(p) || (d.length >= 4 && digits(c).includes(d)));
}

/** The queries a page is for, with their targets, from the page model and (forms) the labels. */
async function planQueries(lens: Lens, page: Page, set: string, fields: Record<string, string> | undefined): Promise<{ queries: RagQuery[]; names: Map<string, string> }> {
  const model = await lens.model({ fullPage: true, structure: true, attributes: true });
  const names = new Map(model.nodes.map((n) => [n.gid, n.name || n.placeholder || '']));
  const queries: RagQuery[] = [];
  if (set === 'forms' && fields) {
    const seen = new Set<string>();
    for (const [field, code] of Object.entries(fields)) {
      const query = FIELD_QUERIES[code];
      if (!query || seen.has(code)) continue;
      const ids = model.nodes.filter((n) => n.attrs?.name === field).map((n) => n.gid);
      if (!ids.length) continue;
      seen.add(code);
      queries.push({ kind: code, query, ids });
    }
  }
  if (set === 'shop') {
    const add = model.nodes.filter((n) => n.role !== 'item' && ADD_TO_CART.test(n.name)).map((n) => n.gid);
    if (add.length) queries.push({ kind: 'add to cart', query: 'add to cart', ids: add });
    const truth = await page.evaluate(groundTruthPrice).catch(() => null);
    if (truth) queries.push({ kind: 'price', query: `price of ${truth.product.split(/\s+/).slice(0, 8).join(' ')}`, ids: [], text: truth.price });
  }
  return { queries, names };
}

/**
 * The product's price as the page marks it, independently of pagelens: a visible element marked
 * as the price (itemprop=price on it or inside it, else "price" in its class or id) whose short
 * text is an amount, the one nearest the main heading; and the product's name: the nearest
 * heading before it.
 */
function groundTruthPrice(): { price: string; product: string } | null {
  const AMOUNT = /(?:[$€£¥₹]\s?\d[\d.,\s]*\d|[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:€|\$|£|EUR|USD|GBP|kr|zł|Kč|руб|₽))/;
  const visible = (e: Element) => e.checkVisibility({ checkVisibilityCSS: true }) && e.getBoundingClientRect().width > 0;
  const text = (e: Element) => ((e as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim();
  const h1 = Array.from(document.querySelectorAll('h1')).find(visible);
  const hb = h1?.getBoundingClientRect();
  const found: Array<{ el: Element; text: string; d: number; marked: number }> = [];
  for (const e of Array.from(document.querySelectorAll('[itemprop=price], [class*=price i], [id*=price i]'))) {
    if (!visible(e)) continue;
    const t = text(e);
    const m = t.length <= 40 ? AMOUNT.exec(t) : null;
    if (!m) continue;
    const r = e.getBoundingClientRect();
    const marked = e.getAttribute('itemprop') === 'price' || e.querySelector('[itemprop=price]') ? 1 : 0;
    found.push({ el: e, text: m[0].trim(), d: hb ? Math.hypot(r.x - hb.x, r.y - hb.y) : r.y, marked });
  }
  // Marked prices count as nearer, not as first: a recommendation strip marks its prices too.
  found.sort((a, b) => a.d * (a.marked ? 0.3 : 1) - b.d * (b.marked ? 0.3 : 1));
  const best = found[0];
  if (!best) return null;
  const headings = Array.from(document.querySelectorAll('h1, h2, h3')).filter((h) => visible(h) && text(h).replace(/[^\p{L}]/gu, '').length >= 3);
  const before = headings.filter((h) => h.compareDocumentPosition(best.el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const product = (h1 && before.includes(h1) ? h1 : before[before.length - 1] ?? h1);
  return product ? { price: best.text, product: text(product) } : null;
}

/** Measures one opened page: every query at every budget, against v3 full page and Playwright's AI snapshot. */
export async function measureRagPage(lens: Lens, page: Page, set: string, name: string, fields?: Record<string, string>): Promise<QueryResult[]> {
  const { queries, names } = await planQueries(lens, page, set, fields);
  if (!queries.length) return [];
  // Unfiltered references, once per page (a warm-up read first).
  await lens.snapshot({ fullPage: true });
  let t = performance.now();
  const v3 = await lens.snapshot({ fullPage: true }) as SemanticV3Result;
  const v3Ms = performance.now() - t;
  const v3Text = JSON.stringify(v3);
  const v3Tokens = await countTokens(v3Text);
  await page.ariaSnapshot({ mode: 'ai' });
  t = performance.now();
  const ai = await page.ariaSnapshot({ mode: 'ai' });
  const aiMs = performance.now() - t;
  const aiTokens = await countTokens(ai);
  const aiLines = ai.split('\n');
  const out: QueryResult[] = [];
  for (const q of queries) {
    const r: QueryResult = {
      set, page: name, kind: q.kind, query: q.query, filtered: {},
      v3: { present: q.text ? showsPrice(v3.interactive_tree.map((n) => `${n.n} ${n.v ?? ''}`), q.text) : v3.interactive_tree.some((n) => q.ids.includes(n.i)), tokens: v3Tokens, ms: v3Ms },
      playwright: { present: q.text ? showsPrice(aiLines, q.text) : q.ids.some((id) => !!names.get(id) && ai.includes(names.get(id)!)), tokens: aiTokens, ms: aiMs },
    };
    try {
      for (const maxTokens of BUDGETS) {
        t = performance.now();
        const p = await lens.snapshot({ query: q.query, maxTokens }) as FilteredResult;
        const ms = performance.now() - t;
        const hit = q.text ? showsPrice(p.tree.map((n) => `${n.n} ${n.v ?? ''}`), q.text) : p.tree.some((n) => q.ids.includes(n.i));
        r.filtered[maxTokens] = { hit, tokens: p.tokens, ms };
      }
    } catch (e) {
      r.error = (e as Error).message.split('\n')[0];
    }
    out.push(r);
  }
  return out;
}

function readFields(): Map<string, Record<string, string>> {
  const raw = JSON.parse(readFileSync(join(CORPUS, 'forms', 'labels.json'), 'utf8')) as Record<string, { visible_html_fields?: Array<Record<string, string>> }>;
  const out = new Map<string, Record<string, string>>();
  for (const [page, entry] of Object.entries(raw)) out.set(page, Object.assign({}, ...(entry.visible_html_fields ?? [])));
  return out;
}

function row(label: string, rs: QueryResult[]): string {
  const ok = rs.filter((r) => !r.error);
  const f = (b: number) => ok.map((r) => r.filtered[b]);
  const recall = (xs: boolean[]) => pct(xs.length ? xs.filter(Boolean).length / xs.length : NaN, 0);
  const within = (xs: Array<{ present: boolean; tokens: number }>) => recall(xs.map((x) => x.present && x.tokens <= 2000));
  const med = (xs: number[]) => Math.round(median(xs));
  return [
    label.padEnd(22), String(ok.length).padStart(4),
    recall(f(2000).map((x) => x.hit)).padStart(6), String(med(f(2000).map((x) => x.tokens))).padStart(6), `${med(f(2000).map((x) => x.ms))} ms`.padStart(8),
    recall(f(1000).map((x) => x.hit)).padStart(6), String(med(f(1000).map((x) => x.tokens))).padStart(6),
    within(ok.map((r) => r.v3)).padStart(6), recall(ok.map((r) => r.v3.present)).padStart(6), String(med(ok.map((r) => r.v3.tokens))).padStart(7), `${med(ok.map((r) => r.v3.ms))} ms`.padStart(8),
    within(ok.map((r) => r.playwright)).padStart(6), String(med(ok.map((r) => r.playwright.tokens))).padStart(7), `${med(ok.map((r) => r.playwright.ms))} ms`.padStart(8),
  ].join(' ');
}

export function renderRagTable(results: QueryResult[]): string {
  const head = [
    '                              filtered ≤2k            ≤1k        | v3 full page                     | Playwright AI',
    'queries                   n  recall tokens    time recall tokens | ≤2k    any    tokens     time    | ≤2k    tokens     time',
  ];
  const lines = [...head];
  for (const set of [...new Set(results.map((r) => r.set))]) {
    const rs = results.filter((r) => r.set === set);
    for (const kind of [...new Set(rs.map((r) => r.kind))]) lines.push(row(`${set}/${kind}`, rs.filter((r) => r.kind === kind)));
    lines.push(row(`${set} (all)`, rs));
  }
  lines.push(row('all', results));
  lines.push('recall: the target\'s ID (prices: its text) is in the payload; v3/Playwright ≤2k: the target is in it and the whole page fits in 2,000 tokens; any: in it at any size. Times are medians of one warm call.');
  return lines.join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const limit = Number(args[args.indexOf('--limit') + 1]) || 20;
  const sets = args.includes('--sets') ? args[args.indexOf('--sets') + 1].split(',') : ['forms', 'shop'];
  const fields = readFields();
  await loadTokenizer();
  const browser = await launchChromium();
  const results: QueryResult[] = [];
  const t0 = performance.now();
  try {
    for (const set of sets) {
      const files = htmlPagesIn(join(CORPUS, set)).filter((f) => set !== 'forms' || Object.values(fields.get(f) ?? {}).some((c) => FIELD_QUERIES[c]));
      await visitPages(browser, join(CORPUS, set), files, limit, set, async (opened, file) => {
        const rs = await measureRagPage(opened.lens, opened.page, set, file, fields.get(file));
        if (!rs.length) return false;
        results.push(...rs);
        process.stderr.write(`${set}/${file}: ${rs.map((r) => `${r.kind} ${r.error ? 'ERROR ' + r.error : BUDGETS.map((b) => `${b}:${r.filtered[b].hit ? 'hit' : 'MISS'}`).join(' ')}`).join('; ')}\n`);
        return true;
      });
    }
  } finally {
    await browser.close();
  }
  console.log(renderRagTable(results));
  console.log(`${new Set(results.map((r) => `${r.set}/${r.page}`)).size} pages, ${results.length} queries, ${Math.round((performance.now() - t0) / 1000)} s`);
  const misses = results.filter((r) => r.error || !r.filtered[2000]?.hit);
  if (misses.length) console.log('missed at 2k: ' + misses.map((r) => `${r.set}/${r.page} "${r.query}"${r.error ? ` (${r.error})` : ''}`).join('; '));
}

if (process.argv[1] && /bench[\\/]ragRecall\.js$/.test(process.argv[1])) await main();
