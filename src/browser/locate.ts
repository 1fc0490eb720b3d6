// Where a click on an element lands: scrolled into view in its frame, hit-tested there and in
// every ancestor frame (a modal over an iframe covers what is inside it), in top-level viewport
// coordinates for CDP input on the page session.
import { globalId } from '../model/page.js';
import type { Box } from '../model/schema.js';
import type { LaidOutFrame, Lens } from './lens.js';

interface Cover { selector: string; text: string; control?: { id: string; name: string } }
type Prepared =
  | { ok: true; point: [number, number]; box: Box; viewport: [number, number] }
  | { ok: false; code: 'NOT_ACTIONABLE' | 'COVERED'; reason: string; cover?: Cover; box?: Box };

export type Located =
  | { ok: true; x: number; y: number }
  /** Real input cannot reach the element; a script may. */
  | { ok: false; code: 'UNREACHABLE'; reason: string }
  | { ok: false; code: 'NOT_ACTIONABLE' | 'COVERED'; reason: string };

export interface Resolved { frame: LaidOutFrame; localId: string; objectId: string }

export async function locate(lens: Lens, el: Resolved, gid: string, opts: { allowDisabled?: boolean } = {}): Promise<Located> {
  const { frame } = el;
  if (frame.ordinal !== 0) await revealFrame(lens, frame.frameId);
  const p = await frame.target.callFunction<Prepared>(frame.frameId,
    'function (el, o) { return globalThis.__pagelens.act.prepare(el, o); }', [{ objectId: el.objectId }, { value: { ...opts, nearest: frame.ordinal !== 0 } }]);
  if (!p.ok) return { ok: false, code: p.code, reason: `${gid} ${p.reason}${p.cover ? controlHint(p.cover, frame.ordinal) : ''}` };
  if (frame.ordinal === 0) return { ok: true, x: p.point[0], y: p.point[1] };
  // Scrolling inside the frame may scroll its ancestors too, a moment later: lay the frames out afresh.
  let placed = await place(lens, frame.frameId, p.point, gid);
  if (!placed.ok && placed.code === 'UNREACHABLE') {
    await new Promise((r) => setTimeout(r, 100));
    placed = await place(lens, frame.frameId, p.point, gid);
  }
  return placed;
}

/** Scrolls each iframe on the way down from the top into view, so the frame's content can be. */
async function revealFrame(lens: Lens, frameId: string): Promise<void> {
  await lens.withLayout(async (frames) => {
    const chain: LaidOutFrame[] = [];
    for (let f = frames.find((x) => x.frameId === frameId); f?.parent; f = f.parent) chain.unshift(f);
    for (const f of chain) {
      if (!f.ownerObjectId || !f.parent) continue;
      await f.parent.target.callFunction(f.parent.frameId, 'function (o) { return globalThis.__pagelens.act.reveal(o); }',
        [{ objectId: f.ownerObjectId }], true, 'pagelens-layout').catch(() => false);
    }
  });
}

async function place(lens: Lens, frameId: string, point: [number, number], gid: string): Promise<Located> {
  return lens.withLayout(async (frames) => {
    const f = frames.find((x) => x.frameId === frameId);
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
      const cover = await parent.target.callFunction<Cover | null>(parent.frameId,
        'function (owner, x, y) { return globalThis.__pagelens.act.coverAt(owner, x, y); }',
        [{ objectId: child.ownerObjectId }, { value: cx }, { value: cy }], true, 'pagelens-layout').catch(() => null);
      if (cover) return { ok: false, code: 'COVERED', reason: `${gid} is covered by ${coverText(cover)}${controlHint(cover, parent.ordinal)}` } as const;
      child = parent;
    }
    return { ok: true, x, y } as const;
  });
}

function coverText(c: Cover): string {
  return `${c.selector}${c.text ? ` "${c.text}"` : ''}`;
}

function controlHint(c: Cover, frame: number): string {
  return c.control ? ` (its control ${globalId(frame, c.control.id)} "${c.control.name}" may dismiss it)` : '';
}
