// Set-of-mark and the screenshot hash, for both hosts: where each element's ID label goes, its
// colour by role, the bitmap font, drawing into raw pixels, and the difference hash. Pure (no
// image library, no browser API): the CDP host runs it over sharp's raw pixels
// (src/browser/screenshot.ts), the extension over OffscreenCanvas ImageData (extension/src/image.ts),
// so the same page gives the same labels, the same pixels under them and the same hash.
import type { Box } from '../contracts/schema.js';

/** An element to label: a semantic_v3 node with its box (CSS px, top-level viewport). */
export interface Markable { i: string; r: string; box?: Box; occ?: true }

export type Rgb = [number, number, number];

export interface Mark {
  id: string;
  role: string;
  /** The element's box and the label's, in image pixels. */
  box: Box;
  label: Box;
  colour: Rgb;
}

/** Label colours by minified role (the legend of the set-of-mark image); white text reads on each. */
export const MARK_COLOURS: Record<'link' | 'btn' | 'inp' | 'sel' | 'chk' | 'other', Rgb> = {
  link: [29, 78, 216],      // blue
  btn: [21, 128, 61],       // green
  inp: [194, 65, 12],       // orange
  sel: [126, 34, 206],      // purple
  chk: [15, 118, 110],      // teal (checkbox, radio, switch)
  other: [55, 65, 81],      // slate (anything else)
};
const CHECKABLE = new Set(['chk', 'radio', 'switch']);

export function markColour(role: string): Rgb {
  if (CHECKABLE.has(role)) return MARK_COLOURS.chk;
  return MARK_COLOURS[role as keyof typeof MARK_COLOURS] ?? MARK_COLOURS.other;
}

// 5×7 glyphs for what IDs are made of (digits, "f", "_"; "?" for anything else), drawn at twice
// their size: no system font is needed, so every host draws the same pixels.
const GLYPHS: Record<string, string[]> = {
  0: ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  1: ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  2: ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  3: ['#####', '...#.', '..#..', '...#.', '....#', '#...#', '.###.'],
  4: ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  5: ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  6: ['..##.', '.#...', '#....', '####.', '#...#', '#...#', '.###.'],
  7: ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  8: ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  9: ['.###.', '#...#', '#...#', '.####', '....#', '...#.', '.##..'],
  f: ['..##.', '.#..#', '.#...', '###..', '.#...', '.#...', '.#...'],
  _: ['.....', '.....', '.....', '.....', '.....', '.....', '#####'],
  '?': ['.###.', '#...#', '....#', '...#.', '..#..', '.....', '..#..'],
};
const SCALE = 2;
const PAD = 2;
const ADVANCE = 6 * SCALE;

export function labelSize(id: string): [number, number] {
  return [Math.max(1, id.length) * ADVANCE - SCALE + 2 * PAD, 7 * SCALE + 2 * PAD];
}

const overlapArea = (a: Box, b: Box) => Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
/** Whether a point is inside a box, with a pixel of slack (a label touching the centre covers it). */
const contains = (b: Box, x: number, y: number) => x >= b[0] - 1 && x <= b[0] + b[2] + 1 && y >= b[1] - 1 && y <= b[1] + b[3] + 1;

/**
 * Where each label goes: next to its element's box (above at either end, left, right, below, then
 * inside a top corner; the image's corners last, for a box as large as the image), inside the
 * image, never over the element's own centre (where a click lands). Among those places, the one
 * that covers the least: one point per rank, the area it hides of other labels (×8) and of any
 * element's box (their text is what a reader needs to see), and 2000 per other element's centre.
 * Covered (`occ`), box-less and off-image nodes get no label. Coordinates: CSS px × `scale` = image px.
 */
export function layoutMarks(nodes: Markable[], size: { width: number; height: number }, scale = 1): Mark[] {
  const marks: Mark[] = [];
  const targets = nodes.filter((n) => n.box && !n.occ).map((n) => {
    const [x, y, w, h] = n.box!.map((v) => v * scale);
    return { n, box: [x, y, w, h] as Box, centre: [x + w / 2, y + h / 2] as [number, number] };
  });
  const visible = targets.filter((t) => t.box[0] + t.box[2] > 0 && t.box[1] + t.box[3] > 0 && t.box[0] < size.width && t.box[1] < size.height);
  for (const t of visible) {
    const [x, y, w, h] = t.box;
    const [lw, lh] = labelSize(t.n.i);
    const candidates: Array<[number, number]> = [
      [x, y - lh], [x + w - lw, y - lh], [x - lw, y], [x + w, y], [x, y + h], [x + w - lw, y], [x, y],
      [0, 0], [size.width - lw, 0], [0, size.height - lh], [size.width - lw, size.height - lh],
    ];
    let best: { label: Box; score: number } | null = null;
    candidates.forEach(([cx, cy], rank) => {
      const lx = Math.round(Math.min(Math.max(0, cx), size.width - lw));
      const ly = Math.round(Math.min(Math.max(0, cy), size.height - lh));
      const label: Box = [lx, ly, lw, lh];
      if (contains(label, t.centre[0], t.centre[1])) return;
      // Earlier places win ties; a label over another label is worst, over a box merely bad.
      let score = rank;
      for (const m of marks) score += overlapArea(label, m.label) * 8;
      for (const o of visible) {
        score += overlapArea(label, o.box);
        if (o !== t && contains(label, o.centre[0], o.centre[1])) score += 2000;
      }
      if (!best || score < best.score) best = { label, score };
    });
    if (best) marks.push({ id: t.n.i, role: t.n.r, box: t.box, label: (best as { label: Box }).label, colour: markColour(t.n.r) });
  }
  return marks;
}

