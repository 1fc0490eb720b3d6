// The Node-side face of the engine for one page: finds every frame (same-process and
// out-of-process), runs the engine in each, and places the results in one page model.
import type { Frame, Page } from 'playwright-core';
import { PagelensError } from '../model/errors.js';
import { composePage, intersect, parseGlobalId, type OwnerInfo, type PageModel, type PlacedFrame } from '../model/page.js';
import { renderSemantic, renderText, renderV3 } from '../model/render.js';
import { SnapshotOptions, type Box, type FrameInfo, type FrameSnapshot, type SemanticResult, type SemanticV3Result, type SnapshotOptionsInput } from '../model/schema.js';
import { countTokens } from '../model/tokens.js';
import { axToSemanticNodes, renderAxOutline, walkAx, type AxTreeResult } from '../model/axtree.js';
import { readAxTree } from './axtree.js';
import { Target, type TargetFrame } from './target.js';
import type { Action } from '../model/actions.js';
import type { ActionResult, ExpectedOutcome, MutationEvent, MutationSummary, VerificationResult } from '../model/outcome.js';
import { summarize } from '../model/outcome.js';
import { performAction, type ActOptions } from './actions.js';
import { recentEvents, renderEvents } from './events.js';
import { rememberModel } from './recovery.js';
import { waitForDomStability, type StabilityOptionsInput, type StabilityResult } from './stability.js';
import { capturePreActionState, defaultOutcome, verifyOutcome, type PreActionState } from './verify.js';

const AX_ID = /^\d+-\d+$/;

/** A frame as laid out for one snapshot. */
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
  error?: string;
  /** Execution context of the document the last snapshot read: IDs belong to that document. */
  seenContext?: number;
}

const LAYOUT_GROUP = 'pagelens-layout';

export class Lens {
  /** Per child frame: its own target when it is out-of-process, null when it is not (as of `url`). */
  private readonly frameTargets = new Map<Frame, { target: Target | null; url: string }>();
  private readonly ordinals = new Map<string, number>();
  private nextOrdinal = 1;
  /** The layout of the last snapshot: how global IDs map to frames. */
  private lastLayout: LaidOutFrame[] = [];
  private mainFrameId?: string;
  /** EncodedId → path, from the last axtree read. */
  private lastXpathMap: Record<string, string> = {};

  private constructor(readonly page: Page, private readonly pageTarget: Target) {}

  static async attach(page: Page): Promise<Lens> {
    const session = await page.context().newCDPSession(page);
    return new Lens(page, await Target.open(session));
  }

  /** The snapshot payload in the requested mode. */
  async snapshot(options: SnapshotOptionsInput & { mode: 'semantic' }): Promise<SemanticResult>;
  async snapshot(options?: SnapshotOptionsInput & { mode?: 'semantic_v3' }): Promise<SemanticV3Result>;
  async snapshot(options?: SnapshotOptionsInput): Promise<SemanticV3Result | SemanticResult>;
  async snapshot(options: SnapshotOptionsInput = {}): Promise<SemanticV3Result | SemanticResult> {
    const opts = SnapshotOptions.parse(options);
    const model = await this.model({ fullPage: opts.fullPage });
    const result = opts.mode === 'semantic' ? renderSemantic(model) : renderV3(model, { boxes: opts.boxes });
    const events = await this.recentEvents();
    if (events.length) result.recent_events = renderEvents(events);
    result.meta.estimatedTokens = await countTokens(JSON.stringify(result));
    return result;
  }

