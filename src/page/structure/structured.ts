// What a page declares about itself in machine-readable form: JSON-LD scripts, microdata
// (`itemprop`) and product meta tags. Read raw and capped here; parsed and believed only on the
// Node side (src/model/retrieval/productFacts.ts), since it is page content like any other.
import type { StructuredRead } from '../../model/contracts/engineAnswers.js';
import { DOC } from '../identity/document.js';

const MAX_SCRIPTS = 12;
// A product's JSON-LD often carries its reviews too (tens of KB): cut it and it is no JSON at all,
// so a script is passed whole up to this size, within a total for the page.
const MAX_SCRIPT_CHARS = 400_000;
const MAX_TOTAL_CHARS = 1_000_000;
const MAX_PROPS = 200;
const MAX_VALUE = 200;
// The microdata and meta properties that describe a product's identity and its offer.
const PROPS = /^(?:price|lowPrice|priceCurrency|brand|name|manufacturer)$/;
// `og:price` alone is what some shops write ("2,900원~"): a shown amount, read as the page writes it.
const META = /^(?:product:price:amount|product:price:currency|og:price:amount|og:price:currency|og:price|product:brand|og:brand|twitter:data1)$/i;

export function readStructured(): StructuredRead {
  const jsonLd: string[] = [];
  let total = 0;
  for (const s of Array.from(document.querySelectorAll('script[type="application/ld+json" i]')).slice(0, MAX_SCRIPTS)) {
    const text = s.textContent ?? '';
    if (text.length > MAX_SCRIPT_CHARS || total + text.length > MAX_TOTAL_CHARS) continue;
    total += text.length;
    jsonLd.push(text);
  }
  const props: StructuredRead['props'] = [];
  const title = document.querySelector('h1');
  const tops: Element[] = [];
  for (const el of Array.from(document.querySelectorAll('[itemprop]'))) {
    if (props.length >= MAX_PROPS) break;
    const names = (el.getAttribute('itemprop') ?? '').split(/\s+/).filter((p) => PROPS.test(p));
    if (!names.length) continue;
    // The declared value: `content` (meta, spans), `value`, else what the element shows.
    const raw = el.getAttribute('content') ?? el.getAttribute('value') ?? (el.querySelector('[itemprop]') ? null : el.textContent);
    if (raw === null) continue;
    const value = raw.replace(/\s+/g, ' ').trim().slice(0, MAX_VALUE);
    // A property of an offer or product nested in another item (a recommendation) is not the page's own.
    const depth = ancestorsWith(el, '[itemscope]');
    // Which top-level item it belongs to, and whether that item holds the page's title: cards of
    // recommended products each are an item of their own, and none holds the <h1>.
    const top = outermost(el, '[itemscope]');
    if (top && !tops.includes(top)) tops.push(top);
    const scope = top ? tops.indexOf(top) : -1;
    const holdsTitle = !!top && !!title && top.contains(title);
    for (const name of names) if (value) props.push({ name, value, depth, scope, holdsTitle });
  }
  const meta: StructuredRead['meta'] = [];
  for (const m of Array.from(document.querySelectorAll('meta[property], meta[name]'))) {
    const name = m.getAttribute('property') ?? m.getAttribute('name') ?? '';
    const content = m.getAttribute('content');
    if (META.test(name) && content) meta.push({ name: name.toLowerCase(), value: content.trim().slice(0, MAX_VALUE) });
  }
  const lang = pageLang();
  return { doc: DOC, jsonLd, props, meta, ...(lang && { lang }) };
}

/** The language the document says it is in (the Node side reads its number format from it). */
function pageLang(): string | undefined {
  const declared = document.documentElement?.getAttribute('lang')
    ?? document.querySelector('meta[http-equiv="content-language" i]')?.getAttribute('content')
    ?? document.querySelector('meta[property="og:locale" i]')?.getAttribute('content');
  const lang = declared?.trim().split(/[\s,]/)[0].slice(0, 20);
  return lang || undefined;
}

function outermost(el: Element, selector: string): Element | null {
  let found: Element | null = null;
  for (let p: Element | null = el; p; p = p.parentElement) if (p.matches(selector)) found = p;
  return found;
}

function ancestorsWith(el: Element, selector: string): number {
  let n = 0;
  for (let p = el.parentElement; p; p = p.parentElement) if (p.matches(selector)) n++;
  return n;
}
