// The mutation logs of every frame, read from Node: marks ("where each log stood") and the
// events since a mark, merged in time order with global frame IDs. A frame whose log cannot be
// read is named with the reason: its errors are unknown, which is not the same as none.
import type { DomActivity } from '../model/contracts/engine.js';
import type { MutationEvent } from '../model/contracts/outcome.js';
import type { LensCore } from './core.js';
import { engineCall } from './engine.js';
import { describeFailure, type LaidOutFrame } from './frames.js';

export interface FrameMark { doc: string; seq: number; count: number }
export type Marks = Map<string, FrameMark>;

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

export interface MarkSet { marks: Marks; unread: string[] }

export async function markFrames(core: LensCore): Promise<MarkSet> {
  const marks: Marks = new Map();
  const unread: string[] = [];
  for (const { frame, activity, failure } of await frameActivity(core)) {
    if (activity) marks.set(frame.frameId, { doc: activity.doc, seq: activity.seq, count: activity.count });
    else unread.push(`${where(frame)} could not be read before the action (${failure})`);
  }
  return { marks, unread };
}

export interface EventsRead {
  events: MutationEvent[];
  domChanged: boolean;
  /** Frames whose log could not be read, with the reason: what they showed is unknown. */
  unread: string[];
}

/** Events logged since `marks` in every frame, and whether any frame's DOM changed at all. */
export async function eventsSince(core: LensCore, marks: Marks): Promise<EventsRead> {
  const frames = await live(core);
  let domChanged = false;
  const unread: string[] = [];
  const lists = await Promise.all(frames.map(async (frame) => {
    const mark = marks.get(frame.frameId);
    try {
      const [r, activity] = await Promise.all([
        engineCall(frame, 'mutationsSince', [mark?.doc ?? null, mark?.seq ?? 0]),
        engineCall(frame, 'domActivity'),
      ]);
      if (!mark || mark.doc !== activity.doc || mark.count !== activity.count) domChanged = true;
      return r.events.map((e) => ({ ...e, frame: frame.ordinal }));
    } catch (e) {
      unread.push(`the log of ${where(frame)} could not be read (${describeFailure(e)}), so errors shown there are unknown`);
      return [];
    }
  }));
  return { events: lists.flat().sort((a, b) => a.timestamp - b.timestamp), domChanged, unread };
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
