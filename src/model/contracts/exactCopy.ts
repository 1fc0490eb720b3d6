// zod checks a read's entries through its general machinery: about 4 µs an entry, a fifth of the
// Node side of a first read of 50,000 elements. The entries are plain data of a few fixed shapes,
// so a schema is compiled here, once, into a function that makes the copy zod would make (the
// same keys in the schema's order, the same values) without that machinery.
//
// The copy vouches only for what it fully understands. Anything else (`undefined`, a number that
// is not finite, an object that is not plain, a schema with checks, defaults or transforms) is
// UNSURE, and the whole list then goes through zod, which refuses or shapes it and words the
// error as before. test/model/exact-copy.test.ts holds the two to agreement on generated entries.
import { z } from 'zod';

export const UNSURE: unique symbol = Symbol('unsure');
type Copy = (value: unknown) => unknown;

interface Def {
  type: string;
  checks?: unknown[];
  values?: unknown[];
  entries?: Record<string, unknown>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  items?: z.ZodType[];
  rest?: unknown;
  shape?: Record<string, z.ZodType>;
  catchall?: unknown;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The copying function for `schema`, or null when it holds anything this does not understand. */
export function compileExactCopy(schema: z.ZodType): Copy | null {
  const def = defOf(schema);
  if (def.checks?.length) return null;
  switch (def.type) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : UNSURE);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : UNSURE);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : UNSURE);
    case 'literal': {
      const values = def.values ?? [];
      if (!values.every((x) => typeof x === 'string' || typeof x === 'boolean' || (typeof x === 'number' && Number.isFinite(x)))) return null;
      return (v) => (values.includes(v) ? v : UNSURE);
    }
    case 'enum': {
      const values = Object.values(def.entries ?? {});
      // A numeric TypeScript enum lists its names as values too (reverse mappings), which zod does not accept.
      if (!values.every((x) => typeof x === 'string')) return null;
      return (v) => (typeof v === 'string' && values.includes(v) ? v : UNSURE);
    }
    case 'array': {
      const element = def.element && compileExactCopy(def.element);
      if (!element) return null;
      return (v) => {
        if (!Array.isArray(v)) return UNSURE;
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) if ((out[i] = element(v[i])) === UNSURE) return UNSURE;
        return out;
      };
    }
    case 'tuple': {
      if (def.rest) return null;
      const items = (def.items ?? []).map(compileExactCopy);
      if (items.some((c) => !c)) return null;
      const copies = items as Copy[];
      return (v) => {
        if (!Array.isArray(v) || v.length !== copies.length) return UNSURE;
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) if ((out[i] = copies[i](v[i])) === UNSURE) return UNSURE;
        return out;
      };
    }
    case 'record': {
      if (!def.keyType || !def.valueType || defOf(def.keyType).type !== 'string' || defOf(def.keyType).checks?.length) return null;
      const value = compileExactCopy(def.valueType);
      if (!value) return null;
      return (v) => {
        if (!isPlainObject(v)) return UNSURE;
        const out: Record<string, unknown> = {};
        for (const k of Object.keys(v)) {
          // An own `__proto__` (parsed JSON makes one) would set the copy's prototype.
          if (k === '__proto__' || (out[k] = value(v[k])) === UNSURE) return UNSURE;
        }
        return out;
      };
    }
    case 'object': {
      if (def.catchall !== undefined || !def.shape) return null;
      const fields: Array<{ key: string; copy: Copy; optional: boolean }> = [];
      for (const [key, field] of Object.entries(def.shape)) {
        const fieldDef = defOf(field);
        const optional = fieldDef.type === 'optional';
        const copy = compileExactCopy(optional ? fieldDef.innerType! : field);
        if (!copy || key === '__proto__') return null;
        fields.push({ key, copy, optional });
      }
      // Keys the schema does not name are left out, as zod leaves them out of a (non-strict) object.
      return (v) => {
        if (!isPlainObject(v)) return UNSURE;
        const out: Record<string, unknown> = {};
        for (const { key, copy, optional } of fields) {
          if (!Object.prototype.hasOwnProperty.call(v, key)) {
            if (optional) continue;
            return UNSURE;
          }
          if ((out[key] = copy(v[key])) === UNSURE) return UNSURE;
        }
        return out;
      };
    }
    default:
      return null;
  }
}

/**
 * A list of `entry`, parsed as zod would parse `z.array(entry)`: by the compiled copy when it
 * vouches for every entry, by zod otherwise (its issues, at their paths, are the list's).
 */
export function exactList<T extends z.ZodType>(entry: T) {
  const list = z.array(entry);
  const copy = compileExactCopy(list);
  if (!copy) return list;
  return z.unknown().transform((value, ctx): z.infer<T>[] => {
    const fast = copy(value);
    if (fast !== UNSURE) return fast as z.infer<T>[];
    const r = list.safeParse(value);
    if (r.success) return r.data;
    // zod's own issues, paths relative to the list as z.array's would be (they keep no input).
    for (const issue of r.error.issues) ctx.issues.push({ ...issue, input: undefined } as never);
    return z.NEVER;
  });
}
