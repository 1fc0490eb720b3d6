// A secret value in every form a recording may hold it in, as one pattern over bytes. A Playwright
// trace keeps what the browser saw and sent, encoded as each place encodes it: raw in a DOM
// snapshot, JSON-escaped (once, or twice in a JSON string carried in JSON), percent-encoded in a
// form body (UTF-8 or, on a page without a charset, Latin-1; a space as "+"), as HTML character
// references, with a non-ASCII character turned into U+FFFD by a decoder that guessed wrong, or in
// base64. The pattern takes each character in any of its forms, so mixed forms match too.
// It runs on a byte string (each byte one char, "latin1"), so binary entries are searched as they are.

const utf8 = new TextEncoder();

const hex2 = (b: number) => b.toString(16).padStart(2, '0');
/** A hex number that matches in either case ("%c3", "%C3"). */
const hexPattern = (h: string) => [...h].map((c) => (/[a-f]/.test(c) ? `[${c}${c.toUpperCase()}]` : c)).join('');
const escapeRe = (s: string) => s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
/** A string's UTF-8 bytes as a byte string. */
const bytesOf = (s: string) => String.fromCharCode(...utf8.encode(s));

const JSON_ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '/': '\\/', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
const HTML_ESCAPES: Record<string, string[]> = { '&': ['&amp;'], '<': ['&lt;'], '>': ['&gt;'], '"': ['&quot;'], "'": ['&apos;'] };

/** The alternatives, as regex source, for one character of a secret. */
function charPattern(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const bytes = [...utf8.encode(ch)];
  const literal: string[] = [bytesOf(ch)];
  const patterns: string[] = [
    bytes.map((b) => `%${hexPattern(hex2(b))}`).join(''),
    // A JSON \u escape (surrogate pairs for a character beyond the BMP), and HTML character references.
    [...ch].map((u) => `\\\\u${hexPattern(u.charCodeAt(0).toString(16).padStart(4, '0'))}`).join(''),
    `&#0*${cp};`, `&#[xX]0*${hexPattern(cp.toString(16))};`,
  ];
  const json = JSON_ESCAPES[ch];
  if (json) literal.push(json, JSON.stringify(json).slice(1, -1));
  literal.push(...HTML_ESCAPES[ch] ?? []);
  if (ch === ' ') literal.push('+');
  if (cp >= 0x80 && cp <= 0xff) {
    literal.push(String.fromCharCode(cp));
    patterns.push(`%${hexPattern(hex2(cp))}`);
  }
  // A decoder that did not know the encoding: the character became U+FFFD.
  if (cp >= 0x80) literal.push(bytesOf('\ufffd'));
  return `(?:${[...literal.map(escapeRe), ...patterns].join('|')})`;
}

/** Most characters a secret's base64 core must have to be searched for (a shorter one would match by chance). */
const MIN_BASE64 = 8;

/** The characters of the base64 of `value` that do not depend on what comes before or after it (at each of the three alignments). */
function base64Cores(value: string): string[] {
  const raw = utf8.encode(value);
  const out: string[] = [];
  for (let k = 0; k < 3; k++) {
    const padded = new Uint8Array(k + raw.length);
    padded.set(raw, k);
    const b64 = btoa(String.fromCharCode(...padded));
    const core = b64.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + raw.length)) / 6));
    if (core.length >= MIN_BASE64) out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...new Set(out)];
}

/** One pattern (global) that finds any of `secrets` in any of its forms in a byte string. */
export function secretFormsPattern(secrets: Iterable<string>): RegExp | undefined {
  const alternatives: string[] = [];
  // Longest first: a secret that contains another is taken whole.
  for (const s of [...new Set(secrets)].filter(Boolean).sort((a, b) => b.length - a.length)) {
    alternatives.push([...s].map(charPattern).join(''));
    alternatives.push(...base64Cores(s).map(escapeRe));
  }
  return alternatives.length ? new RegExp(alternatives.join('|'), 'g') : undefined;
}
