// The screenshot of the hybrid payload: a JPEG (or, asked, a PNG) of the viewport taken over CDP, with
// secret fields that show their value painted over and set-of-mark labels (each visible element's
// ID at its box, coloured by role) drawn on the image in Node. Nothing is added to the page, so
// nothing its scripts can observe changes. Covers, layout, drawing and the hash are the model's
// (model/renderers/secretCover.ts, setOfMark.ts), shared with the extension: this host only
// captures, decodes and encodes.
import type { Locator } from 'playwright-core';
import sharp from 'sharp';
import type { ComposeOptions } from '../core/port.js';
import { secretCovers, type SecretCovers } from '../core/secretCovers.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { Box } from '../model/contracts/schema.js';
import { drawCovers } from '../model/renderers/secretCover.js';
import { differenceHash, drawMarks, layoutMarks, type Mark } from '../model/renderers/setOfMark.js';
import { cdpEngine } from './hostEngine.js';
import type { LensCore } from './lensCore.js';

/** The CDP object group of the secret-field check's frame handles. */
const COVER_GROUP = 'pagelens-covers';

/** Where the page's secret fields show their value now (src/core/secretCovers.ts), over this host's engine. */
export function secretCoversOf(core: LensCore, space: 'viewport' | 'document' = 'viewport'): Promise<SecretCovers> {
  return secretCovers(cdpEngine(core, COVER_GROUP), { space });
}

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
export async function composeScreenshot(source: Buffer, opts: ComposeOptions): Promise<Omit<Screenshot, 'timeMs'>> {
  const { data, info } = await sharp(source).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / Math.max(1, opts.viewport.width);
  drawCovers(data, info.width, info.height, info.channels, opts.covers, scale);
  const marks = opts.marks ? layoutMarks(opts.marks, { width: info.width, height: info.height }, scale) : [];
  drawMarks(data, info.width, info.height, info.channels, marks);
  const hash = differenceHash(data, info.width, info.height, info.channels);
  const type = opts.type ?? 'jpeg';
  const raw = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  const image = await (type === 'png' ? raw.png() : raw.jpeg({ quality: opts.quality })).toBuffer();
  return { image, type, width: info.width, height: info.height, marks, hash };
}

export async function screenshot(core: LensCore, opts: Omit<ComposeOptions, 'covers'>): Promise<Screenshot> {
  const t0 = performance.now();
  const [png, covers] = await Promise.all([captureViewport(core), secretCoversOf(core)]);
  const shot = await composeScreenshot(png, { ...opts, covers: covers.boxes });
  return { ...shot, timeMs: Math.round((performance.now() - t0) * 10) / 10 };
}

/** The screenshot hash (model/renderers/setOfMark.ts differenceHash) of an encoded image. */
export async function screenshotHash(image: Buffer): Promise<string> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return differenceHash(data, info.width, info.height, info.channels);
}

/**
 * Secret fields painted over in an encoded image, decoded and encoded again as lossless PNG.
 * `cssWidth`: the image's width in CSS px (its pixels per CSS px is its width over this);
 * `origin`: where the image starts, in the boxes' coordinates.
 */
export async function paintCovers(image: Buffer, boxes: readonly Box[], cssWidth: number, origin: [number, number] = [0, 0]): Promise<Buffer> {
  if (!boxes.length) return image;
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  drawCovers(data, info.width, info.height, info.channels, boxes, info.width / Math.max(1, cssWidth), origin);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } }).png().toBuffer();
}

/** The viewport as captureViewport() takes it, with secret fields painted over: the page side's capture. */
export async function coveredViewport(core: LensCore): Promise<Buffer> {
  const [png, covers] = await Promise.all([captureViewport(core), secretCoversOf(core)]);
  return paintCovers(png, covers.boxes, covers.viewport.width);
}

/**
 * A plain image as PNG, secret fields painted over: the viewport, the whole page (Playwright scrolls
 * and stitches it) or one element (Playwright scrolls it into view and clips it, in any frame). The
 * covers are read as the image is taken, in page coordinates for a whole page or an element.
 */
export async function plainShot(core: LensCore, what: { fullPage: boolean } | { element: Locator; id: string; timeoutMs: number }): Promise<{ png: Buffer; covers: SecretCovers }> {
  if ('element' in what) {
    const png = await what.element.screenshot({ type: 'png', timeout: what.timeoutMs });
    // Playwright left the element in view: its box and the covers are read where it was photographed.
    const [box, covers] = await Promise.all([what.element.boundingBox({ timeout: what.timeoutMs }), secretCoversOf(core, 'document')]);
    if (!box) throw new PagelensError('NOT_ACTIONABLE', `element ${what.id} has no box any more, so its image could not be checked for secret fields; take it again`);
    return { png: await paintCovers(png, covers.boxes, box.width, [box.x + covers.scroll[0], box.y + covers.scroll[1]]), covers };
  }
  if (what.fullPage) {
    const png = await core.page.screenshot({ type: 'png', fullPage: true });
    const [metrics, covers] = await Promise.all([core.pageTarget.cdp.send<{ cssContentSize: { width: number } }>('Page.getLayoutMetrics', {}), secretCoversOf(core, 'document')]);
    return { png: await paintCovers(png, covers.boxes, Math.ceil(metrics.cssContentSize.width)), covers };
  }
  const [png, covers] = await Promise.all([captureViewport(core), secretCoversOf(core)]);
  return { png: await paintCovers(png, covers.boxes, covers.viewport.width), covers };
}
