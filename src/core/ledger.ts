// The ID ledger, written once for both hosts (issue 44): how each new document numbers its IDs,
// which document issued each ID handed out, and what the element looked like then. The rule it
// keeps: an ID minted in one document is refused in every later one, on every face and host, and
// a refusal never re-binds old IDs. It holds because
//   1. numbering: the first document of a frame lineage (the tab's top frame, each iframe) starts
//      where the tab started (0 for the first tab of a session, so a page's first read is numbered
//      as it always was); every later document of a lineage starts above the session's high-water
//      mark, which counts every ID any tab issued in a read or handed out by any other way (a
//      search's text block, a cover's control, a recovered element): an ID is never issued again;
//   2. binding: an ID is looked up in the document that issued it (its sighting), else in the
//      frame's last document handed out, and nowhere else (the engine refuses any other, and any ID
//      numbered before its own document began);
//   3. tabs: an ID that another tab of the session handed out, and this one never did, is refused;
//   4. restart: the ledger's state is kept in a storage the host hands in (chrome.storage.session
//      in the extension, so that a stopped service worker comes back knowing it; memory on the CDP
//      host, so that a lens attached again to the same page does), and is read back before use.
// Nothing here talks to a page: each host numbers its documents and resolves IDs over its own
// transport (src/browser/lensCore.ts and target.ts, extension/src/target.ts and snapshot.ts), asking
// the ledger what to do.
import { PagelensError } from '../model/contracts/errors.js';
import type { LostElement } from '../model/acting/recover.js';
import { parseGlobalId, type PageModel } from '../model/pagemodel/page.js';

/** What was seen of an element when an ID was handed out. */
export interface Sighting extends LostElement {
  /** Role and name in Chrome's accessibility vocabulary (the axtree path), not the engine's. */
  vocabulary?: 'ax';
}

/**
 * Where ledgers keep their state between lives of the host: a key-value store of JSON values.
 * The host decides when to save (see IdLedger.save).
 */
export interface LedgerStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
}

/** A storage in this process's memory: what the CDP host uses (a lens attached again reads it back). */
export function memoryStorage(): LedgerStorage {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => { values.set(key, value); },
    remove: async (key) => { values.delete(key); },
  };
}

const SESSION_KEY = 'pagelens.ids';
const ledgerKey = (key: string) => `pagelens.ids.${key}`;

interface SavedSession { highWater: number; tabs: string[] }
interface SavedLedger {
  base?: number;
  topSeen: boolean;
  lineages: string[];
  /** The sightings as one JSON text: a structured store copies a value entry by entry (a 20k-element page's took 250 ms at every read; one string takes 30 ms). */
  sightings: string;
  docUrls: Array<[string, string]>;
  frameDocs: Array<[number, string]>;
}

/**
 * A session's numbering and its tabs' ledgers. One per lens by default; the tabs of an MCP session
 * share one, and so do all tabs of the extension's service worker. `storage`: where the tabs'
 * ledgers are kept between lives of the host (memory by default).
 */
export class IdNumbering {
  /** The highest ID handed out or issued in the session (as far as any ledger was told). */
  highWater = 0;

  constructor(readonly storage: LedgerStorage = memoryStorage()) {
    tabsOf.set(this, { live: new Map() });
  }

  /** An ID was issued or handed out: later documents number above it. */
  saw(local: number): void {
    if (Number.isSafeInteger(local) && local > this.highWater) this.highWater = local;
  }

  /**
   * Reads back, once, what the session's storage kept: the high-water mark and every tab's ledger,
   * so that an ID another tab handed out before a restart is still refused here.
   */
  restore(): Promise<void> {
    const tabs = tabsOf.get(this)!;
    tabs.restoring ??= (async () => {
      const saved = await this.storage.get(SESSION_KEY).catch(() => undefined) as Partial<SavedSession> | undefined;
      this.saw(saved?.highWater ?? 0);
      for (const key of Array.isArray(saved?.tabs) ? saved.tabs : []) {
        if (typeof key !== 'string' || tabs.live.has(key)) continue;
        const state = await this.storage.get(ledgerKey(key)).catch(() => undefined);
        if (state !== undefined) tabs.live.set(key, { ledger: new IdLedger(this, key, state), holders: 0 });
      }
    })();
    return tabs.restoring;
  }

