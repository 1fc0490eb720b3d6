// What an image shows inside a box: how many pixels look like text (near black) and how many are
// the secret cover's colour, for the tests that a secret field's value is painted over.
import sharp from 'sharp';
import { COVER_COLOUR } from '../../src/model/renderers/secretCover.js';

export interface Region { text: number; cover: number; total: number }

/** `box`: CSS px in the image's coordinates (× `scale` = image px), read `inset` px inside its edge (the field's border, a mark's outline). */
export async function region(image: Buffer, box: { x: number; y: number; width: number; height: number }, opts: { scale?: number; inset?: number; tolerance?: number } = {}): Promise<Region> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const scale = opts.scale ?? 1;
  const inset = opts.inset ?? 4;
  const tol = opts.tolerance ?? 0;
  const out: Region = { text: 0, cover: 0, total: 0 };
  const x0 = Math.round(box.x * scale) + inset, y0 = Math.round(box.y * scale) + inset;
  const x1 = Math.min(info.width, Math.round((box.x + box.width) * scale) - inset), y1 = Math.min(info.height, Math.round((box.y + box.height) * scale) - inset);
  for (let y = Math.max(0, y0); y < y1; y++) {
    for (let x = Math.max(0, x0); x < x1; x++) {
      const at = (y * info.width + x) * info.channels;
      const [r, g, b] = [data[at], data[at + 1], data[at + 2]];
      out.total++;
      if (Math.max(r, g, b) < 20) out.text++;
      if (Math.abs(r - COVER_COLOUR[0]) <= tol && Math.abs(g - COVER_COLOUR[1]) <= tol && Math.abs(b - COVER_COLOUR[2]) <= tol) out.cover++;
    }
  }
  return out;
}
