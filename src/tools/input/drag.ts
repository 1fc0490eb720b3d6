// browser_drag: press on one element, move to another, release — trusted input through the host
// port (HostPage.pointer; on the CDP host Playwright's mouse, which also carries HTML5 drag-and-drop).
// The lens has no drag action, so the points are where a press on each element lands (scrolled
// into view, a covered start refused as a click would be), and the outcome is verified like any
// other action (default: something changed).
import { z } from 'zod';
import { ElementId } from '../../model/contracts/actions.js';
import { locate } from '../../core/locate.js';
import { capturePre, verifyOutcome } from '../../core/verify.js';
import { asPagelensError, PagelensError } from '../../model/contracts/errors.js';
import { parseExpectSpec, type ActionResult, type ExpectedOutcome } from '../../model/contracts/outcome.js';
import { runAction } from '../answers/acting.js';
import { defineTool, type ToolContext, type ToolDef } from '../registry/types.js';

/** Intermediate moves: pages that track pointermove (sortable lists) need more than a jump. */
const MOVE_STEPS = 12;

/** The pointer from one point to another in steps, as a hand moves it. */
async function glide(ctx: ToolContext, from: { x: number; y: number }, to: { x: number; y: number }, steps: number): Promise<void> {
  for (let i = 1; i <= steps; i++) await ctx.page.pointer.move(from.x + (to.x - from.x) * i / steps, from.y + (to.y - from.y) * i / steps);
}

/** Where a press on the element lands: the act pipeline's locate (scrolled into view, covered refused in every frame). */
async function pointOf(ctx: ToolContext, gid: string): Promise<{ x: number; y: number }> {
  const el = await ctx.port.resolve(gid);
  try {
    const at = await locate(ctx.port, el);
    if (!at.ok) throw new PagelensError(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
    return { x: at.x, y: at.y };
  } finally {
    await ctx.port.release(el);
  }
}

async function drag(ctx: ToolContext, startId: string, endId: string, expectSpec?: string): Promise<ActionResult> {
  const what = `drag(${startId}, ${endId})`;
  const expected: ExpectedOutcome = expectSpec ? parseExpectSpec(expectSpec) : { type: 'any_change' };
  try {
    const start = await pointOf(ctx, startId);
    const pre = await capturePre(ctx.port, expected, startId);
    const pointer = ctx.page.pointer;
    await pointer.down(start.x, start.y);
    let at = start;
    try {
      // A first small move crosses the drag threshold before the end is looked up: pages that
      // start a drag on pointermove may re-render the list under it.
      at = { x: start.x + 4, y: start.y + 4 };
      await glide(ctx, start, at, 2);
      const end = await pointOf(ctx, endId);
      await glide(ctx, at, end, MOVE_STEPS);
      at = end;
    } finally {
      // Never leave the button held: every later click would be a drag.
      await pointer.up(at.x, at.y);
    }
    const verification = await verifyOutcome(ctx.port, pre, expected, startId);
    const result: ActionResult = { action: what, ok: true, method: 'mouse', detail: `dragged ${startId} onto ${endId}`, verification };
    if (!expectSpec && !verification.success) result.warnings = ['the page showed no change after the drag: it may not have taken'];
    return result;
  } catch (e) {
    const err = asPagelensError(e);
    const code = err.code === 'INTERNAL' ? 'NOT_ACTIONABLE' : err.code;
    return { action: what, ok: false, method: 'none', error: { code, message: err.message.split('\n')[0] } };
  }
}

const id = ElementId;

export const DRAG_TOOLS: ToolDef[] = [
  defineTool({
    name: 'browser_drag',
    description: 'Drag one element onto another with the real mouse (press, move, release). Verified: by default the page must change.',
    input: z.strictObject({
      startId: id.describe('Element ID to drag'),
      endId: id.describe('Element ID to drop on'),
      expect: z.string().min(1).optional().describe('Outcome to verify (as for browser_click); default any_change'),
    }),
    run: (ctx, a) => runAction(ctx, () => drag(ctx, a.startId, a.endId, a.expect)),
  }),
];
