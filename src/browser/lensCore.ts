// The core of a lens: the page's targets and frames, the ID ledger, and the resolution of an ID
// to a live element in the document that issued it. Every feature (reading, acting, verifying,
// the accessibility tree) takes a core; the core knows none of them, and all per-lens state
// lives here rather than in module-level maps.
import type { Page } from 'playwright-core';
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import { parseGlobalId } from '../model/pagemodel/page.js';
import type { Cdp } from './cdp.js';
import { engineCall, engineHandle, type ElementRef } from './engine.js';
import { FrameMap, type LaidOutFrame } from './frames.js';
import { IdNumbering, releaseLedger, tabLedger, type IdLedger } from '../core/ledger.js';
import { documentNumbering } from './numbering.js';
import { NetworkWatch } from './network.js';
import { SnapshotCache } from './snapshotCache.js';
import { Target } from './target.js';

const AX_ID = /^\d+-\d+$/;
/** What DOM.resolveNode says when the backend node no longer exists. */
const NODE_GONE = /No node with given id|Could not find node|Node with given id does not belong to the document|No node found/i;

/** A live element behind an ID: a remote object in its frame's isolated world. */
export interface Resolved extends ElementRef {
  frame: LaidOutFrame;
  localId: string;
  /** The document that issued the ID (when known). */
  doc?: string;
}

/** What the last accessibility-tree read handed out: EncodedIds resolve against it. */
export interface AxIssue {
  /** EncodedId → path within its document. */
  xpathMap: Record<string, string>;
  /** Frame ordinal → the document the tree was read from. */
  docs: Map<number, string>;
}

export class LensCore {
  readonly frames: FrameMap;
  readonly ids: IdLedger;
  readonly network = new NetworkWatch();
  /** Main-frame navigations seen since attach (same-document ones included). */
  navigations = 0;
  ax: AxIssue = { xpathMap: {}, docs: new Map() };
  /** Snapshots of the exploration toolkit (issue 12): kept 30 s for answers, a while longer for diffs. */
  readonly snapshots = new SnapshotCache();

  private constructor(readonly page: Page, readonly pageTarget: Target, ids: IdLedger) {
    this.ids = ids;
    this.frames = new FrameMap(page, pageTarget, documentNumbering(ids));
    page.on('framenavigated', (f) => { if (f === page.mainFrame()) this.navigations++; });
  }

  /**
   * `session`: shared by the lenses of one session (its tabs), so no two hand out the same ID. The
   * page's ledger is the session's for its CDP target: a lens attached again to the page reads back
   * what the last one knew (core/ledger.ts); once the page closes, the session forgets it.
   */
  static async attach(page: Page, session = new IdNumbering(), world?: string): Promise<LensCore> {
    const cdp = await page.context().newCDPSession(page);
    const { targetInfo } = await cdp.send('Target.getTargetInfo') as { targetInfo: { targetId: string } };
    const ids = await tabLedger(session, targetInfo.targetId);
    page.once('close', () => { void session.forget(targetInfo.targetId); });
    return new LensCore(page, await Target.open(cdp, documentNumbering(ids), world), ids);
  }

  /** Real input goes to the page's own target, in top-level viewport coordinates. */
  get input(): Cdp {
    return this.pageTarget.cdp;
  }

  /**
   * The live element behind a global ID ("5", "f2_17") or an EncodedId ("2-311"), in the document
   * that issued it. Throws NAVIGATED when that document is gone (never resolved elsewhere),
   * UNKNOWN_ID when the element is gone from it (the caller may recover, this function never does).
   * Release the handle with `resolved.frame.target.release(group)`.
   */
  async resolve(gid: string, group: string, opts: { doc?: string } = {}): Promise<Resolved> {
    const id = gid.trim();
    if (AX_ID.test(id)) return this.resolveAxId(id, group);
    if (!parseGlobalId(id)) throw new PagelensError('BAD_INPUT', `"${gid}" is not an element ID (expected "12" or "f1_12" from a snapshot, or "0-311" from the axtree).`);
    // The ledger's rules (core/ledger.ts): another tab's ID is refused; the issuing document, else the
    // frame's last one. Without either, only this host's own numbering guards: every document it
    // touches is numbered before anything reads it, so the engine refuses an earlier document's ID.
    const parsed = opts.doc ? { ...parseGlobalId(id)!, doc: opts.doc } : this.ids.admit(id, this.page.url());
    const frame = await this.frameFor(parsed.frame, id);
    const expected = parsed.doc;
    const r = await engineHandle(frame, 'lookupIn', [expected ?? null, parsed.local], group);
    if ('objectId' in r) return { frame, localId: parsed.local, objectId: r.objectId, ...(expected && { doc: expected }) };
    if (typeof r.value === 'string') {
      // The engine names its own document when the ID was numbered before it began: an earlier
      // document issued it, though the ledger no longer says which (forgotten, or never handed out).
      if (!expected || r.value === expected) {
        throw new PagelensError('NAVIGATED', `Element ${id} belongs to a document that is gone: it was issued before ${frame.ordinal === 0 ? 'the page' : `frame ${frame.ordinal}`} loaded its current document; take a new snapshot.`,
          { id, to: frame.ordinal === 0 ? this.page.url() : frame.url, current: r.value });
      }
      throw await this.navigatedError(id, frame, expected, r.value);
    }
    if (r.value !== null) throw new PagelensError('ENGINE_ERROR', `The in-page engine answered the lookup of ${id} with ${JSON.stringify(r.value)}; the page may have tampered with it.`);
    throw new PagelensError('UNKNOWN_ID', `Element ${id} is no longer on the page (removed or re-rendered). Take a new snapshot.`);
  }

