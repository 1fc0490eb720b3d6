// browser_take_screenshot: the set-of-mark view of the viewport (each element's ID drawn at its
// box, matching page_snapshot), or a plain image of the viewport, the whole page or one element,
// as PNG, JPEG or WebP. The images come from the host (extras.screenshot: on the CDP host
// Playwright captures and sharp encodes, see cdp.ts); the arguments and their rules are here.
import { z } from 'zod';
import { ElementId } from '../model/contracts/actions.js';
import { PagelensError } from '../model/contracts/errors.js';
import { defineTool, type ToolDef } from './types.js';

const ImageType = z.enum(['png', 'jpeg', 'webp']);
type ImageType = z.infer<typeof ImageType>;

const ShotArgs = z.strictObject({
  type: ImageType.optional().describe('Image format: png (default for a plain image), jpeg or webp'),
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
  description: 'An image of the page. Default: the viewport as JPEG with each element\'s ID drawn at its box (set-of-mark), matching page_snapshot IDs. With type (png, jpeg, webp), fullPage or id: a plain image of the viewport, the whole page or one element.',
  input: ShotArgs,
  needs: ['extras.screenshot'],
  run: (ctx, a) => {
    refuseConflicts(a);
    return ctx.extras.screenshot!(a);
  },
});
