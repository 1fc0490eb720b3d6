// The hybrid screenshot in the service worker: chrome.tabs.captureVisibleTab, the capture's pixels
// from an OffscreenCanvas, secret fields painted over, and the JPEG encoded at the asked quality.
// The covers, where the labels go, how they are drawn and the hash are the model's
// (src/model/renderers/secretCover.ts, setOfMark.ts), the CDP host's too, so both give the same
// pixels, marks and hash for the same page. Nothing is drawn into the page, so its scripts see
// nothing change.
import type { ComposeOptions } from '../../src/core/port.js';
import { drawCovers } from '../../src/model/renderers/secretCover.js';
import { differenceHash, drawMarks, layoutMarks, type Mark } from '../../src/model/renderers/setOfMark.js';
import { ExtensionError } from './tab.js';

export interface ExtScreenshot {
  /** Encoded as asked: JPEG (the hybrid payload's default) or PNG. */
  image: Uint8Array;
  width: number;
  height: number;
  marks: Mark[];
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

/**
 * The image to send: the capture with `covers` (secret fields) painted over and the labels of
 * `marks` (when given) drawn on it, as JPEG at
 * `quality` (1–100) or as PNG (`type`). Coordinates: CSS px × (image width / viewport width) = image px.
 */
export async function composeImage(png: Blob, opts: ComposeOptions): Promise<ExtScreenshot> {
  const bitmap = await createImageBitmap(png);
  const { width, height } = bitmap;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { alpha: false, willReadFrequently: true });
  if (!ctx) throw new ExtensionError('CDP_ERROR', 'no 2D canvas in the service worker');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const image = ctx.getImageData(0, 0, width, height);
  const scale = width / Math.max(1, opts.viewport.width);
  drawCovers(image.data, width, height, 4, opts.covers, scale);
  const marks = opts.marks ? layoutMarks(opts.marks, { width, height }, scale) : [];
  drawMarks(image.data, width, height, 4, marks);
  ctx.putImageData(image, 0, 0);
  const hash = differenceHash(image.data, width, height, 4);
  const blob = opts.type === 'png'
    ? await canvas.convertToBlob({ type: 'image/png' })
    : await canvas.convertToBlob({ type: 'image/jpeg', quality: Math.min(100, Math.max(1, opts.quality)) / 100 });
  return { image: new Uint8Array(await blob.arrayBuffer()), width, height, marks, hash };
}

export function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
