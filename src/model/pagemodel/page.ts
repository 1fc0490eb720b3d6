// The page model: every frame's snapshot placed in the top-level viewport under global IDs.
// One model, many renderers (render.ts): formats never re-read the page.
import type { Box, FrameInfo, FrameSnapshot, HeadingNode, RawNode, StructNode } from '../contracts/schema.js';

/** The attribute mirroring an element's ID in the DOM (the ID itself lives in the engine). */
export const ID_ATTR = 'data-llm-id';
/** The attribute carrying a document's token on <html>, written only when a selector needs it. */
export const DOC_ATTR = 'data-llm-doc';

export interface PageNode extends RawNode {
  /** Global ID: "5" in the main frame, "f1_5" in frame 1. */
  gid: string;
  frame: number;
}

/** A structure node placed in the page: `parent` and the nodes' `ctx` index `PageModel.structure`. */
export interface PageStruct extends StructNode {
  gid: string;
  frame: number;
}

export interface PageHeading extends HeadingNode {
  gid: string;
  frame: number;
}

export interface PageModel {
  url: string;
  title: string;
  viewport: { width: number; height: number };
  scrollPosition: string;
  nodes: PageNode[];
  /** Visible interactive elements before pruning, all frames. */
  total: number;
  frames: FrameInfo[];
  /** Frame ordinal → the document (engine token) its nodes were read from: their IDs belong to it. */
  docs: Record<number, string>;
  /** What the read may have missed or got wrong, and why; empty when nothing is in doubt. */
  warnings: string[];
  /** Landmarks, forms, rows, … of every frame (when the read asked for structure), in document order per frame. */
  structure: PageStruct[];
  headings: PageHeading[];
  timeMs: number;
  /** Time spent in the frames' engines (summed), how many names they answered from earlier reads, how many elements they looked at, and the bytes their reads took on the way (over CDP, or the extension's messages). */
  engine: {
    ms: number; reusedNames: number; visited: number; bytes?: number;
    /** Nodes, structure and headings that crossed from the engines as themselves; the rest was patched from the reads the host held (issue 21). */
    crossed?: number;
    /** Frames that answered as a delta against the read the host held. */
    deltas?: number;
    /** Frames that answered whole though the host held an earlier read, and why (a navigation, a lost base). */
    whole?: string[];
  };
}

export interface PlacedFrame {
  ordinal: number;
  snapshot: FrameSnapshot;
  /** Where the frame's (0,0) lies in the top-level viewport. */
  offset: [number, number];
  /** The part of the top-level viewport through which the frame can be seen (null: not at all). */
  clip: Box | null;
}

export function globalId(frame: number, localId: string): string {
  return frame === 0 ? localId : `f${frame}_${localId}`;
}

/** Advice for a target whose every clickable point lies on a control inside it that does something else: that control's ID, in the caller's frame. */
export function innerControlAdvice(inner: { id: string; role: string; name: string }, frame: number): string {
  const id = globalId(frame, inner.id);
  return ` (${id}: ${inner.role} "${inner.name}"): act on ${id} instead`;
}

export function parseGlobalId(gid: string): { frame: number; local: string } | null {
  const m = /^(?:f(\d+)_)?(\d+)$/.exec(gid.trim());
  return m ? { frame: m[1] ? Number(m[1]) : 0, local: m[2] } : null;
}

/**
 * Links resolved against their document's base, kept across reads: a warm read lists the same
 * links again, and parsing a URL costs about as much as the rest of placing a node. The key starts
 * with the base's length, so that no base and href (both as the page sent them) can pass for another.
 */
const resolved = new Map<string, string>();
const MAX_RESOLVED = 20_000;

function absoluteUrl(href: string, base: string): string {
  const key = `${base.length}:${base}${href}`;
  const known = resolved.get(key);
  if (known !== undefined) return known;
  let abs: string;
  try {
    abs = new URL(href, base).href;
  } catch {
    abs = href;
  }
  if (resolved.size >= MAX_RESOLVED) resolved.clear();
  resolved.set(key, abs);
  return abs;
}

export function intersect(a: Box, b: Box): Box | null {
  const x = Math.max(a[0], b[0]);
  const y = Math.max(a[1], b[1]);
  const r = Math.min(a[0] + a[2], b[0] + b[2]);
  const btm = Math.min(a[1] + a[3], b[1] + b[3]);
  return r > x && btm > y ? [x, y, r - x, btm - y] : null;
}

/**
 * Places each frame's nodes in top-level coordinates. In viewport mode, a node of a child frame
 * that cannot be seen through its iframe (scrolled or clipped out) is pruned like any off-screen node.
 */
export function composePage(main: FrameSnapshot, placed: PlacedFrame[], frames: FrameInfo[], viewportOnly: boolean, timeMs: number, warnings: string[] = []): PageModel {
  const nodes: PageNode[] = [];
  const structure: PageStruct[] = [];
  const headings: PageHeading[] = [];
  const docs: Record<number, string> = {};
  const allWarnings = [...warnings];
  let total = 0;
  const engine = { ms: 0, reusedNames: 0, visited: 0 };
  for (const p of placed) {
    total += p.snapshot.total;
    engine.ms += p.snapshot.timeMs;
    engine.reusedNames += p.snapshot.reused ?? 0;
    engine.visited += p.snapshot.visited ?? 0;
    docs[p.ordinal] = p.snapshot.doc;
    for (const w of p.snapshot.warnings ?? []) allWarnings.push(p.ordinal ? `frame ${p.ordinal}: ${w}` : w);
    const [ox, oy] = p.offset;
    const move = (b: Box): Box => [b[0] + ox, b[1] + oy, b[2], b[3]];
    // Indexes into this frame's structure become indexes into the page's.
    const base = structure.length;
    const at = (i: number | undefined) => (i === undefined || i < 0 ? i : base + i);
    for (const st of p.snapshot.structure ?? []) {
      structure.push({ ...st, box: move(st.box), parent: at(st.parent)!, gid: globalId(p.ordinal, st.id), frame: p.ordinal });
    }
    for (const h of p.snapshot.headings ?? []) headings.push({ ...h, box: move(h.box), ctx: at(h.ctx)!, gid: globalId(p.ordinal, h.id), frame: p.ordinal });
    for (const n of p.snapshot.nodes) {
      const box = move(n.box);
      if (viewportOnly && !(p.clip && intersect(box, p.clip))) continue;
      // The node's fields in its order, the box replaced, then gid and frame: what a spread makes, at
      // half the cost on 50,000 nodes of many shapes. Assigning is safe here: a checked node has no
      // `__proto__` of its own (the schema check leaves unknown keys out).
      const node = Object.assign({}, n) as PageNode;
      node.box = box;
      node.gid = globalId(p.ordinal, n.id);
      node.frame = p.ordinal;
      if (n.ctx !== undefined) node.ctx = at(n.ctx);
      if (n.href) node.href = absoluteUrl(n.href, p.snapshot.base);
      nodes.push(node);
    }
  }
  return {
    url: main.url,
    title: main.title,
    viewport: main.viewport,
    scrollPosition: main.scroll.position,
    nodes,
    total,
    frames,
    docs,
    warnings: allWarnings,
    structure,
    headings,
    timeMs,
    engine: { ms: Math.round(engine.ms * 10) / 10, reusedNames: engine.reusedNames, visited: engine.visited },
  };
}