  /**
   * The accessibility-tree path: Chrome's AX tree of every frame in one tree, as semantic nodes
   * and as an outline. Nodes the tagger stamped carry their data-llm-id, so either ID works.
   */
  async axtree(): Promise<AxTreeResult> {
    const t0 = performance.now();
    const layout = await this.layout();
    try {
      const read = await readAxTree(layout);
      const mainFailure = read.failures.get(layout[0]);
      if (mainFailure) throw new PagelensError('CDP_ERROR', `Could not read the accessibility tree of the page: ${mainFailure}`);
      for (const [f, reason] of read.failures) f.error ??= reason;
      this.lastXpathMap = read.xpathMap;
      const outline = renderAxOutline(read.roots);
      const nodes = axToSemanticNodes(read.roots);
      let kept = 0;
      for (const _ of walkAx(read.roots)) kept++;
      const root = read.roots[0];
      const result: AxTreeResult = {
        mode: 'axtree',
        url: layout[0].url,
        title: root?.role === 'RootWebArea' ? root.name : '',
        nodes,
        outline,
        xpathMap: read.xpathMap,
        frames: layout.map(frameInfo),
        meta: {
          axNodes: read.axNodes,
          keptNodes: kept,
          interactiveNodes: nodes.length,
          taggedInteractive: nodes.filter((n) => n.id !== n.axId).length,
          extractionTimeMs: Math.round((performance.now() - t0) * 10) / 10,
          estimatedTokens: await countTokens(outline),
        },
      };
      return result;
    } finally {
      await releaseLayout(layout);
    }
  }

  /** The compact text form of the same model. */
  async text(options: { fullPage?: boolean } = {}): Promise<string> {
    return renderText(await this.model(options));
  }

  /** The page model behind every renderer; retried once when the page navigates under us. */
  async model(options: { fullPage?: boolean } = {}): Promise<PageModel> {
    try {
      return await this.readModel(!options.fullPage);
    } catch (e) {
      if (!(e instanceof PagelensError) || e.code !== 'NAVIGATED') throw e;
      await this.page.waitForLoadState('domcontentloaded', { timeout: 5000 }).catch(() => {});
      return await this.readModel(!options.fullPage);
    }
  }

  private async readModel(viewportOnly: boolean): Promise<PageModel> {
    const t0 = performance.now();
    // The main frame's read does not depend on the frame layout: run both at once.
    const mainId = this.mainFrameId;
    const early = mainId === undefined ? undefined
      : this.pageTarget.callEngine<FrameSnapshot>(mainId, 'snapshot', [{ viewportOnly }]).then((value) => ({ value }), (error: unknown) => ({ error }));
    const layout = await this.layout();
    try {
      const reads = await Promise.all(layout.map(async (f) => {
        if (f.error) return null;
        try {
          if (f.ordinal === 0 && early && f.frameId === mainId) {
            const r = await early;
            if ('error' in r) throw r.error;
            return r.value;
          }
          return await f.target.callEngine<FrameSnapshot>(f.frameId, 'snapshot', [{ viewportOnly }]);
        } catch (e) {
          if (f.ordinal === 0) throw e;
          f.error = describeFailure(e);
          return null;
        }
      }));
      layout.forEach((f, i) => { if (reads[i]) f.seenContext = f.target.currentContext(f.frameId); });
      const main = reads[0];
      if (!main) throw new PagelensError('ENGINE_ERROR', 'The main frame returned nothing');
      const placed: PlacedFrame[] = [];
      layout.forEach((f, i) => {
        const s = reads[i];
        if (s) placed.push({ ordinal: f.ordinal, snapshot: s, offset: f.offset, clip: f.clip });
      });
      await this.markOccludedByParents(layout, placed);
      const model = composePage(main, placed, layout.map(frameInfo), viewportOnly, 0);
      model.timeMs = Math.round((performance.now() - t0) * 10) / 10;
      rememberModel(this, model);
      return model;
    } finally {
      await releaseLayout(layout);
    }
  }

