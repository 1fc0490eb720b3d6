// A frame's read as the Node side keeps it: an answer whole, or a delta patched onto the read it
// holds (issue 21; the engine's half is src/page/changes/delta.ts). Pure: no page, no CDP.
import type { FrameRead } from '../contracts/engine.js';
import { PagelensError } from '../contracts/errors.js';
import type { EngineSnapshotOptions, FrameSnapshot } from '../contracts/schema.js';

/** The read a host holds, as it names it to the engine: the document that answered it, and its sequence number. */
export interface ReadBase { doc: string; seq: number }

/** The kind of read a delta is made within: reads of one kind list the same things, so only they diff. */
export function readKind(opts: EngineSnapshotOptions): string {
  return `${opts.viewportOnly ? 'viewport' : 'full'}${opts.structure ? '+structure' : ''}${opts.attributes ? '+attributes' : ''}`;
}

/** The read the engine answered, made whole: `held` is the read a delta was made against. */
export function patchRead(held: { seq: number; snapshot: FrameSnapshot } | undefined, answer: FrameRead): FrameSnapshot {
  if (answer.kind === 'whole') {
    const { kind: _kind, seq: _seq, whole: _whole, ...snapshot } = answer;
    return snapshot;
  }
  if (!held || held.seq !== answer.since) {
    throw new PagelensError('ENGINE_ERROR', `The in-page engine answered with changes since read ${answer.since}, which the host does not hold${held ? ` (it holds ${held.seq})` : ''}; the page may have tampered with it.`);
  }
  if (held.snapshot.doc !== answer.doc) {
    throw new PagelensError('ENGINE_ERROR', 'The in-page engine answered with changes to a read of another document; the page may have tampered with it.');
  }
  const { kind: _kind, seq: _seq, since: _since, nodes, structure, headings, ...rest } = answer;
  const out: FrameSnapshot = { ...rest, nodes: applyPatch(held.snapshot.nodes, nodes, 'nodes') };
  if (structure) out.structure = applyPatch(held.snapshot.structure ?? [], structure, 'structure');
  if (headings) out.headings = applyPatch(held.snapshot.headings ?? [], headings, 'headings');
  return out;
}

/** The list a ListPatch describes (see ListPatch in the engine contract); a patch that reaches past the held list is refused. */
export function applyPatch<T extends object>(held: readonly T[], patch: ReadonlyArray<number | T>, what: string): T[] {
  const out: T[] = [];
  let at = 0;
  for (const op of patch) {
    if (typeof op !== 'number') { out.push(op); continue; }
    const to = at + Math.abs(op);
    if (to > held.length) throw new PagelensError('ENGINE_ERROR', `The in-page engine's changes to ${what} reach past the ${held.length} entries the host holds; the page may have tampered with it.`);
    if (op > 0) for (let i = at; i < to; i++) out.push(held[i]);
    at = to;
  }
  return out;
}

/** How many entries of the answer crossed as themselves (all of them for a whole answer). */
export function entriesCrossed(answer: FrameRead): number {
  const count = (list: ReadonlyArray<unknown> | undefined) => (list ?? []).filter((e) => typeof e !== 'number').length;
  return count(answer.nodes) + count(answer.structure) + count(answer.headings);
}
