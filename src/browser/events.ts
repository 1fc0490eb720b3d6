// The mutation logs of every frame, read from Node: marks ("where each log stood") and the
// events since a mark, merged in time order with global frame IDs.
import { formatMutation, type MutationEvent } from '../model/outcome.js';
import type { LaidOutFrame, Lens } from './lens.js';

interface Activity { count: number; quietMs: number; docToken: string; seq: number; readyState: string }

export interface FrameMark { docToken: string; seq: number; count: number }
export type Marks = Map<string, FrameMark>;

async function live(lens: Lens): Promise<LaidOutFrame[]> {
  return (await lens.knownFrames()).filter((f) => !f.error && !f.target.closed);
}

/** Per-frame DOM activity; frames that cannot answer (navigating, gone) are left out. */
export async function frameActivity(lens: Lens): Promise<Array<{ frame: LaidOutFrame; activity: Activity | null }>> {
  const frames = await live(lens);
  return Promise.all(frames.map(async (frame) => ({
    frame,
    activity: await frame.target.callEngine<Activity>(frame.frameId, 'domActivity').catch(() => null),
  })));
}

export async function markFrames(lens: Lens): Promise<Marks> {
  const marks: Marks = new Map();
  for (const { frame, activity } of await frameActivity(lens)) {
    if (activity) marks.set(frame.frameId, { docToken: activity.docToken, seq: activity.seq, count: activity.count });
  }
  return marks;
}

/** Events logged since `marks` in every frame, and whether any frame's DOM changed at all. */
export async function eventsSince(lens: Lens, marks: Marks): Promise<{ events: MutationEvent[]; domChanged: boolean }> {
  const frames = await live(lens);
  let domChanged = false;
  const lists = await Promise.all(frames.map(async (frame) => {
    const mark = marks.get(frame.frameId);
    try {
      const [r, activity] = await Promise.all([
        frame.target.callEngine<{ docToken: string; events: MutationEvent[] }>(frame.frameId, 'mutationsSince', [mark?.docToken ?? null, mark?.seq ?? 0]),
        frame.target.callEngine<Activity>(frame.frameId, 'domActivity'),
      ]);
      if (!mark || mark.docToken !== activity.docToken || mark.count !== activity.count) domChanged = true;
      return r.events.map((e) => ({ ...e, frame: frame.ordinal }));
    } catch {
      return [];
    }
  }));
  return { events: lists.flat().sort((a, b) => a.timestamp - b.timestamp), domChanged };
}

/** The last `limit` events across frames, oldest first. */
export async function recentEvents(lens: Lens, limit = 10): Promise<MutationEvent[]> {
  const frames = await live(lens);
  const lists = await Promise.all(frames.map((frame) => frame.target.callEngine<MutationEvent[]>(frame.frameId, 'recentMutationEvents', [limit])
    .then((es) => es.map((e) => ({ ...e, frame: frame.ordinal }))).catch(() => [] as MutationEvent[])));
  return lists.flat().sort((a, b) => a.timestamp - b.timestamp).slice(-limit);
}

export function renderEvents(events: MutationEvent[], now = Date.now()): string[] {
  return events.map((e) => formatMutation(e, now) + (e.frame ? ` (frame ${e.frame})` : ''));
}
