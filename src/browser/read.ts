// Reading the page model: every frame's engine snapshot, placed in top-level coordinates, with
// elements inside iframes marked covered when something in an ancestor frame lies over them.
// What could not be read is said in the model (frames[].error, warnings), never left out quietly.
import { PagelensError, isPagelensError } from '../model/errors.js';
import { composePage, type PageModel, type PlacedFrame } from '../model/page.js';
import type { EngineSnapshotOptions, FrameSnapshot } from '../model/schema.js';
import type { LensCore } from './core.js';
import { engineCall, engineCallWith } from './engine.js';
import { describeFailure, frameInfo, LAYOUT_GROUP, type LaidOutFrame } from './frames.js';

export interface ReadOptions {
  fullPage: boolean;
  /** Also read landmarks, forms, rows and headings, and tie every node to them. */
  structure?: boolean;
  /** Also read identifying attributes of nodes and structure. */
  attributes?: boolean;
}

/** The page model; read once more when the page navigates under the first read. */
export async function readPageModel(core: LensCore, opts: ReadOptions): Promise<PageModel> {
  const engine: EngineSnapshotOptions = { viewportOnly: !opts.fullPage, ...(opts.structure && { structure: true }), ...(opts.attributes && { attributes: true }) };
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
  const early = main
    ? engineCall(main, 'snapshot', [engine]).then((value) => ({ value, frameId: main.frameId }), (error: unknown) => ({ error, frameId: main.frameId }))
    : undefined;
  return core.frames.withLayout(async ({ frames: layout, warnings }) => {
    const reads = await Promise.all(layout.map(async (f): Promise<FrameSnapshot | null> => {
      if (f.error) return null;
      try {
        if (f.ordinal === 0 && early) {
          const r = await early;
          if (r.frameId === f.frameId) {
            if ('error' in r) throw r.error;
            return r.value;
          }
        }
        return await engineCall(f, 'snapshot', [engine]);
      } catch (e) {
        if (f.ordinal === 0) throw e;
        f.error = describeFailure(e);
        return null;
      }
    }));
    const mainRead = reads[0];
    if (!mainRead) throw new PagelensError('ENGINE_ERROR', 'The main frame returned nothing');
    const placed: PlacedFrame[] = [];
    layout.forEach((f, i) => {
      const s = reads[i];
      if (s) placed.push({ ordinal: f.ordinal, snapshot: s, offset: f.offset, clip: f.clip });
      const shadow = f.target.takeShadowFailures(f.frameId);
      if (shadow) warnings.push(f.ordinal ? `frame ${f.ordinal}: ${shadow}` : shadow);
    });
    warnings.push(...await markOccludedByParents(layout, placed));
    const model = composePage(mainRead, placed, layout.map(frameInfo), viewportOnly, 0, warnings);
    model.timeMs = Math.round((performance.now() - t0) * 10) / 10;
    return model;
  });
}

/**
 * A node inside an iframe is hidden when something in an ancestor frame covers the iframe at
 * that point (a modal over an embedded widget): ask each ancestor in turn. A frame whose check
 * fails keeps its nodes, and the failure is returned as a warning.
 */
async function markOccludedByParents(layout: LaidOutFrame[], placed: PlacedFrame[]): Promise<string[]> {
  const warnings: string[] = [];
  await Promise.all(placed.filter((p) => p.ordinal !== 0).map(async (p) => {
    let frame = layout.find((f) => f.ordinal === p.ordinal);
    const pending = p.snapshot.nodes.filter((n) => n.occ === false);
    let points = pending.map((n): [number, number] => [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2]);
    let candidates = pending;
    while (frame?.parent && frame.ownerObjectId && candidates.length) {
      const [ox, oy] = frame.originInParent;
      points = points.map(([x, y]) => [x + ox, y + oy]);
      let hits: boolean[];
      try {
        hits = await engineCallWith(frame.parent, 'ownerHits', [{ objectId: frame.ownerObjectId }, { value: points }], LAYOUT_GROUP);
        if (hits.length !== points.length) throw new PagelensError('ENGINE_ERROR', `asked about ${points.length} points, answered ${hits.length}`);
      } catch (e) {
        warnings.push(`frame ${p.ordinal}: whether anything in frame ${frame.parent.ordinal} covers it could not be checked (${describeFailure(e)}); its elements may be covered without being marked occ`);
        return;
      }
      const keep: number[] = [];
      hits.forEach((hit, i) => { if (hit) keep.push(i); else candidates[i].occ = true; });
      candidates = keep.map((i) => candidates[i]);
      points = keep.map((i) => points[i]);
      frame = frame.parent;
    }
  }));
  return warnings;
}
