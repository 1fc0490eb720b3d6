// browser_take_screenshot: the set-of-mark view of the viewport (each element's ID drawn at its
// box, matching page_snapshot), or a plain image of the viewport, the whole page or one element,
// as PNG, JPEG or WebP. The images come from the host (extras.screenshot: on the CDP host
// Playwright captures and sharp encodes, see src/browser/tools/context.ts); the arguments and
// their rules are here.
import { z } from 'zod';
import { ElementId } from '../../model/contracts/actions.js';
import { PagelensError } from '../../model/contracts/errors.js';
import type { ToolLens } from '../registry/toolLens.js';
import { defineTool, jsonResult, type ToolDef, type ToolResult } from '../registry/types.js';

const ImageType = z.enum(['png', 'jpeg', 'webp']);
type ImageType = z.infer<typeof ImageType>;

export const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
export const DEFAULT_QUALITY = 60;

/** Whether the set-of-mark view is asked for: by default when neither type, fullPage nor id is given. */
export function wantsMarks(a: ShotArgs): boolean {
  return a.marks ?? (a.type === undefined && !a.fullPage && !a.id);
}

/**
 * The format asked for: PNG unless said otherwise (lossless, so text in the image stays legible, as
 * clients expect of a screenshot); a quality alone asks for a lossy image, JPEG.
 */
export function shotType(a: ShotArgs): ImageType {
  return a.type ?? (a.quality !== undefined ? 'jpeg' : 'png');
}

/**
 * The set-of-mark view of the viewport through the lens's hybrid snapshot (every host draws it the
 * same way): drawn as PNG or JPEG by the host, or drawn as PNG and encoded to WebP by the host's `encode`.
 */
export async function markedShot(lens: ToolLens, a: ShotArgs, encode?: (pngBase64: string, type: 'webp', quality: number) => Promise<string>): Promise<ToolResult> {
  const quality = a.quality ?? DEFAULT_QUALITY;
  const type = shotType(a);
  if (type === 'webp' && !encode) throw new PagelensError('BAD_INPUT', 'the set-of-mark view is drawn as PNG or JPEG on this host; webp needs an encoder it does not have (type png or jpeg, or a plain image with marks: false)');
  const r = await lens.snapshot({ mode: 'hybrid', screenshot: { setOfMark: true, quality, type: type === 'jpeg' ? 'jpeg' : 'png' } });
  const image = type === 'webp' ? await encode!(r.screenshot, type, quality) : r.screenshot;
  // The hybrid read's warnings say, among others, which frames could not be checked for secret fields.
  const data = { url: r.url, title: r.title, type, marks: r.meta.marks, bytes: base64Bytes(image), screenshotHash: r.screenshotHash, ...(r.warnings?.length && { warnings: r.warnings }) };
  return { ...jsonResult(data), images: [{ data: image, mimeType: MIME[type] }] };
}

/** The decoded length of base64 text. */
function base64Bytes(b64: string): number {
  return Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);
}


const ShotArgs = z.strictObject({
  type: ImageType.optional().describe('Image format: png (the default, lossless), jpeg or webp (jpeg when only quality is given)'),
  fullPage: z.boolean().optional().describe('The whole scrollable page, not just the viewport'),
  id: ElementId.optional().describe('Only this element (ID from a snapshot)'),
  marks: z.boolean().optional().describe('Draw element IDs on the viewport (set-of-mark). Default: true when neither type, fullPage nor id is given'),
  quality: z.number().int().min(1).max(100).optional().describe('jpeg/webp quality (default 60)'),
});
export type ShotArgs = z.infer<typeof ShotArgs>;


function refuseConflicts(a: ShotArgs): void {
  if (a.id && a.fullPage) throw new PagelensError('BAD_INPUT', 'id and fullPage exclude each other: one element, or the whole page.');
  if (a.marks && (a.id || a.fullPage)) throw new PagelensError('BAD_INPUT', 'marks are drawn on the viewport only: leave out id and fullPage, or marks.');
  if (a.quality !== undefined && a.type === 'png') throw new PagelensError('BAD_INPUT', 'quality applies to jpeg and webp; png is lossless.');
}

export const SCREENSHOT_TOOL: ToolDef = defineTool({
  name: 'browser_take_screenshot',
  description: 'An image of the page. Default: the viewport as PNG with each element\'s ID drawn at its box (set-of-mark), matching page_snapshot IDs (marks: true with type jpeg for a smaller marked image). With type (png, jpeg, webp), fullPage or id: a plain image of the viewport, the whole page or one element.',
  input: ShotArgs,
  needs: ['extras.screenshot'],
  run: (ctx, a) => {
    refuseConflicts(a);
    // The set-of-mark view is the hybrid snapshot's, the same on every host; plain images are the host's.
    if (wantsMarks(a) && shotType(a) !== 'webp') return markedShot(ctx.lens, a);
    return ctx.extras.screenshot!(a);
  },
});
