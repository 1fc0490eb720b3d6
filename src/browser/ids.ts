// The ID ledger: which document issued each ID the lens handed out, and what the element looked
// like then. Each new document continues the numbering above every ID handed out before it (see
// LensNumbering), so an ID is never reused; the ledger is what lets the lens refuse page A's "5" on
// page B with NAVIGATED, however often it is retried, and what recovery matches a re-rendered
// element against.
import { z } from 'zod';
import { ENGINE_CALLS } from '../model/contracts/engine.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { GhostTarget } from '../model/acting/ghost.js';
import { parseGlobalId, type PageModel } from '../model/pagemodel/page.js';
import { describeIssues } from '../model/contracts/validate.js';

/**
 * The highest ID handed out in a session (as far as anyone was told of it: every ID handed out
 * passes through an IdLedger). One per lens by default; the tabs of an MCP session share one.
 */
export class IdNumbering {
  highWater = 0;
  /** What the session's lenses (its tabs) handed out: an ID one tab handed out is refused in the others. */
  readonly ledgers = new Set<{ handedOut(gid: string): boolean }>();

  /** An ID was issued or handed out: later documents number above it. */
  saw(local: number): void {
    if (Number.isSafeInteger(local) && local > this.highWater) this.highWater = local;
  }
}

const NumberingAnswer = ENGINE_CALLS.numberFrom.extend({ top: z.boolean() });

/**
 * Where each new document of one lens's page starts numbering. The first document of a frame
 * lineage (the page's top frame, each iframe) starts where the lens started (0 for the first tab
 * of a session, so a page's first read is numbered as it always was and both hosts agree); every
 * later one continues above the session's high-water mark, so an ID is never reused: one held
 * from an earlier document can never name an element of a later one.
 */
export class LensNumbering {
  /** Set by the lens's first document: the session's high-water mark then. */
  private base?: number;
  private topSeen = false;
  private readonly frames = new Set<string>();

  constructor(readonly session: IdNumbering = new IdNumbering()) {}

  /** The expression that numbers a frame's new document, run once in its isolated world. */
  claimExpression(frameId: string): string {
    const base = (this.base ??= this.session.highWater);
    const top = this.topSeen ? this.session.highWater : base;
    const frame = this.frames.has(frameId) ? this.session.highWater : base;
    return `(() => { const top = window === window.top; return { ...globalThis.__pagelens.numberFrom(top ? ${top} : ${frame}), top }; })()`;
  }

  /** The engine's answer to claimExpression (checked like every engine answer). */
  claimed(frameId: string, raw: unknown): void {
    const r = NumberingAnswer.safeParse(raw);
    if (!r.success) {
      const why = describeIssues(r.error).slice(0, 2).map((i) => `${i.path || 'answer'}: ${i.message}`).join('; ');
      throw new PagelensError('ENGINE_ERROR', `The in-page engine answered numberFrom with something it never returns (${why}); the page may have tampered with it.`);
    }
    this.frames.add(frameId);
    if (r.data.top) this.topSeen = true;
    this.session.saw(r.data.last);
  }
}

export interface Sighting extends GhostTarget {
  /** The document (engine token) that issued the ID. */
  doc: string;
  frame: number;
  /** Role and name in Chrome's accessibility vocabulary (the axtree path), not the engine's. */
  vocabulary?: 'ax';
}

