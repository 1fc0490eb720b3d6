// The screenshot of the hybrid payload: a JPEG (or, asked, a PNG) of the viewport taken over CDP, with set-of-mark
// labels (each visible element's ID at its box, coloured by role) drawn on the image in Node.
// Nothing is added to the page, so nothing its scripts can observe changes. Layout, drawing and
// the hash are the model's (model/renderers/setOfMark.ts), shared with the extension: this host only
// captures, decodes and encodes.
import sharp from 'sharp';
import { differenceHash, drawMarks, layoutMarks, type Mark, type Markable } from '../model/renderers/setOfMark.js';
import type { LensCore } from './lensCore.js';

export type { Mark, Markable } from '../model/renderers/setOfMark.js';
export { layoutMarks, MARK_COLOURS } from '../model/renderers/setOfMark.js';

export interface Screenshot {
  /** Encoded as `type`. */
  image: Buffer;
  type: 'jpeg' | 'png';
  width: number;
  height: number;
  marks: Mark[];
  /** See differenceHash() in model/renderers/setOfMark.ts. */
  hash: string;
  /** Capture and drawing, wall time. */
  timeMs: number;
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
 * The image to send: the capture, with set-of-mark labels when `marks` are given, as JPEG at
 * `quality` or as lossless PNG. Plain and marked images go through the same steps, so they differ
 * only where labels are.
 */
export async function composeScreenshot(source: Buffer, opts: { quality: number; viewport: { width: number; height: number }; marks?: Markable[]; type?: 'jpeg' | 'png' }): Promise<Omit<Screenshot, 'timeMs'>> {
  const { data, info } = await sharp(source).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / Math.max(1, opts.viewport.width);
  const marks = opts.marks ? layoutMarks(opts.marks, { width: info.width, height: info.height }, scale) : [];
  drawMarks(data, info.width, info.height, info.channels, marks);
  const hash = differenceHash(data, info.width, info.height, info.channels);
  const type = opts.type ?? 'jpeg';
  const raw = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const image = await (type === 'png' ? raw.png() : raw.jpeg({ quality: opts.quality })).toBuffer();
  return { image, type, width: info.width, height: info.height, marks, hash };
}

export async function screenshot(core: LensCore, opts: { quality: number; viewport: { width: number; height: number }; marks?: Markable[]; type?: 'jpeg' | 'png' }): Promise<Screenshot> {
  const t0 = performance.now();
  const shot = await composeScreenshot(await captureViewport(core), opts);
  return { ...shot, timeMs: Math.round((performance.now() - t0) * 10) / 10 };
}

/** The screenshot hash (model/renderers/setOfMark.ts differenceHash) of an encoded image. */
export async function screenshotHash(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return differenceHash(data, info.width, info.height, info.channels);
}
