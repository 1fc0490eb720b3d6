// The hybrid screenshot in the service worker: chrome.tabs.captureVisibleTab, set-of-mark labels
// drawn on OffscreenCanvas (placed by marks.ts), the JPEG encoded at the asked quality, and its
// perceptual hash. Nothing is drawn into the page, so its scripts see nothing change.
import { FONT, FONT_SCALE, GLYPH_GAP, LABEL_PAD, placeMarks, type MarkTarget, type PlacedMark, type Rgb } from './marks.js';
import { ExtensionError } from './tab.js';

export interface ExtScreenshot {
  jpeg: Uint8Array;
  width: number;
  height: number;
  marks: PlacedMark[];
  hash: string;
}

/** Chrome allows two captures a second per extension; a capture refused for that is tried again. */
const CAPTURE_TRIES = 6;

/**
 * The visible area of the tab, as a PNG (lossless: only the final JPEG loses detail). The tab must
 * be the one shown in its window: captureVisibleTab photographs a window, not a tab, so a tab in
 * the background is brought to the front first (said in `activated`).
 */
export async function captureTab(tabId: number): Promise<{ png: Blob; activated: boolean }> {
  let tab = await chrome.tabs.get(tabId);
  let activated = false;
  if (!tab.active) {
    tab = await chrome.tabs.update(tabId, { active: true });
    activated = true;
    // A frame for the newly shown tab.
    await new Promise((r) => setTimeout(r, 150));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const url = await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
      return { png: await (await fetch(url)).blob(), activated };
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      if (/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND|quota/i.test(reason) && attempt < CAPTURE_TRIES) {
        await new Promise((r) => setTimeout(r, 300 * attempt));
        continue;
      }
      throw new ExtensionError('CDP_ERROR', `the tab could not be captured: ${reason}`);
    }
  }
}

function fill(ctx: OffscreenCanvasRenderingContext2D, x: number, y: number, w: number, h: number, c: Rgb): void {
  ctx.fillStyle = `rgb(${c[0]},${c[1]},${c[2]})`;
  ctx.fillRect(x, y, w, h);
}

/** Each mark: a 1-px outline of the element (whole pixels, no smoothing), then every label with its ID in white. */
function drawMarks(ctx: OffscreenCanvasRenderingContext2D, marks: PlacedMark[]): void {
  for (const m of marks) {
    const [x, y, w, h] = m.box.map(Math.round);
    fill(ctx, x, y, w, 1, m.colour);
    fill(ctx, x, y + h - 1, w, 1, m.colour);
    fill(ctx, x, y, 1, h, m.colour);
    fill(ctx, x + w - 1, y, 1, h, m.colour);
  }
  for (const m of marks) {
    fill(ctx, m.label[0], m.label[1], m.label[2], m.label[3], m.colour);
    let gx = m.label[0] + LABEL_PAD;
    for (const ch of m.id) {
      const glyph = FONT[ch] ?? FONT['?'];
      for (let k = 0; k < 15; k++) {
        if (glyph[k] === '1') fill(ctx, gx + (k % 3) * FONT_SCALE, m.label[1] + LABEL_PAD + Math.floor(k / 3) * FONT_SCALE, FONT_SCALE, FONT_SCALE, [255, 255, 255]);
      }
      gx += 3 * FONT_SCALE + GLYPH_GAP;
    }
  }
}

/**
 * The JPEG to send: the capture with the labels of `marks` (when given) drawn on it, at `quality`
 * (1–100). Coordinates: CSS px × (image width / viewport width) = image px.
 */
export async function composeJpeg(png: Blob, opts: { quality: number; viewport: { width: number; height: number }; marks?: MarkTarget[] }): Promise<ExtScreenshot> {
  const bitmap = await createImageBitmap(png);
  const { width, height } = bitmap;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { alpha: false });
  if (!ctx) throw new ExtensionError('CDP_ERROR', 'no 2D canvas in the service worker');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const scale = width / Math.max(1, opts.viewport.width);
  const marks = opts.marks ? placeMarks(opts.marks, { width, height }, scale) : [];
  drawMarks(ctx, marks);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: Math.min(100, Math.max(1, opts.quality)) / 100 });
  const jpeg = new Uint8Array(await blob.arrayBuffer());
  return { jpeg, width, height, marks, hash: await perceptualHash(blob) };
}

/** Grid of the hash: 17 columns so that each of 16 rows gives 16 left-right comparisons. */
export const HASH_COLUMNS = 17;
export const HASH_ROWS = 16;

/**
 * The perceptual hash of an image, as the CDP host's screenshotHash defines it (a 256-bit
 * difference hash in 64 hex digits), computed here without sharp:
 *   1. the image (the encoded JPEG, decoded) as RGBA pixels;
 *   2. each pixel's grey level: round(0.299 R + 0.587 G + 0.114 B);
 *   3. the image cut into a 17 × 16 grid (column c spans x from floor(c·W/17) to floor((c+1)·W/17),
 *      rows likewise over H/16), each cell the rounded mean grey of its pixels;
 *   4. row by row, top to bottom, left to right: bit = cell brighter than its right neighbour;
 *   5. bits in fours, most significant first, as hex.
 * Equal pixels give an equal hash; small changes (a caret, one digit) may keep it, so it says
 * "seen this already", not "pixel for pixel the same". The values need not equal the CDP host's
 * (sharp resamples with another filter), only the rule and the length are the same.
 */
export async function perceptualHash(image: Blob): Promise<string> {
  const bitmap = await createImageBitmap(image);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new ExtensionError('CDP_ERROR', 'no 2D canvas in the service worker');
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  return hashPixels(data, width, height);
}

/** Steps 2–5 of perceptualHash over RGBA pixels (pure: the test recomputes it over jpeg-js's decoding). */
export function hashPixels(rgba: ArrayLike<number>, width: number, height: number): string {
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
          const at = (y * width + x) * 4;
          sum += Math.round(0.299 * rgba[at] + 0.587 * rgba[at + 1] + 0.114 * rgba[at + 2]);
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

export function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
