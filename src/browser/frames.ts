// Every frame of a page: which CDP target renders it (the page's own, or an out-of-process
// iframe's), its stable ordinal (the "f2" of "f2_17"), and where its content sits in the
// top-level viewport. A failure to lay out a frame is kept on the frame (`error`), never dropped.
import type { Frame, Page } from 'playwright-core';
import { z } from 'zod';
import { ENGINE_CALLS, type OwnerInfo } from '../model/contracts/engine.js';
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import { intersect } from '../model/pagemodel/page.js';
import type { Box, FrameInfo } from '../model/contracts/schema.js';
import { engineCall } from './engine.js';
import { checkedAnswer } from '../model/contracts/validate.js';
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

/** Events after which a kept frame structure may be wrong: a frame came, went or got another document, or a world went. */
const STRUCTURE_EVENTS = [
  'Page.frameAttached', 'Page.frameDetached', 'Page.frameNavigated', 'Page.navigatedWithinDocument', 'Page.documentOpened',
  'Runtime.executionContextDestroyed', 'Runtime.executionContextsCleared',
];

type Owner = { objectId: string; backendNodeId: number } | { failure: string } | null;

/**
 * Which frames exist, who their parents and targets are, and handles on their iframe elements:
 * what only changes when a frame is attached, detached or navigated, or a world is replaced.
 * Kept between reads (issue 21: a warm read asks CDP only about what may have changed); the
 * geometry is not kept, it is measured again on every layout.
 */
interface Structure {
  /** The structure epoch it was listed in; any later event makes it stale. */
  epoch: number;
  /** The frames of page.frames() it was listed from. */
  pageFrames: Frame[];
  group: string;
  main: Listed;
  children: Map<string, Listed[]>;
  /** Per child frame: the handle on its iframe element (null: failed to load, nothing to measure). */
  owners: Map<string, Owner>;
  /** Layouts in use that hold its handles; released when the last one ends after it went stale. */
  users: number;
  stale: boolean;
}

export class FrameMap {
  /** Per child frame: its own target when it is out-of-process, null when it is not (as of `url`). */
  private readonly frameTargets = new Map<Frame, { target: Target | null; url: string }>();
  private readonly ordinals = new Map<string, number>();
  private nextOrdinal = 1;
  private last: LaidOutFrame[] = [];
  /** Bumped by every event that may change the frame structure (see STRUCTURE_EVENTS). */
  private epoch = 0;
  private readonly watched = new WeakSet<Target>();
  private structure?: Structure;
  /** How many times the structure was listed (tests check that a warm read does not list it again). */
  listings = 0;

  constructor(private readonly page: Page, readonly pageTarget: Target, private readonly numbering?: DocumentNumbering) {
    this.watch(pageTarget);
  }

  /** The frames of the last layout (laid out now if there was none). */
  async known(): Promise<LaidOutFrame[]> {
    if (!this.last.length) await this.withLayout(async () => undefined);
    return this.last;
  }

  /** The frame with this ordinal as of the last layout, if any. */
  lastByOrdinal(ordinal: number): LaidOutFrame | undefined {
    return this.last.find((f) => f.ordinal === ordinal);
  }

  /**
   * The frames a layout made now would list, with their targets, when the kept structure still
   * holds (nothing attached, detached or navigated since): a read can start on them before the
   * layout's geometry is measured. Undefined when the structure must be listed again.
   */
  keptFrames(): Array<{ frameId: string; target: Target; ordinal: number }> | undefined {
    const s = this.structure;
    if (!s || !this.current(s) || !sameFrames(s.pageFrames, this.page.frames())) return undefined;
    return [s.main, ...[...s.children.values()].flat()]
      .filter((f) => !f.failed && this.ordinals.has(f.frameId))
      .map((f) => ({ frameId: f.frameId, target: f.target, ordinal: this.ordinals.get(f.frameId)! }));
  }

  /**
   * For a layout to run beside reads about to be sent: one empty command to every target of the
   * kept structure, sent before them, answered once every frame event of a change made before
   * the reads has arrived (see layout()). The layout's calls then queue behind the reads in the
   * renderer instead of waiting for their answers to reach us. Undefined when no structure is kept
   * or it has no child frame: such a layout measures nothing over CDP, and the reads serve.
   */
  barrierBeforeReads(): Promise<unknown> | undefined {
    const kept = this.structure;
    return kept && this.current(kept) && kept.children.size ? syncTargets(kept) : undefined;
  }

