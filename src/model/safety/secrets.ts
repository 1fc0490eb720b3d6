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
