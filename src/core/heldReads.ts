// A frame's read asked as what changed since the read the host holds, and patched onto it (issue
// 21: the page sends deltas, the host patches its copy). Written once for both hosts: each carries
// only the engine's `read` call (CDP: the isolated world; the extension: a content-script message).
// What the engine answers is checked by the host before it comes here; patching refuses a delta
// against a read the host does not hold, or against another document's read (frameRead.ts).
import { ENGINE_TEXT_CALLS, type FrameRead } from '../model/contracts/engine.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { EngineSnapshotOptions, FrameSnapshot } from '../model/contracts/schema.js';
import { checkedAnswer } from '../model/contracts/validate.js';
import { entriesCrossed, patchRead, readKind, type ReadBase } from '../model/pagemodel/frameRead.js';
import type { PageModel } from '../model/pagemodel/page.js';

/** A frame's last read of one kind, as the engine answered it (never handed out: readers get copies). */
export interface HeldRead { seq: number; snapshot: FrameSnapshot }

/** The engine's answer to a read, checked, and how many bytes its text took on the way. */
export interface CheckedRead { answer: FrameRead; bytes: number }

/** A read as the engine wrote it (its own JSON text, made in our isolated world), parsed and checked against the contract. */
export function checkReadText(text: unknown): CheckedRead {
  if (typeof text !== 'string') throw new PagelensError('ENGINE_ERROR', 'The in-page engine answered read with no JSON text; the page may have tampered with it.');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PagelensError('ENGINE_ERROR', 'The in-page engine answered read with text that is not JSON; the page may have tampered with it.');
  }
  return { answer: checkedAnswer(ENGINE_TEXT_CALLS.read, raw, 'read'), bytes: text.length };
}

/** The last read of each frame, per kind of read, that the next read of that kind asks the engine for changes against. */
export class HeldReads {
  private readonly reads = new Map<string, HeldRead>();

  private static key(frame: string, opts: EngineSnapshotOptions): string {
    return `${frame} ${readKind(opts)}`;
  }

  get(frame: string, opts: EngineSnapshotOptions): HeldRead | undefined {
    return this.reads.get(HeldReads.key(frame, opts));
  }

  set(frame: string, opts: EngineSnapshotOptions, read: HeldRead): void {
    this.reads.set(HeldReads.key(frame, opts), read);
  }

  /** Forgets the frames that are gone (their reads can never be a base again). */
  keepOnly(frames: Set<string>): void {
    for (const key of this.reads.keys()) if (!frames.has(key.slice(0, key.indexOf(' ')))) this.reads.delete(key);
  }
}

/** What the reads of one page model carried, for the model's `engine` figures. */
export class ReadTally {
  private bytes = 0;
  private crossed = 0;
  private deltas = 0;
  private readonly whole: string[] = [];

  add(answer: FrameRead, bytes: number, heldOne: boolean, where: string): void {
    this.bytes += bytes;
    this.crossed += entriesCrossed(answer);
    if (answer.kind === 'delta') this.deltas++;
    if (answer.kind === 'whole' && answer.whole && heldOne) this.whole.push(`${where}${answer.whole}`);
  }

  report(engine: PageModel['engine']): void {
    engine.bytes = this.bytes;
    engine.crossed = this.crossed;
    engine.deltas = this.deltas;
    if (this.whole.length) engine.whole = [...this.whole];
  }
}

/**
 * One frame's read: `ask` carries the engine's answer against `base` (null: answer whole), the
 * answer is made whole and held for the next read of that kind. A cold read (`fresh`) asks for
 * everything and is not held. `where` prefixes what the tally says of the frame ("frame 2: ").
 */
export async function readAgainstHeld(held: HeldReads, frame: string, opts: EngineSnapshotOptions, tally: ReadTally, where: string,
  ask: (base: ReadBase | null) => Promise<CheckedRead>): Promise<FrameSnapshot> {
  const base = opts.fresh ? undefined : held.get(frame, opts);
  const { answer, bytes } = await ask(base ? { doc: base.snapshot.doc, seq: base.seq } : null);
  tally.add(answer, bytes, !!base, where);
  const snapshot = patchRead(base, answer);
  if (answer.seq !== undefined) held.set(frame, opts, { seq: answer.seq, snapshot });
  return snapshot;
}
