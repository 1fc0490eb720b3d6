// browser_take_screenshot: the set-of-mark view of the viewport (each element's ID drawn at its
// box, matching page_snapshot), or a plain image of the viewport, the whole page or one element,
// as PNG, JPEG or WebP. Playwright captures (it scrolls and stitches a full page, clips an
// element in any frame); sharp encodes, so every format goes through the same path.
import { z } from 'zod';
import { encodeImage as encode, imageSize } from '../browser/images.js';
import { ElementId } from '../model/contracts/actions.js';
import { PagelensError } from '../model/contracts/errors.js';
import { defineTool, jsonResult, type ToolContext, type ToolDef, type ToolResult } from './types.js';

const ImageType = z.enum(['png', 'jpeg', 'webp']);
type ImageType = z.infer<typeof ImageType>;

const ShotArgs = z.strictObject({
  type: ImageType.optional().describe('Image format: png (default for a plain image), jpeg or webp'),
  fullPage: z.boolean().optional().describe('The whole scrollable page, not just the viewport'),
  id: ElementId.optional().describe('Only this element (ID from a snapshot)'),
  marks: z.boolean().optional().describe('Draw element IDs on the viewport (set-of-mark). Default: true when neither type, fullPage nor id is given'),
  quality: z.number().int().min(1).max(100).optional().describe('jpeg/webp quality (default 60)'),
});
type ShotArgs = z.infer<typeof ShotArgs>;

const MIME: Record<ImageType, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
const DEFAULT_QUALITY = 60;
/** How long Playwright may wait for the element to be visible and stable. */
const LOCATOR_TIMEOUT_MS = 5000;

function refuseConflicts(a: ShotArgs): void {
  if (a.id && a.fullPage) throw new PagelensError('BAD_INPUT', 'id and fullPage exclude each other: one element, or the whole page.');
  if (a.marks && (a.id || a.fullPage)) throw new PagelensError('BAD_INPUT', 'marks are drawn on the viewport only: leave out id and fullPage, or marks.');
  if (a.quality !== undefined && a.type === 'png') throw new PagelensError('BAD_INPUT', 'quality applies to jpeg and webp; png is lossless.');
}

async function shoot(ctx: ToolContext, a: ShotArgs): Promise<ToolResult> {
  refuseConflicts(a);
  const { lens } = ctx;
  const quality = a.quality ?? DEFAULT_QUALITY;
  const marks = a.marks ?? (a.type === undefined && !a.fullPage && !a.id);
  if (marks) {
    const r = await lens.snapshot({ mode: 'hybrid', screenshot: { setOfMark: true, quality: a.type && a.type !== 'jpeg' ? 100 : quality } });
    const type = a.type ?? 'jpeg';
    const image = type === 'jpeg' ? Buffer.from(r.screenshot, 'base64') : await encode(Buffer.from(r.screenshot, 'base64'), type, quality);
    const data = { url: r.url, title: r.title, type, marks: r.meta.marks, bytes: image.length, screenshotHash: r.screenshotHash };
    return { ...jsonResult(data), images: [{ data: image.toString('base64'), mimeType: MIME[type] }] };
  }
  const type = a.type ?? 'png';
  const png = a.id
    ? await (await lens.locator(a.id)).screenshot({ type: 'png', timeout: LOCATOR_TIMEOUT_MS })
    : await lens.page.screenshot({ type: 'png', fullPage: a.fullPage ?? false });
  const image = await encode(png, type, quality);
  const meta = await imageSize(image);
  const data = { url: lens.page.url(), of: a.id ?? (a.fullPage ? 'full page' : 'viewport'), type, width: meta.width, height: meta.height, bytes: image.length };
  return { ...jsonResult(data), images: [{ data: image.toString('base64'), mimeType: MIME[type] }] };
}

export const SCREENSHOT_TOOL: ToolDef = defineTool({
  name: 'browser_take_screenshot',
  description: 'An image of the page. Default: the viewport as JPEG with each element\'s ID drawn at its box (set-of-mark), matching page_snapshot IDs. With type (png, jpeg, webp), fullPage or id: a plain image of the viewport, the whole page or one element.',
  input: ShotArgs,
  run: shoot,
});
