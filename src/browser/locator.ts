// A Playwright Locator for a pagelens ID, for Playwright users. A Locator re-resolves each time
// it is used, so it is scoped to the document that issued the ID (the engine's token, written on
// <html>): once the frame shows another document it matches nothing, rather than a stranger.
import type { Frame, Locator } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';
import type { LensCore } from './lensCore.js';
import { elementCall, engineCall } from './engine.js';
import { DOC_ATTR, ID_ATTR } from '../model/pagemodel/page.js';

const GROUP = 'pagelens-locator';

export async function locatorFor(core: LensCore, gid: string): Promise<Locator> {
  if (/^\d+-\d+$/.test(gid.trim())) throw new PagelensError('BAD_INPUT', `locator() takes an ID from a snapshot ("12", "f1_12"), not the EncodedId ${gid}; use its data-llm-id from the axtree.`);
  const el = await core.resolve(gid, GROUP);
  try {
    const state = await elementCall(el, 'elementState', [], GROUP);
    if (state.inClosedShadow) {
      throw new PagelensError('NOT_ACTIONABLE', `Element ${gid} is inside a closed shadow root, which Playwright locators cannot reach; act on it with lens.act().`);
    }
    const token = await engineCall(el.frame, 'markDocument');
    const frame = el.frame.ordinal === 0 ? core.page.mainFrame() : await frameWithDocument(core, token);
    if (!frame) throw new PagelensError('FRAME_DETACHED', `The frame of ${gid} is not among the page's frames any more. Take a new snapshot.`);
    const locator = frame.locator(`html[${DOC_ATTR}="${token}"] [${ID_ATTR}="${el.localId}"]`);
    const count = await locator.count();
    if (count !== 1) {
      throw new PagelensError('NOT_ACTIONABLE', `Element ${gid} is not reachable by selector (${count} elements carry ${ID_ATTR}="${el.localId}" in its document: the page removed or copied the attribute).`);
    }
    return locator;
  } finally {
    await el.frame.target.release(GROUP).catch(() => {});
  }
}

/** The Playwright frame showing the document with this token (there is exactly one). */
async function frameWithDocument(core: LensCore, token: string): Promise<Frame | undefined> {
  const frames = core.page.frames().filter((f) => !f.isDetached());
  const counts = await Promise.all(frames.map((f) => f.locator(`html[${DOC_ATTR}="${token}"]`).count().catch(() => 0)));
  return frames.find((_, i) => counts[i] === 1);
}
