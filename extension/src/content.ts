// The content script's adapter: the page engine (engine.js, the very bundle the CDP host injects)
// runs before this file in the same isolated world and defines globalThis.__pagelens; this file
// only answers the service worker's messages by calling it. Two things the CDP host does from
// outside are done here from inside: closed shadow roots are fetched with
// chrome.dom.openOrClosedShadowRoot, and iframe elements are matched to their frames by a
// handshake (chrome.runtime.getFrameId is missing from content scripts in the Chromium here).
import type { EngineApi } from '../../src/page/main.js';
import { ANNOUNCE, CHANNEL, CLOSED_ROOTS_ASK, CLOSED_ROOTS_COUNT, type Answers, type ElementKey, type ElementOp, type OwnerEntry, type Reply, type Request } from './messages.js';

const engine = (globalThis as unknown as { __pagelens?: EngineApi }).__pagelens;

class FrameError extends Error {
  constructor(readonly code: string, message: string) { super(message); }
}

/** Every element below `root` and in the shadow roots below it, open or closed (not `root` itself). */
function walk(root: Node, visit: (el: Element, shadow: ShadowRoot | null) => void): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) visitWithin(n as Element, visit);
}

/** `el`, then its shadow root's elements. */
function visitWithin(el: Element, visit: (el: Element, shadow: ShadowRoot | null) => void): void {
  // Only HTML elements can host a shadow root; the call throws for any other (an <svg>, MathML).
  const shadow = el instanceof HTMLElement ? chrome.dom.openOrClosedShadowRoot(el) : null;
  visit(el, shadow);
  if (shadow) walk(shadow, visit);
}

// Closed shadow roots, which the engine cannot find itself, are searched for in the whole document
// at the first read; after that only where one can have appeared since: in the subtrees added
// (a declarative root comes with its elements), and in the whole document again when the page-world
// hook (shadowHook.ts) counted a root made by script (made in a constructor, on an element in no
// document yet, it has no subtree to point at). With no hook answering, at every read, as before it.
let searchedAt: number | null | undefined;
const added = new Set<Element>();
/** Past this many added subtrees since the last read, one search of the whole document is cheaper. */
const MAX_ADDED = 1000;
const additions = new MutationObserver(noteAdded);
additions.observe(document, { childList: true, subtree: true });

function noteAdded(records: MutationRecord[]): void {
  for (const r of records) for (const n of Array.from(r.addedNodes)) if (n.nodeType === Node.ELEMENT_NODE) added.add(n as Element);
}

/** How many closed roots the hook saw made; null when no hook answers (a page opened before the extension). */
function closedRootsMade(): number | null {
  let made: number | null = null;
  const hear = (e: Event) => { const n = (e as CustomEvent<unknown>).detail; if (typeof n === 'number') made = n; };
  document.addEventListener(CLOSED_ROOTS_COUNT, hear);
  document.dispatchEvent(new Event(CLOSED_ROOTS_ASK));
  document.removeEventListener(CLOSED_ROOTS_COUNT, hear);
  return made;
}

/** Hands the engine every closed shadow root it may not have (it ignores those it already has). */
function adoptClosedRoots(api: EngineApi): void {
  noteAdded(additions.takeRecords());
  const adopt = (el: Element, shadow: ShadowRoot | null) => {
    if (!shadow) return;
    // Elements added inside a shadow root later are looked at too.
    additions.observe(shadow, { childList: true, subtree: true });
    if (!el.shadowRoot) api.adoptShadowRoot(shadow);
  };
  const made = closedRootsMade();
  if (searchedAt === undefined || made === null || made !== searchedAt || added.size > MAX_ADDED) {
    walk(document, adopt);
    searchedAt = made;
  } else {
    // A subtree inside another added one is walked with it.
    const top = (el: Element) => { for (let p = el.parentNode; p; p = p instanceof ShadowRoot ? p.host : p.parentNode) if (added.has(p as Element)) return false; return true; };
    for (const el of added) if (el.isConnected && top(el)) { visitWithin(el, adopt); walk(el, adopt); }
  }
  added.clear();
}

function frameElements(): Element[] {
  const out: Element[] = [];
  walk(document, (el) => { if (el.tagName === 'IFRAME' || el.tagName === 'FRAME') out.push(el); });
  return out;
}

/** Child frameId → its iframe element here, as the handshake matched them. */
const owners = new Map<number, Element>();
/** Nonces the service worker told us to expect, with the child each one stands for. */
const expected = new Map<string, number>();
let matched: () => void = () => {};

window.addEventListener('message', (e) => {
  const nonce = (e.data as Record<string, unknown> | null)?.[ANNOUNCE];
  if (typeof nonce !== 'string' || !e.source) return;
  const child = expected.get(nonce);
  if (child === undefined) return;
  // Only a real child window can be the source: a message the page posts itself matches no iframe.
  const el = frameElements().find((f) => (f as HTMLIFrameElement).contentWindow === e.source);
  if (!el) return;
  expected.delete(nonce);
  owners.set(child, el);
  matched();
});

function ownerOf(child: number): Element {
  const owner = owners.get(child);
  if (!owner || !owner.isConnected) throw new FrameError('FRAME_DETACHED', `frame ${child} has no iframe element here any more`);
  return owner;
}

/** The iframe elements of `children`, waiting (at most `ms`) for the handshakes of those not matched yet. */
async function matchOwners(children: Array<{ frameId: number; nonce: string }>, ms = 1500): Promise<Array<{ frameId: number; el: Element }>> {
  const known = (c: { frameId: number }) => { const el = owners.get(c.frameId); return el?.isConnected ? el : undefined; };
  for (const c of children) if (!known(c)) expected.set(c.nonce, c.frameId);
  const end = Date.now() + ms;
  while (children.some((c) => !known(c)) && Date.now() < end) {
    await new Promise<void>((resolve) => { matched = resolve; setTimeout(resolve, 50); });
  }
  for (const c of children) expected.delete(c.nonce);
  return children.flatMap((c) => { const el = known(c); return el ? [{ frameId: c.frameId, el }] : []; });
}

