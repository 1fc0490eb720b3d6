// Set-of-mark for the extension's hybrid screenshot: where each element's ID label goes (a pure
// function, no browser API), its colour by role, and the bitmap font the labels are drawn with.
// The CDP host has its own drawing in Node (src/browser/screenshot.ts, over sharp); this is the
// service worker's, held to the same rules: a label per visible, uncovered element with a box,
// next to that box, inside the image, never over the element's own centre (where a click lands),
// and placed where it hides the least of the other labels, boxes and centres.
import type { Box } from '../../src/model/schema.js';

/** An element to label: a semantic_v3 node with its box (CSS px, top-level viewport). */
export interface MarkTarget { i: string; r: string; box?: Box; occ?: true }

export type Rgb = [number, number, number];

export interface PlacedMark {
  id: string;
  role: string;
  /** The element's box and its label's, in image pixels. */
  box: Box;
  label: Box;
  colour: Rgb;
}

/** Label colours by minified role: the legend of the image. */
export const ROLE_COLOURS: Record<'link' | 'btn' | 'inp' | 'sel' | 'chk' | 'other', Rgb> = {
  link: [37, 99, 235],
  btn: [22, 163, 74],
  inp: [234, 88, 12],
  sel: [147, 51, 234],
  chk: [13, 148, 136],
  other: [71, 85, 105],
};

export function roleColour(role: string): Rgb {
  if (role === 'chk' || role === 'radio' || role === 'switch') return ROLE_COLOURS.chk;
  if (role === 'link' || role === 'btn' || role === 'inp' || role === 'sel') return ROLE_COLOURS[role];
  return ROLE_COLOURS.other;
}

/** A 3×5 pixel font for what IDs are made of (digits, "f", "_"); "?" for anything else. Rows top to bottom, "1" = ink. */
export const FONT: Record<string, string> = {
  0: '111101101101111', 1: '010110010010111', 2: '111001111100111', 3: '111001011001111',
  4: '101101111001001', 5: '111100111001111', 6: '111100111101111', 7: '111001010010010',
  8: '111101111101111', 9: '111101111001111', f: '011010111010010', _: '000000000000111',
  '?': '111001011000010',
};
/** Font pixel → image pixels; the gap between glyphs and the padding around the text, in image pixels. */
export const FONT_SCALE = 3;
export const GLYPH_GAP = 2;
export const LABEL_PAD = 2;

export function labelSize(id: string): [number, number] {
  const n = Math.max(1, id.length);
  return [n * 3 * FONT_SCALE + (n - 1) * GLYPH_GAP + 2 * LABEL_PAD, 5 * FONT_SCALE + 2 * LABEL_PAD];
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  return w > 0 && h > 0 ? w * h : 0;
}
/** Whether a point is inside a box, with a pixel of slack (a label touching the centre covers it). */
function covers(b: Box, p: [number, number]): boolean {
  return p[0] >= b[0] - 1 && p[0] <= b[0] + b[2] + 1 && p[1] >= b[1] - 1 && p[1] <= b[1] + b[3] + 1;
}

/** Whether a node gets a label at all: a box, not covered, some of it inside the image. */
export function markable(n: MarkTarget, size: { width: number; height: number }, scale = 1): boolean {
  if (!n.box || n.occ) return false;
  const [x, y, w, h] = n.box.map((v) => v * scale);
  return x + w > 0 && y + h > 0 && x < size.width && y < size.height;
}

/**
 * The labels of `nodes` on an image of `size` (image px; `scale` = image px per CSS px). Each label
 * tries, in order: above the box (left end, right end), left of it, right of it, below it, then
 * inside its top corners; a place is refused if it covers the element's centre, and among the
 * rest the cheapest wins: one point per rank, the area it hides of other labels (×10) and of
 * boxes (×1), and 5000 for each other element's centre it covers. The image's corners are the
 * last resorts (a box as large as the image), so every markable node gets a label unless the
 * image is barely larger than one label.
 */
export function placeMarks(nodes: MarkTarget[], size: { width: number; height: number }, scale = 1): PlacedMark[] {
  const items = nodes.filter((n) => markable(n, size, scale)).map((n) => {
    const box = n.box!.map((v) => v * scale) as Box;
    return { n, box, centre: [box[0] + box[2] / 2, box[1] + box[3] / 2] as [number, number] };
  });
  const placed: PlacedMark[] = [];
  const clampX = (x: number, w: number) => Math.round(Math.max(0, Math.min(x, size.width - w)));
  const clampY = (y: number, h: number) => Math.round(Math.max(0, Math.min(y, size.height - h)));
  for (const it of items) {
    const [x, y, w, h] = it.box;
    const [lw, lh] = labelSize(it.n.i);
    const spots: Array<[number, number]> = [
      [x, y - lh], [x + w - lw, y - lh], [x - lw, y], [x + w, y], [x, y + h], [x, y], [x + w - lw, y],
      // Last resorts, for boxes as large as the image: the image's corners.
      [0, 0], [size.width - lw, 0], [0, size.height - lh], [size.width - lw, size.height - lh],
    ];
    let best: { label: Box; cost: number } | undefined;
    spots.forEach(([sx, sy], rank) => {
      const label: Box = [clampX(sx, lw), clampY(sy, lh), lw, lh];
      if (covers(label, it.centre)) return;
      let cost = rank;
      for (const m of placed) cost += overlap(label, m.label) * 10;
      for (const o of items) {
        cost += overlap(label, o.box);
        if (o !== it && covers(label, o.centre)) cost += 5000;
      }
      if (!best || cost < best.cost) best = { label, cost };
    });
    if (best) placed.push({ id: it.n.i, role: it.n.r, box: it.box, label: best.label, colour: roleColour(it.n.r) });
  }
  return placed;
}
