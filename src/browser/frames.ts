// Every frame of a page: which CDP target renders it (the page's own, or an out-of-process
// iframe's), its stable ordinal (the "f2" of "f2_17"), and where its content sits in the
// top-level viewport. A failure to lay out a frame is kept on the frame (`error`), never dropped.
import type { Frame, Page } from 'playwright-core';
import type { OwnerInfo } from '../model/contracts/engine.js';
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import { intersect } from '../model/pagemodel/page.js';
import type { Box, FrameInfo } from '../model/contracts/schema.js';
import { engineCall, engineCallWith } from './engine.js';
import { Target, type DocumentNumbering, type TargetFrame } from './target.js';

/** A frame as laid out for one read. */
export interface LaidOutFrame {
  ordinal: number;
  frameId: string;
  target: Target;
  parent: LaidOutFrame | null;
  url: string;
  origin: string;
  /** Frame origin in top-level viewport coordinates. */
  offset: [number, number];
  /** Visible part of the frame in top-level viewport coordinates (null: none). */
  clip: Box | null;
  /** The content origin of this frame within its parent's viewport. */
  originInParent: [number, number];
  ownerObjectId?: string;
  /** Backend node ID of the iframe element, in the parent's target. */
  ownerBackendId?: number;
  sandboxed: boolean;
  /** Why the frame cannot be read (failed to load, detached, ...). */
  error?: string;
}

export interface Layout {
  frames: LaidOutFrame[];
  /** The object group holding this layout's iframe handles (one per layout, so layouts never free each other's). */
  group: string;
  /** Frames that could not even be listed (an out-of-process frame whose session failed). */
  warnings: string[];
}

/** Object group for calls made while laying out: their answers are values, nothing is kept. */
export const LAYOUT_GROUP = 'pagelens-layout';
let layouts = 0;
const SAME_PROCESS = /does not have a separate CDP session/;

type Listed = TargetFrame & { target: Target };

export class FrameMap {
  /** Per child frame: its own target when it is out-of-process, null when it is not (as of `url`). */
  private readonly frameTargets = new Map<Frame, { target: Target | null; url: string }>();
  private readonly ordinals = new Map<string, number>();
  private nextOrdinal = 1;
  private last: LaidOutFrame[] = [];

  constructor(private readonly page: Page, readonly pageTarget: Target, private readonly numbering?: DocumentNumbering) {}

  /** The frames of the last layout (laid out now if there was none). */
  async known(): Promise<LaidOutFrame[]> {
    if (!this.last.length) await this.withLayout(async () => undefined);
    return this.last;
  }

  /** The frame with this ordinal as of the last layout, if any. */
  lastByOrdinal(ordinal: number): LaidOutFrame | undefined {
    return this.last.find((f) => f.ordinal === ordinal);
  }

  /** A fresh layout of every frame; iframe owner handles stay valid until `fn` returns. */
  async withLayout<T>(fn: (layout: Layout) => Promise<T>): Promise<T> {
    const layout = await this.layout();
    try {
      return await fn(layout);
    } finally {
      await releaseLayout(layout);
    }
  }

