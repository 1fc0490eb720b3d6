// A user's JSON Schema (extract's `schema`) is input like any other: it is checked before it is
// built into a validator, so that no schema can stall the process. Validation runs on the event
// loop, so a schema that recurses forever ({"$ref":"#"} overflowed the stack) or a `pattern`
// that backtracks exponentially (^(a+)+$ held the server, and every later call, on one string)
// is refused up front with what was expected. The patterns taken then run on RE2, linear in the
// value (linearPattern.ts: ^a*a*a*a*a*a*a*a*$ is polynomial, passes every shape rule here, and held
// the server for minutes on V8's engine); one RE2 cannot run (a backreference, a lookaround) is
// refused here too. Pure and zod-free: any face can call it.
import { linearPatternRefusal } from './linearPattern.js';

export const SCHEMA_LIMITS = {
  /** Nesting of the schema document itself (objects and arrays). */
  depth: 32,
  /** Objects in the schema once its local $refs are written out. */
  nodes: 2000,
  /** Characters of one pattern. */
  patternLength: 200,
  /** Repetitions (*, +, {n,}, {n,m}) in one pattern. */
  patternQuantifiers: 8,
} as const;

/** Why a schema is refused (the caller answers BAD_INPUT with it); null when it is safe to build. */
export function unsafeSchemaReason(schema: unknown): string | null {
  try {
    checkDocument(schema);
    checkRefs(schema);
    return null;
  } catch (e) {
    if (e instanceof Refusal) return e.message;
    throw e;
  }
}

class Refusal extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Depth, then every pattern: iteratively, so a deep document cannot overflow the checker either. */
function checkDocument(schema: unknown): void {
  const stack: Array<[unknown, number, string]> = [[schema, 0, '']];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    if (depth > SCHEMA_LIMITS.depth) throw new Refusal(`the schema nests deeper than ${SCHEMA_LIMITS.depth} levels (at …${path.slice(-60)}): expected a flatter schema`);
    if (Array.isArray(v)) { v.forEach((x, i) => stack.push([x, depth + 1, `${path}/${i}`])); continue; }
    if (!isObject(v)) continue;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'pattern' && typeof x === 'string') checkPattern(x, `${path}/pattern`);
      if (k === 'patternProperties' && isObject(x)) for (const p of Object.keys(x)) checkPattern(p, `${path}/patternProperties`);
      stack.push([x, depth + 1, `${path}/${k}`]);
    }
  }
}

/**
 * Only references inside the document ("#/$defs/name", "#/definitions/name", any "#/…" pointer),
 * none that leads back to where it was met (no recursion), and the schema written out stays small
 * (references that fan out could otherwise multiply it).
 */
function checkRefs(root: unknown): void {
  const sizes = new Map<unknown, number>();
  const visiting = new Set<unknown>();
  const size = (v: unknown, path: string): number => {
    if (Array.isArray(v)) return v.reduce((n: number, x, i) => n + size(x, `${path}/${i}`), 0);
    if (!isObject(v)) return 0;
    const known = sizes.get(v);
    if (known !== undefined) return known;
    if (visiting.has(v)) throw new Refusal(`the schema refers to itself (at ${path || '/'}): recursive schemas are not supported, expected one written out to a fixed depth`);
    visiting.add(v);
    let n = 1;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' || k === '$dynamicRef' || k === '$recursiveRef') n += size(resolveRef(root, x, `${path}/${k}`), `${path}/${k}`);
      else n += size(x, `${path}/${k}`);
      if (n > SCHEMA_LIMITS.nodes) throw new Refusal(`the schema is larger than ${SCHEMA_LIMITS.nodes} parts once its $refs are written out: expected a smaller schema`);
    }
    visiting.delete(v);
    sizes.set(v, n);
    return n;
  };
  size(root, '');
}

function resolveRef(root: unknown, ref: unknown, path: string): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('#')) throw new Refusal(`${path}: only references inside the schema ("#/$defs/name") are supported, got ${JSON.stringify(ref)}`);
  let at: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    at = Array.isArray(at) ? at[Number(key)] : isObject(at) ? at[key] : undefined;
    if (at === undefined) throw new Refusal(`${path}: ${JSON.stringify(ref)} points at nothing in the schema`);
  }
  return at;
}

interface Group {
  /** A repetition with a variable count (*, +, ?, {n,m}) inside. */
  varies: boolean;
  /** How many alternatives (a|b|c: 3). */
  count: number;
  /** The alternatives, as literal text; null once one is not plain text. */
  alternatives: string[] | null;
  current: string;
  literal: boolean;
}

