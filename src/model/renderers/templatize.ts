// Templatizing HTML: runs of sibling elements with the same shape (a list of product cards, a
// table's rows) are written once as a template and then once per instance with only what differs.
//
//   <li class="p"><b>Tea</b> <i>$3</i></li><li class="p"><b>Milk</b> <i>$2</i></li>
//   →  <template id="t1"><li class="p"><b>{{v1}}</b> <i>{{v2}}</i></li></template>
//      <t1 v1="Tea" v2="$3"/><t1 v1="Milk" v2="$2"/>
//
// The rule that undoes it (untemplatize), exactly, byte for byte:
//  1. Definitions stand at the very start: each `<template id="tN">BODY</template>` is read and
//     removed (BODY ends at the `</template>` that balances it). An empty `<template id="t0">
//     </template>` ends the definitions early and is removed too (templatize writes it only when
//     the document itself starts with something that looks like a definition).
//  2. Every self-closing `<tN …/>` tag naming a definition is replaced by that BODY, in which each
//     `{{name}}` is replaced by the value of the tag's attribute `name`, unescaped (`&amp;`,
//     `&quot;` → `&`, `"`). A template with one slot calls it `v`, with several `v1`, `v2`, ….
//  3. Definitions `<template id="aN">RUN</template>` stand among them too: in the result of step 2,
//     every bare attribute `aN` (no value) of a start tag is replaced by RUN (the annotations that
//     every element of the full DOM carries, `data-interactive="false" data-visible="true"`).
//     Templatize writes one only for a name no start tag of the document uses as a bare attribute.
// Templatize only writes a template whose fixed text holds no `{{`, names templates after no tag
// the document uses, and only collapses elements it saw closed, so untemplatize(templatize(x)) === x
// for every string x.

/** A start tag's quoted attribute value, or a text node: the parts of a shape that may differ. */
interface Hole { start: number; end: number }

interface Elem {
  kind: 'element';
  name: string;
  start: number;
  /** After the closing tag (or the start tag of a void element). */
  end: number;
  /** Closed by its own end tag (or void / self-closing), and so is everything inside. */
  whole: boolean;
  holes: Hole[];
  children: Child[];
}

interface Leaf { kind: 'text' | 'opaque'; start: number; end: number }
type Child = Elem | Leaf;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr', 'param', 'keygen']);
// Elements whose content is text up to their end tag, whatever it looks like.
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'noembed', 'noframes', 'textarea', 'title', 'plaintext']);
const DEFINITION = /^<template id="([ta]\d+)">/;

interface Token {
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
}

/** Splits HTML into tags and text; a `<` that starts no tag is text. Never throws. */
function* tokens(s: string, from = 0): Generator<Token> {
  let pos = from;
  let raw: string | null = null;
  const text = (start: number, end: number): Token => ({ type: 'text', name: '', start, end, selfClosing: false, values: [], attrs: new Map(), bare: [] });
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
      } else {
        const valueStart = j;
        while (j < s.length && !/[\s>]/.test(s[j])) j++;
        attrs.set(attrName, { start: valueStart, end: j });
        i = j;
      }
    }
    const end = Math.min(s.length, i + 1);
    yield { type: closing ? 'close' : 'open', name, start: pos, end, selfClosing, values: closing ? [] : values, attrs, bare: closing ? [] : bare };
    if (!closing && !selfClosing && RAW_TEXT.has(name)) raw = name;
    pos = end;
  }
}

