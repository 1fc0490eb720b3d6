// The mutation logs of every frame, read from Node: each frame's activity (for the stability wait)
// and the recent events, merged in time order with global frame IDs (marks and the events since
// them are the act pipeline's: src/core/verify.ts). A frame whose log cannot be
// read is named with the reason: its errors are unknown, which is not the same as none.
import type { DomActivity } from '../model/contracts/engine.js';
import type { MutationEvent } from '../model/pagemodel/mutations.js';
import type { LensCore } from './lensCore.js';
import { engineCall } from './engine.js';
import { describeFailure, type LaidOutFrame } from './frames.js';

export type { FrameMark, Marks } from '../core/verify.js';

export interface FrameActivity { frame: LaidOutFrame; activity: DomActivity | null; failure?: string }

async function live(core: LensCore): Promise<LaidOutFrame[]> {
  return (await core.frames.known()).filter((f) => !f.error && !f.target.closed);
}

/** Per-frame DOM activity; a frame that cannot answer (navigating, gone) has none, and says why. */
export async function frameActivity(core: LensCore): Promise<FrameActivity[]> {
  const read = (frames: LaidOutFrame[]) => Promise.all(frames.map(async (frame): Promise<FrameActivity> => {
    try {
      return { frame, activity: await engineCall(frame, 'domActivity') };
    } catch (e) {
      return { frame, activity: null, failure: describeFailure(e) };
    }
  }));
  const first = await read(await live(core));
  if (first.every((a) => a.activity)) return first;
  // A frame that does not answer may be one the page has replaced since the last layout (a
  // reload, an iframe that navigated): lay the frames out again and ask the ones there now.
  await core.frames.withLayout(async () => undefined);
  return read(await live(core));
}

/** The last `limit` events across frames, oldest first, and the frames whose log could not be read. */
export async function recentEvents(core: LensCore, limit = 10): Promise<{ events: MutationEvent[]; unread: string[] }> {
  const frames = await live(core);
  const unread: string[] = [];
  const lists = await Promise.all(frames.map(async (frame) => {
    try {
      return (await engineCall(frame, 'recentMutationEvents', [limit])).map((e) => ({ ...e, frame: frame.ordinal }));
    } catch (e) {
      unread.push(`recent changes in ${where(frame)} could not be read (${describeFailure(e)})`);
      return [];
    }
  }));
  return { events: lists.flat().sort((a, b) => a.timestamp - b.timestamp).slice(-limit), unread };
}

export { renderEvents } from '../model/pagemodel/mutations.js';

function where(frame: LaidOutFrame): string {
  return frame.ordinal === 0 ? 'the page' : `frame ${frame.ordinal}`;
}