/**
 * A pattern runs on the event loop (JavaScript has no regex timeout): only one RE2 can run (no
 * backreference, no lookaround), and, as a second wall should a pattern ever reach a backtracking
 * engine, only patterns that cannot backtrack exponentially: no repeated group that itself repeats
 * something of variable length ((a+)+, (\w*\s?)*) or offers alternatives that can match the same
 * text ((a|aa)+, (\w|\d)*), and a bounded length and number of repetitions.
 */
export function checkPattern(pattern: string, path = 'pattern'): void {
  const refuse = (why: string) => { throw new Refusal(`${path} ${JSON.stringify(pattern.length > 60 ? pattern.slice(0, 59) + '…' : pattern)}: ${why}`); };
  if (pattern.length > SCHEMA_LIMITS.patternLength) refuse(`longer than ${SCHEMA_LIMITS.patternLength} characters; expected a shorter pattern`);
  try { new RegExp(pattern); } catch (e) { refuse(`not a valid regular expression (${(e as Error).message})`); }
  const linear = linearPatternRefusal(pattern);
  if (linear) refuse(linear);
  const fresh = (): Group => ({ varies: false, count: 0, alternatives: [], current: '', literal: true });
  const stack: Group[] = [fresh()];
  let repetitions = 0;
  /** What the last atom was: a group just closed (with what it held), or a single item. */
  let last: { group?: Group } | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const top = stack[stack.length - 1];
    const quantifier = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/.exec(pattern.slice(i));
    if (quantifier && last) {
      const [text, min, comma, max] = quantifier;
      const fixed = text.startsWith('{') && (!comma || (max !== '' && max === min));
      const many = text === '*' || text === '+' || (text.startsWith('{') && (comma ? max === '' || Number(max) > 1 : Number(min) > 1));
      if (!fixed) { top.varies = true; repetitions++; }
      if (last.group && many) {
        if (last.group.varies) refuse('a repeated group repeats something of variable length inside (nested quantifiers, as in (a+)+), which can take exponential time; expected a pattern without nested repetition');
        if (ambiguous(last.group)) refuse('a repeated group offers alternatives that can match the same text (as in (a|aa)+), which can take exponential time; expected distinct literal alternatives or no repetition of the group');
      }
      top.literal = false;
      i += text.length - 1;
      if (pattern[i + 1] === '?') i++;
      last = null;
      continue;
    }
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') refuse('backreferences are not supported; expected a pattern without \\1 or \\k<name>');
      if (/[pPu]/.test(next) && pattern[i + 2] === '{') { const end = pattern.indexOf('}', i); i = end < 0 ? pattern.length : end; top.literal = false; }
      else { i++; if (/[dDwWsSbB.]/.test(next)) top.literal = false; else top.current += next; }
      last = {};
      continue;
    }
    if (c === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      top.literal = false;
      last = {};
      continue;
    }
    if (c === '(') {
      const prefix = /^\(\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)?/.exec(pattern.slice(i))?.[0] ?? '(';
      i += prefix.length - 1;
      stack.push(fresh());
      last = null;
      continue;
    }
    if (c === ')') {
      const closed = stack.length > 1 ? stack.pop()! : top;
      endAlternative(closed);
      const parent = stack[stack.length - 1];
      if (closed.varies) parent.varies = true;
      parent.literal = false;
      last = { group: closed };
      continue;
    }
    if (c === '|') {
      endAlternative(top);
      last = null;
      continue;
    }
    if (c === '.') top.literal = false;
    else if (c !== '^' && c !== '$') top.current += c;
    last = c === '^' || c === '$' ? null : {};
  }
  if (repetitions > SCHEMA_LIMITS.patternQuantifiers) refuse(`more than ${SCHEMA_LIMITS.patternQuantifiers} repetitions; expected a simpler pattern`);
}

function endAlternative(g: Group): void {
  g.count++;
  if (g.alternatives && g.literal) g.alternatives.push(g.current);
  else g.alternatives = null;
  g.current = '';
  g.literal = true;
}

/** Alternatives that are not all plain text, or of which one starts another ((a|ab), (x|x)). */
function ambiguous(g: Group): boolean {
  if (g.count < 2) return false;
  if (!g.alternatives) return true;
  return g.alternatives.some((a, i) => g.alternatives!.some((b, j) => i !== j && b.startsWith(a)));
}
