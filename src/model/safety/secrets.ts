// The one rule for which form fields hold secrets, used by the in-page engine (every mode it
// serialises), by the host (Chrome's accessibility tree, suggestions, results) and by the
// extension. A field is secret when its type says so (password) or when its autofill tokens do:
// the HTML autofill field names for credentials, one-time codes and card data. A page that uses
// a plain text input for a card number still marks it `autocomplete="cc-number"` so that browsers
// fill it; that is the signal read here. Zod-free: the page bundle imports it by value.

/** What a secret value is shown as, wherever it would have appeared. */
export const REDACTED = '***';

/**
 * Autofill field names whose value is a credential or card secret (HTML spec, "autofill field
 * name"). Names and addresses are personal, not secret: they stay readable so agents can check them.
 */
export const SECRET_AUTOFILL_TOKENS: ReadonlySet<string> = new Set([
  'current-password', 'new-password', 'one-time-code',
  'cc-number', 'cc-csc', 'cc-exp', 'cc-exp-month', 'cc-exp-year',
]);

/** Whether an `autocomplete` attribute names a secret field (tokens are space-separated, case-insensitive). */
export function isSecretAutocomplete(autocomplete: string | null | undefined): boolean {
  if (!autocomplete) return false;
  return autocomplete.toLowerCase().split(/\s+/).some((token) => SECRET_AUTOFILL_TOKENS.has(token));
}

/** What the rule reads of a field, wherever it is read from (the live element, a DOM snapshot, a page node). */
export interface FieldFacts {
  /** Tag name, any case. */
  tag: string;
  /** The input's type (current, not only the attribute); absent means text. */
  type?: string | null;
  autocomplete?: string | null;
}

/** The secret-field rule: a password input, or an input or textarea whose autofill tokens name a secret. */
export function isSecretFieldFacts(f: FieldFacts): boolean {
  const tag = f.tag.toUpperCase();
  if (tag !== 'INPUT' && tag !== 'TEXTAREA') return false;
  if (tag === 'INPUT' && (f.type ?? '').toLowerCase() === 'password') return true;
  return isSecretAutocomplete(f.autocomplete);
}

/** A page node as the model carries it (tag, type, kept attributes), or a node already shown redacted. */
export function isSecretNode(n: { tag?: string; type?: string; value?: string; attrs?: Record<string, string> }): boolean {
  if (n.value === REDACTED) return true;
  return isSecretFieldFacts({ tag: n.tag ?? 'input', type: n.type ?? n.attrs?.type, autocomplete: n.attrs?.autocomplete });
}

/**
 * `text` with every occurrence of each secret replaced by REDACTED: for text that may have taken
 * in a secret value on its way (an accessible name that embeds a field's value, a transcript
 * that repeats a typed password). Longest first, so a secret that contains another goes whole.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  const list = [...new Set(secrets)].filter((s) => s && s !== REDACTED).sort((a, b) => b.length - a.length);
  let out = text;
  for (const s of list) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** A URL in text (a JSON answer, a log line, a tab list): up to a space, a quote, a bracket or a JSON escape. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>\\`]+/gi;
/** One part of a URL after its authority, with the separator before it: a path segment, a parameter's name or value. */
const URL_PART = /([/?&#;=])([^/?&#;=]*)/g;
/** Shorter secrets mask a part only when they are all of it: "12" must not mask a port or a page number. */
const MIN_CONTAINED = 4;

/**
 * A URL part as a form or a URL encodes text (`+` a space, `%xx` a byte), run by run: a run that is
 * no valid UTF-8 (a URL cut in the middle of a character) stays as it is, the rest is decoded.
 */
function decodedUrlPart(part: string): string {
  return part.replace(/\+/g, ' ').replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Whether the end of `cut` is the start of `secret` (a secret cut off where a URL was shortened). */
function startsASecret(cut: string, secret: string): boolean {
  for (let n = Math.min(cut.length, secret.length - 1); n >= 1; n--) if (cut.endsWith(secret.slice(0, n))) return true;
  return false;
}

/**
 * `text` with every URL in it masked where it carries one of `secrets` (values typed into secret
 * fields): the part that holds it (a path segment, a query or fragment parameter) becomes
 * REDACTED, decoded first, so a password a method=get form sent (`pw=hunter2+%26x`) is found
 * whatever its encoding. Outside URLs the text is left as it is. A URL whose parts each hold only
 * a piece of a secret (a page that wrote it unencoded, `&` included) loses all after its authority.
 */
export function redactSecretsInUrls(text: string, secrets: Iterable<string>): string {
  const list = [...new Set(secrets)].filter((s) => s && s !== REDACTED);
  if (!list.length) return text;
  // A URL cut short for display ends in `…`: what is left of a secret there is masked too.
  const holds = (decoded: string) => list.some((s) => decoded === s || (s.length >= MIN_CONTAINED && decoded.includes(s))
    || (decoded.endsWith('…') && startsASecret(decoded.slice(0, -1).replace(/%[0-9a-f]?$/i, ''), s)));
  return text.replace(URL_IN_TEXT, (url) => {
    const start = url.indexOf('://') + 3;
    const authorityEnd = url.slice(start).search(/[/?#]/);
    if (authorityEnd < 0) return url;
    const head = url.slice(0, start + authorityEnd);
    const rest = url.slice(start + authorityEnd).replace(URL_PART, (part, sep: string, value: string) => (value && holds(decodedUrlPart(value)) ? sep + REDACTED : part));
    return holds(decodedUrlPart(rest)) ? `${head}/${REDACTED}` : head + rest;
  });
}