  /** A fresh layout of every frame; iframe owner handles stay valid until `fn` returns. */
  async withLayout<T>(fn: (layout: Layout) => Promise<T>, after?: Promise<unknown>): Promise<T> {
    const { layout, structure } = await this.layout(after);
    structure.users++;
    try {
      return await fn(layout);
    } finally {
      structure.users--;
      if (structure.stale && !structure.users) await releaseStructure(structure);
    }
  }

  /** Every frame of the page in document order, with stable ordinals and top-level geometry. */
  /**
   * `after`: commands already sent to every kept frame's target (a read's engine calls). Chrome
   * sends a target's events before its answers, so once they are answered every frame event of a
   * change made before them has arrived; without them, one empty command per target does that.
   */
  private async layout(after?: Promise<unknown>): Promise<{ layout: Layout; structure: Structure }> {
    const kept = this.structure;
    if (kept && this.current(kept)) await (after ?? syncTargets(kept));
    for (let attempt = 0; ; attempt++) {
      const warnings: string[] = [];
      const structure = await this.currentStructure(warnings);
      try {
        return { layout: await this.measure(structure, warnings, attempt === 0), structure };
      } catch (e) {
        // Handles of a structure that went stale under the measure (a world replaced): list it again, once.
        if (attempt > 0 || !(e instanceof StaleStructure)) throw e;
        this.retire(structure);
      }
    }
  }

  /** The kept structure when nothing changed since it was listed, else a new one. */
  private async currentStructure(warnings: string[]): Promise<Structure> {
    const pageFrames = this.page.frames();
    const s = this.structure;
    if (s && this.current(s) && sameFrames(s.pageFrames, pageFrames)) return s;
    if (s) this.retire(s);
    const fresh = await this.listStructure(pageFrames, warnings);
    // A structure listed with a warning or an owner that could not be had is not kept: the next read tries again.
    if (!warnings.length && ![...fresh.owners.values()].some((o) => o && 'failure' in o)) this.structure = fresh;
    else fresh.stale = true;
    return fresh;
  }

  private current(s: Structure): boolean {
    return !s.stale && s.epoch === this.epoch && !s.main.target.closed && [...s.children.values()].every((kids) => kids.every((k) => !k.target.closed));
  }

  private retire(s: Structure): void {
    s.stale = true;
    if (this.structure === s) this.structure = undefined;
    if (!s.users) void releaseStructure(s);
  }

  private watch(target: Target): void {
    if (this.watched.has(target)) return;
    this.watched.add(target);
    const bump = () => { this.epoch++; };
    for (const event of STRUCTURE_EVENTS) target.cdp.on(event, bump);
    // A new document, or our world made again; other worlds (Playwright's own) change nothing here.
    target.cdp.on('Runtime.executionContextCreated', ({ context }) => { if (context.auxData?.isDefault || context.name === target.world) bump(); });
  }

  private async listStructure(pageFrames: Frame[], warnings: string[]): Promise<Structure> {
    this.listings++;
    const epoch = this.epoch;
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
    let main: Listed | undefined;
    for (const f of known.values()) {
      if (f.parentId && known.has(f.parentId)) {
        const list = children.get(f.parentId) ?? [];
        list.push(f);
        children.set(f.parentId, list);
      } else if (f.target === this.pageTarget && !f.parentId) main = f;
    }
    if (!main) throw new PagelensError('FRAME_DETACHED', 'The page has no main frame (closed or crashed).');
    const owners = new Map<string, Owner>();
    await Promise.all([...children].map(async ([parentId, kids]) => {
      const parent = known.get(parentId)!;
      await Promise.all(kids.map(async (k) => {
        // A frame whose page failed to load has nothing to read: list it, spend nothing on it.
        if (k.failed) { owners.set(k.frameId, null); return; }
        try {
          owners.set(k.frameId, await parent.target.frameOwner(k.frameId, parentId, group));
        } catch (e) {
          owners.set(k.frameId, { failure: describeFailure(e) });
        }
      }));
    }));
    return { epoch, pageFrames, group, main, children, owners, users: 0, stale: false };
  }

