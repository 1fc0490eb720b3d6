// Where a press on an element lands, for gestures the act pipeline has no action for (a drag's
// ends): the pipeline's own locate (src/core/locate.ts: scrolled into view, hit-tested in its frame
// and every ancestor), in top-level viewport CSS px. Covered or unreachable is refused with the
// reason, never guessed.
import { locate } from '../core/locate.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { LensCore } from './core.js';
import { cdpActHost } from './hostEngine.js';

const GROUP = 'pagelens-point';

export async function elementPoint(core: LensCore, gid: string): Promise<{ x: number; y: number }> {
  const host = cdpActHost(core, GROUP);
  const el = await host.resolve(gid);
  try {
    const at = await locate(host, el);
    if (!at.ok) throw new PagelensError(at.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : at.code, at.reason);
    return { x: at.x, y: at.y };
  } finally {
    await host.release(el);
  }
}
