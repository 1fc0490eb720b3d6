// The page as a request carries it, made ready for the ranker: semantic_v3 nodes as RagNodes, the
// structure the skeleton shows around each of them, and the colour a screenshot shows in a box.
import jpeg from 'jpeg-js';
import type { RagNode, StructRef } from '../model/retrieval/rag.js';
import { expandRole } from '../model/pagemodel/roles.js';
import type { SemanticNodeV3 } from '../model/contracts/schema.js';

/**
 * semantic_v3 nodes as the ranker's nodes; `context` adds what surrounds each and `attributes`
 * what the element says of itself (both from the skeleton).
 */
export function nodesFromTree(tree: SemanticNodeV3[], context: Map<string, StructRef[]> = new Map(), attributes: Map<string, Record<string, string>> = new Map()): RagNode[] {
  return tree.map((n, order) => {
    const node: RagNode = {
      gid: n.i, role: expandRole(n.r), name: n.n, states: n.s ? n.s.split(',') : [],
      box: n.box ?? [n.xy[0], n.xy[1], 0, 0], frame: n.f ?? 0, kind: n.r === 'item' ? 'item' : 'control', path: context.get(n.i) ?? [], order,
    };
    if (n.v !== undefined) node.value = n.v;
    if (n.occ) node.occ = true;
    if (n.scr) node.scr = n.scr;
    const a = attributes.get(n.i);
    if (a) {
      // A field named only by its title ("Must be at least 6 characters") is still the password.
      if (a.type) node.type = a.type;
      if (a.placeholder) node.placeholder = a.placeholder;
      const { type: _t, placeholder: _p, 'data-llm-id': _i, ...rest } = a;
      if (Object.keys(rest).length) node.attrs = rest;
    }
    return node;
  });
}

/** The attributes the skeleton writes on each element with an ID (type, name, placeholder, href, …). */
export function skeletonAttributes(skeletonDom: string): Map<string, Record<string, string>> {
  const out = new Map<string, Record<string, string>>();
  for (const tag of skeletonDom.matchAll(/<[a-zA-Z][\w-]*\s([^>]*\bdata-llm-id="[^"]*"[^>]*)>/g)) {
    const attrs: Record<string, string> = {};
    for (const m of tag[1].matchAll(/([a-zA-Z_:][\w:.-]*)="([^"]*)"/g)) attrs[m[1]] = decode(m[2]);
    out.set(attrs['data-llm-id'], attrs);
  }
  return out;
}

const STRUCT_TAGS: Record<string, StructRef['kind']> = {
  header: 'landmark', nav: 'landmark', main: 'landmark', aside: 'landmark', footer: 'landmark', search: 'landmark', section: 'section',
  article: 'section', form: 'form', fieldset: 'fieldset', dialog: 'dialog', table: 'table', tr: 'row', li: 'row',
};

/**
 * What the skeleton shows around each element: the named landmarks, forms, fieldsets, rows and
 * sections it sits in, and the nearest heading before it. This is what tells two "Delete"
 * buttons apart ("the Delete in Billing").
 */
export function skeletonContext(skeletonDom: string): Map<string, StructRef[]> {
  const out = new Map<string, StructRef[]>();
  const stack: Array<{ tag: string; ref: StructRef | null; seq: number }> = [];
  let heading: { level: number; text: string; ref: string; seq: number } | null = null;
  let inHeading: { level: number; text: string } | null = null;
  // The skeleton names structure by position only: each opening gets an ID of its own, so that
  // two sections with the same words are still two chunks.
  let opened = 0;
  const re = /<(\/?)([a-zA-Z][\w-]*)([^>]*)>|([^<]+)/g;
  for (let m = re.exec(skeletonDom); m; m = re.exec(skeletonDom)) {
    const [, close, rawTag, attrText, text] = m;
    if (text !== undefined) { if (inHeading) inHeading.text += text; continue; }
    const tag = rawTag.toLowerCase();
    if (close) {
      if (/^h[1-6]$/.test(tag) && inHeading) { heading = { level: inHeading.level, text: decode(inHeading.text).trim(), ref: `skeleton-h${++opened}`, seq: opened }; inHeading = null; continue; }
      const i = stack.map((s) => s.tag).lastIndexOf(tag);
      if (i >= 0) stack.length = i;
      continue;
    }
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrText)?.[1];
    if (/^h[1-6]$/.test(tag)) { inHeading = { level: Number(tag[1]), text: '' }; continue; }
    const kind = STRUCT_TAGS[tag];
    const selfClosing = /\/\s*$/.test(attrText) || /^(input|img|br|hr|meta|link)$/.test(tag);
    if (kind && !selfClosing) {
      const name = decode(attr('aria-label') ?? attr('data-name') ?? '');
      stack.push({ tag, ref: { gid: attr('data-llm-id') ?? `skeleton-s${++opened}`, kind, role: attr('role') ?? tag, name }, seq: ++opened });
    }
    const id = attr('data-llm-id');
    if (id) {
      // Forms count named or not: "the form the task fills in" is told apart by position alone.
      const path = stack.flatMap((s) => (s.ref && (s.ref.name || s.ref.kind === 'form') ? [s.ref] : []));
      // The last heading names the element only from inside its innermost named structure: the
      // page's <h1> does not name the "Shipping address" section that follows it.
      const innermost = [...stack].reverse().find((s) => s.ref?.name);
      if (heading && (!innermost || heading.seq > innermost.seq)) path.push({ gid: heading.ref, kind: 'section', role: 'heading', name: heading.text });
      out.set(id, path);
    }
  }
  return out;
}

