// Reading HTML as a flat list of tags and texts, with the source range of every part and of every
// attribute value: what templatize and its dictionary find shapes and values in. A `<` that starts
// no tag is text; raw-text elements (script, style, textarea, …) hold text up to their end tag;
// nothing is fixed or normalised, so ranges always point into the string as given.

/** A source range. */
export interface Hole { start: number; end: number }

// Elements whose content is text up to their end tag, whatever it looks like.
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'noembed', 'noframes', 'textarea', 'title', 'plaintext']);

export interface Token {
  type: 'open' | 'close' | 'text' | 'opaque';
  name: string;
  start: number;
  end: number;
  selfClosing: boolean;
  /** Quoted attribute values (open tags). */
  values: Hole[];
  /** Attribute name → value range (open tags). */
  attrs: Map<string, Hole>;
  /** Attributes written without a value, by the range of their name (open tags). */
  bare: Array<{ name: string } & Hole>;
  /** Attributes written with a value, from their name to the end of the value (closing quote included). */
  valued: Hole[];
}

/** Splits HTML into tags and text; a `<` that starts no tag is text. Never throws. */
export function* tokens(s: string, from = 0): Generator<Token> {
  let pos = from;
  let raw: string | null = null;
  const text = (start: number, end: number): Token => ({ type: 'text', name: '', start, end, selfClosing: false, values: [], attrs: new Map(), bare: [], valued: [] });
  while (pos < s.length) {
    if (raw) {
      // Inside a raw-text element: everything up to its end tag is one text.
      const close = s.toLowerCase().indexOf(`</${raw}`, pos);
      const end = close < 0 ? s.length : close;
      if (end > pos) yield text(pos, end);
      pos = end;
      raw = null;
      continue;
    }
    if (s[pos] !== '<') {
      const next = s.indexOf('<', pos + 1);
      const end = next < 0 ? s.length : next;
      yield text(pos, end);
      pos = end;
      continue;
    }
    if (s.startsWith('<!--', pos)) {
      const close = s.indexOf('-->', pos + 4);
      const end = close < 0 ? s.length : close + 3;
      yield { ...text(pos, end), type: 'opaque' };
      pos = end;
      continue;
    }
    const closing = s[pos + 1] === '/';
    const nameStart = pos + (closing ? 2 : 1);
    if (!/[A-Za-z]/.test(s[nameStart] ?? '')) {
      if (s[pos + 1] === '!' || s[pos + 1] === '?') {
        const close = s.indexOf('>', pos);
        const end = close < 0 ? s.length : close + 1;
        yield { ...text(pos, end), type: 'opaque' };
        pos = end;
        continue;
      }
      // A lone "<" is text; join it with what follows.
      const next = s.indexOf('<', pos + 1);
      const end = next < 0 ? s.length : next;
      yield text(pos, end);
      pos = end;
      continue;
    }
    let i = nameStart;
    while (i < s.length && !/[\s/>]/.test(s[i])) i++;
    const name = s.slice(nameStart, i).toLowerCase();
    const values: Hole[] = [];
    const attrs = new Map<string, Hole>();
    const bare: Token['bare'] = [];
    const valued: Hole[] = [];
    let selfClosing = false;
    // Attributes: name, optional = and a quoted or bare value; quotes may hold ">".
    while (i < s.length && s[i] !== '>') {
      if (s[i] === '/' && s[i + 1] === '>') { selfClosing = true; i++; break; }
      if (/[\s/]/.test(s[i])) { i++; continue; }
      const attrStart = i;
      while (i < s.length && !/[\s/>=]/.test(s[i])) i++;
      if (i === attrStart) i++; // a stray "=": skip it
      const attrName = s.slice(attrStart, i);
      let j = i;
      while (j < s.length && /\s/.test(s[j])) j++;
      if (s[j] !== '=') { if (attrName) bare.push({ name: attrName, start: attrStart, end: i }); continue; }
      j++;
      while (j < s.length && /\s/.test(s[j])) j++;
      const q = s[j];
      if (q === '"' || q === "'") {
        const close = s.indexOf(q, j + 1);
        const end = close < 0 ? s.length : close;
        const hole = { start: j + 1, end };
        values.push(hole);
        attrs.set(attrName, hole);
        i = close < 0 ? s.length : close + 1;
        if (close >= 0) valued.push({ start: attrStart, end: i });
      } else {
        const valueStart = j;
        while (j < s.length && !/[\s>]/.test(s[j])) j++;
        attrs.set(attrName, { start: valueStart, end: j });
        if (j > valueStart) valued.push({ start: attrStart, end: j });
        i = j;
      }
    }
    const end = Math.min(s.length, i + 1);
    yield { type: closing ? 'close' : 'open', name, start: pos, end, selfClosing, values: closing ? [] : values, attrs, bare: closing ? [] : bare, valued: closing ? [] : valued };
    if (!closing && !selfClosing && RAW_TEXT.has(name)) raw = name;
    pos = end;
  }
}

/**
 * A tokenizer-free estimate of o200k tokens (words with their leading space, up to three digits,
 * runs of white space, up to three other characters), within about 20% on HTML. Deterministic, so
 * that templatize gives the same answer everywhere.
 */
export function estimateTokens(s: string): number {
  return s.match(new RegExp(TOKEN_PIECE, 'g'))?.length ?? 0;
}

/** One piece estimateTokens counts as a token. */
export const TOKEN_PIECE = / ?[A-Za-z]+|\d{1,3}|\s+|[^\sA-Za-z\d]{1,3}/.source;