  /** Every frame of the page in document order, with stable ordinals and top-level geometry. */
  private async layout(): Promise<Layout> {
    const warnings: string[] = [];
    const group = `${LAYOUT_GROUP}-${++layouts}`;
    const targets = await this.targets(warnings);
    const known = new Map<string, Listed>();
    for (const target of targets) {
      let frames: TargetFrame[];
      try {
        frames = await target.frames();
      } catch (e) {
        if (target === this.pageTarget) throw e;
        // An out-of-process frame that went away since page.frames() listed it is simply gone;
        // anything else is a frame we could not see, and the caller hears of it.
        if (!isPagelensError(e, 'FRAME_DETACHED')) warnings.push(`an out-of-process frame could not be listed: ${(e as Error).message}`);
        continue;
      }
      // An out-of-process frame is owned by its own target, whatever its parent's tree says.
      frames.forEach((f, i) => { if (i === 0 || !known.has(f.frameId)) known.set(f.frameId, { ...f, target }); });
    }
    const children = new Map<string, Listed[]>();
    let mainFrame: Listed | undefined;
    for (const f of known.values()) {
      if (f.parentId && known.has(f.parentId)) {
        const list = children.get(f.parentId) ?? [];
        list.push(f);
        children.set(f.parentId, list);
      } else if (f.target === this.pageTarget && !f.parentId) mainFrame = f;
    }
    if (!mainFrame) throw new PagelensError('FRAME_DETACHED', 'The page has no main frame (closed or crashed).');
    this.ordinals.set(mainFrame.frameId, 0);
    const viewport = this.page.viewportSize() ?? await this.measureViewport(mainFrame);
    const root: LaidOutFrame = {
      ordinal: 0, frameId: mainFrame.frameId, target: this.pageTarget, parent: null, url: mainFrame.url, origin: mainFrame.origin,
      offset: [0, 0], clip: [0, 0, viewport.width, viewport.height], originInParent: [0, 0], sandboxed: false,
    };
    const out: LaidOutFrame[] = [root];
    const queue: LaidOutFrame[] = [root];
    // Breadth by level, but each parent's children are ordered as their iframes stand in its document.
    while (queue.length) {
      const parent = queue.shift()!;
      const kids = children.get(parent.frameId);
      if (!kids?.length || parent.error) continue;
      const laid = await this.layoutChildren(parent, kids, group);
      out.push(...laid);
      queue.push(...laid);
    }
    // Ordinals follow document order the first time a frame is seen and then never change.
    for (const f of depthFirst(out)) {
      let ord = this.ordinals.get(f.frameId);
      if (ord === undefined) { ord = this.nextOrdinal++; this.ordinals.set(f.frameId, ord); }
      f.ordinal = ord;
    }
    this.last = depthFirst(out);
    return { frames: this.last, group, warnings };
  }

  private async layoutChildren(parent: LaidOutFrame, kids: Listed[], group: string): Promise<LaidOutFrame[]> {
    // A frame whose page failed to load has nothing to read: list it, spend nothing on it.
    const owners = await Promise.all(kids.map(async (k) => {
      if (k.failed) return null;
      try {
        return await parent.target.frameOwner(k.frameId, parent.frameId, group);
      } catch (e) {
        return { failure: describeFailure(e) };
      }
    }));
    const present = owners.flatMap((o) => (o && 'objectId' in o ? [o] : []));
    let infos: OwnerInfo[] = [];
    let infoFailure: string | undefined;
    if (present.length) {
      try {
        infos = await engineCallWith(parent, 'frameOwners', present.map((o) => ({ objectId: o.objectId })), LAYOUT_GROUP, true);
      } catch (e) {
        infoFailure = `its iframe element could not be measured: ${describeFailure(e)}`;
      }
    }
    const laid: Array<LaidOutFrame & { order: number }> = [];
    let j = 0;
    kids.forEach((k, i) => {
      const owner = owners[i];
      const info = owner && 'objectId' in owner ? infos[j++] : undefined;
      const frame: LaidOutFrame & { order: number } = {
        ordinal: -1, frameId: k.frameId, target: k.target, parent, url: k.url, origin: k.origin,
        offset: parent.offset, clip: null, originInParent: [0, 0], sandboxed: info?.sandboxed ?? false,
        order: info?.order ?? Number.MAX_SAFE_INTEGER,
      };
      if (k.failed) frame.error = 'failed to load (blocked or unreachable)';
      else if (owner && 'failure' in owner) frame.error = owner.failure;
      else if (infoFailure) frame.error = infoFailure;
      else if (!owner || !info) frame.error = 'detached: its iframe element is gone';
      else {
        frame.ownerObjectId = owner.objectId;
        frame.ownerBackendId = owner.backendNodeId;
        frame.originInParent = [info.content[0], info.content[1]];
        frame.offset = [parent.offset[0] + info.content[0], parent.offset[1] + info.content[1]];
        const content: Box = [frame.offset[0], frame.offset[1], info.content[2], info.content[3]];
        frame.clip = info.visible && parent.clip ? intersect(content, parent.clip) : null;
      }
      laid.push(frame);
    });
    return laid.sort((a, b) => a.order - b.order);
  }