function decode(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** Colours by name, as RGB: what "the blue button" is matched against. */
const PALETTE: Record<string, [number, number, number]> = {
  red: [220, 40, 40], green: [40, 160, 60], blue: [40, 90, 220], yellow: [240, 210, 40], orange: [245, 140, 30],
  purple: [130, 60, 190], pink: [235, 110, 170], black: [20, 20, 20], white: [250, 250, 250], grey: [128, 128, 128], gray: [128, 128, 128],
  brown: [130, 80, 40], teal: [30, 150, 150],
};

/** The screenshot, decoded once per request. */
export interface Pixels { width: number; height: number; data: Uint8Array }

export function decodeScreenshot(base64: string): Pixels | null {
  try {
    const img = jpeg.decode(Buffer.from(base64, 'base64'), { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 256 });
    return { width: img.width, height: img.height, data: img.data };
  } catch {
    return null; // the caller says the screenshot could not be read
  }
}

/**
 * How well a box's dominant colour fits a colour word, 0–1: the median of the box's most
 * saturated pixels (the button's face, not the page's white around its text) against the palette.
 */
export function colourFit(px: Pixels, box: [number, number, number, number], word: string): number {
  const target = PALETTE[word];
  if (!target) return 0;
  const [bx, by, bw, bh] = box.map(Math.round);
  const samples: Array<[number, number, number, number]> = [];
  const step = Math.max(1, Math.floor(Math.min(bw, bh) / 12));
  for (let y = Math.max(0, by); y < Math.min(px.height, by + bh); y += step) {
    for (let x = Math.max(0, bx); x < Math.min(px.width, bx + bw); x += step) {
      const i = (y * px.width + x) * 4;
      const [r, g, b] = [px.data[i], px.data[i + 1], px.data[i + 2]];
      const sat = Math.max(r, g, b) - Math.min(r, g, b);
      samples.push([r, g, b, sat]);
    }
  }
  if (!samples.length) return 0;
  const chromatic = !['black', 'white', 'grey', 'gray'].includes(word);
  const pool = chromatic ? samples.sort((a, b) => b[3] - a[3]).slice(0, Math.max(1, samples.length >> 2)) : samples;
  const med = (k: number) => [...pool].sort((a, b) => a[k] - b[k])[pool.length >> 1][k];
  const c = [med(0), med(1), med(2)];
  const dist = Math.hypot(c[0] - target[0], c[1] - target[1], c[2] - target[2]);
  // The nearest palette colour must be this word's for a fit at all.
  let nearest = word;
  let best = dist;
  for (const [name, rgb] of Object.entries(PALETTE)) {
    const d = Math.hypot(c[0] - rgb[0], c[1] - rgb[1], c[2] - rgb[2]);
    if (d < best) { best = d; nearest = name; }
  }
  const same = nearest === word || (['grey', 'gray'].includes(nearest) && ['grey', 'gray'].includes(word));
  return same ? Math.max(0, 1 - dist / 255) : 0;
}
