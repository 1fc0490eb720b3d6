// Talking to the content scripts of one tab, and what the service worker remembers about it:
// each frame's stable ordinal (the "1" of "f1_5") and Chrome's documents, and the tab's ID ledger
// (src/core/ledger.ts, the CDP host's rules), kept in chrome.storage.session.
import { HeldReads } from '../../src/core/heldReads.js';
import { IdNumbering, tabLedger, type IdLedger, type LedgerStorage } from '../../src/core/ledger.js';
import { ERROR_CODES, PagelensError, type ErrorCode } from '../../src/model/contracts/errors.js';
import { answerSchema } from './answers.js';
import { CHANNEL, type Answers, type Reply, type RequestBody } from './messages.js';

/**
 * A failure with the code the CDP host would give for it (NAVIGATED, UNKNOWN_ID, FRAME_DETACHED, …):
 * a PagelensError, so that the shared core (src/core) reads it as it reads the CDP host's. A code
 * from a frame that is none of ours is ENGINE_ERROR (the page may have bent the answer).
 */
export class ExtensionError extends PagelensError {
  constructor(code: string, message: string) {
    super((ERROR_CODES as readonly string[]).includes(code) ? code as ErrorCode : 'ENGINE_ERROR', message);
  }
}

/** Tabs the content scripts were injected into by hand (once per tab and service-worker life). */
const injected = new Set<number>();

/** One message to the content script of one frame; its answer, or an ExtensionError with the frame's reason. */
export async function ask<K extends RequestBody['kind']>(tabId: number, frameId: number, body: RequestBody & { kind: K }): Promise<Answers[K]> {
  let reply: Reply<Answers[K]> | undefined;
  const message = { channel: CHANNEL, ...body };
  try {
    reply = await chrome.tabs.sendMessage<Reply<Answers[K]>>(tabId, message, { frameId });
  } catch (e) {
    const reason = (e as Error).message;
    // A tab opened before the extension was installed has no content script: put it in once, then ask again.
    if (/Receiving end does not exist/i.test(reason) && !injected.has(tabId)) {
      injected.add(tabId);
      try {
        await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['engine.js', 'content.js'] });
        // The hook counts the closed roots made from now on (those made before are found by the first search).
        await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['shadowHook.js'], world: 'MAIN' }).catch(() => {});
        reply = await chrome.tabs.sendMessage<Reply<Answers[K]>>(tabId, message, { frameId });
      } catch (again) {
        throw new ExtensionError('FRAME_DETACHED', `frame ${frameId} did not answer: ${(again as Error).message}`);
      }
    } else {
      // No content script there (a frame still loading, a page extensions may not enter) or the frame went away.
      throw new ExtensionError('FRAME_DETACHED', `frame ${frameId} did not answer: ${reason}`);
    }
  }
  if (!reply) throw new ExtensionError('ENGINE_ERROR', `frame ${frameId} answered nothing`);
  if (!reply.ok) throw new ExtensionError(reply.code ?? 'ENGINE_ERROR', reply.error);
  // Believed only once it fits the engine contract (the CDP host checks the same schemas).
  const checked = answerSchema(body).safeParse(reply.value);
  if (!checked.success) {
    const what = 'action' in body ? `element ${body.action.op}` : body.kind;
    throw new ExtensionError('ENGINE_ERROR', `frame ${frameId} answered ${what} with something the engine contract does not allow (${checked.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || 'answer'}: ${i.message}`).join('; ')}); the page may have tampered with it.`);
  }
  return checked.data as Answers[K];
}

export interface TabState {
  /** Extension frameId → ordinal; ordinals are given in document order the first time a frame is seen, never reused. */
  ordinals: Map<number, number>;
  nextOrdinal: number;
  /** Ordinal → extension frameId of the frames the last snapshot read (a frame that failed is not in it). */
  frameOf: Map<number, number>;
  /** Ordinal → Chrome's documentId of that document: a reloaded or replaced frame has another one. */
  documents: Map<number, string>;
  /** The tab's ID ledger (src/core/ledger.ts): numbering, which document issued each ID, what it showed. Kept in chrome.storage.session. */
  ledger: IdLedger;
  /** Each frame's last read, which the next read of its kind asks changes against: memory only (after a restart, the next read crosses whole). */
  held: HeldReads;
}

/** chrome.storage.session as the ledger's storage: kept while the browser runs, across service-worker restarts. */
const sessionStorage: LedgerStorage = {
  get: async (key) => (await chrome.storage.session.get([key]))[key],
  set: (key, value) => chrome.storage.session.set({ [key]: value }),
  remove: (key) => chrome.storage.session.remove([key]),
};

/**
 * Every tab of this service worker is one session, as the tabs of an MCP session are on the CDP
 * host: no two tabs hand out the same ID, and one handed out in another tab is refused here.
 */
export const session = new IdNumbering(sessionStorage);

const tabs = new Map<number, TabState>();
const key = (tabId: number) => `pagelens.tab.${tabId}`;

/**
 * The tab's state, read back from chrome.storage.session when this service worker is new (Chrome
 * stops an idle service worker; its memory goes, the session store stays): ordinals stay stable
 * and IDs stay bound to their documents across restarts. Every entry point awaits it before
 * anything reads the tab's state (tabState), so that a new worker never starts from nothing.
 */
export async function restoreTab(tabId: number): Promise<TabState> {
  let pending = restoring.get(tabId);
  if (!pending) {
    pending = (async () => {
      const saved = (await chrome.storage.session.get([key(tabId)]).catch(() => ({} as Record<string, unknown>)))[key(tabId)] as
        { ordinals: Array<[number, number]>; nextOrdinal: number; frameOf: Array<[number, number]>; documents: Array<[number, string]> } | undefined;
      const ledger = await tabLedger(session, String(tabId));
      const state: TabState = saved
        ? { ordinals: new Map(saved.ordinals), nextOrdinal: saved.nextOrdinal, frameOf: new Map(saved.frameOf), documents: new Map(saved.documents), ledger, held: new HeldReads() }
        : { ordinals: new Map([[0, 0]]), nextOrdinal: 1, frameOf: new Map([[0, 0]]), documents: new Map(), ledger, held: new HeldReads() };
      tabs.set(tabId, state);
      return state;
    })();
    restoring.set(tabId, pending);
    pending.catch(() => restoring.delete(tabId));
  }
  return pending;
}
const restoring = new Map<number, Promise<TabState>>();

export async function saveTab(tabId: number): Promise<void> {
  const s = tabState(tabId);
  await chrome.storage.session.set({ [key(tabId)]: { ordinals: [...s.ordinals], nextOrdinal: s.nextOrdinal, frameOf: [...s.frameOf], documents: [...s.documents] } }).catch(() => {});
  await s.ledger.save();
}

/** The tab's state once restoreTab has read it back; before that, a mistake of ours, never a fresh start. */
export function tabState(tabId: number): TabState {
  const s = tabs.get(tabId);
  if (!s) throw new PagelensError('INTERNAL', `tab ${tabId} was used before its state was read back (restoreTab)`);
  return s;
}

/** The tab is closed: its state and its ledger go (its IDs are no longer another tab's, as when a lens closes). */
export async function forgetTab(tabId: number): Promise<void> {
  tabs.delete(tabId);
  restoring.delete(tabId);
  await chrome.storage.session.remove([key(tabId)]).catch(() => {});
  await session.forget(String(tabId));
}

export function ordinalOf(state: TabState, frameId: number): number {
  let ord = state.ordinals.get(frameId);
  if (ord === undefined) { ord = state.nextOrdinal++; state.ordinals.set(frameId, ord); }
  return ord;
}
