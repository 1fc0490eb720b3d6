// Which amounts on a product's part of the page are its selling price. A page shows several: the
// price, the price it was (struck through, "was", "RRP", "UVP", "原價"), what you save ("Save 20%",
// "現省$241"), shipping, a unit price. Only the first is "the price"; the others are read as what
// they are, so that an amount the page calls old is never offered as current.
import { AMOUNT, currencyOf } from './money.js';
import { readNumber, type NumberFormat, type NumberReading } from './numberFormat.js';
import type { RagNode } from './ragNodes.js';

// A saving, a discount or a share, with its number: "Save 20%", "You save £5.00", "-15 %", "20% off",
// "Spare 10 €", "現省$241" (now save), "72 折" (72% of the price), "30%オフ".
const SAVING = /(?:you\s+)?(?:save|saving|savings|spare|sparen|sie\s+sparen|économisez|ahorra|ahorro|risparmi|risparmio|bespaar|oszczędzasz|現省|现省|節省|节省|省下|立省|お得|割引|할인)\s*[:：–-]?\s*(?:up\s+to\s+)?\S*?\d[\d.,]*\s*(?:%|[^\s\d\p{L}]{1,3}|\p{Lu}{3}|[元円원])?|[-–]?\s?\d+(?:[.,]\d+)?\s?%(?:\s*(?:off|rabatt|korting|de\s+descuento|de\s+réduction|オフ))?|\d+(?:\.\d+)?\s?折|\d+\s?割引/giu;

// Words that say an amount is not the selling price, in the languages shops are written in: the
// price it was or is listed at, a saving, a delivery, tax or unit amount.
const OTHER_WORDS = [
  // the price it was or is listed at
  'old|was|list|listed|original|regular|reg\\.?|before|former|msrp|rrp|uvp|unverb\\.?\\s+preisempf\\.?|preisempfehlung|statt|vorher|früher|ursprünglich|streichpreis',
  'listino|prezzo\\s+di\\s+listino|ancien\\s+prix|prix\\s+barré|prix\\s+de\\s+référence|antes|precio\\s+anterior|precio\\s+de\\s+lista|adviesprijs|van|normaal|cena\\s+katalogowa',
  // what is saved, a total (with shipping, of a bundle), shipping, tax, a unit price
  'saving|savings|save|you\\s+save|sparen|sie\\s+sparen|économisez|ahorras?|risparmi|bespaar|discount|total|gesamtpreis|gesamt|prix\\s+total|precio\\s+total|prezzo\\s+totale|totaal',
  'shipping|delivery|postage|versand|livraison|envío|spedizione|tax|unit',
].join('|');
const OTHER_CJK = '原價|原价|建議售價|建议售价|定價|定价|市價|市价|參考價|参考价|参考価格|通常価格|希望小売価格|정가|소비자가';

const AMOUNTS = new RegExp(AMOUNT.source, 'gu');
const DISCOUNT = /\d\s?%|\b(?:save|off|sale|sconto|rabatt|remise|descuento|korting)\b/iu;

/** A label that names another amount than the selling price ("old price", "Listino", "UVP", "建議售價"). */
export const OTHER_PRICE = new RegExp(`(?:^|[^\\p{L}])(?:${OTHER_WORDS})(?![\\p{L}])|${OTHER_CJK}`, 'iu');

// An amount introduced by such a word in running text: "was £40", "UVP 49,99 €", "建議售價 $3200元".
const INTRODUCED = new RegExp(`(?:(?:^|[^\\p{L}])(?:${OTHER_WORDS})|${OTHER_CJK})\\s*[:：]?\\s*(?:${AMOUNT.source})`, 'giu');

// The other side of an equation is a rate, not a price: "1 point = 1元", "1 USD = 0,92 €".
const CONVERSION = new RegExp(`=\\s*(?:${AMOUNT.source})`, 'gu');

/**
 * The selling price a text states, or undefined: it must write an amount (a currency sign or code
 * with a number), or be the bare number of a field labelled as a price. A saving, a percentage or
 * an amount introduced as another kind ("was £40") is no price: "Save 20% — now £34.99" states
 * 34.99, "Was £40 now £30" 30, "Save 20%" none, "(1 point = 1元)" none.
 */
export function priceOf(text: string, labelledAsPrice: boolean, format?: NumberFormat): number | undefined {
  return priceReading(text, labelledAsPrice, format)?.value;
}

/** priceOf with the reading's uncertainty: the digits read by the page's number format (numberFormat.ts). */
export function priceReading(text: string, labelledAsPrice: boolean, format?: NumberFormat): NumberReading | undefined {
  const rest = text.replace(INTRODUCED, ' ').replace(CONVERSION, ' ').replace(SAVING, ' ');
  const m = AMOUNT.exec(rest);
  if (m) return amountOf(m[0], format);
  if (!labelledAsPrice || rest !== text || !/^\s*\d[\d\s.,']*\s*$/.test(text)) return undefined;
  return readNumber(text, format);
}

/** An amount as written ("4.059 KWD"), read by the page's format and its own currency. */
export function amountOf(written: string, format?: NumberFormat): NumberReading | undefined {
  return readNumber(written, format, currencyOf(written));
}

/**
 * The amounts the page itself calls something else than the selling price, among `nodes` (the main
 * item's): a value labelled old, list, shipping…, a struck-through amount (the engine labels it
 * "old price"), an amount introduced by such a word in a sentence. The same amount shown elsewhere
 * without its label is the same old price.
 */
export function otherAmounts(nodes: RagNode[], format?: NumberFormat): Set<number> {
  const valueOf = (written: string) => amountOf(written, format)?.value;
  const out = new Set<number>();
  for (const n of nodes) {
    if (n.kind === 'content' && n.role === 'value' && OTHER_PRICE.test(n.name) && n.value) {
      const v = AMOUNT.exec(n.value);
      const amount = v ? valueOf(v[0]) : undefined;
      if (amount !== undefined) out.add(amount);
    }
    const text = n.kind === 'content' ? `${n.role === 'text' ? n.name : n.value ?? ''}` : '';
    for (const m of text.matchAll(INTRODUCED)) {
      const amount = valueOf(AMOUNT.exec(m[0])?.[0] ?? '');
      if (amount !== undefined) out.add(amount);
    }
    // "€ 17,10 € 18,00 -5%": two prices and a discount, the higher is the one before it.
    const amounts = [...text.matchAll(AMOUNTS)].map((m) => valueOf(m[0])).filter((a): a is number => a !== undefined);
    if (new Set(amounts).size === 2 && DISCOUNT.test(text)) out.add(Math.max(...amounts));
  }
  return out;
}
