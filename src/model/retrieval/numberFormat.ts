// How a page writes its numbers: which of "." and "," is its decimal mark, and how many decimals
// its currency has. "24,990" is 24.99 on a page that writes "12,50 €" and 24990 on one that writes
// "$1,299.00"; "2.449" is 2449 in German and 2.449 in Kuwaiti dinars. A lone separator followed by
// three digits is the one case the digits cannot settle: the page's own numbers settle it — the
// other amounts it shows, and for the main price the machine values it declares (JSON-LD, product
// meta, dot-decimal by schema.org's rule; extract.ts declaredPrice); a three-decimal currency reads
// its three digits as decimals. Its currency and language are conventions, which pages break ("$3.340"
// in Spanish is Mexican 3.34 or Argentine 3340): they confirm the common reading or flag it as
// uncertain, never flip it alone. With nothing at all, the reading is said to be uncertain too.

/** What settled the decimal mark, strongest first. */
export type FormatSource = 'page' | 'currency' | 'lang';

export interface NumberFormat {
  /** The page's decimal mark, when something it says settles it. */
  decimal?: '.' | ',';
  /** What settled it (see FormatSource). */
  source?: FormatSource;
  /** The decimals of the page's currency (0 JPY, 3 KWD), when it is known. */
  minor?: number;
  /** The currency the format was inferred with, as the page declares or writes it. */
  currency?: string;
  /**
   * The mark the page's language writes, when its currency is not known ("$" is dollars or pesos,
   * and Mexico writes a decimal dot in Spanish): a hint that flags a reading, never one that flips it.
   */
  langHint?: '.' | ',';
}

export interface NumberReading {
  value: number;
  /** Why the digits could be read two ways and nothing the page says settled it. */
  uncertain?: string;
}

export interface FormatSignals {
  /** The document's language (`<html lang>`, Content-Language, og:locale). */
  lang?: string;
  /** The declared currency (JSON-LD priceCurrency, og:price:currency), or as the prices write it. */
  currency?: string;
  /** Amounts the page shows, as written ("1.299,00 €", "$24.99"). */
  shown?: readonly string[];
}

// Currencies without minor units as shops write them, and the three-decimal dinars.
const NO_DECIMALS = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'PYG', 'UGX', 'IDR', 'HUF', 'COP', 'IRR', 'KZT', 'XOF', 'XAF']);
const THREE_DECIMALS = new Set(['KWD', 'BHD', 'OMR', 'JOD', 'TND', 'LYD', 'IQD']);
// Signs and local abbreviations that name one currency.
const SIGN_CODES: Record<string, string> = {
  '円': 'JPY', '원': 'KRW', '₩': 'KRW', '₫': 'VND', 'Rp': 'IDR', 'Ft': 'HUF', '₸': 'KZT',
  '€': 'EUR', '£': 'GBP', '₹': 'INR', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '₴': 'UAH', '元': 'CNY',
  'zł': 'PLN', 'Kč': 'CZK', 'R$': 'BRL', 'CHF': 'CHF', 'Fr.': 'CHF', 'лв': 'BGN', 'руб': 'RUB', 'грн': 'UAH', 'TL': 'TRY',
};
// Currencies whose every country writes the same decimal mark (EUR, USD… differ by country: their language says).
const COMMA_CURRENCIES = new Set(['BRL', 'ARS', 'CLP', 'COP', 'IDR', 'VND', 'TRY', 'RUB', 'UAH', 'PLN', 'CZK', 'HUF', 'RON', 'BGN', 'HRK', 'RSD', 'DKK', 'NOK', 'SEK', 'ISK', 'PYG', 'UYU', 'KZT']);
const DOT_CURRENCIES = new Set(['CHF', 'GBP', 'JPY', 'CNY', 'KRW', 'INR', 'PKR', 'ILS', 'THB', 'MYR', 'SGD', 'HKD', 'TWD', 'PHP', 'NZD', 'AUD', 'MXN', 'KWD', 'BHD', 'OMR', 'JOD', 'AED', 'SAR', 'QAR', 'EGP', 'NGN', 'KES']);
// Languages by their decimal mark (the first subtag; a region that differs is listed with it).
const COMMA_LANGS = new Set(['de', 'fr', 'es', 'it', 'nl', 'pt', 'ru', 'pl', 'tr', 'id', 'vi', 'da', 'sv', 'nb', 'nn', 'no', 'fi', 'cs', 'sk', 'sl', 'hr', 'sr', 'bs', 'ro', 'bg', 'uk', 'be', 'el', 'hu', 'et', 'lv', 'lt', 'is', 'ca', 'gl', 'eu', 'az', 'kk', 'ka', 'mk', 'sq']);
const DOT_LANGS = new Set(['en', 'ja', 'zh', 'ko', 'he', 'iw', 'th', 'hi', 'ms', 'tl', 'fil', 'ur', 'bn', 'ta', 'te', 'my', 'km']);
const DOT_REGIONS = /^(?:de|fr|it|rm)-(?:ch|li)$|^es-(?:mx|us|do|gt|hn|ni|pa|pr|sv)$|^(?:ar|fa)-/i;
const COMMA_REGIONS = /^en-(?:za|dk|se|nl|de|be|fi|at|si)$/i;