/**
 * Draws each mark into raw pixels (`channels` per pixel, RGB first; RGBA's alpha is left alone):
 * a 1-px outline of the element, then every label with its ID in white, whole pixels only.
 */
export function drawMarks(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: number, marks: Mark[]): void {
  const put = (x: number, y: number, c: Rgb) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const at = (y * width + x) * channels;
    pixels[at] = c[0]; pixels[at + 1] = c[1]; pixels[at + 2] = c[2];
  };
  const fill = (b: Box, c: Rgb) => {
    for (let y = Math.max(0, Math.floor(b[1])); y < Math.min(height, Math.ceil(b[1] + b[3])); y++) {
      for (let x = Math.max(0, Math.floor(b[0])); x < Math.min(width, Math.ceil(b[0] + b[2])); x++) put(x, y, c);
    }
  };
  for (const m of marks) {
    const [x, y, w, h] = m.box.map(Math.round);
    // Only the part of the outline inside the image (a box may be far larger than the page).
    for (let i = Math.max(0, x); i < Math.min(width, x + w); i++) { put(i, y, m.colour); put(i, y + h - 1, m.colour); }
    for (let j = Math.max(0, y); j < Math.min(height, y + h); j++) { put(x, j, m.colour); put(x + w - 1, j, m.colour); }
  }
  const white: Rgb = [255, 255, 255];
  for (const m of marks) {
    fill(m.label, m.colour);
    let gx = m.label[0] + PAD;
    for (const ch of m.id) {
      const glyph = GLYPHS[ch] ?? GLYPHS['?'];
      glyph.forEach((row, gy) => {
        for (let i = 0; i < 5; i++) if (row[i] === '#') fill([gx + i * SCALE, m.label[1] + PAD + gy * SCALE, SCALE, SCALE], white);
      });
      gx += ADVANCE;
    }
  }
}

/** The hash's grid: 17 columns so that each of 16 rows gives 16 left-right comparisons. */
const HASH_COLUMNS = 17;
const HASH_ROWS = 16;

/**
 * The screenshot hash: a 256-bit difference hash, in 64 hex digits, of the image as composed
 * (capture plus labels, before JPEG encoding, so the encoder and the quality do not change it):
 *   1. each pixel's grey level: round(0.299 R + 0.587 G + 0.114 B);
 *   2. the image cut into a 17 × 16 grid (column c spans x from floor(c·W/17) to floor((c+1)·W/17),
 *      rows likewise over H/16), each cell the rounded mean grey of its pixels;
 *   3. row by row, left to right: bit = cell brighter than its right neighbour;
 *   4. bits in fours, most significant first, as hex.
 * Equal pixels give an equal hash; small changes (a caret, one digit) may keep it, so it says
 * "seen this already", not "pixel for pixel the same".
 */
export function differenceHash(pixels: ArrayLike<number>, width: number, height: number, channels: number): string {
  const cells: number[] = [];
  for (let r = 0; r < HASH_ROWS; r++) {
    const y0 = Math.floor((r * height) / HASH_ROWS);
    const y1 = Math.max(y0 + 1, Math.floor(((r + 1) * height) / HASH_ROWS));
    for (let c = 0; c < HASH_COLUMNS; c++) {
      const x0 = Math.floor((c * width) / HASH_COLUMNS);
      const x1 = Math.max(x0 + 1, Math.floor(((c + 1) * width) / HASH_COLUMNS));
      let sum = 0;
      let n = 0;
      for (let y = y0; y < Math.min(y1, height); y++) {
        for (let x = x0; x < Math.min(x1, width); x++) {
          const at = (y * width + x) * channels;
          sum += Math.round(0.299 * pixels[at] + 0.587 * pixels[at + 1] + 0.114 * pixels[at + 2]);
          n++;
        }
      }
      cells.push(n ? Math.round(sum / n) : 0);
    }
  }
  let hex = '';
  let nibble = 0;
  let bits = 0;
  for (let r = 0; r < HASH_ROWS; r++) {
    for (let c = 0; c < HASH_COLUMNS - 1; c++) {
      nibble = (nibble << 1) | (cells[r * HASH_COLUMNS + c] > cells[r * HASH_COLUMNS + c + 1] ? 1 : 0);
      if (++bits === 4) { hex += nibble.toString(16); nibble = 0; bits = 0; }
    }
  }
  return hex;
}
