// What a transcript of an agent run may keep of the planner's answers. When the lens hid the
// value an action typed (a secret field: it reports the action with "***"), that value is taken
// out of the action and of the planner's thought, and out of every later thought and message of
// the run too (a planner may repeat it: "typed hunter2, now submitting"), so a printed, saved or
// displayed transcript never holds it. One mechanism for every host: the CDP loop and the extension.
import { parseAction } from '../contracts/actions.js';
import { REDACTED, redactSecrets } from './secrets.js';

/** What the thought becomes when the typed value cannot be told apart from the rest of it. */
export const WITHHELD_THOUGHT = '(the thought is not kept: it may hold the hidden value)';

export interface TranscriptRedactor {
  /**
   * The planner's `{thought, action}` as a transcript may keep it. `performed`: the action as the
   * lens reported it (secret values already "***"); absent when no action ran (a `done`).
   */
  keep<R extends { thought: string; action: string }>(response: R, performed?: string): R;
  /** Any other text of the run (a final message) without the values hidden so far. */
  text(text: string): string;
}

/** One per run: it remembers every value the lens hid. */
export function transcriptRedactor(): TranscriptRedactor {
  const hidden = new Set<string>();
  const text = (t: string) => redactSecrets(t, hidden);
  return {
    text,
    keep(response, performed) {
      if (performed !== undefined && performed !== response.action) {
        let value: string | undefined;
        try {
          const a = parseAction(response.action);
          if ('value' in a && typeof a.value === 'string') value = a.value;
        } catch {
          // What was typed cannot be told apart from the rest of the thought: it is left out whole.
          return { ...response, action: performed, thought: WITHHELD_THOUGHT };
        }
        if (value && value !== REDACTED) hidden.add(value);
        return { ...response, action: performed, thought: text(response.thought) };
      }
      return { ...response, action: text(response.action), thought: text(response.thought) };
    },
  };
}
