// Where every image of the page must be painted over: the boxes of the secret fields that show their
// value in clear, asked of the engine of every frame (src/page/semantics/secretBoxes.ts) and placed
// in the top-level viewport the way marks and IDs are (each frame's offset and visible clip, cross-
// origin frames included). Written once for both hosts. A frame that cannot be checked in time is
// painted over whole where it shows, and said; a main frame that cannot be checked gives no image.
import { PagelensError } from '../model/contracts/errors.js';
import type { SecretBoxes } from '../model/contracts/engine.js';
import type { HostEngine, HostFrame } from '../model/contracts/host.js';
import type { Box } from '../model/contracts/schema.js';
import { intersect } from '../model/pagemodel/page.js';

/** How long the frames may take to answer, together: a screenshot stays within its call's deadline. */
export const SECRET_CHECK_MS = 3000;

export interface SecretCovers {
  /** What to paint over, CSS px: in the top-level viewport, or in the main document for a whole-page image. */
  boxes: Box[];
  /** The top-level viewport (CSS px): an image's pixels per CSS px is its width over this width. */
  viewport: { width: number; height: number };
  /** The main frame's scroll (CSS px) when the frames answered: document = viewport + scroll. */
  scroll: [number, number];
  /** Frames not checked, and what was done about them. */
  warnings: string[];
}

/** Late: the frame did not answer within the check's time. */
const LATE = Symbol('late');

function within<T>(p: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((r) => { timer = setTimeout(() => r(LATE), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const name = (f: HostFrame) => `frame ${f.ordinal}${f.url ? ` (${f.url.slice(0, 80)})` : ''}`;

/**
 * The covers of the page as it is now. `space`: 'viewport' (an image of the viewport) or 'document'
 * (an image of the whole page, or a part of it given in page coordinates).
 */
export async function secretCovers(engine: HostEngine, opts: { space?: 'viewport' | 'document'; timeoutMs?: number } = {}): Promise<SecretCovers> {
  const space = opts.space ?? 'viewport';
  const ms = opts.timeoutMs ?? SECRET_CHECK_MS;
  return engine.layout(async (frames, layoutWarnings) => {
    const warnings = layoutWarnings.map((w) => `${w}: not checked for secret fields`);
    const answers = await Promise.all(frames.map(async (f) => {
      if (f.error) return { f, failure: f.error };
      const within_ = f.ordinal === 0 && space === 'document' ? 'document' : 'viewport';
      try {
        const a = await within(engine.engine(f, 'secretBoxes', [{ within: within_ }]), ms);
        return a === LATE ? { f, failure: `no answer within ${ms} ms` } : { f, answer: a };
      } catch (e) {
        return { f, failure: engine.describe(e) };
      }
    }));
    const main = answers.find((a) => a.f.ordinal === 0);
    if (!main?.answer) throw new PagelensError('ENGINE_ERROR', `the page could not be checked for secret fields (${main?.failure ?? 'no main frame'}), so no image of it is given`);
    const top: SecretBoxes = main.answer;
    const scroll: [number, number] = space === 'document' ? top.scroll : [0, 0];
    const boxes: Box[] = [];
    const place = (b: Box, f: HostFrame) => {
      if (f.ordinal === 0) return boxes.push(space === 'document' ? [b[0] + scroll[0], b[1] + scroll[1], b[2], b[3]] : b);
      const moved: Box = [b[0] + f.offset[0], b[1] + f.offset[1], b[2], b[3]];
      // In the viewport a frame shows only inside its clip; in a whole-page image, all of its own viewport.
      const shown = space === 'viewport' ? (f.clip ? intersect(moved, f.clip) : null) : moved;
      if (shown) boxes.push([shown[0] + scroll[0], shown[1] + scroll[1], shown[2], shown[3]]);
    };
    for (const a of answers) {
      if (a.answer) { for (const b of a.answer.boxes) place(b, a.f); continue; }
      if (a.f.clip) {
        place([a.f.clip[0] - a.f.offset[0], a.f.clip[1] - a.f.offset[1], a.f.clip[2], a.f.clip[3]], a.f);
        warnings.push(`${name(a.f)} could not be checked for secret fields (${a.failure}): its visible part is painted over`);
      } else if (!/failed to load/.test(a.failure ?? '')) {
        warnings.push(`${name(a.f)} could not be checked for secret fields (${a.failure}) nor placed; any it shows are not covered`);
      }
    }
    return { boxes, viewport: { width: top.viewport[0], height: top.viewport[1] }, scroll: top.scroll, warnings };
  });
}
