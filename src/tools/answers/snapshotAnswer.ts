// One snapshot request → what a face prints or a tool answers: the payload (data) and the text a
// model or a person reads (the axtree outline or the compact text form when format is text, else
// the payload as JSON). The CLI's `pagelens snapshot` and the page_snapshot tool both call it, so a
// mode or format reads the same everywhere; each face adds only its own envelope (the CLI's
// summary line and --pretty, the tool's baseline for deltas and its image part).
import { PagelensError } from '../../model/contracts/errors.js';
import type { SnapshotFormat, SnapshotMode } from '../../model/contracts/snapshotRequest.js';
import type { SemanticV3Result } from '../../model/contracts/schema.js';
import { v3Text } from '../../model/renderers/render.js';
import type { ToolLens } from '../registry/toolLens.js';

export interface SnapshotAsk {
  mode?: SnapshotMode;
  format?: SnapshotFormat;
  fullPage?: boolean;
  boxes?: boolean;
  query?: string;
  maxTokens?: number;
  /** semantic_v3 as text: read the tree too (data), as a tool that keeps it for deltas needs; default true. */
  tree?: boolean;
  /** hybrid: JPEG quality, set-of-mark labels and the image's format. */
  screenshot?: { quality?: number; setOfMark?: boolean; type?: 'jpeg' | 'png' };
}

export interface SnapshotAnswer {
  text: string;
  data: object;
  /** hybrid: the screenshot, base64 JPEG (also kept in data for faces that print it whole). */
  screenshot?: string;
}

/** Reads the page as asked (the request already checked with snapshotRequestConflict) and renders it. */
export async function snapshotAnswer(lens: ToolLens, ask: SnapshotAsk): Promise<SnapshotAnswer> {
  const json = (data: object): SnapshotAnswer => ({ text: JSON.stringify(data), data });
  const unavailable = (what: string) => new PagelensError('BAD_INPUT', `${what} is not offered by this host (its lens has no such reader); the other modes and formats are.`);
  const mode = ask.mode ?? 'semantic_v3';
  const fullPage = ask.fullPage ?? false;
  if (ask.query !== undefined) return json(await lens.snapshot({ query: ask.query, ...(ask.maxTokens !== undefined && { maxTokens: ask.maxTokens }) }));
  if (mode === 'axtree') {
    if (!lens.axtree) throw unavailable('mode axtree');
    const ax = await lens.axtree();
    return ask.format === 'text' ? { text: ax.outline, data: ax } : json(ax);
  }
  if (mode === 'semantic_v3') {
    if (ask.format === 'text' && ask.tree === false) {
      if (!lens.text) throw unavailable('format text');
      const text = await lens.text({ fullPage });
      return { text, data: { text } };
    }
    const snap: SemanticV3Result = await lens.snapshot({ fullPage, ...(ask.boxes !== undefined && { boxes: ask.boxes }) });
    // The text form of this very read: the IDs a client keeps for deltas are the ones it was shown.
    return ask.format === 'text' ? { text: v3Text(snap), data: snap } : json(snap);
  }
  if (mode === 'hybrid') {
    const r = await lens.snapshot({ mode: 'hybrid', ...(ask.screenshot && { screenshot: ask.screenshot }) });
    return { ...json(r), screenshot: r.screenshot };
  }
  if (mode === 'full') return json(await lens.snapshot({ mode: 'full' }));
  return json(await lens.snapshot({ mode, fullPage, ...(ask.boxes !== undefined && { boxes: ask.boxes }) }));
}
