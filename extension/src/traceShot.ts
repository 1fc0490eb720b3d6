// A step's screenshot for the run record, taken in the service worker right after the step's read:
// the boxes of the IDs the model was shown (the lens's page model, read again at once: it places
// every frame's nodes in the top-level viewport, so a box in a cross-origin iframe lines up too;
// an ID it no longer has keeps a small box around the centre the observation gave), the visible
// tab (chrome.tabs.captureVisibleTab, image.ts) with every field holding a secret value painted
// over before the JPEG is encoded. A capture that fails costs the record its screenshot, never
// the run: what went wrong is in the step's warnings.
import type { ListedId, StepCapture } from '../../src/core/agentRecord.js';
import { listedOf } from '../../src/core/agentRecord.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import type { TraceBox } from '../../src/model/trace/runRecord.js';
import { REDACTED } from '../../src/model/safety/secrets.js';
import { captureTab } from './image.js';
import { lensOf } from './tabLens.js';

type Rect = [number, number, number, number];

/** The JPEG quality of a record's screenshots, as the CDP host's (src/trace/capture.ts). */
const QUALITY = 0.62;
/** The side of the box drawn around a centre point when no element was found. */
const APPROX = 14;

export async function captureTraceStep(tabId: number, snap: SemanticV3Result): Promise<StepCapture> {
  const t0 = performance.now();
  const warnings: string[] = [];
  const listed: ListedId[] = listedOf(snap);
  const model = await lensOf(tabId).model({ fullPage: false }).catch((e: Error) => {
    warnings.push(`the trace could not read the boxes of the listed IDs: ${e.message.split('\n')[0]}`);
    return undefined;
  });
  const nodes = new Map(model?.nodes.map((n) => [n.gid, n]) ?? []);
  const secretRects: Rect[] = (model?.nodes ?? []).filter((n) => n.value === REDACTED || n.type === 'password').map((n) => n.box);
  // Every field that shows a secret value, listed or not, in every frame (src/core/secretCovers.ts): the rule every image of this host follows.
  const covers = await lensOf(tabId).secretCovers().catch((e: Error) => {
    warnings.push(`the trace could not ask where secret fields are: ${e.message.split('\n')[0]}`);
    return undefined;
  });
  if (covers) { secretRects.push(...covers.boxes.map((b) => [...b] as Rect)); warnings.push(...covers.warnings); }
  const boxes: TraceBox[] = [];
  for (const l of listed) {
    const own = nodes.get(l.id);
    const box: Rect | undefined = own?.box ?? l.box ?? (l.xy ? [l.xy[0] - APPROX / 2, l.xy[1] - APPROX / 2, APPROX, APPROX] : undefined);
    if (!box || box[2] <= 0 || box[3] <= 0) continue;
    const secret = l.secret || own?.value === REDACTED || own?.type === 'password';
    boxes.push({ id: l.id, box: box.map((v) => Math.round(v * 10) / 10) as Rect, ...(l.role && { role: l.role }), ...(l.name && { name: l.name }), ...(!own && !l.box && { approx: true as const }), ...(secret && { secret: true as const }) });
    if (l.secret) secretRects.push(box);
  }
  const frames = model?.frames.length ?? snap.frames?.length ?? 1;
  const base = { viewport: snap.viewport, boxes, frames };
  let png: Blob;
  try {
    const shot = await captureTab(tabId);
    png = shot.png;
    if (shot.activated) warnings.push('the tab was brought to the front of its window to be photographed for the trace');
  } catch (e) {
    warnings.push(`the trace's screenshot could not be taken: ${(e as Error).message.split('\n')[0]}`);
    return { ...base, width: 0, height: 0, ms: Math.round(performance.now() - t0), warnings };
  }
  const bitmap = await createImageBitmap(png);
  const { width, height } = bitmap;
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d', { alpha: false });
  if (!ctx) {
    bitmap.close();
    warnings.push('the trace\'s screenshot could not be encoded: no 2D canvas in the service worker');
    return { ...base, width: 0, height: 0, ms: Math.round(performance.now() - t0), warnings };
  }
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const scale = snap.viewport.width ? width / snap.viewport.width : 1;
  ctx.fillStyle = 'rgb(40, 40, 48)';
  for (const [x, y, w, h] of secretRects) ctx.fillRect(Math.floor(x * scale), Math.floor(y * scale), Math.ceil(w * scale) + 1, Math.ceil(h * scale) + 1);
  const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: QUALITY })).arrayBuffer());
  return { ...base, jpeg, width, height, ms: Math.round(performance.now() - t0), warnings };
}