/** The element tree of an HTML string, with source ranges; unbalanced markup is kept, not fixed. */
function parse(s: string): { roots: Child[]; tagNames: Set<string> } {
  const top: Elem = { kind: 'element', name: '#root', start: 0, end: s.length, whole: true, holes: [], children: [] };
  const stack: Elem[] = [top];
  const tagNames = new Set<string>();
  const closeImplicitly = (el: Elem, at: number) => { el.end = at; el.whole = false; };
  for (const t of tokens(s)) {
    const parent = stack[stack.length - 1];
    if (t.type === 'text' || t.type === 'opaque') { parent.children.push({ kind: t.type, start: t.start, end: t.end }); continue; }
    if (t.type === 'open') {
      tagNames.add(t.name);
      const el: Elem = { kind: 'element', name: t.name, start: t.start, end: t.end, whole: true, holes: t.values, children: [] };
      parent.children.push(el);
      if (!t.selfClosing && !VOID.has(t.name)) { el.whole = false; stack.push(el); }
      continue;
    }
    let k = stack.length - 1;
    while (k > 0 && stack[k].name !== t.name) k--;
    if (k === 0) { parent.children.push({ kind: 'opaque', start: t.start, end: t.end }); continue; }
    while (stack.length - 1 > k) closeImplicitly(stack.pop()!, t.start);
    const el = stack.pop()!;
    el.end = t.end;
    el.whole = el.children.every((c) => c.kind !== 'element' || c.whole);
  }
  while (stack.length > 1) closeImplicitly(stack.pop()!, s.length);
  return { roots: top.children, tagNames };
}

/** Every hole of an element's subtree, in source order. */
function holesOf(el: Elem, out: Hole[] = []): Hole[] {
  out.push(...el.holes);
  for (const c of el.children) {
    if (c.kind === 'element') holesOf(c, out);
    else if (c.kind === 'text') out.push({ start: c.start, end: c.end });
  }
  return out;
}

interface Shape { key: string; values: string[] }

/** The element's source with every hole emptied (its shape), and what was in the holes. */
function shapeOf(s: string, el: Elem): Shape {
  const holes = holesOf(el).sort((a, b) => a.start - b.start);
  let key = '';
  let at = el.start;
  const values: string[] = [];
  for (const h of holes) {
    key += s.slice(at, h.start) + '\u0000';
    values.push(s.slice(h.start, h.end));
    at = h.end;
  }
  key += s.slice(at, el.end);
  return { key, values };
}

export interface TemplatizeResult {
  html: string;
  /** Templates defined. */
  templates: number;
  /** Elements written as instances. */
  instances: number;
}

/**
 * A tokenizer-free estimate of o200k tokens (words with their leading space, up to three digits,
 * runs of white space, up to three other characters), within about 20% on HTML. Deterministic, so
 * that templatize gives the same answer everywhere.
 */
export function estimateTokens(s: string): number {
  return s.match(/ ?[A-Za-z]+|\d{1,3}|\s+|[^\sA-Za-z\d]{1,3}/g)?.length ?? 0;
}

