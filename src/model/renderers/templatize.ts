// Templatizing HTML: elements with the same shape (a list of product cards, a table's rows, the
// entries of a menu, wherever they stand in the document) are written once as a template and then
// once per instance with only what differs; runs of attributes that recur (a class list, the
// annotations every element of the full DOM carries) are written once and named.
//
//   <li class="p"><b>Tea</b> <i>$3</i></li><li class="p"><b>Milk</b> <i>$2</i></li>
//   →  <template id="t1"><li class="p"><b>{{v1}}</b> <i>{{v2}}</i></li></template>
//      <t1 v="Tea|$3"/><t1 v="Milk|$2"/>
//
// The rules that undo it (untemplatize), exactly, byte for byte, in this order:
//  0. A dictionary `<template id="d">LINES</template>` may stand first of all. It is read up to the
//     first `</template>` and removed; line N of LINES (split at each newline) is what every
//     `&N;` (N decimal, as `&12;`) of the rest stands for, replaced in one pass before rule 1
//     (a line holds no newline, no `<`, no `|` and no slot `{{vN}}`; it is not read again).
//     An empty `<template id="d"></template>` replaces nothing (templatize writes it only when the
//     document itself starts with `<template id="d">`). Templatize writes a dictionary only when
//     nothing in the document already reads as `&N;` (serialized HTML writes a page's own `&` as
//     `&amp;`), and only substrings of attribute values go into it (see valueDictionary.ts):
//       <template id="d">https://cdn.example.com/img/
//       ?w=400&amp;q=80</template><img src="&1;a.jpg&2;" srcset="&1;a.jpg&2; 1x, &1;a@2x.jpg&2; 2x">
//  1. Definitions stand at the very start: each `<template id="tN">BODY</template>` is read and
//     removed (BODY ends at the `</template>` that balances it). An empty `<template id="t0">
//     </template>` ends the definitions early and is removed too (templatize writes it only when
//     the document itself starts with something that looks like a definition).
//  2. Every self-closing `<tN …/>` tag naming a definition is replaced by that BODY, in which
//     `{{v1}}`, `{{v2}}`, … (`{{v}}` when there is one) are replaced by the values of the tag's
//     attribute `v`, split at each `|`, each unescaped (`&#34;`, `&#124;`, `&#38;` → `"`, `|`, `&`;
//     nothing else: the page's own `&amp;` stays as it is). A template without slots is `<tN/>`.
//  3. A definition `<template id="a">RUNS</template>` stands among them too (first): line N of
//     RUNS (split at each newline; an empty line defines nothing) is the run named `aN`, and in the
//     result of step 2 every bare attribute `aN` (no value) of a start tag is replaced by its run
//     (one or more attributes side by side, e.g. `class="card" data-interactive="false" data-visible="true"`).
//     `<template id="aN">RUN</template>` defines one run alone.
//     Templatize writes one only for a name no start tag of the document uses as a bare attribute.
// Templatize only writes a template whose fixed text holds no `{{` and whose definition reads back
// whole, names templates after no tag the document uses, and only collapses elements it saw
// closed, so untemplatize(templatize(x)) === x for every string x.

import { estimateTokens, tokens, type Hole } from './htmlTokens.js';
import { readDictionary, writeDictionary } from './valueDictionary.js';

export { estimateTokens };

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
const DEFINITION = /^<template id="(a|[ta]\d+)">/;

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
      const el: Elem = { kind: 'element', name: t.name, start: t.start, end: t.end, whole: true, holes: [...t.values, ...t.bare], children: [] };
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

const MIN_COMMON_END = 3;

/**
 * How many characters every value shares at its start and at its end, each cut where a word or a
 * number ends (never inside one, nor inside a surrogate pair), and never overlapping.
 */
