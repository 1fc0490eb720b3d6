// Where a press on an element lands, for every host: scrolled into view in its frame, hit-tested
// there and in every ancestor frame (a modal over an iframe covers what is inside it), in top-level
// viewport coordinates. A check that cannot be made refuses the press: "could not tell whether it
// is covered" is never read as "not covered".
import type { Cover } from '../model/contracts/engine.js';
import type { Box } from '../model/contracts/schema.js';
import type { HostElement, HostFrame } from '../model/contracts/host.js';
import { controlHint, coveredReason } from '../model/acting/cover.js';
import { innerControlAdvice } from '../model/pagemodel/page.js';
import type { ActHost } from './port.js';

export type Located =
  /** `box`: the element's box in its frame, where the engine measured it (the press lands inside it). */
  | { ok: true; x: number; y: number; box?: Box }
  /** Real input cannot reach the element; a script may. */
  | { ok: false; code: 'UNREACHABLE'; reason: string }
  | { ok: false; code: 'NOT_ACTIONABLE' | 'COVERED'; reason: string };

const where = (ordinal: number) => (ordinal ? `frame ${ordinal}` : 'the page');

export async function locate(host: ActHost, el: HostElement, opts: { allowDisabled?: boolean } = {}): Promise<Located> {
  const { frame, gid } = el;
  if (frame.ordinal !== 0) {
    const revealed = await revealFrame(host, frame);
    if (revealed) return { ok: false, code: 'NOT_ACTIONABLE', reason: `${gid}: ${revealed}` };
  }
  const p = await host.element(el, 'prepare', [{ allowDisabled: opts.allowDisabled ?? false, nearest: frame.ordinal !== 0 }]);
  if (!p.ok) {
    if (p.cover?.control) host.noteControl?.(frame, el.doc, p.cover.control);
    if (p.inner) {
      host.noteControl?.(frame, el.doc, p.inner);
      return { ok: false, code: p.code, reason: `${gid} ${p.reason}${innerControlAdvice(p.inner, frame.ordinal)}` };
    }
    return { ok: false, code: p.code, reason: `${gid} ${p.reason}${p.cover ? controlHint(p.cover, frame.ordinal) : ''}` };
  }
  if (frame.ordinal === 0) return { ok: true, x: p.point[0], y: p.point[1], box: p.box };
  // Scrolling inside the frame may scroll its ancestors too, a moment later: lay the frames out afresh.
  let placed = await place(host, el, p.point);
  if (!placed.ok && placed.code === 'UNREACHABLE') {
    await new Promise((r) => setTimeout(r, 100));
    placed = await place(host, el, p.point);
  }
  return placed.ok ? { ...placed, box: p.box } : placed;
}

/** The frame and its ancestors, innermost first, as this layout has them. */
function lineage(frames: HostFrame[], ordinal: number): HostFrame[] {
  const out: HostFrame[] = [];
  for (let f = frames.find((x) => x.ordinal === ordinal); f; f = f.parent === undefined ? undefined : frames.find((x) => x.ordinal === f!.parent)) out.push(f);
  return out;
}

/** Scrolls each iframe on the way down from the top into view; a failure is returned in words. */
async function revealFrame(host: ActHost, frame: HostFrame): Promise<string | null> {
  return host.layout(async (frames) => {
    for (const f of lineage(frames, frame.ordinal).slice(0, -1).reverse()) {
      try {
        await host.owner(f, 'reveal');
      } catch (e) {
        return `frame ${f.ordinal} could not be scrolled into view (${host.describe(e)})`;
      }
    }
    return null;
  });
}

/** The point carried up to the top-level viewport, hit-tested in each ancestor over the iframe it passes through. */
async function place(host: ActHost, el: HostElement, point: [number, number]): Promise<Located> {
  const { gid } = el;
  return host.layout(async (frames): Promise<Located> => {
    const chain = lineage(frames, el.frame.ordinal);
    const f = chain[0];
    if (!f || f.error) return { ok: false, code: 'UNREACHABLE', reason: `the frame of ${gid} has no place on the page (${f?.error ?? 'gone'})` };
    const x = point[0] + f.offset[0];
    const y = point[1] + f.offset[1];
    const clip = f.clip;
    if (!clip || x < clip[0] || y < clip[1] || x >= clip[0] + clip[2] || y >= clip[1] + clip[3]) {
      return { ok: false, code: 'UNREACHABLE', reason: `${gid} is outside the visible part of its frame` };
    }
    for (let i = 0; i + 1 < chain.length; i++) {
      const child = chain[i];
      const parent = chain[i + 1];
      // The point in the parent's viewport: frame offsets are all top-level.
      const at = [x - parent.offset[0], y - parent.offset[1]];
      let cover: Cover | null;
      try {
        cover = await host.owner(child, 'coverAt', at);
      } catch (e) {
        return { ok: false, code: 'NOT_ACTIONABLE', reason: `${gid}: could not check whether anything in ${where(parent.ordinal)} covers its frame there (${host.describe(e)}), so it was not clicked` };
      }
      if (cover) {
        if (cover.control) host.noteControl?.(parent, undefined, cover.control);
        return { ok: false, code: 'COVERED', reason: coveredReason(gid, cover, parent.ordinal) };
      }
    }
    return { ok: true, x, y };
  });
}

/**
 * Where a press on the element lands, checked twice: before the pointer moves there, and once it
 * is there. A page can answer the pointer's arrival (pointermove, mouseover) by putting something
 * else under it — a cross-origin frame's "Authorize payment" over "Cancel" — and the press would
 * land on that. Returns the point with the pointer on it; press there at once.
 */
export async function reach(host: ActHost, el: HostElement): Promise<Located> {
  const at = await locate(host, el);
  if (!at.ok) return at;
  await host.input.move(at.x, at.y);
  const now = await locate(host, el);
  // Reachable before the pointer came and not after: no script click stands in for the press.
  if (!now.ok) return { ok: false, code: now.code === 'UNREACHABLE' ? 'NOT_ACTIONABLE' : now.code, reason: `${now.reason} once the pointer reached it, so it was not pressed` };
  if (Math.hypot(now.x - at.x, now.y - at.y) > 2) {
    return { ok: false, code: 'NOT_ACTIONABLE', reason: `${el.gid} moved when the pointer reached it (from (${Math.round(at.x)}, ${Math.round(at.y)}) to (${Math.round(now.x)}, ${Math.round(now.y)})), so it was not pressed` };
  }
  return at;
}
