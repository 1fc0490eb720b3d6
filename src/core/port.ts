// What the core needs from a host: for the act pipeline, the engine side of the port
// (model/contracts/host.ts) and the members of its page side that acting uses (input, url,
// navigation, settling); for the reads and artifacts, ReadHost below.
import type { Action } from '../model/contracts/actions.js';
import type { HostEngine, HostFrame, HostPage } from '../model/contracts/host.js';
import type { ActionResult, ExpectedOutcome } from '../model/contracts/outcome.js';
import type { MutationEvent } from '../model/pagemodel/mutations.js';
import type { PageModel } from '../model/pagemodel/page.js';
import type { SerializedDocument } from '../model/contracts/engineAnswers.js';
import type { Box } from '../model/contracts/schema.js';
import type { AxTreeResult } from '../model/renderers/axtree.js';
import type { Markable } from '../model/renderers/setOfMark.js';
import type { IdLedger } from './ledger.js';
import type { SnapshotStore } from './snapshots.js';

/** A wait for the page to be quiet; `afterAction`: count quiet from the start (the page has not reacted yet). */
export interface SettleRequest { timeoutMs: number; quietMs?: number; afterAction?: boolean }
/** How a wait ended; `uncertain` names what could not be watched (so "settled" may be premature). */
export interface Settled { settled: boolean; waitedMs: number; reason?: string; uncertain?: string[] }

export type Navigation = { goto: string } | { history: 'back' | 'forward' } | { reload: true };

export interface ActPage {
  input: HostPage['input'];
  url: HostPage['url'];
  /** Navigation by the host; the main document's HTTP status when the host can see it (a 4xx/5xx fails: NAVIGATION_FAILED). */
  navigate(how: Navigation): Promise<{ status?: number; /** What the answer should know (a page answered as it stood, still loading). */ warnings?: string[] } | void>;
  settle(opts: SettleRequest): Promise<Settled>;
}

/** A host as the act pipeline uses it. */
export type ActHost = HostEngine & ActPage;

// ---- the reading side (issue 44): what src/core/lens.ts builds a lens from ----

/** How much of the page a read takes in. */
export interface ReadOptions {
  fullPage: boolean;
  /** Also read landmarks, forms, rows and headings, and tie every node to them. */
  structure?: boolean;
  /** Also read identifying attributes of nodes and structure. */
  attributes?: boolean;
  /** Reuse nothing from earlier reads (see ModelOptions.fresh). */
  fresh?: boolean;
}

/** How a host composes an image: see ReadHost.compose. */
export interface ComposeOptions { quality: number; viewport: { width: number; height: number }; covers: Box[]; marks?: Markable[]; type?: 'jpeg' | 'png' }

/** A screenshot as the host encoded it for the hybrid payload. */
export interface Picture { base64: string; hash: string; bytes: number; marks: number }

/**
 * What only a host can do for the reads, the artifacts and the toolkits (src/core/lens.ts): its
 * transport to the page (the engine side of the port, the page model read, copying a frame's
 * document, photographing and encoding the viewport) and where it keeps things (its ID ledger,
 * its snapshot store). Everything else is written once above it.
 */
export interface ReadHost {
  engine: HostEngine;
  /** The tab's ID ledger (src/core/ledger.ts): what a payload shows is handed out there. */
  ledger: IdLedger;
  /** The page model, every frame laid out; nothing in it is handed out yet. */
  read(opts: ReadOptions): Promise<PageModel>;
  /** The ledger changed (a payload was handed out): keep it where this host's memory may be lost. */
  keep(): Promise<void>;
  /** The last `limit` meaningful changes across the frames this host can read, oldest first; `unread` names the others. */
  recentEvents(limit: number): Promise<{ events: MutationEvent[]; unread: string[] }>;
  /**
   * One frame's annotated copy of its document (the engine's serializeDocument), a marker where
   * each of `children` stands; valid inside engine.layout(), whose frames these are. A child
   * whose iframe element the host cannot reach is left unmarked.
   */
  copyDocument(frame: HostFrame, children: HostFrame[], req: { frame: number; nonce: string }): Promise<SerializedDocument>;
  /** The viewport as rendered, lossless, opaque to the core; `notes`: what taking it did to the tab. */
  photograph(): Promise<{ image: unknown; notes: string[] }>;
  /**
   * The image the hybrid payload carries: the photograph with `covers` (secret fields, top-level
   * viewport CSS px: src/core/secretCovers.ts) painted over, then the set-of-mark labels of `marks`,
   * as JPEG at `quality` or as PNG (`type`).
   */
  compose(image: unknown, opts: ComposeOptions): Promise<Picture>;
  /** Chrome's accessibility tree (mode axtree), where the host can read it. */
  axtree?(): Promise<AxTreeResult>;
  /** The exploration snapshots of this tab, and the main-frame navigations seen (0 when the host does not count them). */
  snapshots: SnapshotStore;
  navigations(): number;
  /** Acting by ID through the host's act pipeline (observe's actOn). */
  act(action: Action, opts: { expect?: ExpectedOutcome | string }): Promise<ActionResult>;
  /** The document's title, where the host reads it cheaply; without it, the title the engine read for the current exploration snapshot. */
  title?(): Promise<string>;
  /** The act pipeline's host, for verification outside an action (capturePreActionState, verifyOutcome, findText). */
  verifier(): ActHost;
}
