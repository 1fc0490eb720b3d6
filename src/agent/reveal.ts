// Reveal and look: a target that is not in view may sit behind a closed tab, a collapsed disclosure
// or a tree's closed folder. When nothing in view fits a step, the planner opens those one at a
// time (reading order, so that a folder's subfolders come before the next folder), reads the page
// again and ranks again; bounded in steps, and said in the refusal when the search found nothing.
// The planner is stateless: what was opened (and what was open to begin with) is read back from
// the session's thoughts, which carry it.
import type { RagNode } from '../model/retrieval/rag.js';
import type { ActionResponse } from '../model/negotiation/interact.js';
import type { SessionView } from './planner.js';

/** Elements opened in the search for one step before it is given up. */
export const MAX_REVEALS = 8;

const LOOKING = /^Looking for step (\d+)\/(\d+): .*?opening (\S+) /;
const SEEN_OPEN = /\(open before: ([^)]*)\)/;
const BACK_UP = 'back to the top to open what is closed there';

/** Closed: a tab not selected, anything collapsed (aria-expanded=false, a closed <details>, a folder whose list is hidden). */
export function isClosed(n: RagNode): boolean {
  if (n.kind !== 'control' || n.states.includes('disabled')) return false;
  return n.states.includes('collapsed') || (n.role === 'tab' && !n.states.includes('selected'));
}

function isOpen(n: RagNode): boolean {
  return n.kind === 'control' && (n.states.includes('expanded') || (n.role === 'tab' && n.states.includes('selected')));
}

/** What the earlier looks for step `index` opened, and what was already open then (its content was read). */
export function lookedBehind(session: SessionView, index: number, total: number): { opened: string[]; seen: Set<string> } {
  const opened: string[] = [];
  const seen = new Set<string>();
  for (const s of session.steps) {
    const m = LOOKING.exec(s.thought ?? '');
    if (!m || Number(m[1]) !== index + 1 || Number(m[2]) !== total) continue;
    // Opened or refused, it is not tried again.
    opened.push(m[3]);
    seen.add(m[3]);
    for (const id of SEEN_OPEN.exec(s.thought ?? '')?.[1].split(/,\s*/) ?? []) if (id) seen.add(id);
  }
  return { opened, seen };
}

/** Whether the look for step `index` already went back to the top of the page. */
function wentBackUp(session: SessionView, index: number, total: number): boolean {
  const mark = `Looking for step ${index + 1}/${total}: `;
  return session.steps.some((s) => s.thought?.startsWith(mark) && s.thought.includes(BACK_UP));
}

/**
 * The next closed element to open in the search for step `index`, as an answer; or, when the
 * search is over (nothing closed is left, or MAX_REVEALS were opened), the names of what was opened.
 * Only what is in view can be opened: when nothing closed is in view and the page is scrolled
 * (`scrolled`, the look went further down first), the answer is to go back to the top, once.
 */
export function revealNext(nodes: RagNode[], index: number, total: number, why: string, session: SessionView, scrolled = false): ActionResponse | { opened: string[] } {
  const { opened, seen } = lookedBehind(session, index, total);
  const named = opened.map((id) => nodes.find((n) => n.gid === id)?.name ?? id);
  if (opened.length >= MAX_REVEALS) return { opened: named };
  const next = nodes.filter((n) => isClosed(n) && !seen.has(n.gid) && !session.failures.has(`click(${n.gid})`)).sort((a, b) => a.order - b.order)[0];
  if (!next && scrolled && !wentBackUp(session, index, total)) {
    return { thought: `Looking for step ${index + 1}/${total}: ${why}; ${BACK_UP}.`, action: 'scroll(top)' };
  }
  if (!next) return { opened: named };
  const openNow = nodes.filter(isOpen).map((n) => n.gid);
  return {
    // "Looking", not "Step": the click opens something, it does not carry the step out.
    thought: `Looking for step ${index + 1}/${total}: ${why}; opening ${next.gid} ("${next.name}", ${next.role}, closed) to look inside${openNow.length ? ` (open before: ${openNow.join(', ')})` : ''}.`,
    action: `click(${next.gid})`,
    expected_outcome: { type: 'any_change' },
  };
}
