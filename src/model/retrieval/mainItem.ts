// The page's main item: on a product page, the part of the page the title (its <h1>) and the buy
// button belong to. A price, a brand or a name asked for "the product" comes from there, not from
// a recommendation card, a "customers also bought" row or the basket in the header.
import { AMOUNT, isAmount } from './money.js';
import type { RagNode } from './ragNodes.js';

const BUY = /\b(?:add(?:ing)?\s+to\s+(?:shopping\s+)?(?:cart|basket|bag|trolley)|buy(?:\s+(?:it\s+)?now)?|purchase|order\s+now|in\s+den\s+(?:warenkorb|einkaufswagen)|jetzt\s+kaufen|ajouter\s+au\s+panier|acheter|añadir\s+al\s+carrito|comprar|aggiungi\s+al\s+carrello|in\s+winkelwagen|do\s+koszyka|kosárba|sepete\s+ekle|köp|kjøp|køb|osta)\b|カートに入れる|加入购物车|장바구니/i;
// Around the title and the buy button, this many nodes either side in reading order belong to the item.
const WINDOW = 60;
// Above the title, only its own line or two (a brand line, a badge): a product's facts follow its
// name; what comes before it is the header, the breadcrumb or a banner for other products.
const BEFORE_TITLE = 6;

export interface MainItem {
  title?: RagNode;
  buy?: RagNode;
  /** Whether a node is part of the main item (always true when the page has none). */
  holds(n: RagNode): boolean;
}

export function mainItem(nodes: RagNode[]): MainItem {
  const title = nodes.find((n) => n.kind === 'heading' && n.level === 1 && /\p{L}/u.test(n.name));
  const buys = nodes.filter((n) => n.kind === 'control' && (n.role === 'button' || n.role === 'link' || n.role === 'clickable') && BUY.test(n.name) && !inCard(n));
  // The buy button of the title's item: the nearest to the title in reading order.
  const buy = title ? buys.sort((a, b) => Math.abs(a.order - title.order) - Math.abs(b.order - title.order))[0] : buys[0];
  if (!title && !buy) return { holds: () => true };
  const anchors = [title, buy].filter((n): n is RagNode => !!n);
  const lo = Math.min(...anchors.map((n) => n.order)) - (title && (!buy || title.order <= buy.order) ? BEFORE_TITLE : WINDOW);
  const hi = Math.max(...anchors.map((n) => n.order)) + WINDOW;
  // The structure both sit in, when they share one smaller than the page's main landmark.
  const shared = title && buy ? title.path.filter((p) => buy.path.some((q) => q.gid === p.gid) && p.kind !== 'landmark').at(-1) : undefined;
  // The title's own section: from the title to the next heading. Rows there are the item's own
  // (a layout table of its price, its instalments); cards of other products come under a heading of their own.
  // A price set in a heading ("<h3>€ 16,90</h3>") is part of the section, not the start of another.
  const sectionEnd = title ? nodes.find((n) => n.kind === 'heading' && n.order > title.order && !isAmount(n.name))?.order ?? Infinity : -Infinity;
  const inSection = (n: RagNode) => !!title && n.order > title.order && n.order < sectionEnd && n.order <= hi;
  return {
    ...(title && { title }), ...(buy && { buy }),
    holds: (n) => {
      // A card among cards is another product, unless the item itself is laid out as one.
      if (inCard(n) && !anchors.some((a) => sameCard(a, n)) && !(n.kind !== 'item' && inSection(n))) return false;
      if (shared) return n.path.some((p) => p.gid === shared.gid);
      return n.order >= lo && n.order <= hi;
    },
  };
}

// A product card is small: a name, a price, a picture, a button or two. A "row" this big is a section
// the engine saw repeat (a tab panel, an item-specifics block), not another product.
const CARD_MAX_NODES = 25;

/**
 * Cards of other products among `nodes`: small rows or cards that show a price (a spec table's rows
 * show none). Returns whether a node sits in one.
 */
export function productCards(nodes: RagNode[]): (n: RagNode) => boolean {
  const priced = new Set<string>();
  const size = new Map<string, number>();
  for (const n of nodes) {
    for (const p of n.path) if (p.kind === 'row') size.set(p.gid, (size.get(p.gid) ?? 0) + 1);
    if (!AMOUNT.test(`${n.name} ${n.value ?? ''}`)) continue;
    for (const p of n.path) if (p.kind === 'row') priced.add(p.gid);
  }
  const card = (gid: string) => priced.has(gid) && (size.get(gid) ?? 0) <= CARD_MAX_NODES;
  return (n) => n.kind === 'item' || n.path.some((p) => p.kind === 'row' && card(p.gid));
}

/** A card or row among others: another product's, unless it is the main item's own. */
export function inCard(n: RagNode): boolean {
  return n.kind === 'item' || n.path.some((p) => p.kind === 'row');
}

function sameCard(a: RagNode, b: RagNode): boolean {
  const row = a.path.filter((p) => p.kind === 'row').at(-1);
  return !!row && b.path.some((p) => p.gid === row.gid);
}
