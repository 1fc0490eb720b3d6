// The Host port (issue 19), first draft: what the shared core (reading the page model and the
// artifacts, the act pipeline, verification, the tool registry) needs from a browser, and nothing
// more. Two hosts will implement it: CDP (src/browser, over playwright-core) and chrome.*
// (extension/src). Everything above the port is written once. Types only: no host implements it
// yet, and nothing uses it yet (the act pipeline moves over in a later round; see
// /work/notes/core-port.md for the plan and what each host keeps).
import type { ElementAnswer, ElementCall, EngineAnswer, EngineCall } from './engine.js';
import type { HostPage } from './hostPage.js';
import type { Box, FrameInfo } from './schema.js';

export type { DialogAction, HostConsoleEntry, HostDialog, HostPage } from './hostPage.js';

/** A frame as the host laid it out: its ordinal (the "1" of "f1_5"), where it sits, or why it cannot be read. */
export interface HostFrame {
  ordinal: number;
  /** Ordinal of the parent frame (absent for the main frame). */
  parent?: number;
  url: string;
  /** Top-left of the frame's viewport in top-level viewport coordinates (CSS px). */
  offset: [number, number];
  /** The part of the frame that is visible in the top-level viewport (CSS px), if any. */
  clip?: Box;
  /** Why this frame cannot be read (cross-origin without access, detached, crashed): never read quietly. */
  error?: string;
  info: FrameInfo;
}

/** A live element in one frame's isolated world: the host's handle, opaque to the core. */
export interface HostElement {
  frame: HostFrame;
  /** The document that issued the element's ID (refused in any other: NAVIGATED). */
  doc?: string;
  readonly handle: unknown;
}

/**
 * The engine side of the port: frames, schema-checked engine calls and element operations. What the
 * page model and the act pipeline read and act through.
 */
export interface HostEngine {
  /** Every frame of the page, laid out now, main frame first (depth-first). */
  frames(): Promise<HostFrame[]>;
  /**
   * A call on a frame's engine, its answer checked against the engine contract (model/contracts/engine.ts)
   * before it is returned: a page that bends the engine's answer gets ENGINE_ERROR, not belief.
   */
  engine<K extends EngineCall>(frame: HostFrame, call: K, args?: unknown[]): Promise<EngineAnswer<K>>;
  /** The element behind a local ID in the document that issued it: NAVIGATED / UNKNOWN_ID otherwise. */
  resolve(frame: HostFrame, doc: string | null, localId: string): Promise<HostElement>;
  /** A call on one element (`act.*` of the engine), checked against the contract. */
  element<K extends ElementCall>(el: HostElement, call: K, args?: unknown[]): Promise<ElementAnswer<K>>;
  /** Releases what resolve() holds (remote objects, handles). */
  release(el: HostElement): Promise<void>;
}

/** The whole port: the engine side and the page side (input, capture, navigation, settle, dialogs, console). */
export interface Host extends HostEngine, HostPage {}
