// The nodes the DOM RAG works on: the page model's controls, row items and headings plus the
// content pass's text and values, as one list in reading order, each with the structure around it.
import type { ContentItem } from '../contracts/content.js';
import { globalId, type PageModel } from '../pagemodel/page.js';
import type { Box, ScrollInfo, StructKind } from '../contracts/schema.js';

export interface StructRef { gid: string; kind: StructKind; role: string; name: string }

export type RagKind = 'control' | 'item' | 'heading' | 'content';

export interface RagNode {
  gid: string;
  /** ARIA role for controls, `item` for rows, `heading`, or the content kind (`text`, `value`, `cell`). */
  role: string;
  name: string;
  value?: string;
  states: string[];
  box: Box;
  frame: number;
  kind: RagKind;
  level?: number;
  placeholder?: string;
  type?: string;
  href?: string;
  attrs?: Record<string, string>;
  scr?: ScrollInfo;
  occ?: boolean;
  /** The structure around the node, outermost first. */
  path: StructRef[];
  /** Position in reading order. */
  order: number;
}

/** Content read by the content pass of one frame, boxes already in top-level coordinates. */
export interface PlacedContent { frame: number; items: ContentItem[] }

/**
 * The page model's controls, row items and headings, plus content items, as one list in reading
 * order, each with the structure around it.
 */
export function toRagNodes(model: PageModel, content: PlacedContent[] = []): RagNode[] {
  const structIndex = new Map(model.structure.map((s, i) => [s.gid, i]));
  const paths = new Map<number, StructRef[]>();
  const pathOf = (ctx: number | undefined): StructRef[] => {
    if (ctx === undefined || ctx < 0 || !model.structure[ctx]) return [];
    let p = paths.get(ctx);
    if (!p) {
      const s = model.structure[ctx];
      p = [...pathOf(s.parent), { gid: s.gid, kind: s.kind, role: s.role, name: s.name }];
      paths.set(ctx, p);
    }
    return p;
  };
  const out: RagNode[] = [];
  const seen = new Set<string>();
  // A content block that repeats the text of a row's item or a heading next to it adds nothing.
  const named = new Set<string>();
  for (const n of model.nodes) {
    seen.add(n.gid);
    const node: RagNode = { gid: n.gid, role: n.role, name: n.name, states: n.states, box: n.box, frame: n.frame, kind: n.role === 'item' ? 'item' : 'control', path: pathOf(n.ctx), order: 0 };
    if (n.value !== undefined) node.value = n.value;
    if (n.placeholder) node.placeholder = n.placeholder;
    if (n.type) node.type = n.type;
    if (n.href) node.href = n.href;
    if (n.attrs) node.attrs = n.attrs;
    if (n.scr) node.scr = n.scr;
    if (n.occ) node.occ = true;
    if (node.kind === 'item') { named.add(`${n.ctx}|${n.name}`); if (n.value) named.add(`${n.ctx}|=${n.value}`); }
    out.push(node);
  }
  for (const h of model.headings) {
    if (seen.has(h.gid)) continue;
    seen.add(h.gid);
    named.add(`${h.ctx}|${h.text}`);
    out.push({ gid: h.gid, role: 'heading', level: h.level, name: h.text, states: [], box: h.box, frame: h.frame, kind: 'heading', path: pathOf(h.ctx), order: 0 });
  }
  for (const { frame, items } of content) {
    for (const c of items) {
      const gid = globalId(frame, c.id);
      if (seen.has(gid)) continue;
      seen.add(gid);
      const up = c.up.map((u) => structIndex.get(globalId(frame, u))).find((i) => i !== undefined);
      if (c.kind === 'text' && named.has(`${up ?? -1}|${c.name}`)) continue;
      // A card's price is already its item's value.
      if (c.kind === 'value' && c.value !== undefined && named.has(`${up ?? -1}|=${c.value}`)) continue;
      const node: RagNode = { gid, role: c.kind, name: c.name, states: [], box: c.box, frame, kind: 'content', path: pathOf(up), order: 0 };
      if (c.value !== undefined) node.value = c.value;
      out.push(node);
    }
  }
  // Reading order: top to bottom, then left to right (rows of a few pixels read as one line).
  out.sort((a, b) => Math.round(a.box[1] / 4) - Math.round(b.box[1] / 4) || a.box[0] - b.box[0]);
  out.forEach((n, i) => { n.order = i; });
  return out;
}
