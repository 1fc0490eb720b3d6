// Renderers over the page model. Each output format is one function here; none reads the page.
import { minifyRole } from '../pagemodel/roles.js';
import { globalId, type PageModel, type PageNode } from '../pagemodel/page.js';
import { pageText, quotedPageText } from './pageText.js';
import type { ScrollableContainer, SemanticNode, SemanticNodeV3, SemanticResult, SemanticV3Result, SnapshotMeta } from '../contracts/schema.js';

/** Names longer than this stop helping an agent choose; the full name is in `semantic` mode. */
export const V3_NAME_MAX = 80;

export function truncate(s: string, max: number): string {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

function centre(n: PageNode): [number, number] {
  return [Math.round(n.box[0] + n.box[2] / 2), Math.round(n.box[1] + n.box[3] / 2)];
}

export function toV3Node(n: PageNode, boxes: boolean): SemanticNodeV3 {
  // Keys are added in the legend's order; absent fields are left out, never null.
  const out: Partial<SemanticNodeV3> = { i: n.gid, r: minifyRole(n.role), n: truncate(n.name, V3_NAME_MAX) };
  if (n.value !== undefined) out.v = n.value;
  if (n.states.length) out.s = n.states.join(',');
  out.xy = centre(n);
  if (n.frame) out.f = n.frame;
  if (boxes) out.box = n.box;
  if (n.scr) out.scr = n.scr;
  if (n.occ) out.occ = true;
  if (n.hidden) out.hid = n.hidden;
  if (n.in !== undefined) out.in = globalId(n.frame, n.in);
  return out as SemanticNodeV3;
}

export function toSemanticNode(n: PageNode): SemanticNode {
  const out: SemanticNode = { id: n.gid, role: n.role, name: n.name };
  if (n.value !== undefined) out.value = n.value;
  if (n.states.length) out.state = n.states.join(',');
  if (n.type) out.type = n.type;
  if (n.placeholder) out.placeholder = n.placeholder;
  if (n.href) out.href = n.href;
  if (n.shadow) out.isInShadow = true;
  out.frameId = n.frame;
  out.bounds = { x: n.box[0], y: n.box[1], width: n.box[2], height: n.box[3] };
  if (n.occ) out.occluded = true;
  if (n.scr) out.scroll = n.scr;
  if (n.hidden) out.hidden = { count: n.hidden.n, reason: n.hidden.why };
  if (n.in !== undefined) out.container = globalId(n.frame, n.in);
  return out;
}

function scrollables(model: PageModel): ScrollableContainer[] {
  return model.nodes.filter((n) => n.scr).map((n) => ({ id: n.gid, depth: n.scr!.depth, hasMore: n.scr!.h }));
}

function meta(model: PageModel): SnapshotMeta {
  return {
    totalElements: model.total,
    viewportElements: model.nodes.length,
    prunedElements: Math.max(0, model.total - model.nodes.length),
    occludedElements: model.nodes.filter((n) => n.occ).length,
    extractionTimeMs: model.timeMs,
    estimatedTokens: 0,
  };
}

export function renderV3(model: PageModel, opts: { boxes?: boolean } = {}): SemanticV3Result {
  return {
    mode: 'semantic_v3',
    url: model.url,
    title: model.title,
    viewport: model.viewport,
    scroll_position: model.scrollPosition,
    interactive_tree: model.nodes.map((n) => toV3Node(n, opts.boxes ?? false)),
    scrollable_containers: scrollables(model),
    ...(model.frames.length > 1 && { frames: model.frames }),
    ...(model.warnings.length > 0 && { warnings: model.warnings }),
    meta: meta(model),
  };
}

export function renderSemantic(model: PageModel): SemanticResult {
  return {
    mode: 'semantic',
    url: model.url,
    title: model.title,
    viewport: model.viewport,
    scroll_position: model.scrollPosition,
    nodes: model.nodes.map(toSemanticNode),
    scrollable_containers: scrollables(model),
    ...(model.frames.length > 1 && { frames: model.frames }),
    ...(model.warnings.length > 0 && { warnings: model.warnings }),
    meta: meta(model),
  };
}

/**
 * The compact text form: one line per element, `id role name = "value" {states}`. No
 * coordinates and no punctuation that is not needed to read it back: an agent acts by ID,
 * so this is the cheapest complete listing (the ID is the first word, the role the second).
 * Page text (title, names, values) follows the one rule of src/model/renderers/pageText.ts: plain words
 * bare, anything else a JSON string, so no name can carry a marker such as `{focused}`.
 */
export function renderText(model: PageModel): string {
  return v3Text(renderV3(model));
}

/** The compact text form of a semantic_v3 payload: the page line, its warnings, one line per element. */
export function v3Text(snap: Pick<SemanticV3Result, 'title' | 'url' | 'scroll_position' | 'interactive_tree' | 'warnings'>): string {
  const lines = [`page: ${pageText(snap.title)} <${snap.url}> scrolled ${snap.scroll_position}`];
  for (const w of snap.warnings ?? []) lines.push(`warning: ${w}`);
  for (const n of snap.interactive_tree) lines.push(v3Line(n));
  return lines.join('\n');
}

/** One element of the text form: `id role name = "value" {states}` and its markers; no coordinates. */
export function v3Line(n: SemanticNodeV3): string {
  let line = `${n.i} ${n.r}`;
  if (n.n) line += ` ${pageText(n.n)}`;
  if (n.v !== undefined) line += ` = ${quotedPageText(n.v)}`;
  if (n.s) line += ` {${n.s}}`;
  if (n.scr) line += ` (scrolls, ${n.scr.depth}${n.scr.h ? ', more' : ''})`;
  if (n.occ) line += ' (covered)';
  if (n.hid) line += ` (hides ${n.hid.n}: ${n.hid.why})`;
  if (n.in) line += ` (in ${n.in})`;
  return line;
}
