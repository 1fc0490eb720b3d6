// The words of a page and of a task, made comparable: lower-cased, stemmed, with the many ways
// pages write the same UI intent ("log in", "sign in", "Login"; "cart", "basket", "bag") folded
// into one term. Pure, no dependencies: a task's intent (intent.ts), the relevance of DOM RAG and
// the ranking of observe all read text through this one analyser (BM25 over its terms:
// src/model/retrieval/bm25.ts).

/** Phrases folded into one token before splitting (longest first within a group does not matter: each is whole-word). */
const PHRASES: Array<[RegExp, string]> = [
  [/\be[-\s]?mail\s+address(?:es)?\b/g, ' email '],
  [/\be-mail\b/g, ' email '],
  [/\b(?:keep\s+me\s+(?:signed|logged)\s+in|stay\s+(?:signed|logged)\s+in|remember\s+me)\b/g, ' remember '],
  [/\b(?:log|sign)[-\s]?(?:in|on)\b/g, ' login '],
  [/\b(?:log|sign)[-\s]?(?:out|off)\b/g, ' logout '],
  [/\bsign[-\s]?up\b|\bcreate\s+(?:an\s+)?account\b/g, ' signup '],
  [/\buser[-\s]?(?:name|id)\b|\blogin\s+name\b/g, ' username '],
  [/\b(?:first|given)\s+name\b|\bforename\b/g, ' firstname '],
  [/\b(?:last|family)\s+name\b|\bsurname\b/g, ' lastname '],
  [/\bfull\s+name\b/g, ' fullname '],
  [/\b(?:zip|post(?:al)?)\s*code\b|\bpostcode\b/g, ' zip '],
  [/\b(?:phone|telephone|mobile|cell)\s+(?:number|no)\b/g, ' phone '],
  [/\bcheck[-\s]?out\b/g, ' checkout '],
  // A "dialog box" is a dialog: "box" would otherwise ask for a text field or a checkbox.
  [/\bdialog\s+box(?:es)?\b/g, ' dialog '],
  // A "text field" / "text input" / "text box" names a kind of element, not its text.
  [/\btext\s*(?:field|input|box|entry)s?\b/g, ' textbox '],
  [/\bwish[-\s]?list\b/g, ' wishlist '],
  [/\bhow\s+much\b/g, ' price '],
  [/\bweb\s*site\b/g, ' website '],
  [/\bmy\s+account\b/g, ' account '],
  [/\bin\s+stock\b/g, ' stock '],
  [/\bpass\s*word\b|\bpass\s+phrase\b/g, ' password '],
  [/\bshopping\s+(?:cart|bag|basket)\b/g, ' cart '],
  [/\bsearch\s+(?:term|query|text|keywords?)\b/g, ' search '],
];

/** Words that mean the same in a UI, folded into the first. */
const SYNONYMS: string[][] = [
  ['login', 'signin', 'logon', 'authenticate', 'anmelden', 'connexion'],
  ['logout', 'signout', 'logoff', 'abmelden'],
  ['signup', 'register', 'registration', 'enroll', 'enrol'],
  ['cart', 'basket', 'bag', 'trolley', 'warenkorb', 'panier', 'carrito', 'carrello', 'winkelwagen'],
  ['email', 'mail', 'emailaddress'],
  ['password', 'passwd', 'pwd', 'pass', 'passcode', 'passphrase', 'kennwort', 'passwort', 'contraseña', 'contrasena', 'senha'],
  ['username', 'userid', 'login_name', 'nickname', 'handle', 'benutzername'],
  ['search', 'find', 'query', 'q', 'keyword', 'lookup', 'suche', 'suchen', 'recherche', 'buscar', 'cerca', 'zoeken'],
  ['phone', 'telephone', 'tel', 'mobile', 'cellphone'],
  ['firstname', 'fname', 'givenname'],
  ['lastname', 'lname', 'familyname'],
  ['zip', 'zipcode', 'postcode', 'plz'],
  ['city', 'town'],
  ['price', 'cost', 'preis', 'prix', 'precio', 'prezzo'],
  ['quantity', 'qty'],
  ['delete', 'remove', 'trash', 'discard'],
  ['close', 'dismiss'],
  ['help', 'support', 'faq'],
  ['account', 'profile'],
  ['message', 'comment', 'comments', 'feedback'],
  ['company', 'organization', 'organisation', 'business', 'firm'],
  ['rating', 'stars', 'rated'],
  ['stock', 'availability', 'available', 'instock'],
  ['wishlist', 'favourite', 'favorite', 'favourites', 'favorites'],
  ['next', 'forward'],
  ['previous', 'prev', 'back'],
  ['settings', 'preferences', 'prefs'],
  ['submit', 'send'],
  ['buy', 'purchase'],
  ['subscribe', 'newsletter'],
  ['forgot', 'forgotten', 'lost', 'reset'],
  ['country', 'nation'],
  ['address', 'street', 'addr'],
];