  /** The tab is gone for good (closed): its ledger leaves the session and its storage. */
  async forget(key: string): Promise<void> {
    await this.restore();
    tabsOf.get(this)!.live.delete(key);
    await this.storage.remove(ledgerKey(key)).catch(() => {});
    await saveSession(this);
  }
}

/** What a session holds that is not its public face: its tabs' ledgers, by key, with how many holders each has. */
interface SessionTabs { live: Map<string, { ledger: IdLedger; holders: number }>; restoring?: Promise<void> }
const tabsOf = new WeakMap<IdNumbering, SessionTabs>();

/**
 * The ledger of one tab of `session`: the one in use, else the one the storage kept (a restarted
 * service worker, a lens attached again to its page), else a new one. Each call is a holder:
 * releaseLedger() when done.
 */
export async function tabLedger(session: IdNumbering, key: string): Promise<IdLedger> {
  await session.restore();
  const { live } = tabsOf.get(session)!;
  let entry = live.get(key);
  if (!entry) {
    entry = { ledger: new IdLedger(session, key, await session.storage.get(ledgerKey(key)).catch(() => undefined)), holders: 0 };
    live.set(key, entry);
  }
  entry.holders++;
  return entry.ledger;
}

/** A holder is done with the ledger: the last one saves it and takes it out of the session's tabs (its IDs are no longer another tab's). */
export async function releaseLedger(ledger: IdLedger): Promise<void> {
  const { live } = tabsOf.get(ledger.session)!;
  const entry = live.get(ledger.key);
  if (!entry || entry.ledger !== ledger) return;
  if (--entry.holders > 0) return;
  live.delete(ledger.key);
  await ledger.save();
}

/** The ledgers of the session's other tabs. */
function othersOf(ledger: IdLedger): IdLedger[] {
  return [...tabsOf.get(ledger.session)!.live.values()].map((e) => e.ledger).filter((l) => l !== ledger);
}

