// capture(), the mode-selection chain (seed §14–§15) run against the live page, for both hosts:
// the mode selectDomMode() picks (semantic_v3 by default, hybrid for visual or spatial words, full
// only when the backend asks), and when a mode fails or comes back empty, the next one
// (semantic_v3 → semantic → skeleton), saying so.
import { isPagelensError, PagelensError } from '../model/contracts/errors.js';
import { ScreenshotOptions } from '../model/contracts/schema.js';
import type { DomMode } from '../model/contracts/snapshotRequest.js';
import { parseInput } from '../model/contracts/validate.js';
import { selectDomMode, type DomModeContextInput } from '../model/negotiation/modes.js';
import { CaptureOptions, type CaptureOptionsInput, type CaptureResult } from '../model/negotiation/modes.js';
import { fullSnapshot, hybridSnapshot, skeletonSnapshot } from './artifacts.js';
import type { ReadHost } from './port.js';
import { semanticSnapshot } from './semantic.js';

type Payload = CaptureResult['payload'];

/** Each mode as the chain extracts it; semantic and skeleton reached as fallbacks read the whole page. */
async function extract(host: ReadHost, mode: DomMode, fallback: boolean): Promise<Payload> {
  switch (mode) {
    case 'semantic_v3': return semanticSnapshot(host, { mode, fullPage: false, boxes: false });
    // V2 semantic is not pruned to the viewport: an empty viewport is what sends the chain here.
    case 'semantic': return semanticSnapshot(host, { mode, fullPage: true, boxes: false });
    case 'skeleton': return skeletonSnapshot(host, fallback);
    case 'hybrid': return hybridSnapshot(host, ScreenshotOptions.parse({}));
    case 'full': return fullSnapshot(host);
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
 * Runs the chain: throws only when every mode failed (with each reason); when some came back
 * empty and nothing else worked, the empty payload is the answer.
 */
export async function capture(host: ReadHost, input: CaptureOptionsInput): Promise<CaptureResult> {
  const opts = parseInput(CaptureOptions, input, 'capture options');
  const context: DomModeContextInput = typeof opts.requested === 'string' ? { requestedDomMode: opts.requested } : opts.requested ?? {};
  const first = selectDomMode(opts.query, context);
  const tried: Array<{ mode: DomMode; reason: string }> = [];
  let lastEmpty: { mode: DomMode; payload: Payload } | undefined;
  let lastError: unknown;
  for (let pick = first; pick.mode; pick = selectDomMode(opts.query, { ...context, failed: tried.map((t) => t.mode) })) {
    const mode = pick.mode;
    try {
      const payload = await extract(host, mode, tried.length > 0);
      const empty = emptiness(payload);
      if (!empty) {
        if (!tried.length) return { mode, payload, reason: pick.reason };
        return { mode, payload, reason: `${tried.map((t) => `${t.mode} ${t.reason}`).join('; ')}: fell back to ${mode} (first choice: ${first.reason})`, fellBackFrom: tried };
      }
      tried.push({ mode, reason: empty });
      lastEmpty = { mode, payload };
    } catch (e) {
      if (isPagelensError(e, 'BAD_INPUT')) throw e;
      tried.push({ mode, reason: `failed (${host.engine.describe(e)})` });
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