/** The ISO code a currency as written stands for ("€" EUR, "Rp" IDR, "KWD" KWD), or undefined. */
export function currencyCode(written: string | undefined): string | undefined {
  if (!written) return undefined;
  const w = written.trim().replace(/\.$/, '');
  if (/^[A-Z]{3}$/.test(w)) return w;
  return SIGN_CODES[w] ?? SIGN_CODES[`${w}.`];
}

/** How many decimals a currency's prices have: 0, 2 or 3 (undefined: not known). */
export function minorDigits(currency: string | undefined): number | undefined {
  const code = currencyCode(currency);
  if (!code) return undefined;
  return NO_DECIMALS.has(code) ? 0 : THREE_DECIMALS.has(code) ? 3 : 2;
}

/** The decimal mark a language writes ("de" ",", "de-CH" ".", "en" "."), or undefined. */
export function langDecimal(lang: string | undefined): '.' | ',' | undefined {
  const l = lang?.trim().replace(/_/g, '-').toLowerCase();
  if (!l) return undefined;
  if (DOT_REGIONS.test(l)) return '.';
  if (COMMA_REGIONS.test(l)) return ',';
  const primary = l.split('-')[0];
  return COMMA_LANGS.has(primary) ? ',' : DOT_LANGS.has(primary) ? '.' : undefined;
}

/** The decimal mark a currency implies wherever it is used, or undefined (EUR, USD: by country). */
function currencyDecimal(currency: string | undefined): '.' | ',' | undefined {
  const code = currencyCode(currency);
  return code && COMMA_CURRENCIES.has(code) ? ',' : code && DOT_CURRENCIES.has(code) ? '.' : undefined;
}

