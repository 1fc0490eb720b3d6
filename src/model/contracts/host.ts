// The Host port (issue 19): what the shared core (the act pipeline and verification in src/core,
// later reading and the tool registry) needs from a browser, and nothing more. Two hosts implement
// it: CDP (src/browser/hostEngine.ts, over playwright-core) and chrome.* (extension/src/hostEngine.ts).
// Everything above the port is written once; each host keeps only its transport.
import type { ElementAnswer, ElementCall, EngineAnswer, EngineCall, OkReason } from './engine.js';
import type { HostPage } from './hostPage.js';
import type { Box } from './schema.js';
import type { ErrorCode } from './errors.js';

export type { DialogAction, HostConsoleEntry, HostDialog, HostPage } from './hostPage.js';

/** A frame as the host knows it: its ordinal (the "1" of "f1_5"), where it sits, or why it cannot be read. */
export interface HostFrame {
  ordinal: number;
  /** Ordinal of the parent frame (absent for the main frame). */
  parent?: number;
  url: string;
  /** Top-left of the frame's viewport in top-level viewport coordinates (CSS px); only as fresh as the layout that gave it. */
  offset: [number, number];
  /** The part of the frame visible in the top-level viewport (CSS px); absent: none. */
  clip?: Box;
  /** Why this frame cannot be read (cross-origin without access, detached, crashed): never read quietly. */
  error?: string;
  /** The host's own reference to the frame, opaque to the core. */
  readonly handle: unknown;
}

/** A live element in one frame's isolated world, bound to the document that issued its ID. */
export interface HostElement {
  frame: HostFrame;
  /** The ID it was resolved by ("12", "f1_5"). */
  gid: string;
  /** The document that issued the ID (any other is refused: NAVIGATED). */
  doc?: string;
  readonly handle: unknown;
}

/**
 * What the element was when the snapshot handed its ID out, and what it is now (`inRow`: its name
 * with its row's): what HostEngine.sighting answers, and the stale-ID rule compares (model/acting/stale.ts).
 */
export interface Seen { role: string; name: string; inRow?: string }

/** An ID whose element was re-rendered away, matched again in the same document (model/acting/ghost.ts). */
export type Recovery =
  | { ok: true; gid: string; doc: string; confidence: number; message: string }
  | { ok: false; code: ErrorCode; message: string };

/**
 * The engine side of the port: frames, schema-checked engine calls and element operations. What the
 * act pipeline and verification read and act through.
 */
export interface HostEngine {
  /** Every frame the host knows now, main frame first; cheap (offsets may be from the last layout). */
  frames(): Promise<HostFrame[]>;
  /**
   * The frames laid out afresh (offsets, clips), for `use` to place a point with; `owner` calls are
   * valid only while `use` runs. `warnings`: frames the host could not list or place (never dropped quietly).
   */
  layout<T>(use: (frames: HostFrame[], warnings: string[]) => Promise<T>): Promise<T>;
  /**
   * A call on a frame's engine, its answer checked against the engine contract (model/contracts/engine.ts)
   * before it is returned: a page that bends the engine's answer gets ENGINE_ERROR, not belief.
   */
  engine<K extends EngineCall>(frame: HostFrame, call: K, args?: unknown[]): Promise<EngineAnswer<K>>;
  /** A call on the iframe element that holds `frame`, in its parent's engine (scroll it into view, hit-test over it, its XPath). */
  owner<K extends 'reveal' | 'coverAt' | 'xpathOf'>(frame: HostFrame, call: K, args?: unknown[]): Promise<ElementAnswer<K>>;
  /**
   * The element behind an ID, in the document that issued it (`doc`, else the one the host's ledger
   * names) and nowhere else: NAVIGATED when that document is gone, UNKNOWN_ID when the element is.
   */
  resolve(gid: string, opts?: { doc?: string }): Promise<HostElement>;
  /** A call on one element (`act.*` of the engine), checked against the contract. */
  element<K extends ElementCall>(el: HostElement, call: K, args?: unknown[]): Promise<ElementAnswer<K>>;
  /** Releases what resolve() holds (remote objects, handles). */
  release(el: HostElement): Promise<void>;
  /** What the snapshot that handed out `gid` showed (role, name), for the stale check; undefined when not comparable. */
  sighting(gid: string): Seen | undefined;
  /** A failure in words (each host knows its own errors). */
  describe(e: unknown): string;
  /** A control named to the agent (a cover's close button) is handed out like a snapshot's IDs. Optional. */
  noteControl?(frame: HostFrame, doc: string | undefined, control: { id: string; role: string; name: string }): void;
  /** Matching an ID whose element was re-rendered away, in the same document. Optional: a host without it refuses with UNKNOWN_ID. */
  recover?(gid: string): Promise<Recovery>;
  /** Text into a focused field without trusted input (native setter + input event). Only hosts whose input can be untrusted. */
  typeByScript?(el: HostElement, value: string): Promise<OkReason>;
}

/** The whole port: the engine side and the page side (input, capture, navigation, settle, dialogs, console). */
export interface Host extends HostEngine, HostPage {}
