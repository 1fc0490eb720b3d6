// The screenshot of the hybrid payload: a JPEG of the viewport taken over CDP, with set-of-mark
// labels (each visible element's ID at its box, coloured by role) drawn on the image in Node.
// Nothing is added to the page, so nothing its scripts can observe changes. The labels are drawn
// with a built-in bitmap font (IDs are digits, "f" and "_"), so no system font is needed and the
// same page always gives the same pixels.
import sharp from 'sharp';
import type { Box } from '../model/schema.js';
import type { LensCore } from './core.js';

/** An element to label: a semantic_v3 node with its box. */
export interface Markable { i: string; r: string; box?: Box; occ?: true }

export interface Mark {
  id: string;
  role: string;
  /** The element's box and the label's, in image pixels. */
  box: Box;
  label: Box;
  colour: [number, number, number];
}

export interface Screenshot {
  jpeg: Buffer;
  width: number;
  height: number;
  marks: Mark[];
  /** See screenshotHash(). */
  hash: string;
  /** Capture and drawing, wall time. */
  timeMs: number;
}

/** Label colours by minified role (the legend of the set-of-mark image). */
export const MARK_COLOURS: Record<string, [number, number, number]> = {
  link: [29, 78, 216],      // blue
  btn: [21, 128, 61],       // green
  inp: [194, 65, 12],       // orange
  sel: [126, 34, 206],      // purple
  chk: [15, 118, 110],      // teal (checkbox, radio, switch)
  other: [55, 65, 81],      // slate (anything else)
};
const CHECKABLE = new Set(['chk', 'radio', 'switch']);

function colourOf(role: string): [number, number, number] {
  if (CHECKABLE.has(role)) return MARK_COLOURS.chk;
  return MARK_COLOURS[role] ?? MARK_COLOURS.other;
}

// 5×7 glyphs, drawn at twice their size.
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

function labelSize(id: string): [number, number] {
  return [id.length * ADVANCE - SCALE + 2 * PAD, 7 * SCALE + 2 * PAD];
}

const overlapArea = (a: Box, b: Box) => Math.max(0, Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0])) * Math.max(0, Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]));
const contains = (b: Box, x: number, y: number) => x >= b[0] - 1 && x <= b[0] + b[2] + 1 && y >= b[1] - 1 && y <= b[1] + b[3] + 1;

/**
 * Where each label goes: next to its element's box (above, left, right, below, then inside a top
 * corner), inside the image, never over the element's own centre (where a click lands). Among
 * those places, the one that covers the least of the other labels, of other elements' centres and
 * of any element's box (their text is what a reader needs to see). Covered (`occ`) and box-less
 * nodes get no label. Coordinates: CSS px × `scale` = image px.
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
    const candidates: Array<[number, number]> = [[x, y - lh], [x + w - lw, y - lh], [x - lw, y], [x + w, y], [x, y + h], [x + w - lw, y], [x, y]];
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
    if (best) marks.push({ id: t.n.i, role: t.n.r, box: t.box, label: (best as { label: Box }).label, colour: colourOf(t.n.r) });
  }
  return marks;
}

/** Draws each mark (a 1-px outline of the element, the label with its ID) into raw pixels. */
function drawMarks(pixels: Buffer, width: number, height: number, channels: number, marks: Mark[]): void {
  const put = (x: number, y: number, c: [number, number, number]) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const at = (y * width + x) * channels;
    pixels[at] = c[0]; pixels[at + 1] = c[1]; pixels[at + 2] = c[2];
  };
  const fill = (b: Box, c: [number, number, number]) => {
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
  const white: [number, number, number] = [255, 255, 255];
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

/**
 * The viewport as Chrome renders it, over the page's own CDP session: a PNG encoded for speed,
 * lossless (only the final JPEG loses detail) and, for pages of flat colour, several times quicker
 * to decode than a JPEG of the same view.
 */
export async function captureViewport(core: LensCore): Promise<Buffer> {
  const { data } = await core.pageTarget.cdp.send<{ data: string }>('Page.captureScreenshot', { format: 'png', optimizeForSpeed: true, captureBeyondViewport: false, fromSurface: true });
  return Buffer.from(data, 'base64');
}

/**
 * The JPEG to send: the capture, with set-of-mark labels when `marks` are given, encoded at
 * `quality`. Plain and marked images go through the same steps, so they differ only where labels are.
 */
export async function composeScreenshot(source: Buffer, opts: { quality: number; viewport: { width: number; height: number }; marks?: Markable[] }): Promise<Omit<Screenshot, 'timeMs'>> {
  const { data, info } = await sharp(source).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / Math.max(1, opts.viewport.width);
  const marks = opts.marks ? layoutMarks(opts.marks, { width: info.width, height: info.height }, scale) : [];
  drawMarks(data, info.width, info.height, info.channels, marks);
  const jpeg = await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).jpeg({ quality: opts.quality }).toBuffer();
  return { jpeg, width: info.width, height: info.height, marks, hash: await screenshotHash(jpeg) };
}

export async function screenshot(core: LensCore, opts: { quality: number; viewport: { width: number; height: number }; marks?: Markable[] }): Promise<Screenshot> {
  const t0 = performance.now();
  const shot = await composeScreenshot(await captureViewport(core), opts);
  return { ...shot, timeMs: Math.round((performance.now() - t0) * 10) / 10 };
}

/**
 * A perceptual hash of an image: a 256-bit difference hash (grey, 17×16, each bit says whether a
 * cell is brighter than its right neighbour), in hex. Equal hash = visually the same at that
 * scale: small changes (a caret, a changed digit) may keep the hash, so it says "seen this
 * already", not "pixel for pixel identical".
 */
export async function screenshotHash(image: Buffer): Promise<string> {
  const { data } = await sharp(image).greyscale().resize(17, 16, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  let hex = '';
  let nibble = 0;
  let bits = 0;
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) {
      nibble = (nibble << 1) | (data[y * 17 + x] > data[y * 17 + x + 1] ? 1 : 0);
      if (++bits === 4) { hex += nibble.toString(16); nibble = 0; bits = 0; }
    }
  }
  return hex;
}
