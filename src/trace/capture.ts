// The screenshot of a step, with the box of every ID the model was shown. Boxes are read where the
// engine mirrors its IDs (the data-llm-id attribute) in every frame, at the moment of the
// screenshot, so they line up with it; an ID found nowhere keeps a small box around the centre
// its observation gave. Secret fields are painted over before the JPEG is encoded: where the
// engine says a secret field shows its value (src/core/secretCovers.ts: a password field the page
// turned into text, a card number in a text field, in every frame), password and credential/card
// autofill fields as they are now, and every element the observation showed as "***". Every wait
// is bounded: a page that stops answering costs the trace its screenshot, never the call it records.
import type { Frame, Page } from 'playwright-core';
import sharp from 'sharp';
import type { SecretCovers } from '../core/secretCovers.js';
import { SECRET_AUTOFILL_TOKENS } from '../model/safety/secrets.js';
import type { ListedId, StepCapture } from '../core/agentRecord.js';
import { drawCovers } from '../model/renderers/secretCover.js';
import type { TraceBox } from '../model/trace/runRecord.js';

/** The engine's answer of where secret fields show their value (a lens's secretCovers()). */
export type CoverSource = () => Promise<SecretCovers>;

/** The JPEG quality of a trace's screenshots: readable text at a fraction of a PNG. */
const QUALITY = 62;
/** How long a screenshot or a frame's boxes may take. */
const CAPTURE_TIMEOUT_MS = 4000;
/** The side of the box drawn around a centre point when no element was found. */
const APPROX = 14;

/** An ID the model was shown (src/core/agentRecord.ts: every host's capture takes the same list). */
export type Listed = ListedId;

/** The step's capture as agentRecord.ts takes it, its JPEG a Buffer on this host. */
export type Capture = Omit<StepCapture, 'jpeg'> & { jpeg?: Buffer };

type Rect = [number, number, number, number];
interface FrameBoxes { found: Array<{ id: string; box: Rect; secret?: boolean }>; secrets: Rect[] }

/** Runs in each frame: the boxes of the IDs asked for, and of every secret field (open shadow roots included). */
function frameBoxes(arg: { ids: string[]; tokens: string[] }): FrameBoxes {
  const want = new Set(arg.ids);
  const found: FrameBoxes['found'] = [];
  const secrets: Rect[] = [];
  const rect = (el: Element): Rect | null => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 ? [r.x, r.y, r.width, r.height] : null;
  };
  const visit = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const tag = el.tagName;
      let secret = false;
      if (tag === 'INPUT' || tag === 'TEXTAREA') {
        const type = ((el as HTMLInputElement).type || '').toLowerCase();
        const ac = (el.getAttribute('autocomplete') || '').toLowerCase().split(/\s+/);
        secret = (tag === 'INPUT' && type === 'password') || ac.some((t) => arg.tokens.includes(t));
        const r = secret ? rect(el) : null;
        if (r) secrets.push(r);
      }
      const id = el.getAttribute('data-llm-id');
      if (id !== null && want.has(id)) {
        const r = rect(el);
        if (r) found.push({ id, box: r, ...(secret && { secret: true }) });
      }
      if (el.shadowRoot) visit(el.shadowRoot);
    }
  };
  visit(document);
  return { found, secrets };
}

const within = <T>(p: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p.catch(() => undefined), new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), ms); })]).finally(() => clearTimeout(timer));
};

/** A frame's offset in the main viewport (its element's box), or none for the main frame. */
async function offsetOf(frame: Frame): Promise<[number, number] | undefined> {
  if (!frame.parentFrame()) return [0, 0];
  const el = await frame.frameElement();
  const box = await el.boundingBox();
  await el.dispose();
  return box ? [box.x, box.y] : undefined;
}

/**
 * `covers`: the engine's secret covers (every caller with a lens gives them); without it, secret
 * fields are found by what they are now only (a field the page turned from password into text is missed).
 */
