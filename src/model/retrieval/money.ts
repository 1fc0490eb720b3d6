// What an amount of money looks like in page text, in one place for the page engine (rows and
// their values, content items) and the Node side (relevance, extraction, region summaries):
// a currency sign or code before or after a number — "$299.99", "16,90 €", "CHF 19.50",
// "Rs 23,450", "1 299 kr", "270,00 Kn", "2320 元".

const SIGNS = '[$€£¥₹₩₽₺₫฿₪₴₱₦₵₡₲₸₼₾৳]';
// ISO codes and the local abbreviations shops print; a code is a word of its own.
const CODES = '(?:USD|EUR|GBP|CHF|CAD|AUD|NZD|JPY|CNY|RMB|INR|SEK|NOK|DKK|ISK|PLN|CZK|HUF|RON|BGN|HRK|RSD|UAH|BRL|MXN|ARS|CLP|COP|PEN|ZAR|TRY|RUB|SGD|HKD|TWD|KRW|THB|VND|IDR|MYR|PHP|PKR|AED|SAR|QAR|KWD|BHD|OMR|JOD|TND|LYD|IQD|ILS|EGP|NGN|KES|Rs\\.?|R\\$|NT\\$|HK\\$|S\\$|A\\$|C\\$|kr\\.?|zł|Kč|Ft|lei|Lei|kn|Kn|лв\\.?|руб\\.?|грн\\.?|TL|RM|Rp\\.?|din\\.?)';
// Written after the number only, and a letter of a script without spaces may follow: "2320元", "1,980円", "15,000원".
const SUFFIXES = '[元円원圓]';

/** A price or an amount: a sign or code before a number, or after it. */
export const AMOUNT = new RegExp(
  `(?:${SIGNS}\\s?\\d[\\d.,\\s]*\\d|${SIGNS}\\s?\\d|(?<![\\p{L}])${CODES}\\s?\\d[\\d.,]*\\d|(?<![\\p{L}])${CODES}\\s?\\d|\\d[\\d.,]*(?:[ \\u00a0\\u202f]\\d{3}(?![\\d]))*(?:[.,]\\d+)?\\s?(?:${SIGNS}|${CODES}(?![\\p{L}])|${SUFFIXES}))`,
  'u',
);

/** A text that is an amount and little else: a price tag. */
export function isAmount(text: string): boolean {
  const m = AMOUNT.exec(text);
  if (!m) return false;
  const rest = text.replace(m[0], '').replace(/[^\p{L}]/gu, '');
  return rest.length < 3;
}

/** The currency an amount is written in, as written ("€", "CHF", "Rs"), or undefined. */
export function currencyOf(amount: string): string | undefined {
  return new RegExp(`${SIGNS}|(?<![\\p{L}])${CODES}(?![\\p{L}])|${SUFFIXES}`, 'u').exec(amount)?.[0].replace(/\.$/, '');
}