function commonEnds(values: string[]): [number, number] {
  const shortest = Math.min(...values.map((v) => v.length));
  const boundary = (c: string | undefined) => c !== undefined && !/[A-Za-z0-9\ud800-\udfff]/.test(c);
  let head = 0;
  while (head < shortest && values.every((v) => v[head] === values[0][head])) head++;
  while (head > 0 && !(boundary(values[0][head - 1]))) head--;
  let tail = 0;
  while (tail < shortest - head && values.every((v) => v[v.length - 1 - tail] === values[0][values[0].length - 1 - tail])) tail++;
  while (tail > 0 && !boundary(values[0][values[0].length - tail])) tail--;
  // A shared "$" or "#" saves next to nothing and would make `{{v}}` read worse: only longer ends move.
  return [head >= MIN_COMMON_END ? head : 0, tail >= MIN_COMMON_END ? tail : 0];
}

// A slot's value is written in `v="…|…"`: `"` and `|` are escaped as `&#34;` and `&#124;`, and
// an `&` only where it starts one of the three escapes (`&#38;`). The page's own `&amp;` and
// `&quot;` (every attribute value of the full DOM has them) are written as they are, not doubled.
const ESCAPES: Record<string, string> = { '"': '&#34;', '|': '&#124;', '&': '&#38;' };
const UNESCAPES: Record<string, string> = { '&#34;': '"', '&#124;': '|', '&#38;': '&' };
const escapeValue = (v: string) => v.replace(/["|]|&(?=#(?:34|124|38);)/g, (c) => ESCAPES[c]);
const unescapeValue = (v: string) => v.replace(/&#(?:34|124|38);/g, (e) => UNESCAPES[e]);

/** Collapses same-shaped elements into templates and instances, and recurring attribute runs into names (see the rules above). */
export function templatize(input: string, opts: { minRun?: number } = {}): TemplatizeResult {
  const minRun = Math.max(2, opts.minRun ?? 2);
  // Naming attribute runs first lets more shapes match (a class list becomes one bare name) but
  // can make a small shape not worth a template (the seed's three `class="item"` cards); both
  // orders satisfy the rules at the top, and the cheaper one is kept.
  const runsFirst = pack(input, minRun, true);
  const shapesFirst = pack(input, minRun, false);
  const packed = estimateTokens(runsFirst.html) < estimateTokens(shapesFirst.html) ? runsFirst : shapesFirst;
  return { ...packed, html: writeDictionary(packed.html) };
}

/** Templatize with rule 3 applied before the shapes are found (`runsFirst`) or after. */
function pack(input: string, minRun: number, runsFirst: boolean): TemplatizeResult {
  const pre = runsFirst ? abbreviate(input, new Set()) : undefined;
  const html = pre ? pre.html : input;
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

  // Every whole element's shape, as a number: equal numbers, equal shapes (built bottom-up from
  // the children's numbers, so each element's source is read once), and the elements of each.
  const numbers = new Map<string, number>();
  const members: Elem[][] = [];
  const shapeNumber = new Map<Elem, number>();
  const number = (el: Elem): number | undefined => {
    const childNumbers = el.children.map((c) => (c.kind === 'element' ? number(c) : undefined));
    if (!el.whole || childNumbers.some((n, i) => n === undefined && el.children[i].kind === 'element')) return undefined;
    let key = el.name;
    let at = el.start;
    for (const h of [...el.holes].sort((x, y) => x.start - y.start)) { key += html.slice(at, h.start) + '\u0000'; at = h.end; }
    el.children.forEach((c, i) => {
      key += html.slice(at, c.start) + (c.kind === 'text' ? '\u0000' : c.kind === 'opaque' ? html.slice(c.start, c.end) : `\u0001${childNumbers[i]}\u0002`);
      at = c.end;
    });
    key += html.slice(at, el.end);
    let n = numbers.get(key);
    if (n === undefined) { n = members.length; numbers.set(key, n); members.push([]); }
    members[n].push(el);
    shapeNumber.set(el, n);
    return n;
  };
  for (const c of roots) if (c.kind === 'element') number(c);

  // Per shape, decided once over every element of that shape: what each is written as, or null.
  const decided = new Map<number, Map<Elem, string> | null>();
  const decide = (run: Elem[]): Map<Elem, string> | null => {
    const all = run.map((el) => shapeOf(html, el));
    const shapes = all.filter((sh) => sh.key === all[0].key);
    if (shapes.length < minRun || shapes.length < all.length) return null;
    const n = shapes[0].values.length;
    const slots: number[] = [];
    const cut: Array<[number, number]> = [];
    for (let k = 0; k < n; k++) {
      const values = shapes.map((sh) => sh.values[k]);
      if (values.every((v) => v === values[0])) continue;
      slots.push(k);
      cut[k] = commonEnds(values);
    }
    const slotName = (j: number) => (slots.length === 1 ? 'v' : `v${j + 1}`);
    const parts = shapes[0].key.split('\u0000');
    let body = parts[0];
    let fixed = parts[0];
    for (let k = 0; k < n; k++) {
      const j = slots.indexOf(k);
      const v = shapes[0].values[k];
      if (j >= 0) {
        // What every value of the slot starts and ends with stays in the template.
        const [head, tail] = cut[k];
        body += `${v.slice(0, head)}{{${slotName(j)}}}${v.slice(v.length - tail)}`;
        fixed += v.slice(0, head) + v.slice(v.length - tail);
      } else { body += v; fixed += v; }
      body += parts[k + 1];
      fixed += parts[k + 1];
    }
    // A "{{" of the page's own would be read back as a slot.
    if (fixed.includes('{{')) return null;
    const known = bodies.get(body);
    const number = known ? 0 : freeName();
    const name = known ?? `t${number}`;
    const written = shapes.map((sh) => `<${name}${slots.length ? ` v="${slots.map((k) => escapeValue(sh.values[k].slice(cut[k][0], sh.values[k].length - cut[k][1]))).join('|')}"` : ''}/>`);
    const definition = known ? '' : `<template id="${name}">${body}</template>`;
    if (definition && !readsBack(definition, `<template id="${name}">`.length)) return null;
    // Worth it only when it saves tokens, not just characters: a slot's value costs more tokens
    // per character than the markup it replaces, so short shapes with many slots are left alone.
    const before = run.reduce((sum, el) => sum + estimateTokens(html.slice(el.start, el.end)), 0);
    const after = written.reduce((sum, w) => sum + estimateTokens(w), 0) + estimateTokens(definition);
    if (after >= before) return null;
    if (!known) {
      nextName = number + 1;
      bodies.set(body, name);
      definitions.push(definition);
    }
    return new Map(run.map((el, i) => [el, written[i]]));
  };

  // Top down: an element whose shape recurs anywhere in the document (a product card, a menu
  // entry, a table row) is written as an instance, and what is inside it is not looked at again.
  const visit = (children: Child[]) => {
    for (const c of children) {
      if (c.kind !== 'element') continue;
      const n = shapeNumber.get(c);
      if (n !== undefined && members[n].length >= minRun) {
        if (!decided.has(n)) decided.set(n, decide(members[n]));
        const written = decided.get(n)?.get(c);
        if (written !== undefined) { edits.push({ start: c.start, end: c.end, text: written }); instances++; continue; }
      }
      visit(c.children);
    }
  };
  visit(roots);

  edits.sort((a, b) => a.start - b.start);
  let rest = '';
  let at = 0;
  for (const e of edits) { rest += html.slice(at, e.start) + e.text; at = e.end; }
  rest += html.slice(at);
  const defsText = definitions.join('');
  if (pre) {
    // What follows the definitions must not read as one more (the t0 marker ends them).
    const needsEnd = DEFINITION.test(rest);
    if (!pre.defs && !definitions.length && !needsEnd) return { html: input, templates: 0, instances: 0 };
    return { html: pre.defs + defsText + (needsEnd ? '<template id="t0"></template>' : '') + rest, templates: definitions.length, instances };
  }
  // Rule 3 on the shapes' definitions and the rest (untemplatize expands instances first, then runs).
  const short = abbreviate(defsText + rest, new Set(bodies.values()));
  const defsEnd = short.at(defsText.length);
  // What follows the definitions must not read as one more (the t0 marker ends them).
  const needsEnd = DEFINITION.test(short.html.slice(defsEnd));
  if (!short.defs && !definitions.length && !needsEnd) return { html: input, templates: 0, instances: 0 };
  return { html: short.defs + short.html.slice(0, defsEnd) + (needsEnd ? '<template id="t0"></template>' : '') + short.html.slice(defsEnd), templates: definitions.length, instances };
}

/** Rounds of joining attributes that stand side by side into one run (each round can double a run). */
const JOIN_ROUNDS = 4;

/**
 * Rule 3 (see the top): a run of attributes that recurs in start tags (the annotations every
 * element of the full DOM carries, a class list that a hundred cards share, `class="…" data-x="…"`
 * that always come together) is written once, as `<template id="aN">RUN</template>`, and in each
 * start tag as the bare attribute `aN`. Runs are found like byte-pair encoding: single attributes
 * first, then neighbours that mostly come together are joined, a few rounds. A run is written only
 * when it saves more tokens than its definition costs; the most frequent get the shortest names.
 */
function abbreviate(s: string, templateNames: Set<string>): { defs: string; html: string; at: (pos: number) => number } {
  const bareNames = new Set<string>();
  // Per start tag, its attributes as runs of whole attributes separated by white space.
  const tags: Hole[][] = [];
  for (const t of tokens(s)) {
    if (t.type !== 'open') continue;
    for (const b of t.bare) bareNames.add(b.name.toLowerCase());
    // A tag that reads as a definition must keep reading as one.
    if (templateNames.has(t.name) || (t.name === 'template' && DEFINITION.test(s.slice(t.start, t.end)))) continue;
    // A run must read back as one bare attribute, and its definition must end at its own
    // `</template>`, hold no slot of a template body (`{{v}}`) and be one line: no "<", "{{", newline.
    const valued = t.valued.filter((h) => /\s/.test(s[h.start - 1]) && /[\s/>]/.test(s[h.end] ?? '') && !/<|\{\{|\n/.test(s.slice(h.start, h.end)));
    if (valued.length) tags.push(valued);
  }
  // Runs are numbered by their text once, so that counting and joining compare numbers.
  const texts: string[] = [];
  const numberOf = new Map<string, number>();
  const intern = (text: string) => {
    let n = numberOf.get(text);
    if (n === undefined) { n = texts.length; numberOf.set(text, n); texts.push(text); }
    return n;
  };
  const runs = tags.map((hs) => hs.map((h) => ({ ...h, n: intern(s.slice(h.start, h.end)) })));
  const count = () => {
    const c = new Array<number>(texts.length).fill(0);
    for (const rs of runs) for (const r of rs) c[r.n]++;
    return c;
  };
  const spaced = (a: Hole, b: Hole) => b.start > a.end && !/\S/.test(s.slice(a.end, b.start));
  for (let round = 0; round < JOIN_ROUNDS; round++) {
    const single = count();
    const pairs = new Map<string, number>();
    for (const rs of runs) for (let i = 1; i < rs.length; i++) {
      if (!spaced(rs[i - 1], rs[i])) continue;
      const k = `${rs[i - 1].n} ${s.slice(rs[i - 1].end, rs[i].start)} ${rs[i].n}`;
      pairs.set(k, (pairs.get(k) ?? 0) + 1);
    }
    let joined = false;
    for (const rs of runs) for (let i = 1; i < rs.length; i++) {
      if (!spaced(rs[i - 1], rs[i])) continue;
      const both = pairs.get(`${rs[i - 1].n} ${s.slice(rs[i - 1].end, rs[i].start)} ${rs[i].n}`) ?? 0;
      // Joined when they come together at least as often as either comes alone.
      if (both < 2 || 2 * both < Math.max(single[rs[i - 1].n], single[rs[i].n])) continue;
      const start = rs[i - 1].start;
      const end = rs[i].end;
      rs.splice(i - 1, 2, { start, end, n: intern(s.slice(start, end)) });
      joined = true;
    }
    if (!joined) break;
  }
  const counted = count();
  const counts = counted.map((n, i): [string, number] => [texts[i], n]).filter(([, n]) => n >= 2).sort((x, y) => y[1] - x[1]);
  const names = new Map<string, string>();
  // Line k of the one definition `<template id="a">…</template>` is the run named `ak`.
  const lines: string[] = [];
  for (const [run, n] of counts) {
    let next = lines.length;
    do next++; while (bareNames.has(`a${next}`));
    const name = `a${next}`;
    if (n * (estimateTokens(` ${run}`) - estimateTokens(` ${name}`)) <= estimateTokens(`\n${run}`)) continue;
    while (lines.length < next - 1) lines.push('');
    lines.push(run);
    names.set(run, name);
  }
  // Its runs hold no "<" (see above), so it reads back whole.
  const defs = lines.length ? `<template id="a">${lines.join('\n')}</template>` : '';
  const edits: Array<Hole & { text: string }> = [];
  for (const rs of runs) for (const r of rs) {
    const name = names.get(texts[r.n]);
    if (name) edits.push({ start: r.start, end: r.end, text: name });
  }
  if (!edits.length) return { defs: '', html: s, at: (p) => p };
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const e of edits) { out += s.slice(pos, e.start) + e.text; pos = e.end; }
  // Where a position of `s` that no edit covers lands in the result.
  const at = (p: number) => p + edits.filter((e) => e.end <= p).reduce((d, e) => d + e.text.length - (e.end - e.start), 0);
  return { defs, html: out + s.slice(pos), at };
}

/** Where the body of a definition that starts at `bodyStart` ends: the `</template>` that balances it (-1: none). */
function definitionEnd(s: string, bodyStart: number): { bodyEnd: number; after: number } {
  let depth = 0;
  for (const t of tokens(s, bodyStart)) {
    if (t.name !== 'template') continue;
    if (t.type === 'open' && !t.selfClosing) depth++;
    else if (t.type === 'close') {
      if (depth === 0) return { bodyEnd: t.start, after: t.end };
      depth--;
    }
  }
  return { bodyEnd: -1, after: s.length };
}

/** A definition reads back whole: its body neither ends it early nor keeps it open. */
function readsBack(definition: string, bodyStart: number): boolean {
  return definitionEnd(definition, bodyStart).after === definition.length;
}

/** The inverse of templatize(): the rule at the top of this file. */
export function untemplatize(packed: string): string {
  const html = readDictionary(packed);
  const defs = new Map<string, string>();
  const runs = new Map<string, string>();
  let pos = 0;
  for (;;) {
    const m = DEFINITION.exec(html.slice(pos, pos + 40));
    if (!m) break;
    const bodyStart = pos + m[0].length;
    const { bodyEnd, after } = definitionEnd(html, bodyStart);
    if (bodyEnd < 0) break; // not a definition after all
    const body = html.slice(bodyStart, bodyEnd);
    pos = after;
    if (m[1] === 't0' && body === '') break;
    if (m[1] === 'a') body.split('\n').forEach((run, i) => { if (run) runs.set(`a${i + 1}`, run); });
    else (m[1].startsWith('a') ? runs : defs).set(m[1], body);
  }
  if (!defs.size && !runs.size && pos === 0) return html;
  let out = '';
  let at = pos;
  for (const t of tokens(html, pos)) {
    if (t.type !== 'open' || !t.selfClosing || !defs.has(t.name)) continue;
    const body = defs.get(t.name)!;
    const range = t.attrs.get('v');
    const values = range ? html.slice(range.start, range.end).split('|').map(unescapeValue) : [];
    out += html.slice(at, t.start) + body.replace(/\{\{v(\d*)\}\}/g, (whole, k: string) => values[k ? Number(k) - 1 : 0] ?? whole);
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
