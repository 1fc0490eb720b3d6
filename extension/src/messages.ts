// The messages the service worker sends to the content script of one frame
// (chrome.tabs.sendMessage with a frameId), and what each answers. Every answer is wrapped:
// { ok: true, value } or { ok: false, error }, so that a failure inside a frame travels back
// as a reason instead of an undefined answer.
import type { Cover, DomActivity, ElementCall, ElementState, EngineCall, FindResult, OwnerInfo, PrepareResult } from '../../src/model/contracts/engine.js';
import type { EngineSnapshotOptions } from '../../src/model/contracts/schema.js';
import type { ReadBase } from '../../src/model/pagemodel/frameRead.js';
import type { MutationEvent } from '../../src/model/pagemodel/mutations.js';
import type { SerializedDocument } from '../../src/model/contracts/engineAnswers.js';

/** Marks a message as ours (other extensions' or the page's messages are ignored). */
export const CHANNEL = 'pagelens/1';
/** The key of the handshake message a child frame posts to its parent window. */
export const ANNOUNCE = '__pagelensFrameAnnounce';
/** The events by which the content script asks the page-world hook (shadowHook.ts) how many closed shadow roots were made. */
export const CLOSED_ROOTS_ASK = 'pagelens-closed-roots?';
export const CLOSED_ROOTS_COUNT = 'pagelens-closed-roots';

/** An element by the ID its document gave it, refused in any other document. */
export interface ElementKey { doc: string | null; local: string }

/**
 * One engine call on the element (`__pagelens.act.<op>(element, ...args)`, the CDP host's element
 * calls, answers checked against the same contract), or, without trusted input, text through the
 * native setter and the input event typing fires (the content script's own).
 */
export type ElementOp =
  | { op: ElementCall; args?: unknown[] }
  | { op: 'typeJs'; value: string };

export type RequestBody =
  /**
   * The frame's read, as changes since `base` (the read the service worker holds, src/core/heldReads.ts)
   * or whole. `idBase`: where a document read for the first time starts numbering (above every ID the tab handed out).
   */
  | { kind: 'read'; options: EngineSnapshotOptions; base: ReadBase | null; idBase?: number }
  /**
   * The iframe elements of these child frames, measured. A child not matched yet is matched by a
   * handshake: the service worker gives its nonce here and to the child ('announce'), the child
   * posts it to this window, and the iframe whose contentWindow sent it is the child's.
   */
  | { kind: 'owners'; children: Array<{ frameId: number; nonce: string }> }
  /** Posts the nonce to the parent window, so that the parent finds this frame's iframe element. */
  | { kind: 'announce'; nonce: string }
  /** For points in this frame's viewport: whether a click there reaches the iframe of `child`. */
  | { kind: 'ownerHits'; child: number; points: Array<[number, number]> }
  /** Scrolls the iframe of `child` fully into view (before acting inside it). */
  | { kind: 'revealOwner'; child: number }
  /** The XPath of the iframe of `child` in this frame's document (element context's frame path). */
  | { kind: 'ownerXpath'; child: number }
  /**
   * This frame's document copied by the engine's serializeDocument (the `full` artifact): IDs
   * written with the frame's ordinal, each child frame's place (its iframe element, as the owners
   * handshake matched it) marked `<!--NONCE:ordinal-->` for the service worker to inline.
   */
  | { kind: 'serialize'; frame: number; nonce: string; children: Array<{ frameId: number; ordinal: number }> }
  | { kind: 'activity' }
  | { kind: 'mutationsSince'; doc: string | null; seq: number }
  | { kind: 'recentEvents'; limit: number }
  /** Whether text (or a selector) shows in this frame, read by the engine (an invalid selector is said, not "absent"). */
  | { kind: 'findOnPage'; query: { text?: string; selector?: string } }
  /** For a point in this frame's viewport: what, other than the iframe of `child`, a click there would hit. */
  | { kind: 'coverAt'; child: number; point: [number, number] }
  | { kind: 'scrollPage'; direction?: string; amount?: number }
  | { kind: 'element'; key: ElementKey; action: ElementOp }
  /** One call on this frame's engine (`__pagelens.<call>(...args)`), answered as the CDP host's engine calls are. */
  | { kind: 'engine'; call: EngineCall; args: unknown[] };

/** A message as sent: ours by its channel. */
export type Request = RequestBody & { channel: typeof CHANNEL };

export type Reply<T> = { ok: true; value: T } | { ok: false, error: string; code?: string };

/** A frame's read as the engine wrote it (JSON text, checked by the service worker), and what the service worker cannot learn from webNavigation. */
export interface FrameReadText { text: string; origin: string; /** The last ID this document issued. */ lastId?: number }
export interface OwnerEntry { frameId: number; info: OwnerInfo }

export interface Answers {
  read: FrameReadText;
  owners: OwnerEntry[];
  announce: boolean;
  ownerHits: boolean[];
  revealOwner: boolean;
  ownerXpath: string;
  activity: DomActivity;
  serialize: SerializedDocument;
  mutationsSince: { doc: string; events: MutationEvent[] };
  recentEvents: MutationEvent[];
  findOnPage: FindResult;
  coverAt: Cover | null;
  scrollPage: { moved: boolean; position: string; hasMore: boolean };
  element: unknown;
  engine: unknown;
}

export type { ElementState, PrepareResult };
