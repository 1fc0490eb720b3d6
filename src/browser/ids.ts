// The ID ledger: which document issued each ID the lens handed out, and what the element looked
// like then. Documents number their elements from 1, so "5" on page A and "5" on page B are
// different elements; the ledger is what lets the lens refuse A's "5" on B, however often it is
// retried, and what recovery matches a re-rendered element against.
import type { GhostTarget } from '../model/ghost.js';
import type { PageModel } from '../model/page.js';

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

export class IdLedger {
  /** Global ID → its last sighting in a read handed to the caller. Map order is recency order. */
  private readonly ids = new Map<string, Sighting>();
  /** Document token → the URL it was seen at. */
  private readonly docUrls = new Map<string, string>();
  /** Frame ordinal → the document of the last read handed out. */
  private readonly frameDocs = new Map<number, string>();

  /** Records every node of a model that is handed to the caller (a snapshot, a text form). */
  handOut(model: PageModel): void {
    for (const f of model.frames) {
      const doc = model.docs[f.id];
      if (doc) this.noteFrame(f.id, doc, f.url);
    }
    for (const n of model.nodes) {
      const doc = model.docs[n.frame];
      if (doc) this.remember(n.gid, { doc, frame: n.frame, role: n.role, name: n.name, centre: [n.box[0] + n.box[2] / 2, n.box[1] + n.box[3] / 2] });
    }
    this.trim();
  }

  /** Records one ID handed out outside a snapshot (a cover's dismiss button named in a refusal). */
  note(gid: string, sighting: Sighting): void {
    this.remember(gid, sighting);
    this.trim();
  }

  private remember(gid: string, sighting: Sighting): void {
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
