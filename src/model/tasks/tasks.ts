// A task in plain words ("Type "ada@example.com" into Email, select "Standard" in Shipping, then
// click Place order") as its steps, in order: one instruction each, read by parseIntent. Quoted
// values are never split, whatever they contain.
const STEP_VERBS = 'type|enter|fill|input|write|put|set|select|choose|pick|check|tick|uncheck|untick|click|press|tap|hit|push|open|go|navigate|visit|scroll|hover|search|submit|place|log|sign|add|buy|accept|dismiss|close|save|send|continue|extract|read|tell|get|find|toggle|turn|switch';
const SEPARATORS = new RegExp(`\\s*;\\s*|\\s*,?\\s*\\bthen\\b\\s*|\\s*,\\s*and\\s+|\\s*,\\s*(?=(?:${STEP_VERBS})\\b)|\\s+and\\s+(?=(?:${STEP_VERBS})\\b)|\\.\\s+(?=[A-Z])`, 'gi');

/** The task's steps, in order; a task of one instruction is one step. */
export function splitTask(task: string): string[] {
  // Hold quoted text (straight or curly quotes) aside so that separators inside values do not count.
  const held: string[] = [];
  const masked = task.replace(/"[^"]*"|“[^”]*”|'[^'\s][^']*'(?=[\s,.;]|$)/g, (q) => `\u0000${held.push(q) - 1}\u0001`);
  return masked.split(SEPARATORS)
    .map((s) => s.replace(/\u0000(\d+)\u0001/g, (_, i) => held[Number(i)]).replace(/^\s*(?:and|then|finally|also|please)\s+/i, '').replace(/[.\s]+$/, '').trim())
    .filter((s) => /\p{L}/u.test(s));
}
