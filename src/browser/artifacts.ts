// The heavier artifacts a backend asks for (seed 000 §8, §10, §11; 001 §2.2): skeleton, full and
// hybrid, all read through the one engine and carrying the same IDs as semantic_v3; and
// capture(), the mode-selection chain (§14–§15) run against the live page.
import { randomBytes } from 'node:crypto';
import { joinFrameDocuments, type FullResult, type HybridResult, type SkeletonResult } from '../model/renderers/artifacts.js';
import type { SerializedDocument } from '../model/contracts/engineAnswers.js';
import { isPagelensError, PagelensError } from '../model/contracts/errors.js';
import { CaptureOptions, selectDomMode, type CaptureOptionsInput, type CaptureResult, type DomModeContextInput } from '../model/negotiation/modes.js';
import type { PageModel } from '../model/pagemodel/page.js';
import { renderV3 } from '../model/renderers/render.js';
import { ScreenshotOptions, SnapshotOptions } from '../model/contracts/schema.js';
import type { DomMode } from '../model/contracts/snapshotRequest.js';
import type { SelectOptions } from '../model/renderers/skeleton.js';
import { elapsedMs, fullResult, hybridResult, skeletonResult, type SerializedPage } from '../model/renderers/artifactResults.js';
import { parseInput } from '../model/contracts/validate.js';
import type { LensCore } from './core.js';
import { engineCall, engineCallWith } from './engine.js';
import { describeFailure, LAYOUT_GROUP } from './frames.js';
import { readPageModel } from './read.js';
import { captureViewport, composeScreenshot } from './screenshot.js';
import { semanticSnapshot } from './semantic.js';

/** Options listed per select in the skeleton (the selected ones always). */
const MAX_OPTIONS = 25;

type Artifact = SkeletonResult | FullResult | HybridResult;

export async function artifactSnapshot(core: LensCore, opts: SnapshotOptions): Promise<Artifact> {
  switch (opts.mode) {
    case 'skeleton': return skeletonSnapshot(core, opts.fullPage);
    case 'full': return fullSnapshot(core);
    case 'hybrid': return hybridSnapshot(core, ScreenshotOptions.parse(opts.screenshot ?? {}));
    default: throw new PagelensError('INTERNAL', `artifactSnapshot was asked for ${opts.mode}`);
  }
}

// ---- skeleton ----

/** The model with structure and attributes, and the options of its native selects. */
async function readForSkeleton(core: LensCore, fullPage: boolean): Promise<{ model: PageModel; selects: Map<string, SelectOptions> }> {
  const model = await readPageModel(core, { fullPage, structure: true, attributes: true });
  core.ids.handOut(model);
  const selects = new Map<string, SelectOptions>();
  const byFrame = new Map<number, string[]>();
  for (const n of model.nodes) {
    if (n.tag !== 'select') continue;
    byFrame.set(n.frame, [...byFrame.get(n.frame) ?? [], n.gid.replace(/^f\d+_/, '')]);
  }
  await Promise.all([...byFrame].map(async ([ordinal, ids]) => {
    const where = ordinal ? `frame ${ordinal}: ` : '';
    const frame = core.frames.lastByOrdinal(ordinal);
    try {
      if (!frame) throw new PagelensError('FRAME_DETACHED', 'the frame is gone');
      const read = await engineCall(frame, 'nativeOptions', [ids, MAX_OPTIONS]);
      if (read.doc !== model.docs[ordinal]) throw new PagelensError('NAVIGATED', 'the frame shows another document now');
      for (const s of read.selects) selects.set(ordinal ? `f${ordinal}_${s.id}` : s.id, { options: s.options, total: s.total });
    } catch (e) {
      model.warnings.push(`${where}the options of its selects could not be read (${describeFailure(e)}); they are left out of the skeleton`);
    }
  }));
  return { model, selects };
}

export async function skeletonSnapshot(core: LensCore, fullPage = false): Promise<SkeletonResult> {
  const t0 = performance.now();
  const { model, selects } = await readForSkeleton(core, fullPage);
  return skeletonResult(model, selects, t0);
}

// ---- full ----

export async function fullSnapshot(core: LensCore): Promise<FullResult> {
  const t0 = performance.now();
  let attempt = await serializePage(core);
  // A frame that moved to another document between the read and the copy: once more, from the start.
  if (attempt.stale) attempt = await serializePage(core);
  if (attempt.stale) throw new PagelensError('NAVIGATED', `The page kept changing documents while it was copied (${attempt.stale}). Take a new snapshot.`);
  return fullResult(attempt, t0);
}

/**
 * Reads the model (which tags every element and hands out its IDs), then has each frame copy its
 * document and mark where its child frames stand; each child's copy is inlined there.
 */