  /** Every frame of the page in document order, with stable ordinals and top-level geometry. */
  private async layout(): Promise<LaidOutFrame[]> {
    const targets = await this.targets();
    const known = new Map<string, TargetFrame & { target: Target }>();
    for (const target of targets) {
      let frames: TargetFrame[];
      try {
        frames = await target.frames();
      } catch (e) {
        if (target === this.pageTarget) throw e;
        continue; // an OOPIF that went away since page.frames() listed it
      }
      // An out-of-process frame is owned by its own target, whatever its parent's tree says.
      frames.forEach((f, i) => { if (i === 0 || !known.has(f.frameId)) known.set(f.frameId, { ...f, target }); });
    }
    const children = new Map<string, Array<TargetFrame & { target: Target }>>();
    let mainFrame: (TargetFrame & { target: Target }) | undefined;
    for (const f of known.values()) {
      if (f.parentId && known.has(f.parentId)) {
        const list = children.get(f.parentId) ?? [];
        list.push(f);
        children.set(f.parentId, list);
      } else if (f.target === this.pageTarget && !f.parentId) mainFrame = f;
    }
    if (!mainFrame) throw new PagelensError('FRAME_DETACHED', 'The page has no main frame (closed or crashed).');
    this.ordinals.set(mainFrame.frameId, 0);
    this.mainFrameId = mainFrame.frameId;
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
      const laid = await this.layoutChildren(parent, kids);
      out.push(...laid);
      queue.push(...laid);
    }
    // Ordinals follow document order the first time a frame is seen and then never change.
    for (const f of depthFirst(out)) {
      let ord = this.ordinals.get(f.frameId);
      if (ord === undefined) { ord = this.nextOrdinal++; this.ordinals.set(f.frameId, ord); }
      f.ordinal = ord;
    }
    const ordered = depthFirst(out);
    // IDs handed out by a snapshot stay bound to the document that snapshot saw.
    for (const f of ordered) f.seenContext = this.lastLayout.find((old) => old.frameId === f.frameId)?.seenContext;
    this.lastLayout = ordered;
    return ordered;
  }

  private async layoutChildren(parent: LaidOutFrame, kids: Array<TargetFrame & { target: Target }>): Promise<LaidOutFrame[]> {
    // A frame whose page failed to load has nothing to read: list it, spend nothing on it.
    const owners = await Promise.all(kids.map((k) => k.failed ? null : parent.target.frameOwner(k.frameId, parent.frameId, LAYOUT_GROUP).catch(() => null)));
    const present = owners.filter((o) => o !== null).map((o) => o.objectId);
    let infos: OwnerInfo[] = [];
    if (present.length) {
      infos = await parent.target.callFunction<OwnerInfo[]>(parent.frameId,
        'function (...owners) { return globalThis.__pagelens.frameOwners(owners); }',
        present.map((objectId) => ({ objectId })), true, LAYOUT_GROUP);
    }
    const laid: Array<LaidOutFrame & { order: number }> = [];
    let j = 0;
    kids.forEach((k, i) => {
      const owner = owners[i];
      const info = owner ? infos[j++] : undefined;
      const frame: LaidOutFrame & { order: number } = {
        ordinal: -1, frameId: k.frameId, target: k.target, parent, url: k.url, origin: k.origin,
        offset: parent.offset, clip: null, originInParent: [0, 0], sandboxed: info?.sandboxed ?? false,
        order: info?.order ?? Number.MAX_SAFE_INTEGER,
      };
      if (k.failed) {
        frame.error = 'failed to load (blocked or unreachable)';
      } else if (!info || !owner) {
        frame.error = 'detached: its iframe element is gone';
      } else {
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

  /**
   * A node inside an iframe is hidden when something in an ancestor frame covers the iframe at
   * that point (a modal over an embedded widget): ask each ancestor in turn.
   */
  private async markOccludedByParents(layout: LaidOutFrame[], placed: PlacedFrame[]): Promise<void> {
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
          hits = await frame.parent.target.callFunction<boolean[]>(frame.parent.frameId,
            'function (owner, points) { return globalThis.__pagelens.ownerHits(owner, points); }',
            [{ objectId: frame.ownerObjectId }, { value: points }], true, LAYOUT_GROUP);
        } catch {
          return;
        }
        const keep: number[] = [];
        hits.forEach((hit, i) => { if (hit) keep.push(i); else candidates[i].occ = true; });
        candidates = keep.map((i) => candidates[i]);
        points = keep.map((i) => points[i]);
        frame = frame.parent;
      }
    }));
  }

  /** The page target plus one target per out-of-process iframe (Playwright hands us their sessions). */
  private async targets(): Promise<Target[]> {
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
        target = await Target.open(await this.page.context().newCDPSession(frame));
      } catch {
        // Same-process frame: it has no session of its own and is read through its parent's target.
      }
      this.frameTargets.set(frame, { target, url: frame.url() });
    }));
    const oopifs = [...this.frameTargets.values()].flatMap((e) => (e.target ? [e.target] : []));
    return [this.pageTarget, ...oopifs];
  }

  private async measureViewport(main: TargetFrame & { target: Target }): Promise<{ width: number; height: number }> {
    const s = await main.target.callEngine<{ viewport: { width: number; height: number } }>(main.frameId, 'snapshot', [{ viewportOnly: true }]);
    return s.viewport;
  }

  /**
   * Maps a global ID ("5", "f2_17") to the frame that owns it, as of the last snapshot.
   * The base for actions: the element itself is looked up by the frame's engine.
   */
  frameOf(gid: string): { frame: LaidOutFrame; localId: string } {
    const parsed = parseGlobalId(gid);
    if (!parsed) throw new PagelensError('BAD_INPUT', `"${gid}" is not an element ID (expected "12" or "f1_12").`);
    const frame = this.lastLayout.find((f) => f.ordinal === parsed.frame);
    if (!frame || frame.error) {
      throw new PagelensError('UNKNOWN_ID', `No frame ${parsed.frame} in the last snapshot${frame?.error ? ` (${frame.error})` : ''}. Take a new snapshot.`);
    }
    if (frame.seenContext !== undefined && frame.target.currentContext(frame.frameId) !== frame.seenContext) {
      // A new document numbers its elements from 1 again: an old ID would name a stranger.
      throw new PagelensError('UNKNOWN_ID', `Element ${gid} belonged to a page that has since navigated${frame.ordinal ? ` (frame ${frame.ordinal})` : ''}. Take a new snapshot.`);
    }
    return { frame, localId: parsed.local };
  }

  /**
   * The live element behind a global ID, as a remote object in its frame's isolated world
   * (object group `objectGroup`, release it with frame.target.release). Throws UNKNOWN_ID when
   * the element is gone: callers decide whether to recover, never this function.
   */
  async resolve(gid: string, objectGroup = 'pagelens-resolve'): Promise<{ frame: LaidOutFrame; localId: string; objectId: string }> {
    if (!this.lastLayout.length) await this.layout();
    if (AX_ID.test(gid.trim())) return this.resolveAxId(gid.trim(), objectGroup);
    const { frame, localId } = this.frameOf(gid);
    const handle = await frame.target.callFunction<{ objectId?: string; subtype?: string }>(frame.frameId,
      'function (id) { return globalThis.__pagelens.lookup(id); }', [{ value: localId }], false, objectGroup);
    if (!handle.objectId || handle.subtype === 'null') {
      throw new PagelensError('UNKNOWN_ID', `Element ${gid} is no longer on the page (removed or re-rendered). Take a new snapshot.`);
    }
    return { frame, localId, objectId: handle.objectId };
  }

  /**
   * An EncodedId from the axtree path: by its path in the XPath map (which survives a re-render
   * that keeps the structure), else by its backend node ID while that node lives.
   */
  private async resolveAxId(axId: string, objectGroup: string): Promise<{ frame: LaidOutFrame; localId: string; objectId: string }> {
    const [ordinal, backend] = axId.split('-').map(Number);
    const frame = this.lastLayout.find((f) => f.ordinal === ordinal && !f.error);
    if (!frame) throw new PagelensError('UNKNOWN_ID', `No frame ${ordinal} for ${axId} in the last snapshot. Take a new axtree snapshot.`);
    const path = this.lastXpathMap[axId];
    if (path) {
      const local = path.slice(path.lastIndexOf('/#document') >= 0 ? path.lastIndexOf('/#document') + '/#document'.length : 0);
      const handle = await frame.target.callFunction<{ objectId?: string; subtype?: string }>(frame.frameId,
        'function (p) { return globalThis.__pagelens.resolvePath(p); }', [{ value: local }], false, objectGroup);
      if (handle.objectId && handle.subtype !== 'null') return { frame, localId: axId, objectId: handle.objectId };
    }
    try {
      return { frame, localId: axId, objectId: await frame.target.resolveBackendNode(backend, frame.frameId, objectGroup) };
    } catch {
      throw new PagelensError('UNKNOWN_ID', `Element ${axId} no longer resolves${path ? ` (path ${path} matches nothing)` : ''}. Take a new axtree snapshot.`);
    }
  }

  async close(): Promise<void> {
    for (const entry of this.frameTargets.values()) if (entry.target) await entry.target.detach();
    await this.pageTarget.detach();
  }

  // ---- Acting on the page (src/browser/actions.ts, stability.ts, verify.ts, events.ts) ----

  /** Runs an action ("click(12)" or a typed Action) with self-healing and optional verification. */
  act(action: string | Action, options: ActOptions = {}): Promise<ActionResult> {
    return performAction(this, action, options);
  }

  /** Resolves once the DOM of every frame has been quiet and the network idle, or at the timeout. */
  waitForDomStability(options: StabilityOptionsInput = {}): Promise<StabilityResult> {
    return waitForDomStability(this, options);
  }

  /** The last meaningful changes across frames, from the in-page mutation logs, oldest first. */
  recentEvents(limit = 10): Promise<MutationEvent[]> {
    return recentEvents(this, limit);
  }

  async mutationSummary(): Promise<MutationSummary> {
    return summarize(await recentEvents(this, 100));
  }

  private lastPreAction?: { state: PreActionState; id?: string };

  /** Before an action: what verifyOutcome/quickVerify will compare against. */
  async capturePreActionState(expected?: ExpectedOutcome, id?: string): Promise<PreActionState> {
    const state = await capturePreActionState(this, expected, id);
    this.lastPreAction = { state, id };
    return state;
  }

  async verifyOutcome(expected: ExpectedOutcome, pre?: PreActionState, id?: string): Promise<VerificationResult> {
    const base = pre ?? this.lastPreAction?.state;
    if (!base) throw new PagelensError('BAD_INPUT', 'Call capturePreActionState() before the action.');
    return verifyOutcome(this, base, expected, id ?? this.lastPreAction?.id);
  }

  /** verifyOutcome with defaults: a click changes something, setValue the value, navigate the URL. */
  quickVerify(kind: 'click' | 'setValue' | 'navigate', id?: string): Promise<VerificationResult> {
    return this.verifyOutcome(defaultOutcome(kind, id), undefined, id);
  }

  /** The page's own target: real input goes here, in top-level viewport coordinates. */
  get pageInput(): Target {
    return this.pageTarget;
  }

  /** The frames of the last snapshot (laid out now if there was none). */
  async knownFrames(): Promise<LaidOutFrame[]> {
    if (!this.lastLayout.length) await this.withLayout(async () => undefined);
    return this.lastLayout;
  }

  /** A fresh layout of every frame; iframe owner handles stay valid until `fn` returns. */
  async withLayout<T>(fn: (frames: LaidOutFrame[]) => Promise<T>): Promise<T> {
    const layout = await this.layout();
    try {
      return await fn(layout);
    } finally {
      await releaseLayout(layout);
    }
  }
}

function frameInfo(f: LaidOutFrame): FrameInfo {
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
async function releaseLayout(layout: LaidOutFrame[]): Promise<void> {
  const holders = new Set(layout.filter((f) => f.ownerObjectId && f.parent).map((f) => f.parent!.target));
  await Promise.all([...holders].map((t) => t.release(LAYOUT_GROUP)));
}

function depthFirst(frames: LaidOutFrame[]): LaidOutFrame[] {
  const kids = new Map<LaidOutFrame, LaidOutFrame[]>();
  for (const f of frames) if (f.parent) kids.set(f.parent, [...(kids.get(f.parent) ?? []), f]);
  const out: LaidOutFrame[] = [];
  const visit = (f: LaidOutFrame) => { out.push(f); for (const c of kids.get(f) ?? []) visit(c); };
  visit(frames[0]);
  return out;
}

function describeFailure(e: unknown): string {
  if (e instanceof PagelensError) {
    if (e.code === 'NAVIGATED') return 'navigated while being read';
    if (e.code === 'FRAME_DETACHED') return 'detached while being read';
    return e.message;
  }
  return String(e);
}

/** Attaches pagelens to a Playwright page. */
export function attach(page: Page): Promise<Lens> {
  return Lens.attach(page);
}