  /** The frame with this ordinal, laid out afresh when the last layout's entry is gone or stale. */
  private async frameFor(ordinal: number, gid: string): Promise<LaidOutFrame> {
    let frame = this.frames.lastByOrdinal(ordinal);
    if (!frame || frame.error || frame.target.closed) {
      frame = await this.frames.withLayout(async ({ frames }) => frames.find((f) => f.ordinal === ordinal));
    }
    if (!frame) throw new PagelensError('UNKNOWN_ID', `Element ${gid} was in frame ${ordinal}, which is no longer on the page. Take a new snapshot.`);
    if (frame.error) throw new PagelensError('UNKNOWN_ID', `Element ${gid} is in frame ${ordinal}, which cannot be read (${frame.error}). Take a new snapshot.`);
    return frame;
  }

  private async navigatedError(gid: string, frame: LaidOutFrame, issuedBy: string, nowDoc: string): Promise<PagelensError> {
    const before = this.ids.urlOf(issuedBy) ?? 'an earlier page';
    // The last layout may predate the navigation: ask for the frame's address now.
    const now = frame.ordinal === 0 ? this.page.url()
      : (await this.frames.withLayout(async ({ frames }) => frames.find((f) => f.ordinal === frame.ordinal)?.url).catch(() => undefined)) ?? frame.url;
    const where = frame.ordinal === 0 ? 'the page' : `frame ${frame.ordinal}`;
    const change = before === now ? `from ${before} to a new document at the same address (reloaded)` : `from ${before} to ${now}`;
    return new PagelensError('NAVIGATED', `Element ${gid} belongs to a document that is gone: ${where} changed ${change}; take a new snapshot.`,
      { id: gid, from: before, to: now, issuedBy, current: nowDoc });
  }

  /**
   * An EncodedId from the axtree path: by its path in the XPath map (which survives a re-render
   * that keeps the structure), else by its backend node ID while that node lives; in the
   * document the tree was read from, and nowhere else.
   */
  private async resolveAxId(axId: string, group: string): Promise<Resolved> {
    const [ordinal, backend] = axId.split('-').map(Number);
    const frame = await this.frameFor(ordinal, axId);
    const issuedBy = this.ax.docs.get(ordinal);
    if (!issuedBy) throw new PagelensError('UNKNOWN_ID', `${axId} is from no accessibility tree this lens read. Take a new axtree snapshot.`);
    const now = (await engineCall(frame, 'domActivity')).doc;
    if (now !== issuedBy) throw await this.navigatedError(axId, frame, issuedBy, now);
    const path = this.ax.xpathMap[axId];
    if (path) {
      const local = path.slice(path.lastIndexOf('/#document') >= 0 ? path.lastIndexOf('/#document') + '/#document'.length : 0);
      const r = await engineHandle(frame, 'resolvePath', [local], group);
      if ('objectId' in r) return { frame, localId: axId, objectId: r.objectId, doc: issuedBy };
    }
    try {
      return { frame, localId: axId, objectId: await frame.target.resolveBackendNode(backend, frame.frameId, group), doc: issuedBy };
    } catch (e) {
      // Only Chrome's own "no such node" means the element is gone; any other failure (a timeout,
      // a closed session, an internal error) says nothing about it and stays an error.
      if (!isPagelensError(e, 'CDP_ERROR') || !NODE_GONE.test(e.message)) throw e;
      throw new PagelensError('UNKNOWN_ID', `Element ${axId} no longer resolves${path ? ` (path ${path} matches nothing)` : ''}. Take a new axtree snapshot.`);
    }
  }

  async close(): Promise<void> {
    await releaseLedger(this.ids);
    await this.frames.close();
    await this.pageTarget.detach();
  }
}
