// The heavier artifacts a backend asks for (seed 000 §8, §10, §11; 001 §2.2), written once for
// both hosts: skeleton, full and hybrid, all read through the one engine and carrying the same IDs
// as semantic_v3. What only a host can do is its ReadHost's (copying one frame's document,
// photographing and encoding the viewport); the reads, the select options, joining the frames'
// copies and composing the payloads are here.
import { PagelensError } from '../model/contracts/errors.js';
import type { PageModel } from '../model/pagemodel/page.js';
import { elapsedMs, fullResult, hybridResult, skeletonResult, type SerializedPage } from '../model/renderers/artifactResults.js';
import { joinFrameDocuments, type FullResult, type HybridResult, type SkeletonResult } from '../model/renderers/artifacts.js';
import type { SerializedDocument } from '../model/contracts/engineAnswers.js';
import { renderV3 } from '../model/renderers/render.js';
import type { SelectOptions } from '../model/renderers/skeleton.js';
import { readHandedOut } from './handOut.js';
import type { ReadHost } from './port.js';
import { secretCovers } from './secretCovers.js';

/** Options listed per select in the skeleton (the selected ones always). */
const MAX_OPTIONS = 25;

// ---- skeleton ----

/** The model with structure and attributes, and the options of its native selects. */
async function readForSkeleton(host: ReadHost, fullPage: boolean): Promise<{ model: PageModel; selects: Map<string, SelectOptions> }> {
  const model = await readHandedOut(host, { fullPage, structure: true, attributes: true });
  const selects = new Map<string, SelectOptions>();
  const byFrame = new Map<number, string[]>();
  for (const n of model.nodes) {
    if (n.tag !== 'select') continue;
    byFrame.set(n.frame, [...byFrame.get(n.frame) ?? [], n.gid.replace(/^f\d+_/, '')]);
  }
  if (!byFrame.size) return { model, selects };
  const frames = await host.engine.frames();
  await Promise.all([...byFrame].map(async ([ordinal, ids]) => {
    try {
      const frame = frames.find((f) => f.ordinal === ordinal);
      if (!frame) throw new PagelensError('FRAME_DETACHED', 'the frame is gone');
      const read = await host.engine.engine(frame, 'nativeOptions', [ids, MAX_OPTIONS]);
      if (read.doc !== model.docs[ordinal]) throw new PagelensError('NAVIGATED', 'the frame shows another document now');
      for (const s of read.selects) selects.set(ordinal ? `f${ordinal}_${s.id}` : s.id, { options: s.options, total: s.total });
    } catch (e) {
      model.warnings.push(`${ordinal ? `frame ${ordinal}: ` : ''}the options of its selects could not be read (${host.engine.describe(e)}); they are left out of the skeleton`);
    }
  }));
  return { model, selects };
}

export async function skeletonSnapshot(host: ReadHost, fullPage = false): Promise<SkeletonResult> {
  const t0 = performance.now();
  const { model, selects } = await readForSkeleton(host, fullPage);
  return skeletonResult(model, selects, t0);
}

// ---- full ----

export async function fullSnapshot(host: ReadHost): Promise<FullResult> {
  const t0 = performance.now();
  let attempt = await serializePage(host);
  // A frame that moved to another document between the read and the copy: once more, from the start.
  if (attempt.stale) attempt = await serializePage(host);
  if (attempt.stale) throw new PagelensError('NAVIGATED', `The page kept changing documents while it was copied (${attempt.stale}). Take a new snapshot.`);
  return fullResult(attempt, t0);
}

/** 24 hex digits from the platform's random source (Node and the service worker both have it). */
function nonce(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Reads the model (which tags every element and hands out its IDs), then has each frame copy its
 * document, marking where its child frames stand; each child's copy is inlined at its marker,
 * depth first; a frame whose copy failed leaves its iframe empty.
 */
async function serializePage(host: ReadHost): Promise<SerializedPage> {
  const model = await readHandedOut(host, { fullPage: true });
  const marker = nonce();
  const warnings: string[] = [];
  const docs = await host.engine.layout(async (frames, layoutWarnings) => {
    warnings.push(...layoutWarnings);
    const out = new Map<number, SerializedDocument>();
    await Promise.all(frames.map(async (f) => {
      if (f.error) return;
      const children = frames.filter((c) => c.parent === f.ordinal && !c.error);
      try {
        out.set(f.ordinal, await host.copyDocument(f, children, { frame: f.ordinal, nonce: marker }));
      } catch (e) {
        if (f.ordinal === 0) throw e;
        warnings.push(`frame ${f.ordinal}: its document could not be copied (${host.engine.describe(e)}); its iframe is left empty`);
      }
    }));
    return out;
  });
  if (!docs.has(0)) throw new PagelensError('ENGINE_ERROR', 'the page\'s document could not be copied');
  const joined = joinFrameDocuments(docs, model.docs, marker);
  if (joined.stale) return { model, raw: '', warnings, elements: 0, tagged: 0, stale: joined.stale };
  for (const ordinal of joined.orphans) warnings.push(`frame ${ordinal}: its iframe was not found in its parent's copy; its document is left out`);
  return { model, raw: joined.raw, warnings, elements: joined.elements, tagged: joined.tagged };
}

// ---- hybrid ----

/**
 * semantic_v3 nodes of the viewport with boxes, the skeleton, and a JPEG of the viewport with each
 * visible element's ID drawn at its box (set-of-mark), with the image's perceptual hash.
 */
export async function hybridSnapshot(host: ReadHost, shot: { quality: number; setOfMark: boolean; type?: 'jpeg' | 'png' }): Promise<HybridResult> {
  const t0 = performance.now();
  // The picture, the read and where secret fields show their value at once: all of the viewport as it is now.
  const [{ model, selects }, photo, covers] = await Promise.all([readForSkeleton(host, false), host.photograph(), secretCovers(host.engine)]);
  const v3 = renderV3(model, { boxes: true });
  const t1 = performance.now();
  const picture = await host.compose(photo.image, { quality: shot.quality, viewport: model.viewport, covers: covers.boxes, ...(shot.type && { type: shot.type }), ...(shot.setOfMark && { marks: v3.interactive_tree }) });
  return hybridResult(model, selects, v3.interactive_tree, { ...picture, ms: elapsedMs(t1), setOfMark: shot.setOfMark }, t0, [...photo.notes, ...covers.warnings]);
}
