// How a read's nodes cross CDP: as arrays, not objects. A big first read is mostly node entries,
// and the six fields every node has spelled out their keys in every entry: a third of its bytes,
// each of which the renderer, the browser and Node copy on the way. The shape is only the wire's:
// the host unpacks every entry before the schema checks it as a RawNode, so a malformed one is
// refused exactly as an object would be. (No zod here: the in-page engine packs with this too.)
import type { RawNode } from './schema.js';

/** `[id, role, name, tag, states, box]`, and a seventh element with the node's other fields when it has any. */
export type PackedNode = [string, string, string, string, string[], RawNode['box'], Partial<RawNode>?];

export function packNode(node: RawNode): PackedNode {
  const { id, role, name, tag, states, box, ...rest } = node;
  for (const _ in rest) return [id, role, name, tag, states, box, rest];
  return [id, role, name, tag, states, box];
}

/**
 * The node an entry stands for, or the entry as it came when it is no packed node (the schema then
 * refuses it). The other fields cannot stand in for the six: those are set last.
 */
export function unpackNode(entry: unknown): unknown {
  if (!Array.isArray(entry) || (entry.length !== 6 && entry.length !== 7)) return entry;
  const rest = entry[6];
  if (entry.length === 7 && (typeof rest !== 'object' || rest === null || Array.isArray(rest))) return entry;
  // A literal, then the other fields one by one: spreading the rest into the literal costs five
  // times as much on a read of 50,000 entries. `__proto__` (an own key in parsed JSON) would set
  // the prototype if assigned: it is no field of a node, so it is left out, like the six.
  const node: Record<string, unknown> = { id: entry[0], role: entry[1], name: entry[2], tag: entry[3], states: entry[4], box: entry[5] };
  if (rest) for (const k of Object.keys(rest)) if (!SIX.has(k) && k !== '__proto__') node[k] = (rest as Record<string, unknown>)[k];
  return node;
}

const SIX = new Set(['id', 'role', 'name', 'tag', 'states', 'box']);
