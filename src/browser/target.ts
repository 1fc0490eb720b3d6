// One CDP target: the page itself, or an out-of-process iframe with its own session. It owns
// the isolated world the engine lives in, for each frame the target renders.
import type { CDPSession } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';
import { Cdp } from './cdp.js';
import { ENGINE_SOURCE } from './engineSource.generated.js';

export const WORLD_NAME = 'pagelens';
const SHADOW_HINT_BINDING = '__pagelensShadowHint';
/** Main-world function (made by the hook, which page scripts cannot replace) that hands over the hosts of closed roots made since its last call. */
const CLOSED_HOSTS = '__pagelensClosedHosts';

// Runs in the page's main world before its scripts: tells us (through a CDP binding, not the DOM)
// that it runs from the document's start ('hooked': every closed shadow root the page's scripts
// create will be reported), that a closed shadow root was created ('closed'), so that we go and
// fetch it over CDP, that an open one was ('open': no DOM change shows it, so the next read
// walks the whole frame), and that markup was parsed by script with a declarative root in it
// ('declared': the parser makes it without attachShadow, so the next read searches the whole
// document). A document without the hook (one loaded before we attached) is searched once.
const SHADOW_HINT_SCRIPT = `(() => {
  const hint = globalThis.${SHADOW_HINT_BINDING};
  const attach = Element.prototype.attachShadow;
  if (typeof hint !== 'function' || typeof attach !== 'function') return;
  try { delete globalThis.${SHADOW_HINT_BINDING}; } catch {}
  let hosts = [];
  try {
    Object.defineProperty(globalThis, '${CLOSED_HOSTS}', { value: () => { const out = hosts; hosts = []; return out; }, enumerable: false, writable: false, configurable: false });
  } catch {}
  try { hint('hooked'); } catch {}
  Element.prototype.attachShadow = function attachShadow(init) {
    const root = attach.call(this, init);
    const closed = !!init && init.mode === 'closed';
    if (closed) hosts.push(this);
    try { hint(closed ? 'closed' : 'open'); } catch {}
    return root;
  };
  const declares = (html) => /shadowrootmode/i.test(String(html));
  for (const [owner, name] of [[Element.prototype, 'setHTMLUnsafe'], [ShadowRoot.prototype, 'setHTMLUnsafe'], [Document, 'parseHTMLUnsafe']]) {
    const parse = owner[name];
    if (typeof parse !== 'function') continue;
    owner[name] = { [name](html, ...rest) {
      const out = parse.call(this, html, ...rest);
      if (declares(html)) try { hint('declared'); } catch {}
      return out;
    } }[name];
  }
})();`;

/**
 * How long a read waits for the search for closed shadow roots. Searching means asking CDP for
 * the whole document tree, which takes seconds on a huge page on a busy machine: past this budget
 * the read goes on without them (and says so), and the search finishes in the background.
 */
const SHADOW_SEARCH_BUDGET_MS = 3000;
/** Closed roots handed to the engine per call. */
const ADOPT_BATCH = 200;
/** Hands each root given to the engine; answers the messages of those it failed on. */
const ADOPT_ROOTS = `function (...roots) {
  const failed = [];
  for (const root of roots) {
    try { if (globalThis.__pagelens) globalThis.__pagelens.adoptShadowRoot(root); } catch (e) { failed.push(String(e && e.message || e)); }
  }
  return failed;
}`;
/** The search's own deadline: it runs in the background, so it may take long, but not forever. */
const SHADOW_SEARCH_TIMEOUT_MS = 120_000;
/** Engine calls that read the whole page (snapshots) may take long on a huge page: they get this deadline. */
export const LONG_CALL_TIMEOUT_MS = 180_000;

export type CallArgument = { value: unknown } | { objectId: string };

/** Tells each new document where its ID numbering starts, and hears how far it got. */
export interface DocumentNumbering {
  claimExpression(frameId: string): string;
  claimed(frameId: string, answer: unknown): void;
}

export interface TargetFrame {
  frameId: string;
  parentId: string | null;
  url: string;
  origin: string;
  /** The document failed to load (blocked, unreachable): Chrome shows an error page instead. */
  failed: boolean;
}

interface CdpFrameTree {
  frame: { id: string; parentId?: string; url: string; urlFragment?: string; securityOrigin: string; unreachableUrl?: string };
  childFrames?: CdpFrameTree[];
}

