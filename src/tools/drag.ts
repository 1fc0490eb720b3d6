// browser_drag: press on one element, move to another, release — real mouse input (CDP, through
// Playwright's mouse, which also carries HTML5 drag-and-drop in Chromium). The lens has no drag
// action, so the points come from the elements' boxes here, a covered start is refused as a
// click would be, and the outcome is verified like any other action (default: something changed).
import type { Locator } from 'playwright-core';
import { z } from 'zod';
import type { Lens } from '../browser/lens.js';
import { ElementId } from '../model/contracts/actions.js';
import { PagelensError, asPagelensError, isPagelensError } from '../model/contracts/errors.js';
import { parseExpectSpec, type ActionResult, type ExpectedOutcome } from '../model/contracts/outcome.js';
import { runAction } from './acting.js';
import { defineTool, type ToolContext, type ToolDef } from './types.js';

const LOCATOR_TIMEOUT_MS = 5000;
/** Intermediate moves: pages that track pointermove (sortable lists) need more than a jump. */
const MOVE_STEPS = 12;

interface Point { x: number; y: number }

/** The centre of an element in top-level viewport coordinates, scrolled into view first. */
async function centerOf(lens: Lens, id: string): Promise<{ point: Point; locator?: Locator }> {
  let locator: Locator;
  try {
    locator = await lens.locator(id);
  } catch (e) {
    // Closed shadow roots are out of a locator's reach: the snapshot's centre still is not.
    if (!isPagelensError(e, 'NOT_ACTIONABLE')) throw e;
    const node = (await lens.snapshot()).interactive_tree.find((n) => n.i === id);
    if (!node?.xy) throw new PagelensError('NOT_ACTIONABLE', `${id} is not in the viewport and cannot be scrolled to; scroll to it first (browser_scroll with its id).`);
    return { point: { x: node.xy[0], y: node.xy[1] } };
  }
  await locator.scrollIntoViewIfNeeded({ timeout: LOCATOR_TIMEOUT_MS });
  const box = await locator.boundingBox({ timeout: LOCATOR_TIMEOUT_MS });
  if (!box || box.width === 0 || box.height === 0) throw new PagelensError('NOT_ACTIONABLE', `${id} has no box on screen (hidden or empty).`);
  return { point: { x: box.x + box.width / 2, y: box.y + box.height / 2 }, locator };
}

/**
 * Refuses a start point that another element covers (a banner, a modal): the press would land on
 * it. Checked in the element's own document, which for a top-level element is the viewport.
 */
async function refuseIfCovered(lens: Lens, id: string, at: { point: Point; locator?: Locator }): Promise<void> {
  if (!at.locator) return;
  const handle = await at.locator.elementHandle({ timeout: LOCATOR_TIMEOUT_MS });
  try {
    if (!handle || await handle.ownerFrame() !== lens.page.mainFrame()) return;
    const cover = await handle.evaluate((el, p) => {
      const hit = document.elementFromPoint(p.x, p.y);
      if (!hit || hit === el || el.contains(hit) || hit.contains(el)) return null;
      return `<${hit.tagName.toLowerCase()}${hit.id ? `#${hit.id}` : ''}> "${(hit.textContent ?? '').trim().slice(0, 40)}"`;
    }, at.point);
    if (cover) throw new PagelensError('COVERED', `${id} is covered by ${cover} at its centre; close or scroll away what covers it first.`);
  } finally {
    await handle?.dispose();
  }
}

async function drag(ctx: ToolContext, startId: string, endId: string, expectSpec?: string): Promise<ActionResult> {
  const { lens } = ctx;
  const what = `drag(${startId}, ${endId})`;
  const expected: ExpectedOutcome = expectSpec ? parseExpectSpec(expectSpec) : { type: 'any_change' };
  try {
    const start = await centerOf(lens, startId);
    await refuseIfCovered(lens, startId, start);
    const pre = await lens.capturePreActionState(expected, startId);
    const mouse = lens.page.mouse;
    await mouse.move(start.point.x, start.point.y);
    await mouse.down();
    try {
      // A first small move crosses the drag threshold before the end is looked up: pages that
      // start a drag on pointermove may re-render the list under it.
      await mouse.move(start.point.x + 4, start.point.y + 4, { steps: 2 });
      const end = await centerOf(lens, endId);
      await mouse.move(end.point.x, end.point.y, { steps: MOVE_STEPS });
    } finally {
      // Never leave the button held: every later click would be a drag.
      await mouse.up();
    }
    const verification = await lens.verifyOutcome(expected, pre, startId);
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