/** Related, not the same: a query term also looks for these, at a lower weight. */
const RELATED: Record<string, string[]> = {
  buy: ['cart', 'checkout', 'order'],
  cart: ['buy', 'checkout'],
  checkout: ['cart', 'pay', 'order'],
  login: ['password', 'username', 'email', 'submit'],
  username: ['email', 'login'],
  email: ['username'],
  signup: ['account', 'join', 'create'],
  price: ['total', 'amount', 'sale', 'offer'],
  subscribe: ['email', 'join'],
  search: ['go', 'submit'],
  delete: ['x'],
  close: ['x'],
  // The "×" of a dialog's title bar is called "x" by whoever describes it; its name is "Close".
  x: ['close'],
  fullname: ['name'],
  firstname: ['name'],
  lastname: ['name'],
  message: ['text', 'body'],
};

export const RELATED_WEIGHT = 0.35;

const STOP = new Set([
  'the', 'a', 'an', 'on', 'in', 'into', 'to', 'of', 'for', 'from', 'with', 'at', 'by', 'and', 'or', 'that', 'this', 'is', 'are', 'be',
  'your', 'my', 'our', 'its', 'it', 'me', 'you', 'i', 'we', 'us', 'please', 'here', 'there', 'what', 'which', 'how', 'do', 'does',
  'der', 'die', 'das', 'und', 'le', 'la', 'les', 'de', 'des', 'et', 'el', 'los', 'y',
]);

const CANON = new Map<string, string>();
for (const group of SYNONYMS) for (const w of group) CANON.set(stem(w), group[0]);

/** A light English stemmer: plurals, -ing, -ed, a final e; enough to match "prices" with "Price". */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("'s")) w = w.slice(0, -2);
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is|ys)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

function undouble(w: string): string {
  return /([^aeiouslz])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** A word's term: its stem, folded to its synonym group. */
export function term(word: string): string {
  const s = stem(word);
  return CANON.get(s) ?? CANON.get(word) ?? s;
}

/** Splits identifiers as pages write them in attributes: userEmail, login_password, search-input. */
export function splitIdentifier(s: string): string {
  return s.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_\-.[\]]+/g, ' ');
}

/** Lower-cases a text and writes UI phrases as one word ("Sign in" → "login", "e-mail address" → "email"). */
export function foldPhrases(text: string): string {
  let t = text.toLowerCase();
  // Most texts hold none of the phrases: one test instead of one replace per phrase.
  if (!ANY_PHRASE.test(t)) return t;
  for (const [re, to] of PHRASES) t = t.replace(re, to);
  return t;
}

const ANY_PHRASE = new RegExp(PHRASES.map(([re]) => `(?:${re.source})`).join('|'));

const termsMemo = new Map<string, string[]>();
const MEMO_MAX = 50_000;

/** The terms of a text, in order (stop words out). Pages repeat their labels ("Add to cart" × 2,500): remembered. */
export function terms(text: string): string[] {
  if (!text) return [];
  let out = termsMemo.get(text);
  if (out) return out;
  out = computeTerms(text);
  if (termsMemo.size >= MEMO_MAX) termsMemo.clear();
  termsMemo.set(text, out);
  return out;
}

function computeTerms(text: string): string[] {
  const t = foldPhrases(text);
  const out: string[] = [];
  for (const m of t.matchAll(/[\p{L}\p{N}][\p{L}\p{N}']*/gu)) {
    const w = m[0].replace(/'+$/, '');
    if (STOP.has(w)) continue;
    out.push(term(w));
  }
  return out;
}

/** Terms a query term also looks for, with their weight. */
export function expand(t: string): Array<[string, number]> {
  return (RELATED[t] ?? []).map((r) => [term(r), RELATED_WEIGHT]);
}