  /** The layout of a structure: where every frame's content stands now, and which part is visible. */
  private async measure(s: Structure, warnings: string[], mayRelist: boolean): Promise<Layout> {
    const main = s.main;
    this.ordinals.set(main.frameId, 0);
    const viewport = this.page.viewportSize() ?? await this.measureViewport(main);
    const root: LaidOutFrame = {
      ordinal: 0, frameId: main.frameId, target: this.pageTarget, parent: null, url: main.url, origin: main.origin,
      offset: [0, 0], clip: [0, 0, viewport.width, viewport.height], originInParent: [0, 0], sandboxed: false,
    };
    const out: LaidOutFrame[] = [root];
    let level: LaidOutFrame[] = [root];
    // Level by level (a child's offset needs its parent's); each level's parents are measured at once,
    // and each parent's children are ordered as their iframes stand in its document.
    while (level.length) {
      const laid = await Promise.all(level.map((parent) => {
        const kids = s.children.get(parent.frameId);
        return !kids?.length || parent.error ? [] : this.layoutChildren(parent, kids, s, mayRelist && this.structure === s);
      }));
      level = laid.flat();
      out.push(...level);
    }
    // Ordinals follow document order the first time a frame is seen and then never change.
    for (const f of depthFirst(out)) {
      let ord = this.ordinals.get(f.frameId);
      if (ord === undefined) { ord = this.nextOrdinal++; this.ordinals.set(f.frameId, ord); }
      f.ordinal = ord;
    }
    this.last = depthFirst(out);
    return { frames: this.last, group: s.group, warnings };
  }

  /** `kept`: the structure was kept from an earlier layout, so a stale handle means "list it again", not a failed frame. */
  private async layoutChildren(parent: LaidOutFrame, kids: Listed[], s: Structure, kept: boolean): Promise<LaidOutFrame[]> {
    const owners = kids.map((k) => s.owners.get(k.frameId) ?? null);
    const present = owners.flatMap((o) => (o && 'objectId' in o ? [o] : []));
    let infos: OwnerInfo[] = [];
    let infoFailure: string | undefined;
    if (present.length) {
      try {
        const measured = await measureOwners(parent, present.map((o) => o.objectId));
        // An iframe element no longer in its document: a kept structure is out of date.
        if (kept && !measured.connected.every(Boolean)) throw new StaleStructure();
        infos = measured.owners;
      } catch (e) {
        // A kept handle from a world that is gone: list the structure again rather than report the frame.
        if (e instanceof StaleStructure || (kept && isStaleHandle(e))) throw new StaleStructure();
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
        target = await Target.open(await this.page.context().newCDPSession(frame), this.numbering, this.pageTarget.world);
        this.watch(target);
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
    if (this.structure) this.retire(this.structure);
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

/** Every target a structure's frames live in. */
function structureTargets(s: Structure): Target[] {
  return [...new Set([s.main, ...[...s.children.values()].flat()].map((f) => f.target))];
}

/** One empty command to every target of a structure: answered after the events each sent before it. */
function syncTargets(s: Structure): Promise<unknown> {
  return Promise.all(structureTargets(s).map((t) => t.cdp.send('Runtime.evaluate', { expression: '0' }).catch(() => {})));
}

/** Frees the iframe handles a structure took, in the targets that hold them. */
async function releaseStructure(s: Structure): Promise<void> {
  const holders = new Set([s.main, ...[...s.children.values()].flat()].filter((f) => s.children.has(f.frameId)).map((f) => f.target));
  await Promise.all([...holders].map((t) => t.release(s.group)));
}

/** Thrown when a kept structure turns out stale while measuring: the layout lists it again. */
class StaleStructure extends Error {}

function isStaleHandle(e: unknown): boolean {
  return isPagelensError(e, 'NAVIGATED') || /Could not find object|Cannot find context|No node with given id/i.test((e as Error)?.message ?? '');
}

function sameFrames(a: Frame[], b: Frame[]): boolean {
  return a.length === b.length && a.every((f, i) => f === b[i]);
}

/** The iframe elements' boxes in their parent, and whether each is still in its document: one call. */
async function measureOwners(parent: LaidOutFrame, objectIds: string[]): Promise<{ owners: OwnerInfo[]; connected: boolean[] }> {
  const raw = await parent.target.callFunction<{ owners: unknown; connected: unknown }>(parent.frameId,
    'function (...a) { return { owners: globalThis.__pagelens.frameOwners(a), connected: a.map((el) => el.isConnected) }; }',
    objectIds.map((objectId) => ({ objectId })), true, LAYOUT_GROUP);
  return {
    owners: checkedAnswer(ENGINE_CALLS.frameOwners.length(objectIds.length), raw?.owners, 'frameOwners'),
    connected: checkedAnswer(z.array(z.boolean()).length(objectIds.length), raw?.connected, 'frameOwners'),
  };
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
