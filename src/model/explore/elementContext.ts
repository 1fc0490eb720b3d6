// L3 of the hierarchical index (seed 002): one element in its context (the chain of structures
// around it, its form, its label, its nearest neighbours).
import type { RawElementContext } from '../contracts/engineAnswers.js';
import type { ElementContext } from './explore.js';
import type { PageModel, PageNode, PageStruct } from '../pagemodel/page.js';
import type { Box } from '../contracts/schema.js';
import { bbox, clipText, countKind, elementKind, landmarkOf } from './regions.js';

/** The nearest interactive element in each direction, from the boxes (← → ↑ ↓). */
export function nearby(model: PageModel, ref: string, box: Box): ElementContext['nearby'] {
  const [x, y, w, h] = box;
  const cx = x + w / 2, cy = y + h / 2;
  const best: Record<'left' | 'right' | 'up' | 'down', [number, PageNode] | undefined> = { left: undefined, right: undefined, up: undefined, down: undefined };
  for (const n of model.nodes) {
    if (n.gid === ref || n.role === 'item' || countKind(n) === null) continue;
    const [nx, ny, nw, nh] = n.box;
    // Containers of the element (a clickable card around it) are not its neighbours.
    if (nx <= x && ny <= y && nx + nw >= x + w && ny + nh >= y + h) continue;
    const ncx = nx + nw / 2, ncy = ny + nh / 2;
    const overlapX = Math.min(x + w, nx + nw) - Math.max(x, nx);
    const consider = (dir: keyof typeof best, along: number, across: number) => {
      const score = Math.max(0, along) + 2 * Math.max(0, across);
      if (!best[dir] || score < best[dir]![0]) best[dir] = [score, n];
    };
    // Beside: level with the element (their rows overlap); above or below: anywhere, columns weigh.
    const level = Math.min(y + h, ny + nh) - Math.max(y, ny) > 0 || Math.abs(ncy - cy) < h / 2;
    if (level && ncx < cx && nx + nw <= x + 4) consider('left', x - (nx + nw), Math.abs(ncy - cy));
    if (level && ncx > cx && nx >= x + w - 4) consider('right', nx - (x + w), Math.abs(ncy - cy));
    if (ncy < cy && ny + nh <= y + 4) consider('up', y - (ny + nh), overlapX > 0 ? 0 : Math.abs(ncx - cx) / 2);
    if (ncy > cy && ny >= y + h - 4) consider('down', ny - (y + h), overlapX > 0 ? 0 : Math.abs(ncx - cx) / 2);
  }
  const out: ElementContext['nearby'] = {};
  for (const dir of ['left', 'right', 'up', 'down'] as const) {
    const b = best[dir];
    if (b) out[dir] = { ref: b[1].gid, kind: elementKind(b[1]), name: clipText(b[1].name, 60), distance: Math.round(b[0]) };
  }
  return out;
}

export interface ContextFacts {
  snapshotId: string;
  ref: string;
  frame: number;
  frameUrl?: string;
  /** XPath of the iframes on the way down, outermost first (each within its parent's document). */
  framePath: string[];
  /** Offset of the element's frame in the top-level viewport. */
  offset: [number, number];
  /** Visible part of the element's frame in the top-level viewport (null: none). */
  clip: Box | null;
  viewport: { width: number; height: number };
  region?: string;
}

const ARROWS = { left: '←', right: '→', up: '↑', down: '↓' } as const;

