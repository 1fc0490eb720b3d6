// Where a press on an element lands, for gestures the act pipeline has no action for (a drag's
// ends): the element scrolled into view, hit-tested in its frame and every ancestor (locate.ts),
// in top-level viewport CSS px. Covered or unreachable is refused with the reason, never guessed.
import { PagelensError } from '../model/contracts/errors.js';
import type { LensCore } from './core.js';
import { locate } from './locate.js';

const GROUP = 'pagelens-point';

export async function elementPoint(core: LensCore, gid: string): Promise<{ x: number; y: number }> {
  const el = await core.resolve(gid, GROUP);
  try {
    const at = await locate(core, el, gid, { group: GROUP });
    if (!at.ok) throw new PagelensError(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
    return { x: at.x, y: at.y };
  } finally {
    await el.frame.target.release(GROUP).catch(() => {});
  }
}