const escapeValue = (v: string) => v.replace(/[&"]/g, (c) => (c === '&' ? '&amp;' : '&quot;'));
const unescapeValue = (v: string) => v.replace(/&(amp|quot);/g, (_, e: string) => (e === 'amp' ? '&' : '"'));

/** Collapses runs of same-shaped sibling elements into templates and instances (see the rule above). */
export function templatize(html: string, opts: { minRun?: number } = {}): TemplatizeResult {
  const minRun = Math.max(2, opts.minRun ?? 2);
  const { roots, tagNames } = parse(html);
  const bodies = new Map<string, string>(); // body → template name
  const definitions: string[] = [];
  const edits: Array<{ start: number; end: number; text: string }> = [];
  let nextName = 1;
  let instances = 0;
  const freeName = () => {
    let k = nextName;
    while (tagNames.has(`t${k}`)) k++;
    return k;
  };

  const tryRun = (run: Elem[], shapes: Shape[]): boolean => {
    const n = shapes[0].values.length;
    const slots: number[] = [];
    for (let k = 0; k < n; k++) if (shapes.some((sh) => sh.values[k] !== shapes[0].values[k])) slots.push(k);
    const slotName = (j: number) => (slots.length === 1 ? 'v' : `v${j + 1}`);
    const parts = shapes[0].key.split('\u0000');
    let body = parts[0];
    let fixed = parts[0];
    for (let k = 0; k < n; k++) {
      const j = slots.indexOf(k);
      if (j >= 0) body += `{{${slotName(j)}}}`;
      else { body += shapes[0].values[k]; fixed += shapes[0].values[k]; }
      body += parts[k + 1];
      fixed += parts[k + 1];
    }
    // A "{{" of the page's own would be read back as a slot.
    if (fixed.includes('{{')) return false;
    const known = bodies.get(body);
    const number = known ? 0 : freeName();
    const name = known ?? `t${number}`;
    const written = shapes.map((sh) => `<${name}${slots.map((k, j) => ` ${slotName(j)}="${escapeValue(sh.values[k])}"`).join('')}/>`);
    const definition = known ? '' : `<template id="${name}">${body}</template>`;
    // Worth it only when it saves tokens, not just characters: ` v2="…"` costs more tokens per
    // character than the markup it replaces, so short shapes with many slots are left alone.
    const before = run.reduce((sum, el) => sum + estimateTokens(html.slice(el.start, el.end)), 0);
    const after = written.reduce((sum, w) => sum + estimateTokens(w), 0) + estimateTokens(definition);
    if (after >= before) return false;
    if (!known) {
      nextName = number + 1;
      bodies.set(body, name);
      definitions.push(definition);
    }
    run.forEach((el, i) => edits.push({ start: el.start, end: el.end, text: written[i] }));
    instances += run.length;
    return true;
  };

  const visit = (children: Child[]) => {
    // Runs of same-shaped elements separated by nothing but whitespace. Shapes are computed only
    // where a neighbour has the same tag, so unique elements cost nothing.
    let run: Elem[] = [];
    let shapes: Shape[] = [];
    const flush = () => {
      const done = run.length >= minRun && tryRun(run, shapes);
      if (!done) for (const el of run) visit(el.children);
      run = [];
      shapes = [];
    };
    for (const c of children) {
      if (c.kind !== 'element') {
        if (c.kind === 'text' && !html.slice(c.start, c.end).trim()) continue;
        flush();
        continue;
      }
      if (!c.whole) { flush(); visit(c.children); continue; }
      const last = run.length - 1;
      if (last >= 0 && run[last].name === c.name) {
        shapes[last] ??= shapeOf(html, run[last]);
        const shape = shapeOf(html, c);
        if (shape.key === shapes[last].key) { run.push(c); shapes.push(shape); continue; }
        flush();
        run = [c];
        shapes = [shape];
        continue;
      }
      flush();
      run = [c];
      shapes = [];
    }
    flush();
  };
  visit(roots);

  const needsEnd = DEFINITION.test(html);
  edits.sort((a, b) => a.start - b.start);
  let rest = '';
  let at = 0;
  for (const e of edits) { rest += html.slice(at, e.start) + e.text; at = e.end; }
  rest += html.slice(at);
  const short = abbreviate(definitions.join('') + rest);
  if (!short.defs && !definitions.length && !needsEnd) return { html, templates: 0, instances: 0 };
  // The t0 marker follows every definition; the definitions of templates open the abbreviated text.
  const defsLength = estimateLengthOfDefinitions(short.html, definitions.length);
  const out = short.defs + short.html.slice(0, defsLength) + (needsEnd ? '<template id="t0"></template>' : '') + short.html.slice(defsLength);
  return { html: out, templates: definitions.length, instances };
}

// The annotations every element of the full DOM carries (seed 000 §5), in the order the serializer writes them.
const ANNOTATION_RUNS = ['false', 'true'].flatMap((i) => ['false', 'true'].map((v) => `data-interactive="${i}" data-visible="${v}"`));
const MIN_ABBREVIATED = 8;
const INTERACTIVE_PREFIX = 'data-interactive="';

/**
 * Rule 3 (see the top): a run of annotation attributes that recurs is written once, as
 * `<template id="aN">RUN</template>`, and in each start tag as the bare attribute `aN`.
 */
function abbreviate(s: string): { defs: string; html: string } {
  const bareNames = new Set<string>();
  const found = new Map<string, Hole[]>();
  for (const t of tokens(s)) {
    if (t.type !== 'open') continue;
    for (const b of t.bare) bareNames.add(b.name.toLowerCase());
    const hole = t.attrs.get('data-interactive');
    if (!hole) continue;
    const start = hole.start - INTERACTIVE_PREFIX.length;
    if (start <= t.start || !/\s/.test(s[start - 1]) || s.slice(start, hole.start) !== INTERACTIVE_PREFIX) continue;
    const run = ANNOTATION_RUNS.find((r) => s.startsWith(r, start));
    if (!run || start + run.length > t.end || !/[\s/>]/.test(s[start + run.length] ?? '')) continue;
    found.set(run, [...found.get(run) ?? [], { start, end: start + run.length }]);
  }
  const edits: Array<Hole & { text: string }> = [];
  let defs = '';
  let k = 0;
  for (const run of ANNOTATION_RUNS) {
    const at = found.get(run) ?? [];
    if (at.length < MIN_ABBREVIATED) continue;
    do k++; while (bareNames.has(`a${k}`));
    defs += `<template id="a${k}">${run}</template>`;
    for (const h of at) edits.push({ ...h, text: `a${k}` });
  }
  if (!edits.length) return { defs: '', html: s };
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const e of edits) { out += s.slice(pos, e.start) + e.text; pos = e.end; }
  return { defs, html: out + s.slice(pos) };
}

/** Where the first `count` template definitions end in `s` (they stand at its start). */
function estimateLengthOfDefinitions(s: string, count: number): number {
  let pos = 0;
  for (let n = 0; n < count; n++) {
    let depth = 0;
    for (const t of tokens(s, pos)) {
      if (t.name !== 'template') continue;
      if (t.type === 'open' && !t.selfClosing) depth++;
      else if (t.type === 'close' && --depth === 0) { pos = t.end; break; }
    }
  }
  return pos;
}

/** The inverse of templatize(): the rule at the top of this file. */
export function untemplatize(html: string): string {
  const defs = new Map<string, string>();
  const runs = new Map<string, string>();
  let pos = 0;
  for (;;) {
    const m = DEFINITION.exec(html.slice(pos, pos + 40));
    if (!m) break;
    const bodyStart = pos + m[0].length;
    let depth = 0;
    let bodyEnd = -1;
    let after = html.length;
    for (const t of tokens(html, bodyStart)) {
      if (t.name !== 'template') continue;
      if (t.type === 'open' && !t.selfClosing) depth++;
      else if (t.type === 'close') {
        if (depth === 0) { bodyEnd = t.start; after = t.end; break; }
        depth--;
      }
    }
    if (bodyEnd < 0) break; // not a definition after all
    const body = html.slice(bodyStart, bodyEnd);
    pos = after;
    if (m[1] === 't0' && body === '') break;
    (m[1].startsWith('a') ? runs : defs).set(m[1], body);
  }
  if (!defs.size && !runs.size && pos === 0) return html;
  let out = '';
  let at = pos;
  for (const t of tokens(html, pos)) {
    if (t.type !== 'open' || !t.selfClosing || !defs.has(t.name)) continue;
    const body = defs.get(t.name)!;
    out += html.slice(at, t.start) + body.replace(/\{\{(v\d*)\}\}/g, (whole, slot: string) => {
      const range = t.attrs.get(slot);
      return range ? unescapeValue(html.slice(range.start, range.end)) : whole;
    });
    at = t.end;
  }
  out += html.slice(at);
  if (!runs.size) return out;
  // Rule 3: each bare attribute aN of a start tag is the run its definition holds.
  let full = '';
  let from = 0;
  for (const t of tokens(out)) {
    if (t.type !== 'open') continue;
    for (const b of t.bare) {
      const run = runs.get(b.name);
      if (run === undefined) continue;
      full += out.slice(from, b.start) + run;
      from = b.end;
    }
  }
  return full + out.slice(from);
}
