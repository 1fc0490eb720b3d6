// Regular expressions that come from a client (an extract schema's `pattern`, its
// `patternProperties`) run on RE2 (the re2js port: pure JavaScript, linear in the input), never
// on V8's backtracking engine. JavaScript has no regex timeout, and the shape checks of
// schemaSafety.ts can only refuse exponential patterns: ^a*a*a*a*a*a*a*a*$ is polynomial, and on
// 70 a's and a b it held `pagelens mcp` for minutes, every later call and SIGTERM with it.
// What RE2 cannot express in linear time (backreferences, lookaround) is refused with why.
import { RE2JS } from 're2js';
import { INPUT_BOUNDS } from './inputBounds.js';

/** Why RE2 cannot run `pattern` (JavaScript syntax), or null when it can. */
export function linearPatternRefusal(pattern: string): string | null {
  const unsupported = backtrackingOnly(pattern);
  if (unsupported) return `${unsupported} cannot run on a linear-time engine (RE2); expected a pattern without it`;
  try {
    RE2JS.compile(RE2JS.translateRegExp(pattern));
    return null;
  } catch (e) {
    return `not supported by the linear-time engine (RE2): ${(e as Error).message}; expected a simpler pattern`;
  }
}

/**
 * The syntax only a backtracking engine runs, outside character classes: \1 or \k<name>, and
 * (?=…), (?!…), (?<=…), (?<!…). Found by hand, because translateRegExp would rewrite \k<n> as a
 * literal "k<n>" rather than fail.
 */
function backtrackingOnly(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && (/[1-9]/.test(next) || next === 'k')) return 'a backreference (\\1, \\k<name>)';
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(' && /^\(\?(?:=|!|<=|<!)/.test(pattern.slice(i, i + 4))) {
      return 'a lookaround ((?=…), (?!…), (?<=…), (?<!…))';
    }
  }
  return null;
}

/** Flags RE2 runs as inline flags ((?i) …); a schema's pattern has none. */
const FLAGS = new Set(['i', 'm', 's', 'u']);

/**
 * A RegExp whose matching runs on RE2, over at most INPUT_BOUNDS.patternInput characters of the
 * value (the rest of a longer value is not seen). The native RegExp underneath only lends
 * `source`, `flags` and toString() (what zod reports and writes into JSON Schema); exec and test,
 * which every other method of a RegExp goes through, are RE2's, as RE2 reads the pattern (\p{L} is
 * a Unicode class even without the u flag; \s is ASCII white space). Only the flags i, m, s and
 * u: lastIndex (g, y) is not kept.
 */
export class LinearRegExp extends RegExp {
  readonly #re2: RE2JS;

  constructor(pattern: string | RegExp, flags?: string) {
    const source = typeof pattern === 'string' ? pattern : pattern.source;
    const given = flags ?? (typeof pattern === 'string' ? '' : pattern.flags);
    super(source, given);
    const refused = linearPatternRefusal(source);
    if (refused) throw new SyntaxError(`Invalid pattern /${source}/: ${refused}`);
    const unknown = [...given].filter((f) => !FLAGS.has(f));
    if (unknown.length) throw new SyntaxError(`Invalid pattern /${source}/${given}: the flags ${unknown.join('')} are not supported on the linear-time engine`);
    const inline = given.replace('u', '');
    this.#re2 = RE2JS.compile((inline ? `(?${inline})` : '') + RE2JS.translateRegExp(source));
  }

  override test(input: string): boolean {
    return this.#re2.test(bounded(String(input)));
  }

  override exec(input: string): RegExpExecArray | null {
    return this.#re2.exec(bounded(String(input))) as RegExpExecArray | null;
  }
}

/** The part of a value a pattern sees: a page's value can be megabytes long. */
function bounded(text: string): string {
  return text.length > INPUT_BOUNDS.patternInput ? text.slice(0, INPUT_BOUNDS.patternInput) : text;
}

/**
 * Runs `build` with every `new RegExp(text)` it makes for one of the patterns of JSON Schema
 * `schema` (its `pattern`s and `patternProperties`) a LinearRegExp. For zod's z.fromJSONSchema,
 * which makes them with `new RegExp(text)` in three places, two of them inside closures no walk
 * over the built schema can reach. Only those: zod's own formats (an email, an emoji) build
 * theirs meanwhile too, lookaheads included. `build` is synchronous, so nothing else runs while the
 * global is replaced, and the global is put back whatever happens.
 */
export function withLinearPatterns<T>(schema: unknown, build: () => T): T {
  const patterns = patternsOf(schema);
  const native = globalThis.RegExp;
  // Called with `new`, a function that returns an object makes that object.
  function chosen(pattern: string | RegExp, flags?: string): RegExp {
    const source = typeof pattern === 'string' ? pattern : pattern.source;
    return patterns.has(source) ? new LinearRegExp(pattern, flags) : new native(pattern, flags);
  }
  chosen.prototype = native.prototype;
  globalThis.RegExp = chosen as unknown as RegExpConstructor;
  try {
    return build();
  } finally {
    globalThis.RegExp = native;
  }
}

/** Every `pattern` (a string) and `patternProperties` key in a JSON document, walked without recursion. */
function patternsOf(schema: unknown): Set<string> {
  const out = new Set<string>();
  const stack: unknown[] = [schema];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) { stack.push(...v); continue; }
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'pattern' && typeof x === 'string') out.add(x);
      if (k === 'patternProperties' && typeof x === 'object' && x !== null) for (const p of Object.keys(x)) out.add(p);
      stack.push(x);
    }
  }
  return out;
}