function elementOf(api: EngineApi, key: ElementKey): Element {
  const found = api.lookupIn(key.doc, key.local);
  if (typeof found === 'string') throw new FrameError('NAVIGATED', 'the frame shows another document since the snapshot; take a new snapshot');
  if (!found) throw new FrameError('UNKNOWN_ID', `element ${key.local} is no longer in the document`);
  return found;
}

/** Text typed without trusted input: the native setter (a framework's tracker must not see it first), then the input event typing fires. */
function typeJs(el: Element, value: string): { ok: boolean; reason?: string } {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) {
    if ((el as HTMLElement).isContentEditable) { el.textContent = value; el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value })); return { ok: true }; }
    return { ok: false, reason: 'not a text field' };
  }
  const proto = el instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(el, value);
  el.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertText', data: value }));
  return { ok: true };
}

function onElement(api: EngineApi, el: Element, a: ElementOp): unknown {
  if (a.op === 'typeJs') return typeJs(el, a.value);
  // Only the engine's own element calls: the message names one, it cannot reach anything else.
  const call = Object.hasOwn(api.act, a.op) ? (api.act as unknown as Record<string, unknown>)[a.op] : undefined;
  if (typeof call !== 'function') throw new FrameError('BAD_INPUT', `"${a.op}" is not an element call of the engine`);
  return (call as (...x: unknown[]) => unknown).apply(api.act, [el, ...(a.args ?? [])]);
}

/** One call on the engine, by name: only its own top-level calls (not `act`, whose calls take an element). */
function onEngine(api: EngineApi, name: string, args: unknown[]): unknown {
  const call = name !== 'act' && Object.hasOwn(api, name) ? (api as unknown as Record<string, unknown>)[name] : undefined;
  if (typeof call !== 'function') throw new FrameError('BAD_INPUT', `"${name}" is not a call of the engine`);
  return (call as (...x: unknown[]) => unknown).apply(api, args);
}

async function answer(api: EngineApi, msg: Request): Promise<Answers[Request['kind']]> {
  switch (msg.kind) {
    case 'read': {
      adoptClosedRoots(api);
      // A document continues the tab's numbering: an ID from an earlier page never names an element of this one.
      if (msg.idBase !== undefined) api.numberFrom(msg.idBase);
      return { text: api.read(msg.options, msg.base), origin: location.origin, lastId: api.lastIssuedId() };
    }
    case 'owners': {
      adoptClosedRoots(api);
      const found = await matchOwners(msg.children);
      const infos = api.frameOwners(found.map((o) => o.el));
      return found.map((o, i): OwnerEntry => ({ frameId: o.frameId, info: infos[i] }));
    }
    case 'announce':
      if (window.parent === window) return false;
      window.parent.postMessage({ [ANNOUNCE]: msg.nonce }, '*');
      return true;
    case 'ownerHits': return api.ownerHits(ownerOf(msg.child), msg.points);
    case 'revealOwner': return api.act.reveal(ownerOf(msg.child));
    case 'ownerXpath': return api.act.xpathOf(ownerOf(msg.child));
    case 'serialize': {
      adoptClosedRoots(api);
      // A child whose iframe element is gone here is left out (its place is not marked), not guessed.
      const children = msg.children.filter((c) => owners.get(c.frameId)?.isConnected);
      return api.serializeDocument({ frame: msg.frame, nonce: msg.nonce, children: children.map((c) => c.ordinal) }, ...children.map((c) => ownerOf(c.frameId)));
    }
    case 'activity': return api.domActivity();
    case 'mutationsSince': return api.mutationsSince(msg.doc, msg.seq);
    case 'recentEvents': return api.recentMutationEvents(msg.limit);
    case 'findOnPage': return api.findOnPage(msg.query);
    case 'coverAt': return api.act.coverAt(ownerOf(msg.child), msg.point[0], msg.point[1]);
    case 'scrollPage': return api.scrollPage(msg.direction as never, msg.amount);
    case 'element': { adoptClosedRoots(api); return onElement(api, elementOf(api, msg.key), msg.action); }
    case 'engine': return onEngine(api, msg.call, msg.args);
  }
}

function isRequest(m: unknown): m is Request {
  return typeof m === 'object' && m !== null && (m as { channel?: unknown }).channel === CHANNEL;
}

// Injected by hand into a tab that already had it (see tab.ts), the adapter must not answer twice.
const ADAPTER_KEY = Symbol.for('pagelens.adapter');
const scope = globalThis as unknown as Record<symbol, boolean>;
if (engine && !scope[ADAPTER_KEY]) {
  scope[ADAPTER_KEY] = true;
  // Closed roots are adopted when the service worker first asks (every request walks for new ones),
  // not earlier: the CDP host does the same, so elements get the same IDs in both hosts.
  chrome.runtime.onMessage.addListener((msg, _sender, sendResponse) => {
    if (!isRequest(msg)) return false;
    const fail = (e: unknown): Reply<unknown> => ({ ok: false, error: e instanceof Error ? e.message : String(e), ...(e instanceof FrameError && { code: e.code }) });
    answer(engine, msg).then((value) => sendResponse({ ok: true, value } satisfies Reply<unknown>), (e: unknown) => sendResponse(fail(e)));
    // The answer comes asynchronously (the owners handshake waits for child frames).
    return true;
  });
}