export function elementContext(model: PageModel, raw: RawElementContext, facts: ContextFacts, hintText: (h: RawElementContext['hints'][number]) => string): ElementContext {
  const box: Box | null = raw.box ? [raw.box[0] + facts.offset[0], raw.box[1] + facts.offset[1], raw.box[2], raw.box[3]] : null;
  const seen = box && facts.clip ? intersects(box, facts.clip) && intersects(box, [0, 0, facts.viewport.width, facts.viewport.height]) : false;
  const xpath = [...facts.framePath.map((p) => `${p}/#document`), raw.xpath].join('');
  const kind = elementKind({ role: raw.role, tag: raw.tag, attrs: raw.attributes });
  const framePrefix = facts.frame ? `f${facts.frame}_` : '';
  const parents = raw.chain.map((c) => ({ ref: framePrefix + c.id, kind: landmarkOf({ kind: c.kind, role: c.role } as PageStruct)[1], role: c.role, tag: c.tag, name: c.name }));
  const hints = raw.hints.map((h) => (facts.frame ? { ...h, frame: `f${facts.frame}` } : h));
  const out: ElementContext = {
    snapshotId: facts.snapshotId, ref: facts.ref, role: raw.role, kind, name: raw.name, tag: raw.tag, states: raw.states, xpath,
    bbox: box ? bbox(box) : null, inViewport: seen, frame: facts.frame, ...(facts.frameUrl && { frameUrl: facts.frameUrl }),
    attributes: raw.attributes, parents, nearby: box ? nearby(model, facts.ref, box) : {},
    selectorHints: hints.map(hintText), hints, text: '',
    ...(raw.value !== undefined && { value: raw.value }),
    ...(raw.options && { options: raw.options, optionCount: raw.optionCount }),
    ...(facts.region && { region: facts.region }),
  };
  out.text = contextText(out);
  return out;
}

function intersects(a: Box, b: Box): boolean {
  return a[0] < b[0] + b[2] && a[0] + a[2] > b[0] && a[1] < b[1] + b[3] && a[1] + a[3] > b[1];
}

function contextText(c: ElementContext): string {
  const lines = [`ELEMENT: ${c.kind}${c.name ? ` ${JSON.stringify(clipText(c.name, 80))}` : ''} @ref:${c.ref}${c.value !== undefined ? ` = ${JSON.stringify(clipText(c.value, 60))}` : ''}${c.states.length ? ` [${c.states.join('] [')}]` : ''}`];
  lines.push(`XPath: ${c.xpath}`);
  lines.push(c.bbox ? `BBox: { x: ${c.bbox.x}, y: ${c.bbox.y}, width: ${c.bbox.width}, height: ${c.bbox.height} }` : 'BBox: none (not visible)');
  lines.push(`InViewport: ${c.inViewport}`);
  if (c.frame) lines.push(`Frame: f${c.frame}${c.frameUrl ? ` ${c.frameUrl}` : ''}`);
  if (c.region) lines.push(`Region: ${c.region}`);
  const attrs = Object.entries(c.attributes).filter(([k]) => k !== 'style');
  if (attrs.length) {
    lines.push('', 'ATTRIBUTES:');
    for (const [k, v] of attrs.slice(0, 12)) lines.push(`  ${k}: ${v === 'true' || v === 'false' ? v : JSON.stringify(clipText(v, 80))}`);
    if (attrs.length > 12) lines.push(`  … ${attrs.length - 12} more`);
  }
  if (c.options?.length) {
    lines.push('', 'OPTIONS:');
    for (const o of c.options.slice(0, 12)) lines.push(`  [${o.index}] ${JSON.stringify(o.label)}${o.selected ? ' (selected)' : ''}${o.disabled ? ' (disabled)' : ''}`);
    if ((c.optionCount ?? 0) > 12) lines.push(`  … ${c.optionCount! - 12} more`);
  }
  if (c.parents.length) {
    lines.push('', 'PARENT CONTEXT:');
    c.parents.forEach((p, i) => lines.push(`  ${i ? `${'    '.repeat(i - 1)}└── ` : ''}${p.kind} @ref:${p.ref}${p.name ? ` ${JSON.stringify(clipText(p.name, 60))}` : ''}`));
    lines.push(`  ${'    '.repeat(c.parents.length - 1)}└── THIS ELEMENT`);
  }
  const dirs = (['left', 'right', 'up', 'down'] as const).filter((d) => c.nearby[d]);
  if (dirs.length) {
    lines.push('', 'NEARBY INTERACTIVE:');
    for (const d of dirs) { const n = c.nearby[d]!; lines.push(`  ${ARROWS[d]} ${n.kind} @ref:${n.ref}${n.name ? ` ${JSON.stringify(n.name)}` : ''}`); }
  }
  if (c.selectorHints.length) {
    lines.push('', 'SELECTOR HINTS:');
    for (const h of c.selectorHints) lines.push(`  ${h}`);
  }
  return lines.join('\n');
}