// Enough for every target of a 50k-element page: an ID forgotten here still resolves in its
// document (frameDocs), but loses the check that it still shows what the caller saw.
const MAX_REMEMBERED = 60_000;
const MAX_DOCS = 200;

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class IdLedger {
  constructor(readonly numbering: LensNumbering = new LensNumbering()) {
    numbering.session.ledgers.add(this);
  }

  /** This lens is closed: its IDs are no longer another tab's. */
  close(): void {
    this.numbering.session.ledgers.delete(this);
  }

  /** Whether another lens of the session (another tab) handed out this ID and this one never did. */
  issuedElsewhere(gid: string): boolean {
    if (this.ids.has(gid)) return false;
    for (const l of this.numbering.session.ledgers) if (l !== this && l.handedOut(gid)) return true;
    return false;
  }

  /** Whether this lens handed the ID out (and still remembers it). */
  handedOut(gid: string): boolean {
    return this.ids.has(gid);
  }

  /** Global ID → its last sighting in a read handed to the caller. Map order is recency order. */
  private readonly ids = new Map<string, Sighting>();
  /** Document token → the URL it was seen at. */
  private readonly docUrls = new Map<string, string>();
  /** Frame ordinal → the document of the last read handed out. */
  private readonly frameDocs = new Map<number, string>();

  /**
   * The IDs the last handOut recorded, in order, while they are still the newest sightings in
   * that order (nothing recorded since): the same IDs handed out again then only update their
   * sightings in place, which leaves the order as moving each to the end would.
   */
  private lastRun: string[] | null = null;

  /** Records every node of a model that is handed to the caller (a snapshot, a text form). */
  handOut(model: PageModel): void {
    for (const f of model.frames) {
      const doc = model.docs[f.id];
      if (doc) this.noteFrame(f.id, doc, f.url);
    }
    const run: string[] = [];
    const sightings: Sighting[] = [];
    for (const n of model.nodes) {
      const doc = model.docs[n.frame];
      if (!doc) continue;
      run.push(n.gid);
      sightings.push({ doc, frame: n.frame, role: n.role, name: n.name, centre: [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2] });
    }
    // A warm read of a big page hands out the same IDs as the last one: 20k moves to the end of the Map are 20k no-ops then.
    if (this.lastRun && sameList(this.lastRun, run)) {
      for (let i = 0; i < run.length; i++) this.ids.set(run[i], sightings[i]);
      return;
    }
    for (let i = 0; i < run.length; i++) this.remember(run[i], sightings[i]);
    this.trim();
    this.lastRun = run.length <= MAX_REMEMBERED && new Set(run).size === run.length ? run : null;
  }

  /** Records one ID handed out outside a snapshot (a cover's dismiss button named in a refusal). */
  note(gid: string, sighting: Sighting): void {
    this.lastRun = null;
    this.remember(gid, sighting);
    this.trim();
  }

  private remember(gid: string, sighting: Sighting): void {
    const local = parseGlobalId(gid)?.local;
    if (local) this.numbering.session.saw(Number(local));
    this.ids.delete(gid); // re-inserted last: most recent
    this.ids.set(gid, sighting);
  }

  /** Forgets the oldest sightings beyond the limit (once per read: a 50k-element read is one pass, not 50k). */
  private trim(): void {
    for (const k of this.ids.keys()) { if (this.ids.size <= MAX_REMEMBERED) break; this.ids.delete(k); }
  }

  /** A read of a frame's document was handed to the caller. */
  noteFrame(frame: number, doc: string, url: string): void {
    this.frameDocs.set(frame, doc);
    this.noteDoc(doc, url);
  }

  private noteDoc(doc: string, url: string): void {
    this.docUrls.delete(doc);
    this.docUrls.set(doc, url);
    for (const k of this.docUrls.keys()) { if (this.docUrls.size <= MAX_DOCS) break; this.docUrls.delete(k); }
  }

  sighting(gid: string): Sighting | undefined {
    return this.ids.get(gid);
  }

  /**
   * The document an ID must be looked up in: the one that issued it; for an ID never handed out,
   * the document of the frame's last read (an ID the caller found in the DOM of the page it saw).
   */
  expectedDoc(gid: string, frame: number): string | undefined {
    return this.ids.get(gid)?.doc ?? this.frameDocs.get(frame);
  }

  urlOf(doc: string): string | undefined {
    return this.docUrls.get(doc);
  }
}
