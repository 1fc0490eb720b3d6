// The cover over a secret field's value in every image of the page, for both hosts (the CDP host
// over sharp's raw pixels, the extension over ImageData) and the trace: drawn into the pixels
// before any encoding, so no encoder, quality or later step can show what was under it. Pure.
import type { Box } from '../contracts/schema.js';

/** A flat dark slate: reads as "hidden here", and no page text survives it. */
export const COVER_COLOUR: [number, number, number] = [40, 40, 48];

/**
 * Paints each box (CSS px; × `scale` = image px, shifted by `origin` CSS px for an image that does
 * not start at the viewport's corner) in the cover colour, grown to whole pixels. `channels` per
 * pixel, RGB first; RGBA's alpha is left alone.
 */
export function drawCovers(pixels: Uint8Array | Uint8ClampedArray, width: number, height: number, channels: number, boxes: readonly Box[], scale = 1, origin: [number, number] = [0, 0]): void {
  const [r, g, b] = COVER_COLOUR;
  for (const [bx, by, bw, bh] of boxes) {
    const x0 = Math.max(0, Math.floor((bx - origin[0]) * scale));
    const y0 = Math.max(0, Math.floor((by - origin[1]) * scale));
    const x1 = Math.min(width, Math.ceil((bx - origin[0] + bw) * scale));
    const y1 = Math.min(height, Math.ceil((by - origin[1] + bh) * scale));
    for (let y = y0; y < y1; y++) {
      for (let x = x0, at = (y * width + x0) * channels; x < x1; x++, at += channels) {
        pixels[at] = r; pixels[at + 1] = g; pixels[at + 2] = b;
      }
    }
  }
}
