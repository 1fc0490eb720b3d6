// Reading the page model, written once for both hosts (issue 19): every laid-out frame is read
// (how is the host's transport: a CDP isolated world with deltas, or a content-script message),
// a frame that cannot be read is said in the frame list rather than dropped quietly, what an
// ancestor frame covers is marked, and the frames are composed into one model under global IDs.
import { PagelensError } from '../model/contracts/errors.js';
import type { Box, FrameInfo, FrameSnapshot } from '../model/contracts/schema.js';
import { markOccludedByAncestors, type NestedFrame } from '../model/pagemodel/occlusion.js';
import { composePage, type PageModel, type PlacedFrame } from '../model/pagemodel/page.js';

/** A frame as the host laid it out, as far as reading needs it. */
export interface LaidOut<F> extends NestedFrame<F> {
  offset: [number, number];
  clip: Box | null;
  /** Why the frame cannot be read; set here too when its read fails. */
  error?: string;
}

export interface FrameReader<F extends LaidOut<F>> {
  /**
   * The frame's read (whole, or patched from a delta): the host's transport. `view`: a viewport
   * read of a child frame lists only this part of it (engine option `view`).
   */
  read(frame: F, view?: Box): Promise<FrameSnapshot>;
  /** Whether the frame's iframe element is what its parent hits at each point (null: no element to ask). */
  ownerHits(frame: F, points: Array<[number, number]>): Promise<boolean[]> | null;
  /** The frame as the payload lists it. */
  info(frame: F): FrameInfo;
  /** An error in the host's words. */
  describe(e: unknown): string;
  /** What the host has to say about each frame, read or not (a slow read, a shadow root it could not adopt). */
  notes?(frame: F, snapshot: FrameSnapshot | null): string[];
}

/**
 * The page model from `frames` (main frame first). The main frame's failure is the read's failure;
 * any other frame's failure is recorded on the frame (`error`, listed in `frames`) and the read goes on.
 */
export async function readFrames<F extends LaidOut<F>>(frames: F[], reader: FrameReader<F>, viewportOnly: boolean, warnings: string[]): Promise<PageModel> {
  const reads = await Promise.all(frames.map(async (f): Promise<FrameSnapshot | null> => {
    if (f.error) return null;
    try {
      return await reader.read(f, viewportOnly && f.ordinal !== 0 ? frameView(f) : undefined);
    } catch (e) {
      if (f.ordinal === 0) throw e;
      f.error = reader.describe(e);
      return null;
    }
  }));
  const main = reads[0];
  if (!main || frames[0]?.ordinal !== 0) throw new PagelensError('ENGINE_ERROR', 'The main frame returned nothing');
  const placed: PlacedFrame[] = [];
  frames.forEach((f, i) => {
    const s = reads[i];
    if (s) placed.push({ ordinal: f.ordinal, snapshot: s, offset: f.offset, clip: f.clip });
    if (reader.notes) warnings.push(...reader.notes(f, s));
  });
  warnings.push(...await markOccludedByAncestors(placed, (ordinal) => frames.find((f) => f.ordinal === ordinal), reader.ownerHits, reader.describe));
  return composePage(main, placed, frames.map(reader.info), viewportOnly, 0, warnings);
}

/**
 * The part of a child frame the page's viewport shows, in the frame's own coordinates (empty when
 * it shows none): its viewport can be far taller than the page's (an iframe sized to its content),
 * and what lies outside the page's viewport is pruned when the frames are composed anyway.
 */
function frameView(f: { offset: [number, number]; clip: Box | null }): Box {
  return f.clip ? [f.clip[0] - f.offset[0], f.clip[1] - f.offset[1], f.clip[2], f.clip[3]] : [0, 0, 0, 0];
}