async function saveSession(session: IdNumbering): Promise<void> {
  await session.storage.set(SESSION_KEY, { highWater: session.highWater, tabs: [...tabsOf.get(session)!.live.keys()] } satisfies SavedSession).catch(() => {});
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

function sightingsFrom(text: unknown): Map<string, Sighting> {
  try {
    const entries: unknown = typeof text === 'string' ? JSON.parse(text) : [];
    return new Map(Array.isArray(entries) ? entries as Array<[string, Sighting]> : []);
  } catch {
    return new Map(); // our own text; anything unreadable is no sighting
  }
}

/** One tab's ledger (see the module comment for its rules). */
export class IdLedger {
  /** Where this tab's first document of each lineage starts: the session's high-water mark when the tab numbered its first document. */
  private base?: number;
  private topSeen = false;
  /** Frame lineages (the host's stable name for a frame) that have numbered a document. */
  private readonly lineages = new Set<string>();
  /** Global ID → its last sighting in a read handed to the caller. Map order is recency order. */
  private readonly ids: Map<string, Sighting>;
  /** Document token → the URL it was seen at. */
  private readonly docUrls: Map<string, string>;
  /** Frame ordinal → the document of the last read handed out. */
  private readonly frameDocs: Map<number, string>;
  /**
   * The IDs the last handOut recorded, in order, while they are still the newest sightings in
   * that order (nothing recorded since): the same IDs handed out again then only update their
   * sightings in place, which leaves the order as moving each to the end would.
   */
  private lastRun: string[] | null = null;

  /** `saved`: what save() stored for this key, read back. */
  constructor(readonly session: IdNumbering, readonly key: string, saved?: unknown) {
    const s = (saved ?? {}) as Partial<SavedLedger>;
    if (typeof s.base === 'number') this.base = s.base;
    this.topSeen = s.topSeen === true;
    for (const l of Array.isArray(s.lineages) ? s.lineages : []) this.lineages.add(String(l));
    this.ids = sightingsFrom(s.sightings);
    this.docUrls = new Map(Array.isArray(s.docUrls) ? s.docUrls : []);
    this.frameDocs = new Map(Array.isArray(s.frameDocs) ? s.frameDocs : []);
    for (const gid of this.ids.keys()) this.sawId(gid);
  }

  // ---- numbering ----

  /** Where a new document of `lineage` starts numbering (`top`: the tab's top document). */
  start(lineage: string, top: boolean): number {
    const base = (this.base ??= this.session.highWater);
    const seen = top ? this.topSeen : this.lineages.has(lineage);
    return seen ? this.session.highWater : base;
  }

  /** A document of `lineage` numbered itself and has issued IDs up to `last`. */
  claimed(lineage: string, top: boolean, last: number): void {
    this.base ??= this.session.highWater;
    this.lineages.add(lineage);
    if (top) this.topSeen = true;
    this.session.saw(last);
  }

  // ---- handing out ----

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

  /** Records one ID handed out outside a snapshot (a search's text block, a cover's control, a recovered element). */
  note(gid: string, sighting: Sighting): void {
    this.lastRun = null;
    this.remember(gid, sighting);
    this.trim();
  }

  /** A read of a frame's document was handed to the caller. */
  noteFrame(frame: number, doc: string, url: string): void {
    this.frameDocs.set(frame, doc);
    this.docUrls.delete(doc);
    this.docUrls.set(doc, url);
    for (const k of this.docUrls.keys()) { if (this.docUrls.size <= MAX_DOCS) break; this.docUrls.delete(k); }
  }

  private remember(gid: string, sighting: Sighting): void {
    this.sawId(gid);
    this.ids.delete(gid); // re-inserted last: most recent
    this.ids.set(gid, sighting);
  }

  private sawId(gid: string): void {
    const local = parseGlobalId(gid)?.local;
    if (local && /^\d+$/.test(local)) this.session.saw(Number(local));
  }

  /** Forgets the oldest sightings beyond the limit (once per read: a 50k-element read is one pass, not 50k). */
  private trim(): void {
    for (const k of this.ids.keys()) { if (this.ids.size <= MAX_REMEMBERED) break; this.ids.delete(k); }
  }

  // ---- what the hosts ask ----

  sighting(gid: string): Sighting | undefined {
    return this.ids.get(gid);
  }

  /** Whether this tab handed the ID out (and still remembers it). */
  handedOut(gid: string): boolean {
    return this.ids.has(gid);
  }

  /**
   * The document an ID must be looked up in: the one that issued it; for an ID never handed out,
   * the document of the frame's last read (an ID the caller found in the DOM of the page it saw);
   * undefined when this tab has handed out nothing of that frame.
   */
  expectedDoc(gid: string, frame: number): string | undefined {
    return this.ids.get(gid)?.doc ?? this.frameDocs.get(frame);
  }

  urlOf(doc: string): string | undefined {
    return this.docUrls.get(doc);
  }

  /** Whether another tab of the session handed out this ID and this one never did. */
  issuedElsewhere(gid: string): boolean {
    return !this.ids.has(gid) && othersOf(this).some((l) => l.handedOut(gid));
  }

  /**
   * Where an ID may be looked up, by the rules above: the issuing document (undefined: the host
   * looks it up only in a document it numbered itself). Throws BAD_INPUT for what is no element ID,
   * NAVIGATED for an ID of another tab. `here`: the tab's address, for the refusal.
   */
  admit(gid: string, here: string): { frame: number; local: string; doc?: string } {
    const parsed = parseGlobalId(gid);
    if (!parsed) throw new PagelensError('BAD_INPUT', `"${gid}" is not an element ID (expected "12" or "f1_12" from a snapshot).`);
    if (this.issuedElsewhere(gid)) {
      throw new PagelensError('NAVIGATED', `Element ${gid} was handed out in another tab, not this one (${here}); select that tab, or take a new snapshot here.`, { id: gid, to: here });
    }
    const doc = this.expectedDoc(gid, parsed.frame);
    return { frame: parsed.frame, local: parsed.local, ...(doc && { doc }) };
  }

  // ---- keeping ----

  /** Writes the ledger (and the session's high-water mark) to the session's storage. */
  async save(): Promise<void> {
    const state: SavedLedger = {
      ...(this.base !== undefined && { base: this.base }),
      topSeen: this.topSeen,
      lineages: [...this.lineages],
      sightings: JSON.stringify([...this.ids]),
      docUrls: [...this.docUrls],
      frameDocs: [...this.frameDocs],
    };
    await this.session.storage.set(ledgerKey(this.key), state).catch(() => {});
    await saveSession(this.session);
  }
}