async function serializePage(core: LensCore): Promise<SerializedPage> {
  const model = await readPageModel(core, { fullPage: true });
  core.ids.handOut(model);
  const nonce = randomBytes(12).toString('hex');
  const warnings: string[] = [];
  const docs = await core.frames.withLayout(async ({ frames, warnings: layoutWarnings }) => {
    warnings.push(...layoutWarnings);
    const out = new Map<number, SerializedDocument>();
    await Promise.all(frames.map(async (f) => {
      if (f.error) return;
      const children = frames.filter((c) => c.parent === f && c.ownerObjectId && !c.error);
      try {
        const args = [{ value: { frame: f.ordinal, nonce, children: children.map((c) => c.ordinal) } }, ...children.map((c) => ({ objectId: c.ownerObjectId! }))];
        out.set(f.ordinal, await engineCallWith(f, 'serializeDocument', args, LAYOUT_GROUP));
      } catch (e) {
        if (f.ordinal === 0) throw e;
        warnings.push(`frame ${f.ordinal}: its document could not be copied (${describeFailure(e)}); its iframe is left empty`);
      }
    }));
    return out;
  });
  const joined = joinFrameDocuments(docs, model.docs, nonce);
  if (joined.stale) return { model, raw: '', warnings, elements: 0, tagged: 0, stale: joined.stale };
  return { model, raw: joined.raw, warnings, elements: joined.elements, tagged: joined.tagged };
}

// ---- hybrid ----

export async function hybridSnapshot(core: LensCore, shot: { quality: number; setOfMark: boolean }): Promise<HybridResult> {
  const t0 = performance.now();
  // The picture and the read at once: both are of the viewport as it is now.
  const [{ model, selects }, image] = await Promise.all([
    readForSkeleton(core, false),
    captureViewport(core),
  ]);
  const v3 = renderV3(model, { boxes: true });
  const t1 = performance.now();
  const picture = await composeScreenshot(image, { quality: shot.quality, viewport: model.viewport, ...(shot.setOfMark && { marks: v3.interactive_tree }) });
  return hybridResult(model, selects, v3.interactive_tree, {
    base64: picture.jpeg.toString('base64'), hash: picture.hash, bytes: picture.jpeg.length, marks: picture.marks.length, ms: elapsedMs(t1), setOfMark: shot.setOfMark,
  }, t0);
}

// ---- capture: the selection chain ----

type Payload = CaptureResult['payload'];

/** Each mode as the chain extracts it; semantic and skeleton reached as fallbacks read the whole page. */
async function extract(core: LensCore, mode: DomMode, fallback: boolean): Promise<Payload> {
  switch (mode) {
    case 'semantic_v3': return semanticSnapshot(core, SnapshotOptions.parse({ mode }));
    // V2 semantic is not pruned to the viewport: an empty viewport is what sends the chain here.
    case 'semantic': return semanticSnapshot(core, SnapshotOptions.parse({ mode, fullPage: true }));
    case 'skeleton': return skeletonSnapshot(core, fallback);
    case 'hybrid': return hybridSnapshot(core, ScreenshotOptions.parse({}));
    case 'full': return fullSnapshot(core);
  }
}

/** Why a payload does not count (nothing in it to act on), or null when it does. */
function emptiness(payload: Payload): string | null {
  switch (payload.mode) {
    case 'semantic_v3': return payload.interactive_tree.length ? null : 'came back empty (no interactive element in the viewport)';
    case 'semantic': return payload.nodes.length ? null : 'came back empty (no interactive element on the page)';
    case 'skeleton': return payload.meta.elements ? null : 'came back empty (no interactive element)';
    default: return null; // a screenshot or a document always shows something
  }
}

/**
 * Runs the chain against the live page: the mode selectDomMode() picks, and when it fails or
 * comes back empty the next one, saying so. Throws only when every mode failed (with each reason);
 * when some came back empty and nothing else worked, the empty payload is the answer.
 */
export async function capture(core: LensCore, input: CaptureOptionsInput): Promise<CaptureResult> {
  const opts = parseInput(CaptureOptions, input, 'capture options');
  const context: DomModeContextInput = typeof opts.requested === 'string' ? { requestedDomMode: opts.requested } : opts.requested ?? {};
  const first = selectDomMode(opts.query, context);
  const tried: Array<{ mode: DomMode; reason: string }> = [];
  let lastEmpty: { mode: DomMode; payload: Payload } | undefined;
  let lastError: unknown;
  for (let pick = first; pick.mode; pick = selectDomMode(opts.query, { ...context, failed: tried.map((t) => t.mode) })) {
    const mode = pick.mode;
    try {
      const payload = await extract(core, mode, tried.length > 0);
      const empty = emptiness(payload);
      if (!empty) {
        if (!tried.length) return { mode, payload, reason: pick.reason };
        return { mode, payload, reason: `${tried.map((t) => `${t.mode} ${t.reason}`).join('; ')}: fell back to ${mode} (first choice: ${first.reason})`, fellBackFrom: tried };
      }
      tried.push({ mode, reason: empty });
      lastEmpty = { mode, payload };
    } catch (e) {
      if (isPagelensError(e, 'BAD_INPUT')) throw e;
      tried.push({ mode, reason: `failed (${describeFailure(e)})` });
      lastError = e;
    }
  }
  const story = tried.map((t) => `${t.mode} ${t.reason}`).join('; ');
  if (lastEmpty) {
    return { mode: lastEmpty.mode, payload: lastEmpty.payload, reason: `nothing to act on in any mode (${story}); this is the ${lastEmpty.mode} payload as it came`, fellBackFrom: tried.filter((t) => t.mode !== lastEmpty!.mode) };
  }
  const code = lastError instanceof PagelensError ? lastError.code : 'INTERNAL';
  throw new PagelensError(code, `No mode could read the page: ${story}.`, { tried });
}
