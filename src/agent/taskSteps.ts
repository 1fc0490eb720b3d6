// The task as the heuristic planner acts on it: splitTask's steps, with two readings of its own.
// A sentence that only says how to look ("Switch between the tabs to find", "Navigate through the
// file tree", a bare "Find") is no step: the planner looks behind closed tabs and folders whenever
// a target is not in view (reveal.ts). A value given by a constraint ("an item that starts with
// "Ba" and ends with "os"") stays one step, read by constraintOf.
import { splitTask } from '../model/tasks/tasks.js';

const HOW_TO_LOOK = /^(?:(?:switch|navigate|browse|go|move|look|search|click|flip|page)\s+(?:between|through|across|around|among)\b[^"]*?|find|locate|look|search)(?:\s+to\s+(?:find|locate|look\s+for))?$/i;

// "that starts with "Ba" and ends with "os"", "beginning with "Ba"", "which ends in "os"".
const STARTS = String.raw`(?:starts?|starting|begins?|beginning)\s+with\s+"([^"]*)"`;
const ENDS = String.raw`(?:ends?|ending)\s+(?:with|in)\s+"([^"]*)"`;
const CONSTRAINT = new RegExp(String.raw`(?:(?:that|which)\s+)?(?:${STARTS}(?:,?\s*(?:and|but)\s+(?:(?:that|which)\s+)?${ENDS})?|${ENDS})`, 'i');

/** A value given by how it starts and ends, not by itself. */
export interface Constraint { prefix?: string; suffix?: string; phrase: string }

export function constraintOf(step: string): Constraint | undefined {
  const m = CONSTRAINT.exec(step);
  if (!m) return undefined;
  const prefix = m[1];
  const suffix = m[2] ?? m[3];
  if (!prefix && !suffix) return undefined;
  return { ...(prefix && { prefix }), ...(suffix && { suffix }), phrase: m[0] };
}

/** Whether `value` meets the constraint (as written: case counts, like the quoted text). */
export function meets(value: string, c: Constraint): boolean {
  const v = value.trim();
  return (!c.prefix || v.startsWith(c.prefix)) && (!c.suffix || v.endsWith(c.suffix));
}

export function taskSteps(task: string): string[] {
  // The constraint is held aside while splitting: its "and ends with" is not a second step.
  const held: string[] = [];
  const masked = task.replace(new RegExp(CONSTRAINT.source, 'gi'), (c) => `\u0002${held.push(c) - 1}\u0003`);
  const steps = splitTask(masked).map((s) => s.replace(/\u0002(\d+)\u0003/g, (_, i) => held[Number(i)]));
  const acting = steps.filter((s) => !HOW_TO_LOOK.test(s.trim()));
  // A task that is only a way of looking is still a task (refused as such, never "all 0 steps done").
  return acting.length ? acting : steps;
}