export class Target {
  readonly cdp: Cdp;
  /** Our isolated world's execution context, per frame. */
  private readonly contexts = new Map<string, number>();
  /** Frames whose closed shadow roots must be fetched before the next read (see needsShadowSearch). */
  private readonly shadowDirty = new Set<string>();
  /** Frames whose current document runs the attachShadow hook from its start. */
  private readonly hooked = new Set<string>();
  /** Frames where a script parsed markup that declares a shadow root (the parser makes it without attachShadow): searched whole before the next read. */
  private readonly declared = new Set<string>();
  /** Frames where the hook reported a closed shadow root that was not fetched yet, or whose last search failed: searched before the next read. */
  private readonly shadowHinted = new Set<string>();
  /** Frames where the page attached an open shadow root since the last read: no DOM change shows it to the engine. */
  private readonly shadowAttached = new Set<string>();
  /** Searches for closed shadow roots that outlived a read's budget and go on in the background. */
  private readonly shadowSearches = new Map<string, Promise<void>>();
  private readonly contextFrame = new Map<number, string>();
  /** The page's own (main world) execution context, per frame: where the hook keeps the hosts of closed roots. */
  private readonly mainWorlds = new Map<string, number>();
  /** Contexts where the engine is known to be installed. */
  private readonly verified = new Set<number>();
  /** Per frame: closed shadow roots that could not be handed to the engine, with the reason. */
  private readonly shadowFailures = new Map<string, string[]>();
  /** Per frame: the search for closed shadow roots outlived a read's budget (the sentence to say). */
  private readonly shadowSlow = new Map<string, string>();
  closed = false;

  /**
   * `world`: the isolated world's name. Chrome keeps a named world, the engine and its IDs in it,
   * for as long as the document lives, across CDP connections: a session that lost its
   * connection names a world of its own (BrowserSession), so that every document is new to it.
   */
  private constructor(session: CDPSession, private readonly numbering?: DocumentNumbering, readonly world = WORLD_NAME) {
    this.cdp = new Cdp(session);
  }

