// The Host port over CDP (model/contracts/host.ts): a thin adapter over LensCore (frames, the ID
// ledger, resolution), engine.ts (schema-checked engine and element calls) and, for the page side
// acting needs (input, url, navigation, settling), input.ts, goto.ts and stability.ts. The act
// pipeline and verification above it are src/core's, shared with the extension.
import { refuseIfGivenUp } from './callScope.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { HostElement, HostEngine, HostFrame } from '../model/contracts/host.js';
import { globalId } from '../model/pagemodel/page.js';
import type { ActHost, Navigation, SettleRequest, Settled } from '../core/port.js';
import type { LensCore, Resolved } from './lensCore.js';
import { elementCall, engineCall, ownerCall } from './engine.js';
import { describeFailure, LAYOUT_GROUP, type LaidOutFrame } from './frames.js';
import { checkStatus, navigateCommitted, type StartNavigation } from './goto.js';
import { insertText, mouseMove, mousePress, pressChord, typeText } from './input.js';
import { recoverInLedger } from '../core/recover.js';
import { readPageModel } from './read.js';
import { waitForDomStability, type StabilityOptionsInput } from './stability.js';

const hostFrame = (f: LaidOutFrame): HostFrame => ({
  ordinal: f.ordinal, url: f.url, offset: f.offset, handle: f,
  ...(f.parent && { parent: f.parent.ordinal }),
  ...(f.clip && { clip: f.clip }),
  ...(f.error && { error: f.error }),
});
/** The laid-out frame behind a port frame of this host. */
export const laidOut = (f: HostFrame) => f.handle as LaidOutFrame;
const resolved = (el: HostElement) => el.handle as Resolved;

/** The engine side of the port over a lens core; `group`: the CDP object group this user's handles live in. */
export function cdpEngine(core: LensCore, group: string): HostEngine {
  return {
    frames: async () => (await core.frames.known()).filter((f) => !f.target.closed).map(hostFrame),
    layout: (use) => core.frames.withLayout(({ frames, warnings }) => use(frames.map(hostFrame), warnings)),
    engine: (frame, call, args = []) => engineCall(laidOut(frame), call, args),
    owner(frame, call, args = []) {
      const f = laidOut(frame);
      if (!f.parent || !f.ownerObjectId) throw new PagelensError('FRAME_DETACHED', `frame ${f.ordinal} has no iframe element in its parent`);
      return ownerCall(f.parent, f.ownerObjectId, call, args, LAYOUT_GROUP);
    },
    async resolve(gid, opts = {}) {
      const r = await core.resolve(gid, group, opts);
      return { frame: hostFrame(r.frame), gid, handle: r, ...(r.doc && { doc: r.doc }) };
    },
    element: (el, call, args = []) => elementCall(resolved(el), call, args, group),
    // One object, not the group: a verification's read must not free the handle being acted on.
    release: async (el) => { const r = resolved(el); await r.frame.target.cdp.send('Runtime.releaseObject', { objectId: r.objectId }).catch(() => {}); },
    sighting(gid) {
      const known = core.ids.sighting(gid);
      // Chrome's accessibility tree names roles its own way: only the engine's own sightings compare.
      return known && known.vocabulary !== 'ax' ? known : undefined;
    },
    describe: describeFailure,
    noteControl(frame, doc, control) {
      const issued = doc ?? core.ids.expectedDoc('', frame.ordinal);
      if (issued) core.ids.note(globalId(frame.ordinal, control.id), { doc: issued, frame: frame.ordinal, role: control.role, name: control.name, centre: [0, 0] });
    },
    async recover(gid) {
      const r = await recoverInLedger(core.ids, gid, () => readPageModel(core, { fullPage: true }));
      return r.ok ? { ok: true, gid: r.gid, doc: r.doc, confidence: r.confidence, message: r.message } : { ok: false, code: r.code, message: r.message };
    },
  };
}

/**
 * The whole host the act pipeline uses, over CDP. `afterAction`: the caller's own wait after an
 * action (lens.act's `settle` option); verification's waits are the pipeline's.
 */
export function cdpActHost(core: LensCore, group: string, afterAction?: StabilityOptionsInput): ActHost {
  const cdp = core.input;
  return {
    ...cdpEngine(core, group),
    input: {
      trusted: true,
      move: (x, y) => mouseMove(cdp, x, y),
      // The pipeline moves the pointer there first (and checks what is under it): the press lands where it is.
      click: (x, y, clicks = 1) => mousePress(cdp, x, y, clicks),
      insertText: (text) => insertText(cdp, text),
      typeText: (text) => typeText(cdp, text),
      press: (chord) => pressChord(cdp, chord),
    },
    url: async () => core.page.url(),
    navigate: (how) => navigate(core, how),
    settle: (req) => settle(core, req, afterAction),
  };
}

async function settle(core: LensCore, req: SettleRequest, afterAction?: StabilityOptionsInput): Promise<Settled> {
  const options: StabilityOptionsInput = req.afterAction && afterAction ? afterAction
    : { timeout: req.timeoutMs, stabilityThreshold: req.quietMs ?? 300, networkIdleThreshold: req.quietMs ?? 300, ...(req.afterAction && { quietFromStart: true }) };
  const r = await waitForDomStability(core, options);
  return { settled: r.stable, waitedMs: r.waitedMs, reason: r.reason, ...(r.uncertain && { uncertain: r.uncertain }) };
}

async function navigate(core: LensCore, how: Navigation): Promise<{ status?: number; warnings?: string[] }> {
  refuseIfGivenUp('the navigation');
  const page = core.page;
  const what = 'goto' in how ? `open ${how.goto}` : 'history' in how ? `go ${how.history}` : 'reload';
  const start: StartNavigation = 'goto' in how ? (o) => page.goto(how.goto, o)
    : 'history' in how ? (o) => (how.history === 'back' ? page.goBack(o) : page.goForward(o))
      : (o) => page.reload(o);
  const from = page.url();
  const { response, loading } = await navigateCommitted(page, start, what, 'NAVIGATION_FAILED');
  // Nothing to go to: no document came and the page stayed where it was. Going back to the blank
  // page a tab opened with is a move like any other (the soak saw it refused as "no page").
  if ('history' in how && response === null && page.url() === from) throw new PagelensError('NOT_ACTIONABLE', `no page to go ${how.history} to`);
  // The main document's HTTP status, when it has one; a 4xx/5xx answer fails the action (NAVIGATION_FAILED, with the status).
  const { status } = checkStatus(page, response, what, 'NAVIGATION_FAILED');
  return { ...(status !== null && { status }), ...(loading && { warnings: [`answered with the page as it stands: ${loading}`] }) };
}
