// Reading the page model: every frame's engine snapshot, placed in top-level coordinates, with
// elements inside iframes marked covered when something in an ancestor frame lies over them.
// What could not be read is said in the model (frames[].error, warnings), never left out quietly.
import { isPagelensError } from '../model/contracts/errors.js';
import type { PageModel } from '../model/pagemodel/page.js';
import { readFrames } from '../core/read.js';
import type { ReadOptions } from '../core/port.js';
import type { Box, EngineSnapshotOptions, FrameSnapshot } from '../model/contracts/schema.js';
import type { LensCore } from './lensCore.js';
import { engineCallWith, engineReadText } from './engine.js';
import { readAgainstHeld, ReadTally } from '../core/heldReads.js';
import { describeFailure, frameInfo, LAYOUT_GROUP, type LaidOutFrame } from './frames.js';


/** Past this, a frame's read is said to be slow (it is still used: a big page never fails for its size). */
const SLOW_READ_MS = 10_000;

/** The page model; read once more when the page navigates under the first read. */
export async function readPageModel(core: LensCore, opts: ReadOptions): Promise<PageModel> {
  const engine: EngineSnapshotOptions = { viewportOnly: !opts.fullPage, ...(opts.structure && { structure: true }), ...(opts.attributes && { attributes: true }), ...(opts.fresh && { fresh: true }) };
  try {
    return await readOnce(core, engine);
  } catch (e) {
    if (!isPagelensError(e, 'NAVIGATED')) throw e;
    // Only a wait: if the page is still not ready, the second read says so itself.
    await core.page.waitForLoadState('domcontentloaded', { timeout: 5000 }).catch(() => {});
    return await readOnce(core, engine);
  }
}

async function readOnce(core: LensCore, engine: EngineSnapshotOptions): Promise<PageModel> {
  const t0 = performance.now();
  const { viewportOnly } = engine;
  // The main frame's read does not depend on the frame layout: run both at once.
  const main = core.frames.lastByOrdinal(0);
  const held = core.snapshots.held;
  const tally = new ReadTally();
  const read = (f: Pick<LaidOutFrame, 'frameId' | 'target' | 'ordinal'>, view?: Box): Promise<FrameSnapshot> => {
    const walk = f.target.takeShadowAttached(f.frameId);
    const opts = { ...engine, ...(walk && { walk }), ...(view && { view }) };
    // Readers never change it (occlusion from ancestor frames marks copies): the held read stays as answered.
    return readAgainstHeld(held, f.frameId, engine, tally, f.ordinal ? `frame ${f.ordinal}: ` : '',
      (base) => engineReadText(f, [opts, base]));
  };
  // A frame's read does not depend on the frame layout: when the frames are known (the main frame,
  // or every frame while the kept structure holds), their reads run alongside the layout. A
  // viewport read of a child frame does: it lists the part of the frame the layout shows.
  const known = (viewportOnly ? undefined : core.frames.keptFrames()) ?? (main ? [main] : []);
  // Sent before the reads, so that the layout waits for it rather than for them.
  const barrier = core.frames.barrierBeforeReads();
  const early = new Map(known.map((f) => [f.frameId, read(f).then(
    (value) => ({ value }), (error: unknown) => ({ error }))] as const));
  const answered = Promise.all(early.values());
  return core.frames.withLayout(async ({ frames: layout, warnings }) => {
    const model = await readFrames(layout, {
      read: async (f, view) => {
        const started = early.get(f.frameId);
        if (!started) return read(f, view);
        const r = await started;
        if ('error' in r) throw r.error;
        return r.value;
      },
      ownerHits: (frame, points) => (frame.parent && frame.ownerObjectId
        ? engineCallWith(frame.parent, 'ownerHits', [{ objectId: frame.ownerObjectId }, { value: points }], LAYOUT_GROUP)
        : null),
      info: frameInfo,
      describe: describeFailure,
      notes: (f, s) => [
        ...(s && s.timeMs > SLOW_READ_MS ? [`${f.ordinal ? `frame ${f.ordinal}: ` : ''}reading the page took ${(s.timeMs / 1000).toFixed(1)} s (a large page or a busy machine); the read is complete`] : []),
        ...f.target.takeShadowFailures(f.frameId).map((shadow) => (f.ordinal ? `frame ${f.ordinal}: ${shadow}` : shadow)),
      ],
    }, viewportOnly, warnings);
    held.keepOnly(new Set(layout.map((f) => f.frameId)));
    model.timeMs = Math.round((performance.now() - t0) * 10) / 10;
    tally.report(model.engine);
    return model;
  }, barrier ?? answered);
}