  static async open(session: CDPSession, numbering?: DocumentNumbering, world = WORLD_NAME): Promise<Target> {
    const t = new Target(session, numbering, world);
    t.cdp.on('Runtime.executionContextCreated', ({ context }) => {
      const frameId = context.auxData?.frameId as string | undefined;
      if (!frameId) return;
      t.contextFrame.set(context.id, frameId);
      // A new document in the frame: whether it runs the hook, its own binding call says.
      if (context.auxData?.isDefault) { t.hooked.delete(frameId); t.shadowHinted.delete(frameId); t.declared.delete(frameId); t.mainWorlds.set(frameId, context.id); }
      if (context.name === t.world) {
        t.contexts.set(frameId, context.id);
        t.shadowDirty.add(frameId);
      }
    });
    t.cdp.on('Runtime.executionContextDestroyed', ({ executionContextId }) => {
      const frameId = t.contextFrame.get(executionContextId);
      t.contextFrame.delete(executionContextId);
      if (frameId && t.contexts.get(frameId) === executionContextId) t.contexts.delete(frameId);
      if (frameId && t.mainWorlds.get(frameId) === executionContextId) t.mainWorlds.delete(frameId);
    });
    t.cdp.on('Runtime.executionContextsCleared', () => { t.contexts.clear(); t.contextFrame.clear(); t.mainWorlds.clear(); });
    t.cdp.on('Runtime.bindingCalled', ({ name, payload, executionContextId }) => {
      const frameId = t.contextFrame.get(executionContextId);
      if (name !== SHADOW_HINT_BINDING || !frameId) return;
      if (payload === 'hooked') t.hooked.add(frameId);
      else if (payload === 'declared') t.declared.add(frameId);
      else if (payload === 'open') t.shadowAttached.add(frameId);
      else t.shadowHinted.add(frameId);
    });
    session.on('Detached' as any, () => { t.closed = true; });
    await t.cdp.send('Runtime.enable');
    // Without the Page domain enabled, Chrome never runs scripts added for new documents.
    await t.cdp.send('Page.enable');
    await t.cdp.send('Runtime.addBinding', { name: SHADOW_HINT_BINDING });
    await t.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: SHADOW_HINT_SCRIPT });
    await t.cdp.send('Page.addScriptToEvaluateOnNewDocument', { source: ENGINE_SOURCE, worldName: t.world });
    return t;
  }

  /** The frames this target renders itself (its root and same-process descendants). */
  async frames(): Promise<TargetFrame[]> {
    const { frameTree } = await this.cdp.send<{ frameTree: CdpFrameTree }>('Page.getFrameTree');
    const out: TargetFrame[] = [];
    const visit = (t: CdpFrameTree) => {
      out.push({
        frameId: t.frame.id,
        parentId: t.frame.parentId ?? null,
        url: t.frame.unreachableUrl || t.frame.url + (t.frame.urlFragment ?? ''),
        origin: t.frame.securityOrigin,
        failed: !!t.frame.unreachableUrl || t.frame.url.startsWith('chrome-error:'),
      });
      for (const c of t.childFrames ?? []) visit(c);
    };
    visit(frameTree);
    return out;
  }

  /** Our world's context in a frame right now (undefined until created, or after navigation). */
  currentContext(frameId: string): number | undefined {
    return this.contexts.get(frameId);
  }

  /** Execution context of our isolated world in a frame, with the engine installed in it. */
  async engineContext(frameId: string): Promise<number> {
    let id = this.contexts.get(frameId);
    if (id === undefined) {
      const created = await this.cdp.send<{ executionContextId: number }>('Page.createIsolatedWorld', { frameId, worldName: this.world, grantUniveralAccess: false });
      id = created.executionContextId;
      this.contexts.set(frameId, id);
      this.contextFrame.set(id, frameId);
      this.shadowDirty.add(frameId);
    }
    if (!this.verified.has(id)) {
      // The document may predate our init script (attached to a loaded page, an OOPIF found late).
      // Only then does the source cross: compiling it, even behind a guard, took 20 ms of every
      // first read of a document that already ran it.
      if (!await this.evaluate(id, 'typeof globalThis.__pagelens === "object"')) await this.evaluate(id, `if (!globalThis.__pagelens) {\n${ENGINE_SOURCE}\n}\n0`);
      // Before anything reads an ID of this document: its numbering continues the session's.
      if (this.numbering) this.numbering.claimed(frameId, await this.evaluate(id, this.numbering.claimExpression(frameId)));
      this.verified.add(id);
    }
    if (this.needsShadowSearch(frameId)) await this.searchClosedShadowRoots(frameId, id);
    return id;
  }

  /**
   * Whether closed shadow roots must be looked for: the hook reported one, or the document does
   * not run the hook (it predates it) and was not searched yet. A document that runs the hook and
   * reported none has none made by script, and is never searched: searching costs a walk of the
   * whole document tree. Closed roots the HTML parser makes are not reported by the hook: those of
   * markup a script parses (setHTMLUnsafe, parseHTMLUnsafe) have the document searched whole; those
   * declared in the document's own source are missed (no cheap way to know of them: the browser
   * keeps no source of a document served no-store, and a whole search costs seconds on a huge page).
   */
  private needsShadowSearch(frameId: string): boolean {
    if (this.shadowDirty.has(frameId) && this.hooked.has(frameId)) this.shadowDirty.delete(frameId);
    return this.shadowHinted.has(frameId) || this.shadowDirty.has(frameId) || this.declared.has(frameId);
  }

  /** Waits for the search within a budget; past it, the search goes on and the read says what it misses. */
  private async searchClosedShadowRoots(frameId: string, contextId: number): Promise<void> {
    let search = this.shadowSearches.get(frameId);
    if (!search) {
      this.shadowHinted.delete(frameId);
      // A document that runs the hook names the hosts of its closed roots: only those are asked about.
      // One that predates the hook is searched in the whole document tree, once.
      const hooked = this.hooked.has(frameId) && !this.shadowDirty.has(frameId) && !this.declared.has(frameId);
      this.shadowDirty.delete(frameId);
      this.declared.delete(frameId);
      search = (hooked ? this.adoptNamedShadowRoots(frameId, contextId) : this.adoptClosedShadowRoots(frameId, contextId)).catch((e: unknown) => {
        this.shadowFailures.set(frameId, [`the search for them failed: ${(e as Error).message}`]);
        this.shadowHinted.add(frameId); // try again on the next read
      }).finally(() => this.shadowSearches.delete(frameId));
      this.shadowSearches.set(frameId, search);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = await Promise.race([
      search.then(() => false),
      new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(true), SHADOW_SEARCH_BUDGET_MS); }),
    ]);
    clearTimeout(timer);
    if (late) this.shadowSlow.set(frameId, `the search for closed shadow roots took longer than ${SHADOW_SEARCH_BUDGET_MS / 1000} s (a large page on a busy machine), so this read may miss their content; it goes on in the background and the next read includes them`);
  }

  /** Calls `__pagelens.<method>(...args)` in a frame's engine and returns the value. */
  async callEngine<T>(frameId: string, method: string, args: unknown[] = []): Promise<T> {
    const contextId = await this.engineContext(frameId);
    return this.evaluate(contextId, engineCallExpression(method, args)) as Promise<T>;
  }

  /**
   * callEngine() for a read of the whole page, which may take long on a huge one. The answer
   * crosses as one JSON string (serialized by the isolated world's own JSON, which the page cannot
   * touch): Chrome turns a large object into protocol values several times slower. Returns the
   * value, and how many bytes crossed.
   */
  async readEngine(frameId: string, method: string, args: unknown[] = []): Promise<{ value: unknown; bytes: number }> {
    const text = await this.readEngineText(frameId, `JSON.stringify(${engineCallExpression(method, args)})`);
    if (typeof text !== 'string') throw new PagelensError('ENGINE_ERROR', `The in-page engine answered ${method} with no JSON text; the page may have tampered with it.`);
    return { value: JSON.parse(text), bytes: text.length };
  }

  /** The frame's read as the engine wrote it (its own JSON text), unchecked: src/core/heldReads.ts checkReadText parses and checks it. */
  async readText(frameId: string, args: unknown[]): Promise<unknown> {
    const hinted = this.shadowHinted.has(frameId);
    const text = await this.readEngineText(frameId, engineCallExpression('read', args));
    // The hook's word that the page made a closed shadow root can cross our read on a busy machine:
    // the read was walked before the root was handed over, so it says it may miss that content.
    if (!hinted && this.shadowHinted.has(frameId)) {
      this.shadowSlow.set(frameId, 'the page made a closed shadow root while it was being read, so this read may miss its content; the next read includes it');
    }
    return text;
  }

  private async readEngineText(frameId: string, expression: string): Promise<unknown> {
    return this.evaluate(await this.engineContext(frameId), expression, true);
  }

  /**
   * Calls a function in a frame's isolated world with remote objects as arguments
   * (`{objectId}`) or plain values (`{value}`); returns the value, or a remote object handle.
   */
  async callFunction<T>(frameId: string, fn: string, args: CallArgument[], returnByValue = true, objectGroup = 'pagelens'): Promise<T> {
    const executionContextId = await this.engineContext(frameId);
    const r = await this.cdp.send<{ result: { value?: unknown; objectId?: string; subtype?: string }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      'Runtime.callFunctionOn', { functionDeclaration: fn, executionContextId, arguments: args, returnByValue, objectGroup },
    );
    if (r.exceptionDetails) {
      const msg = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
      throw new PagelensError('ENGINE_ERROR', `The in-page engine failed: ${msg.split('\n')[0]}`);
    }
    return (returnByValue ? r.result.value : r.result) as T;
  }

  /** A handle, in the parent frame's isolated world, on the iframe element that hosts `childFrameId`. */
  async frameOwner(childFrameId: string, parentFrameId: string, objectGroup: string): Promise<{ objectId: string; backendNodeId: number }> {
    const { backendNodeId } = await this.cdp.send<{ backendNodeId: number }>('DOM.getFrameOwner', { frameId: childFrameId });
    return { objectId: await this.resolveBackendNode(backendNodeId, parentFrameId, objectGroup), backendNodeId };
  }

  /** A DOM node known by its backend ID, as a remote object in our isolated world of its frame. */
  async resolveBackendNode(backendNodeId: number, frameId: string, objectGroup: string): Promise<string> {
    const executionContextId = await this.engineContext(frameId);
    const { object } = await this.cdp.send<{ object: { objectId: string } }>('DOM.resolveNode', { backendNodeId, executionContextId, objectGroup });
    return object.objectId;
  }

  async release(objectGroup: string): Promise<void> {
    await this.cdp.send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
  }

  private async evaluate(contextId: number, expression: string, long = false): Promise<any> {
    const r = await this.cdp.send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>(
      'Runtime.evaluate', { expression, contextId, returnByValue: true, awaitPromise: false },
      long ? { long: true, timeoutMs: LONG_CALL_TIMEOUT_MS } : {},
    );
    if (r.exceptionDetails) {
      const msg = r.exceptionDetails.exception?.description ?? r.exceptionDetails.text;
      throw new PagelensError('ENGINE_ERROR', `The in-page engine failed: ${msg.split('\n')[0]}`);
    }
    return r.result.value;
  }

  /**
   * Closed shadow roots are invisible to every script in the page, ours included; CDP can see
   * them. A document that does not run the hook is searched once (and again after the page creates
   * another closed root), and each root is handed to the engine, which walks it from then on.
   */
  private async adoptClosedShadowRoots(frameId: string, contextId: number): Promise<void> {
    await this.adoptRoots(frameId, contextId, await this.closedRootsOf(frameId));
  }

  /**
   * The closed roots of a frame's document, by backend node ID. The whole document tree
   * (`DOM.getDocument`) was 66 MB of CDP traffic for 50k elements; the flattened snapshot of the
   * document is a sixth of that and four times as fast, and says which nodes lie in a closed root.
   * It flattens roots into their hosts, so a closed root inside another cannot be told from the
   * outer root's own elements: the outermost roots are then described with their whole subtree,
   * which finds the roots nested in them (closed content is a small part of a page).
   */
  private async closedRootsOf(frameId: string): Promise<number[]> {
    const snap = await this.cdp.send<DomSnapshot>('DOMSnapshot.captureSnapshot', { computedStyles: [] }, { long: true, timeoutMs: SHADOW_SEARCH_TIMEOUT_MS });
    const doc = snap.documents.find((d) => snap.strings[d.frameId] === frameId);
    if (!doc) return [];
    const { parentIndex, backendNodeId, shadowRootType } = doc.nodes;
    const closedAt = new Set(shadowRootType?.index.filter((_, k) => snap.strings[shadowRootType.value[k]] === 'closed'));
    // A node in a closed root whose parent is not: that parent is the host of an outermost one.
    const hosts = new Set<number>();
    for (const i of closedAt) {
      const parent = parentIndex[i];
      if (parent !== undefined && parent >= 0 && !closedAt.has(parent)) hosts.add(backendNodeId[parent]);
    }
    const outermost = (await this.describeAll([...hosts], 0)).flatMap((host) => (host.shadowRoots ?? []).filter((sr) => sr.shadowRootType === 'closed'));
    const closed = new Set<number>();
    const visit = (n: DomNode) => {
      for (const sr of n.shadowRoots ?? []) {
        if (sr.shadowRootType === 'closed') closed.add(sr.backendNodeId);
        visit(sr);
      }
      // An iframe's document (contentDocument) is another frame's: its own search finds its roots.
      for (const c of n.children ?? []) visit(c);
    };
    for (const root of await this.describeAll(outermost.map((sr) => sr.backendNodeId), -1)) {
      closed.add(root.backendNodeId);
      visit(root);
    }
    return [...closed];
  }

  /** DOM nodes by backend ID, all asked at once, to `depth` (-1: the whole subtree, shadow roots included); nodes gone since are left out. */
  private async describeAll(ids: number[], depth: number): Promise<DomNode[]> {
    const described = await Promise.all(ids.map((backendNodeId) => this.cdp.send<{ node: DomNode }>(
      'DOM.describeNode', { backendNodeId, depth, pierce: true }, { long: true, timeoutMs: SHADOW_SEARCH_TIMEOUT_MS },
    ).then((r) => r.node, (e: unknown) => {
      // A node removed since it was found is simply gone; any other failure fails the search.
      if (/No node with given id|Could not find node/i.test((e as Error).message)) return null;
      throw e;
    })));
    return described.filter((n): n is DomNode => n !== null);
  }

  /**
   * The closed roots of the hosts the hook named since the last call, without the whole document
   * tree. The list comes from the page's main world, so it is checked against CDP: only a real
   * closed root of a named element is adopted. A page that emptied the list (it reported a closed
   * root, yet names none) gets the whole-tree search instead.
   */
  private async adoptNamedShadowRoots(frameId: string, contextId: number): Promise<void> {
    const main = this.mainWorlds.get(frameId);
    if (main === undefined) return this.adoptClosedShadowRoots(frameId, contextId);
    const group = 'pagelens-shadow';
    const closed: number[] = [];
    try {
      const list = await this.cdp.send<{ result: { objectId?: string } }>('Runtime.evaluate', { expression: `typeof globalThis.${CLOSED_HOSTS} === 'function' ? globalThis.${CLOSED_HOSTS}() : null`, contextId: main, returnByValue: false, objectGroup: group });
      if (!list.result.objectId) return await this.adoptClosedShadowRoots(frameId, contextId);
      const { result } = await this.cdp.send<{ result: Array<{ name: string; value?: { objectId?: string } }> }>('Runtime.getProperties', { objectId: list.result.objectId, ownProperties: true });
      const hosts = result.filter((p) => /^\d+$/.test(p.name) && p.value?.objectId).map((p) => p.value!.objectId!);
      const described = await Promise.all(hosts.map((objectId) => this.cdp.send<{ node: DomNode }>('DOM.describeNode', { objectId, depth: 0 }).catch(() => null)));
      // A host CDP could not describe may hold a closed root all the same: the whole-tree search finds it.
      if (!described.includes(null)) for (const d of described) for (const sr of d?.node.shadowRoots ?? []) if (sr.shadowRootType === 'closed') closed.push(sr.backendNodeId);
    } finally {
      await this.cdp.send('Runtime.releaseObjectGroup', { objectGroup: group }).catch(() => {});
    }
    if (!closed.length) return this.adoptClosedShadowRoots(frameId, contextId);
    await this.adoptRoots(frameId, contextId, closed);
  }

  /** Hands each closed root (by backend node ID) to the engine, which walks it from then on. */
  private async adoptRoots(frameId: string, contextId: number, closed: number[]): Promise<void> {
    const failures: string[] = [];
    // A root removed since it was found is simply gone; any other failure hides its content.
    const failed = (e: unknown) => { if (!/No node with given id|Could not find node/i.test((e as Error).message)) failures.push((e as Error).message); };
    // Every root is resolved at once and handed over in a few calls: one round trip after another
    // per root took seconds on a page with hundreds of closed roots.
    const resolved = await Promise.all(closed.map((backendNodeId) => this.cdp.send<{ object: { objectId: string } }>(
      'DOM.resolveNode', { backendNodeId, executionContextId: contextId, objectGroup: 'pagelens-shadow' },
    ).then((r) => r.object.objectId, (e: unknown) => { failed(e); return null; })));
    const roots = resolved.filter((id): id is string => id !== null);
    for (let i = 0; i < roots.length; i += ADOPT_BATCH) {
      try {
        const r = await this.cdp.send<{ result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } }>('Runtime.callFunctionOn', {
          executionContextId: contextId,
          functionDeclaration: ADOPT_ROOTS,
          arguments: roots.slice(i, i + ADOPT_BATCH).map((objectId) => ({ objectId })),
          returnByValue: true,
        });
        if (r.exceptionDetails) failures.push(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
        else if (Array.isArray(r.result.value)) failures.push(...r.result.value.map(String));
      } catch (e) {
        failed(e);
      }
    }
    if (failures.length) {
      this.shadowFailures.set(frameId, failures);
      this.shadowHinted.add(frameId); // try again on the next read
    } else {
      this.shadowFailures.delete(frameId); // every root is in now, whatever an earlier pass missed
    }
    await this.cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'pagelens-shadow' }).catch(() => {});
    // Keeping the DOM domain on would make Chrome stream every DOM change to us.
    await this.cdp.send('DOM.disable').catch(() => {});
  }

  /** Whether the page attached a shadow root in the frame since the last call (the read must then walk the whole frame). */
  takeShadowAttached(frameId: string): boolean {
    return this.shadowAttached.delete(frameId);
  }

  /** Closed shadow roots of a frame that could not be read (or not yet) since the last call, as sentences. */
  takeShadowFailures(frameId: string): string[] {
    const out: string[] = [];
    const slow = this.shadowSlow.get(frameId);
    if (slow) { this.shadowSlow.delete(frameId); out.push(slow); }
    const f = this.shadowFailures.get(frameId);
    if (!f) return out;
    this.shadowFailures.delete(frameId);
    out.push(`${f.length} closed shadow root${f.length > 1 ? 's' : ''} could not be read, so ${f.length > 1 ? 'their' : 'its'} content is missing (${f[0].split('\n')[0]})`);
    return out;
  }

  async detach(): Promise<void> {
    this.closed = true;
    await this.cdp.detach();
  }
}

/** What a search for closed roots reads of `DOMSnapshot.captureSnapshot` (strings are indexes into `strings`). */
interface DomSnapshot {
  strings: string[];
  documents: Array<{
    frameId: number;
    nodes: { parentIndex: number[]; backendNodeId: number[]; shadowRootType?: { index: number[]; value: number[] } };
  }>;
}

interface DomNode {
  backendNodeId: number;
  children?: DomNode[];
  shadowRoots?: DomNode[];
  shadowRootType?: string;
}

/** `__pagelens.<method>(...args)` with plain JSON arguments, as an expression in our world. */
function engineCallExpression(method: string, args: unknown[]): string {
  return `globalThis.__pagelens.${method}(...${JSON.stringify(args)})`;
}