  /** The page target plus one target per out-of-process iframe (Playwright hands us their sessions). */
  private async targets(warnings: string[]): Promise<Target[]> {
    const frames = this.page.frames();
    const live = new Set(frames);
    for (const [frame, entry] of this.frameTargets) {
      if (!live.has(frame) || entry.target?.closed) {
        this.frameTargets.delete(frame);
        if (entry.target) void entry.target.detach();
      }
    }
    await Promise.all(frames.map(async (frame) => {
      if (frame === this.page.mainFrame()) return;
      const cached = this.frameTargets.get(frame);
      // A same-process frame that navigated elsewhere may have moved to its own process.
      if (cached && (cached.target || cached.url === frame.url())) return;
      let target: Target | null = null;
      try {
        target = await Target.open(await this.page.context().newCDPSession(frame), this.numbering);
      } catch (e) {
        // Same-process frames have no session of their own: they are read through their parent's target.
        if (!SAME_PROCESS.test((e as Error).message) && !frame.isDetached()) {
          warnings.push(`frame ${frame.url()} could not be attached: ${(e as Error).message.split('\n')[0]}`);
          return;
        }
      }
      this.frameTargets.set(frame, { target, url: frame.url() });
    }));
    const oopifs = [...this.frameTargets.values()].flatMap((e) => (e.target ? [e.target] : []));
    return [this.pageTarget, ...oopifs];
  }

  private async measureViewport(main: Listed): Promise<{ width: number; height: number }> {
    const s = await engineCall(main, 'snapshot', [{ viewportOnly: true }]);
    return s.viewport;
  }

  async close(): Promise<void> {
    for (const entry of this.frameTargets.values()) if (entry.target) await entry.target.detach();
    this.frameTargets.clear();
  }
}

export function frameInfo(f: LaidOutFrame): FrameInfo {
  const info: FrameInfo = {
    id: f.ordinal,
    url: f.url,
    // Sandboxed and srcdoc frames have an opaque origin, which CDP spells "://".
    origin: !f.origin || f.origin === '://' ? 'null' : f.origin,
    parentId: f.parent ? f.parent.ordinal : null,
    crossOrigin: f.parent ? f.parent.origin !== f.origin || f.origin === '://' : false,
    sandboxed: f.sandboxed,
  };
  if (f.error) info.error = f.error;
  return info;
}

/** Frees the iframe handles a layout took, in the targets that hold them. */
async function releaseLayout(layout: Layout): Promise<void> {
  const holders = new Set(layout.frames.filter((f) => f.ownerObjectId && f.parent).map((f) => f.parent!.target));
  await Promise.all([...holders].map((t) => t.release(layout.group)));
}

function depthFirst(frames: LaidOutFrame[]): LaidOutFrame[] {
  const kids = new Map<LaidOutFrame, LaidOutFrame[]>();
  for (const f of frames) if (f.parent) kids.set(f.parent, [...(kids.get(f.parent) ?? []), f]);
  const out: LaidOutFrame[] = [];
  const visit = (f: LaidOutFrame) => { out.push(f); for (const c of kids.get(f) ?? []) visit(c); };
  visit(frames[0]);
  return out;
}

/** A frame-level failure in words, keeping its cause. */
export function describeFailure(e: unknown): string {
  if (isPagelensError(e, 'NAVIGATED')) return 'navigated while being read';
  if (isPagelensError(e, 'FRAME_DETACHED')) return 'detached while being read';
  if (e instanceof PagelensError) return `${e.code}: ${e.message}`;
  return String(e instanceof Error ? e.message : e);
}
