// Every frame of a tab laid out as the CDP host lays them out (src/browser/frames.ts): children
// in the order their iframe elements stand in the parent's document, ordinals depth-first, each
// frame's content origin and visible part in top-level viewport coordinates. The geometry comes
// from the parent's own engine (frameOwners), asked through its content script.
import { intersect } from '../../src/model/pagemodel/page.js';
import type { Box, FrameInfo } from '../../src/model/contracts/schema.js';
import type { OwnerInfo } from '../../src/model/contracts/engine.js';
import { ask, ordinalOf, type TabState } from './tab.js';

export interface ExtFrame {
  frameId: number;
  ordinal: number;
  parent: ExtFrame | null;
  url: string;
  /** Filled in from the frame's own answer when it gives one ("null": an opaque origin). */
  origin: string;
  offset: [number, number];
  clip: Box | null;
  originInParent: [number, number];
  sandboxed: boolean;
  /** The parent measured an iframe element for it (occlusion checks ask that element). */
  owned: boolean;
  /** Chrome's ID of the document the frame shows. */
  documentId?: string;
  error?: string;
}

function nonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The parent's measure of the iframe elements holding `children`. Each child is asked to announce
 * itself to its parent window at the same time (the handshake in content.ts), so that a parent
 * that has not matched a child's element yet can do it now.
 */
export async function ownersOf(tabId: number, parent: number, children: number[]): Promise<{ owners: Map<number, OwnerInfo>; silent: Map<number, string> }> {
  const pairs = children.map((frameId) => ({ frameId, nonce: nonce() }));
  // A child that cannot announce (not loaded, no content script) is not matched; why is kept, so
  // that its frame is not reported as merely "detached".
  const silent = new Map<number, string>();
  const [owners] = await Promise.all([
    ask(tabId, parent, { kind: 'owners', children: pairs }),
    ...pairs.map((p) => ask(tabId, p.frameId, { kind: 'announce', nonce: p.nonce }).catch((e: unknown) => { silent.set(p.frameId, describe(e)); })),
  ]);
  return { owners: new Map(owners.map((o) => [o.frameId, o.info])), silent };
}

function urlOrigin(url: string): string {
  try { return new URL(url).origin; } catch { return 'null'; }
}

export function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Lays out the frames of a tab in depth-first document order; `viewport` is the main frame's. */
export async function layoutFrames(tabId: number, state: TabState, viewport: { width: number; height: number }): Promise<{ frames: ExtFrame[]; warnings: string[] }> {
  const warnings: string[] = [];
  const all = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
  const kids = new Map<number, chrome.webNavigation.Frame[]>();
  for (const f of all) if (f.frameId !== 0) kids.set(f.parentFrameId, [...(kids.get(f.parentFrameId) ?? []), f]);
  const main = all.find((f) => f.frameId === 0);
  const root: ExtFrame = {
    frameId: 0, ordinal: 0, parent: null, url: main?.url ?? '', origin: urlOrigin(main?.url ?? ''),
    offset: [0, 0], clip: [0, 0, viewport.width, viewport.height], originInParent: [0, 0], sandboxed: false, owned: false,
    ...(main?.documentId && { documentId: main.documentId }),
  };
  const out: ExtFrame[] = [root];
  const children = new Map<ExtFrame, ExtFrame[]>();
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    const list = kids.get(parent.frameId);
    if (!list?.length || parent.error) continue;
    let owners = new Map<number, OwnerInfo>();
    let silent = new Map<number, string>();
    let failure: string | undefined;
    try {
      // A frame that failed to load has no content script to answer the handshake: not waited for.
      ({ owners, silent } = await ownersOf(tabId, parent.frameId, list.filter((k) => !k.errorOccurred).map((k) => k.frameId)));
    } catch (e) {
      failure = `its iframe element could not be measured: ${describe(e)}`;
    }
    const laid = list.map((k) => {
      const info = owners.get(k.frameId);
      const frame: ExtFrame & { order: number } = {
        frameId: k.frameId, ordinal: -1, parent, url: k.url, origin: urlOrigin(k.url), offset: parent.offset, clip: null,
        originInParent: [0, 0], sandboxed: info?.sandboxed ?? false, owned: false, order: info?.order ?? Number.MAX_SAFE_INTEGER,
        ...(k.documentId && { documentId: k.documentId }),
      };
      // Chrome shows its error page there, whose origin is opaque (the CDP host reports it so too).
      if (k.errorOccurred) { frame.error = 'failed to load (blocked or unreachable)'; frame.origin = 'null'; }
      else if (failure) frame.error = failure;
      else if (!info) frame.error = silent.has(k.frameId) ? `its iframe element could not be matched: the frame did not answer (${silent.get(k.frameId)})` : 'detached: its iframe element is gone';
      else {
        frame.owned = true;
        frame.originInParent = [info.content[0], info.content[1]];
        frame.offset = [parent.offset[0] + info.content[0], parent.offset[1] + info.content[1]];
        const content: Box = [frame.offset[0], frame.offset[1], info.content[2], info.content[3]];
        frame.clip = info.visible && parent.clip ? intersect(content, parent.clip) : null;
      }
      return frame;
    }).sort((a, b) => a.order - b.order);
    children.set(parent, laid);
    out.push(...laid);
    queue.push(...laid);
  }
  const ordered: ExtFrame[] = [];
  const visit = (f: ExtFrame) => { ordered.push(f); for (const c of children.get(f) ?? []) visit(c); };
  visit(root);
  for (const f of ordered) f.ordinal = ordinalOf(state, f.frameId);
  return { frames: ordered, warnings };
}

/** The frame list of the payload, as the CDP host words it (src/browser/frames.ts frameInfo). */
export function frameInfo(f: ExtFrame): FrameInfo {
  const info: FrameInfo = {
    id: f.ordinal,
    url: f.url,
    origin: f.origin,
    parentId: f.parent ? f.parent.ordinal : null,
    crossOrigin: f.parent ? f.parent.origin !== f.origin || f.origin === 'null' : false,
    sandboxed: f.sandboxed,
  };
  if (f.error) info.error = f.error;
  return info;
}
