// The reading side of the CDP host (src/core/port.ts ReadHost): what src/core/lens.ts builds the
// lens from. Only transport is here: the page model read (read.ts), the engine side of the port
// (hostEngine.ts), a frame's document copied with its iframe elements passed as CDP object handles,
// the viewport photographed over the page's own CDP session and encoded with sharp (screenshot.ts),
// the accessibility tree (axtree.ts), and where this host keeps things (the lens core's ledger and
// snapshot cache, kept in memory: nothing to do to keep them).
import type { ReadHost } from '../core/port.js';
import { performAction } from './performAction.js';
import { readAxTree } from './axtree.js';
import type { LensCore } from './lensCore.js';
import { engineCallWith } from './engine.js';
import { recentEvents } from './events.js';
import { LAYOUT_GROUP } from './frames.js';
import { cdpActHost, cdpEngine, laidOut } from './hostEngine.js';
import { readPageModel } from './read.js';
import { captureViewport, composeScreenshot } from './screenshot.js';

/** The CDP object group of the reads' element handles. */
const GROUP = 'pagelens-reads';
/** The CDP object group of verification's element handles (lens.verifyOutcome and the like). */
const VERIFY_GROUP = 'pagelens-verify';

export function cdpReadHost(core: LensCore): ReadHost {
  return {
    engine: cdpEngine(core, GROUP),
    ledger: core.ids,
    read: (opts) => readPageModel(core, opts),
    keep: async () => {},
    recentEvents: (limit) => recentEvents(core, limit),
    copyDocument(frame, children, req) {
      // The iframe elements go as handles: the engine marks where each stands in its copy.
      const owned = children.map(laidOut).filter((c) => c.ownerObjectId);
      const args = [{ value: { ...req, children: owned.map((c) => c.ordinal) } }, ...owned.map((c) => ({ objectId: c.ownerObjectId! }))];
      return engineCallWith(laidOut(frame), 'serializeDocument', args, LAYOUT_GROUP);
    },
    photograph: async () => ({ image: await captureViewport(core), notes: [] }),
    async compose(image, opts) {
      const shot = await composeScreenshot(image as Buffer, opts);
      return { base64: shot.image.toString('base64'), hash: shot.hash, bytes: shot.image.length, marks: shot.marks.length };
    },
    axtree: () => readAxTree(core),
    snapshots: core.snapshots,
    navigations: () => core.navigations,
    act: (action, opts) => performAction(core, action, opts),
    title: () => core.page.title(),
    verifier: () => cdpActHost(core, VERIFY_GROUP),
  };
}