export async function captureStep(page: Page, listed: Listed[], covers?: CoverSource): Promise<Capture> {
  const t0 = performance.now();
  const warnings: string[] = [];
  const frames = page.frames();
  const viewport = page.viewportSize() ?? await within(page.evaluate(() => ({ width: innerWidth, height: innerHeight })), CAPTURE_TIMEOUT_MS) ?? { width: 0, height: 0 };
  const ids = listed.map((l) => l.id);
  const found = new Map<string, Rect>();
  const secretIds = new Set<string>();
  const secretRects: Rect[] = [];
  await Promise.all(frames.map(async (frame) => {
    const r = await within((async () => {
      const offset = await offsetOf(frame);
      if (!offset) return undefined;
      const b = await frame.evaluate(frameBoxes, { ids, tokens: [...SECRET_AUTOFILL_TOKENS] });
      return { offset, b };
    })(), CAPTURE_TIMEOUT_MS);
    if (!r) return;
    const [dx, dy] = r.offset;
    for (const f of r.b.found) {
      if (found.has(f.id)) continue;
      found.set(f.id, [f.box[0] + dx, f.box[1] + dy, f.box[2], f.box[3]]);
      if (f.secret) secretIds.add(f.id);
    }
    for (const s of r.b.secrets) secretRects.push([s[0] + dx, s[1] + dy, s[2], s[3]]);
  }));
  const boxes: TraceBox[] = [];
  for (const l of listed) {
    const own = found.get(l.id);
    const box: Rect | undefined = own ?? l.box ?? (l.xy ? [l.xy[0] - APPROX / 2, l.xy[1] - APPROX / 2, APPROX, APPROX] : undefined);
    if (!box) continue;
    boxes.push({ id: l.id, box: box.map((v) => Math.round(v * 10) / 10) as Rect, ...(l.role && { role: l.role }), ...(l.name && { name: l.name }), ...(!own && !l.box && { approx: true as const }), ...((l.secret || secretIds.has(l.id)) && { secret: true as const }) });
    if (l.secret) secretRects.push(box);
  }
  // The engine's covers are read as the screenshot is taken, so they stand where the fields are in it.
  const [png, engineCovers] = await Promise.all([
    within(page.screenshot({ type: 'png', scale: 'css', caret: 'initial', animations: 'allow', timeout: CAPTURE_TIMEOUT_MS }), CAPTURE_TIMEOUT_MS + 500),
    covers ? withFailure(covers(), CAPTURE_TIMEOUT_MS) : undefined,
  ]);
  const blank = (why: string) => {
    warnings.push(why);
    return { width: 0, height: 0, viewport, boxes, frames: frames.length, ms: Math.round(performance.now() - t0), warnings };
  };
  if (!png) return blank(`the trace's screenshot could not be taken within ${CAPTURE_TIMEOUT_MS / 1000} s`);
  if (engineCovers && 'failure' in engineCovers) return blank(`the trace's screenshot is left out: its secret fields could not be found (${engineCovers.failure})`);
  if (engineCovers) {
    secretRects.push(...engineCovers.boxes);
    warnings.push(...engineCovers.warnings);
  } else {
    warnings.push('secret fields were found by their current type only (no engine to ask): a field the page turned from password into text may show');
  }
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  drawCovers(data, width, height, info.channels, secretRects, viewport.width ? width / viewport.width : 1);
  const jpeg = await sharp(data, { raw: { width, height, channels: info.channels } }).jpeg({ quality: QUALITY, mozjpeg: true }).toBuffer();
  return { jpeg, width, height, viewport, boxes, frames: frames.length, ms: Math.round(performance.now() - t0), warnings };
}

/** The answer, or why there is none (it failed, or came later than `ms`). */
async function withFailure<T>(p: Promise<T>, ms: number): Promise<T | { failure: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ failure: string }>((r) => { timer = setTimeout(() => r({ failure: `no answer within ${ms / 1000} s` }), ms); });
  return Promise.race([p.catch((e: unknown) => ({ failure: e instanceof Error ? e.message : String(e) })), late]).finally(() => clearTimeout(timer));
}
