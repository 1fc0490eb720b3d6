// The lens of a tab: src/core/lens.ts (the one mode dispatch, the artifacts, the toolkits, written
// once for both hosts) over this host's reading side (src/core/port.ts ReadHost). Only transport is
// here: the page model read through the content scripts (snapshot.ts), a frame's document copied
// by its content script (its child frames named by Chrome's frameId), the visible tab photographed
// and encoded in the service worker (image.ts), the act pipeline (act.ts), and where this host
// keeps things (the tab's ledger in chrome.storage.session, its snapshots in the worker's memory).
import { CoreLens, type SnapshotPayload } from '../../src/core/lens.js';
import type { ReadHost } from '../../src/core/port.js';
import { KeptSnapshots } from '../../src/core/snapshots.js';
import type { HostFrame } from '../../src/model/contracts/host.js';
import { parseExpectSpec } from '../../src/model/contracts/outcome.js';
import type { SemanticResult, SemanticV3Result } from '../../src/model/contracts/schema.js';
import type { SnapshotMode } from '../../src/model/contracts/snapshotRequest.js';
import type { FullResult, HybridResult, SkeletonResult } from '../../src/model/renderers/artifacts.js';
import type { FilteredResult } from '../../src/model/retrieval/rag.js';
import { act } from './tabAct.js';
import { extensionActHost, extensionEngine, frameIdOf } from './hostEngine.js';
import { base64, captureTab, composeImage } from './image.js';
import { readModel, recentEvents } from './snapshot.js';
import { ask, restoreTab, saveTab, tabState } from './tab.js';

function readHost(tabId: number): ReadHost {
  // Each tab's snapshots, kept in the service worker's memory: a new worker takes a new one.
  const snapshots = new KeptSnapshots();
  return {
    engine: extensionEngine(tabId),
    // Read at each use: the tab's ledger is the one restoreTab read back (every entry point awaits it).
    get ledger() { return tabState(tabId).ledger; },
    read: (opts) => readModel(tabId, opts),
    keep: () => saveTab(tabId),
    recentEvents: (limit) => recentEvents(tabId, limit),
    copyDocument: (frame, children, req) => ask(tabId, frameIdOf(frame), {
      kind: 'serialize', frame: req.frame, nonce: req.nonce, children: children.map((c: HostFrame) => ({ ordinal: c.ordinal, frameId: frameIdOf(c) })),
    }),
    async photograph() {
      const shot = await captureTab(tabId);
      return { image: shot.png, notes: shot.activated ? ['the tab was brought to the front of its window to be photographed'] : [] };
    },
    async compose(image, opts) {
      const picture = await composeImage(image as Blob, opts);
      return { base64: base64(picture.image), hash: picture.hash, bytes: picture.image.length, marks: picture.marks.length };
    },
    snapshots,
    // The extension does not count navigations: each frame's document is checked instead (a new page is a new document).
    navigations: () => 0,
    act: (action, opts) => {
      const expect = typeof opts.expect === 'string' ? parseExpectSpec(opts.expect) : opts.expect;
      return act(tabId, action, expect ? { expect } : {});
    },
    // No title here: the core takes the engine's (isolated world) from the exploration snapshot; the tab's title would fall back to the URL.
    verifier: () => extensionActHost(tabId, true),
  };
}

/**
 * The visible tab as PNG with its secret fields painted over (src/core/secretCovers.ts, read in
 * every frame as the tab is photographed): the image every plain capture of this host gives.
 */
export async function photographCovered(tabId: number): Promise<{ png: Uint8Array; width: number; height: number; viewport: { width: number; height: number }; warnings: string[] }> {
  await restoreTab(tabId);
  const [shot, covers] = await Promise.all([captureTab(tabId), lensOf(tabId).secretCovers()]);
  const picture = await composeImage(shot.png, { quality: 100, viewport: covers.viewport, covers: covers.boxes, type: 'png' });
  return { png: picture.image, width: picture.width, height: picture.height, viewport: covers.viewport, warnings: covers.warnings };
}

const lenses = new Map<number, CoreLens>();

/** The tab's lens, made once per tab and service-worker life (its exploration snapshots with it). */
export function lensOf(tabId: number): CoreLens {
  let lens = lenses.get(tabId);
  if (!lens) { lens = new CoreLens(readHost(tabId)); lenses.set(tabId, lens); }
  return lens;
}

/** The tab is closed: its lens goes. */
export function forgetLens(tabId: number): void {
  lenses.delete(tabId);
}

export interface SnapshotOptions {
  /** semantic_v3 (default), semantic, skeleton, full (the templatized annotated DOM) or hybrid (tree with boxes, skeleton, screenshot): the shared mode list; axtree is read over CDP only. */
  mode?: SnapshotMode;
  /** Every element of the page, not only those in the viewport. */
  fullPage?: boolean;
  /** Boxes on every node (`box`). */
  boxes?: boolean;
  /** The task: only what matters for it (the filtered tree), within `maxTokens`. */
  query?: string;
  maxTokens?: number;
  /** hybrid: JPEG quality, 1–100 (60 by default, as the CDP host). */
  quality?: number;
  /** hybrid: draw each visible element's ID on the screenshot (set-of-mark; true by default). */
  marks?: boolean;
  /** hybrid: the CDP host's spelling of the two above (`lens.snapshot({ mode: 'hybrid', screenshot })`). */
  screenshot?: { quality?: number; setOfMark?: boolean; type?: 'jpeg' | 'png' };
}

export function snapshot(tabId: number, opts: SnapshotOptions & { query: string }): Promise<FilteredResult>;
export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'skeleton' }): Promise<SkeletonResult>;
export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'full' }): Promise<FullResult>;
export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'hybrid' }): Promise<HybridResult>;
export function snapshot(tabId: number, opts: SnapshotOptions & { mode: 'semantic' }): Promise<SemanticResult>;
export function snapshot(tabId: number, opts?: SnapshotOptions & { mode?: 'semantic_v3' }): Promise<SemanticV3Result>;
export function snapshot(tabId: number, opts?: SnapshotOptions): Promise<SnapshotPayload>;
/** The payload in the requested mode, through the one mode dispatch (src/core/lens.ts); the extension's own spelling of the screenshot's options is taken too. */
export async function snapshot(tabId: number, input: SnapshotOptions = {}): Promise<SnapshotPayload> {
  await restoreTab(tabId);
  const { screenshot, quality, marks, ...rest } = input;
  // One option set for both hosts: quality and marks are the screenshot's, named as the caller wrote them.
  const shot = { ...(quality !== undefined && { quality }), ...(marks !== undefined && { setOfMark: marks }), ...screenshot };
  const named = [(quality !== undefined || screenshot?.quality !== undefined) && 'quality', (marks !== undefined || screenshot?.setOfMark !== undefined) && 'marks'].filter(Boolean);
  return lensOf(tabId).snapshot({ ...rest, ...(named.length && { screenshot: shot }) }, (part) => (part === 'screenshot' ? named.join(' and ') : part));
}
