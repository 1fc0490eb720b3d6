// What an amount of money looks like in page text, in one place for the page engine (rows and
// their values, content items) and the Node side (relevance, extraction, region summaries):
// a currency sign or code before or after a number — "$299.99", "16,90 €", "CHF 19.50",
// "Rs 23,450", "1 299 kr".

const SIGNS = '[$€£¥₹₩₽₺₫฿₪]';
// ISO codes and the local abbreviations shops print; a code is a word of its own.
const CODES = '(?:USD|EUR|GBP|CHF|CAD|AUD|NZD|JPY|CNY|INR|SEK|NOK|DKK|PLN|CZK|HUF|BRL|MXN|ZAR|TRY|RUB|SGD|HKD|Rs\\.?|R\\$|kr|zł|Kč|Ft|lei)';

/** A price or an amount: a sign or code before a number, or after it. */
export const AMOUNT = new RegExp(
  `(?:${SIGNS}\\s?\\d[\\d.,\\s]*\\d|${SIGNS}\\s?\\d|(?<![\\p{L}])${CODES}\\s?\\d[\\d.,]*\\d|(?<![\\p{L}])${CODES}\\s?\\d|\\d[\\d.,]*\\s?(?:${SIGNS}|${CODES}(?![\\p{L}])))`,
  'u',
);

/** A text that is an amount and little else: a price tag. */
export function isAmount(text: string): boolean {
  const m = AMOUNT.exec(text);
  if (!m) return false;
  const rest = text.replace(m[0], '').replace(/[^\p{L}]/gu, '');
  return rest.length < 3;
}
