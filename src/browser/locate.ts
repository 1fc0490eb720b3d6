// Where a click on an element lands: scrolled into view in its frame, hit-tested there and in
// every ancestor frame (a modal over an iframe covers what is inside it), in top-level viewport
// coordinates for CDP input on the page session. A check that cannot be made refuses the click:
// "could not tell whether it is covered" is never read as "not covered".
import type { Cover } from '../model/contracts/engine.js';
import { controlHint, coveredReason } from '../model/acting/cover.js';
import { globalId, innerControlAdvice } from '../model/pagemodel/page.js';
import type { LensCore, Resolved } from './core.js';
import { elementCall, ownerCall } from './engine.js';
import { describeFailure, LAYOUT_GROUP, type LaidOutFrame } from './frames.js';

export type Located =
  | { ok: true; x: number; y: number }
  /** Real input cannot reach the element; a script may. */
  | { ok: false; code: 'UNREACHABLE'; reason: string }
  | { ok: false; code: 'NOT_ACTIONABLE' | 'COVERED'; reason: string };

export async function locate(core: LensCore, el: Resolved, gid: string, opts: { allowDisabled?: boolean; group?: string } = {}): Promise<Located> {
  const { frame } = el;
  if (frame.ordinal !== 0) {
    const revealed = await revealFrame(core, frame.frameId);
    if (revealed) return { ok: false, code: 'NOT_ACTIONABLE', reason: `${gid}: ${revealed}` };
  }
  const p = await elementCall(el, 'prepare', [{ allowDisabled: opts.allowDisabled ?? false, nearest: frame.ordinal !== 0 }], opts.group);
  if (!p.ok) {
    if (p.cover?.control) noteCoverControl(core, el, p.cover);
    if (p.inner) {
      noteCoverControl(core, el, { selector: '', text: '', control: p.inner });
      return { ok: false, code: p.code, reason: `${gid} ${p.reason}${innerControlAdvice(p.inner, frame.ordinal)}` };
    }
    return { ok: false, code: p.code, reason: `${gid} ${p.reason}${p.cover ? controlHint(p.cover, frame.ordinal) : ''}` };
  }
  if (frame.ordinal === 0) return { ok: true, x: p.point[0], y: p.point[1] };
  // Scrolling inside the frame may scroll its ancestors too, a moment later: lay the frames out afresh.
  let placed = await place(core, el, p.point, gid);
  if (!placed.ok && placed.code === 'UNREACHABLE') {
    await new Promise((r) => setTimeout(r, 100));
    placed = await place(core, el, p.point, gid);
  }
  return placed;
}

/** Scrolls each iframe on the way down from the top into view; a failure is returned in words. */
async function revealFrame(core: LensCore, frameId: string): Promise<string | null> {
  return core.frames.withLayout(async ({ frames }) => {
    const chain: LaidOutFrame[] = [];
    for (let f = frames.find((x) => x.frameId === frameId); f?.parent; f = f.parent) chain.unshift(f);
    for (const f of chain) {
      if (!f.ownerObjectId || !f.parent) continue;
      try {
        await ownerCall(f.parent, f.ownerObjectId, 'reveal', [], LAYOUT_GROUP);
      } catch (e) {
        return `frame ${f.ordinal} could not be scrolled into view (${describeFailure(e)})`;
      }
    }
    return null;
  });
}

async function place(core: LensCore, el: Resolved, point: [number, number], gid: string): Promise<Located> {
  return core.frames.withLayout(async ({ frames }) => {
    const f = frames.find((x) => x.frameId === el.frame.frameId);
    if (!f || f.error) return { ok: false, code: 'UNREACHABLE', reason: `the frame of ${gid} has no place on the page (${f?.error ?? 'gone'})` } as const;
    const x = point[0] + f.offset[0];
    const y = point[1] + f.offset[1];
    const clip = f.clip;
    if (!clip || x < clip[0] || y < clip[1] || x >= clip[0] + clip[2] || y >= clip[1] + clip[3]) {
      return { ok: false, code: 'UNREACHABLE', reason: `${gid} is outside the visible part of its frame` } as const;
    }
    let child: LaidOutFrame = f;
    let [cx, cy] = point;
    while (child.parent && child.ownerObjectId) {
      cx += child.originInParent[0];
      cy += child.originInParent[1];
      const parent = child.parent;
      let cover: Cover | null;
      try {
        cover = await ownerCall(parent, child.ownerObjectId, 'coverAt', [cx, cy], LAYOUT_GROUP);
      } catch (e) {
        return { ok: false, code: 'NOT_ACTIONABLE', reason: `${gid}: could not check whether anything in ${parent.ordinal ? `frame ${parent.ordinal}` : 'the page'} covers its frame there (${describeFailure(e)}), so it was not clicked` } as const;
      }
      if (cover) {
        if (cover.control) noteCoverControl(core, { frame: parent }, cover);
        return { ok: false, code: 'COVERED', reason: coveredReason(gid, cover, parent.ordinal) } as const;
      }
      child = parent;
    }
    return { ok: true, x, y } as const;
  });
}

/** The cover's control is named to the agent, so it is handed out like a snapshot's IDs. */
function noteCoverControl(core: LensCore, at: { frame: LaidOutFrame; doc?: string }, cover: Cover): void {
  const doc = at.doc ?? core.ids.expectedDoc('', at.frame.ordinal);
  if (!doc || !cover.control) return;
  core.ids.note(globalId(at.frame.ordinal, cover.control.id), { doc, frame: at.frame.ordinal, role: cover.control.role, name: cover.control.name, centre: [0, 0] });
}