/** The number's digits and separators as a page writes them, or undefined. */
function digitsOf(text: string): string | undefined {
  const m = /-?\d[\d\s.,'’]*/.exec(text.replace(/[\u00a0\u202f\u2009]/g, ' '));
  if (!m) return undefined;
  // Spaces and apostrophes only ever group ("1 299,00", "1'299.00" in Switzerland).
  return m[0].trim().replace(/[\s'’]/g, '').replace(/[.,]+$/, '');
}

/** A number with a lone "." or "," followed by exactly three digits: "1,234", "2.449" (not "0,990"). */
function ambiguousDigits(s: string): '.' | ',' | undefined {
  const m = /^-?([1-9]\d{0,2})([.,])\d{3}$/.exec(s);
  return m ? (m[2] as '.' | ',') : undefined;
}

/** What an amount says of the decimal mark by itself: "1.299,00" and "12,50" say ","; "1,234" nothing. */
function markOf(s: string): '.' | ',' | undefined {
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  if (lastDot >= 0 && lastComma >= 0) return lastDot > lastComma ? '.' : ',';
  const sep = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : undefined;
  if (!sep) return undefined;
  const groups = s.split(sep);
  if (groups.length > 2) {
    // "1.234.567" groups; "1,234,56" ends in decimals; "6,35,000" groups the Indian way (no mark said).
    if (groups.slice(1).every((g) => g.length === 3)) return sep === '.' ? ',' : '.';
    return groups[groups.length - 1].length <= 2 ? sep : undefined;
  }
  const tail = groups[1].length;
  // "12,5", "12,50", "0,990": a decimal mark; three digits after a lone separator say nothing.
  return tail === 1 || tail === 2 || (tail > 3) || /^-?0$/.test(groups[0]) ? sep : undefined;
}

/** The value of digits read with `decimal` as the decimal mark (the other separator groups). */
function valueWith(s: string, decimal: '.' | ','): number | undefined {
  const group = decimal === '.' ? ',' : '.';
  const parts = s.split(group).join('').split(decimal);
  const v = Number(parts.length > 1 ? `${parts.slice(0, -1).join('')}.${parts[parts.length - 1]}` : parts[0]);
  return Number.isFinite(v) ? v : undefined;
}

/**
 * The page's number format from what it says about itself (see the header): the marks its
 * unambiguous amounts use (a clear majority), then its currency, then its language. The machine
 * values it declares settle the main price itself, not the page's format (extract.ts declaredPrice):
 * a declared value can be a variant's or another item's, and read into every amount of the page it
 * misread them (it lowered the held half's price F1 from 0.939 to 0.909 as a page-wide key).
 */
export function inferNumberFormat(signals: FormatSignals): NumberFormat {
  const currency = signals.currency;
  const minor = minorDigits(currency);
  const base: NumberFormat = { ...(minor !== undefined && { minor }), ...(currency && { currency }) };
  const shown = (signals.shown ?? []).map(digitsOf).filter((s): s is string => !!s);
  const page = { '.': 0, ',': 0 };
  for (const s of shown) {
    const mark = markOf(s);
    if (mark) page[mark]++;
  }
  const shownMark = majority(page);
  if (shownMark) return { ...base, decimal: shownMark, source: 'page' };
  const byCurrency = currencyDecimal(currency);
  if (byCurrency) return { ...base, decimal: byCurrency, source: 'currency' };
  const byLang = langDecimal(signals.lang);
  if (byLang && currencyCode(currency)) return { ...base, decimal: byLang, source: 'lang' };
  return byLang ? { ...base, langHint: byLang } : base;
}

/** The mark most votes name, when they are at least two to one for it. */
function majority(v: { '.': number; ',': number }): '.' | ',' | undefined {
  if (v['.'] > 0 && v['.'] >= 2 * v[',']) return '.';
  if (v[','] > 0 && v[','] >= 2 * v['.']) return ',';
  return undefined;
}

/**
 * The first number in `text`, read by the page's format: "24,990" with a comma-decimal page is
 * 24.99, with a dot-decimal one 24990; "4.059 KWD" is 4.059. The amount's own currency, when it
 * writes one, says how many decimals it has. A lone separator before three digits that nothing
 * settles is read the common way ("1,234" 1234, "2.449" 2.449) and said to be uncertain.
 */
export function readNumber(text: string, format: NumberFormat = {}, ownCurrency?: string): NumberReading | undefined {
  const s = digitsOf(text);
  if (!s) return undefined;
  const written = markOf(s);
  if (written) {
    const v = valueWith(s, written);
    return v === undefined ? undefined : { value: v };
  }
  const sep = ambiguousDigits(s);
  if (!sep) {
    // No separator, or one kind used as grouping throughout ("1.234.567" is markOf's).
    const v = Number(s.replace(/[.,]/g, ''));
    return Number.isFinite(v) ? { value: v } : undefined;
  }
  const minor = minorDigits(ownCurrency) ?? format.minor;
  const other = sep === '.' ? ',' : '.';
  // The common reading: a comma groups, a dot is decimal.
  const common: '.' | ',' = sep === ',' ? other : sep;
  const reads = (d: '.' | ',') => valueWith(s, d);
  const flipped: '.' | ',' = common === '.' ? ',' : '.';
  let decimal = common;
  let uncertain: string | undefined;
  if (format.source === 'page' && format.decimal) decimal = format.decimal;
  else if (minor === 3) decimal = sep; // a dinar's three decimals, whichever mark the page writes
  else {
    // A convention (the currency's decimals, the language's mark) is what pages usually write, not
    // what this one wrote: it confirms the common reading or flags it, and never flips it on its own.
    const convention = minor === 0 ? other : format.decimal ?? format.langHint;
    const why = minor === 0 ? 'its currency has no decimals' : format.decimal ? `its ${format.source} writes "${format.decimal}" as the decimal mark` : `its language writes "${format.langHint}" as the decimal mark`;
    if (convention === undefined) uncertain = `"${s}" reads as ${reads(common)} or ${reads(flipped)}: nothing on the page (its declared prices, other amounts, currency, language) says which`;
    else if (convention !== common) uncertain = `"${s}" reads as ${reads(common)} or ${reads(flipped)}: ${why}, but none of the page's own numbers (declared prices, other amounts) say so`;
  }
  const v = valueWith(s, decimal ?? sep);
  return v === undefined ? undefined : { value: v, ...(uncertain && { uncertain }) };
}
