// A task in plain words ("Type "ada@example.com" into Email, select "Standard" in Shipping, then
// click Place order") as its steps, in order: one instruction each, read by parseIntent. Quoted
// values are never split, whatever they contain.

import { quotedSpans } from './intent.js';
const STEP_VERBS = 'type|enter|fill|input|write|put|set|select|choose|pick|check|tick|uncheck|untick|click|press|tap|hit|push|open|go|navigate|visit|scroll|hover|search|submit|place|log|sign|add|buy|accept|dismiss|close|save|send|continue|extract|read|tell|get|find|toggle|turn|switch';
const SEPARATORS = new RegExp(`\\s*;\\s*|\\s*,?\\s*\\bthen\\b\\s*|\\s*,\\s*and\\s+|\\s*,\\s*(?=(?:${STEP_VERBS})\\b)|\\s+and\\s+(?=(?:${STEP_VERBS})\\b)|\\.\\s+(?=[A-Z])`, 'gi');

/**
 * Verbs that pick several things at once: "Select A, B and C" is three choices, one step each
 * (acted on as one step, only A would be picked and the task would move on as if all were).
 */
const CHOICE_LIST = /^(select|choose|pick|check|tick|uncheck|untick)\s+(?!.*\s(?:from|in|into|as|for)\s)(.+)$/i;
/** What a list of choices says when it asks for none of them: no step at all. */
const NONE = /^(?:nothing|none|no\s+\w+|none\s+of\s+them)$/i;
/**
 * One verb, two fields each named with its own value: "Enter the username "ada" and the password
 * "x" into the fields" is a step per field — read as one, the first value would go into whichever
 * field ranks first (a username typed into the password field).
 */
const PAIRED_VALUES = /^(\w+(?:\s+(?:in|out))?)\s+((?:the\s+|your\s+|a\s+)?[^\u0000,]*?\s*\u0000\d+\u0001)\s+and\s+((?:the\s+|your\s+|a\s+)?[^\u0000,]*?\s*\u0000\d+\u0001)(.*)$/i;

/** The task's steps, in order; a task of one instruction is one step. */
export function splitTask(task: string): string[] {
  // Hold quoted text aside (as written, curly quotes too) so that separators inside values do not count.
  const held: string[] = [];
  let masked = task;
  for (const q of quotedSpans(task).reverse()) masked = masked.slice(0, q.start) + `\u0000${held.push(task.slice(q.start, q.end)) - 1}\u0001` + masked.slice(q.end);
  const unmask = (s: string) => s.replace(/\u0000(\d+)\u0001/g, (_, i) => held[Number(i)]);
  return masked.split(SEPARATORS)
    .map((s) => s.replace(/^\s*(?:and|then|finally|also|please)\s+/i, '').replace(/[.\s]+$/, '').trim())
    .flatMap(expandStep)
    .map(unmask)
    .filter((s) => /\p{L}/u.test(s));
}

/** One instruction (quotes masked) as the steps it holds: a list of choices, or two fields with their values. */
function expandStep(step: string): string[] {
  const paired = PAIRED_VALUES.exec(step);
  if (paired) {
    const [, verb, first, second, tail] = paired;
    // Both halves must name a field before their value ("the username "a""), not be a bare value.
    if (/\p{L}/u.test(first.replace(/\u0000\d+\u0001/, '')) && /\p{L}/u.test(second.replace(/\u0000\d+\u0001/, ''))) {
      return [`${verb} ${first}${tail}`, `${verb} ${second}${tail}`];
    }
  }
  const list = CHOICE_LIST.exec(step);
  if (!list) return [step];
  const items = list[2].split(/\s*,\s*(?:and\s+|or\s+)?|\s+and\s+/i).filter(Boolean);
  if (items.length === 1) return NONE.test(items[0]) ? [] : [step];
  return items.filter((i) => !NONE.test(i)).map((i) => `${list[1]} ${i}`);
}
