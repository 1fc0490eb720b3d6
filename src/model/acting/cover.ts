// How a cover over an element is said, on every host: what covers it, and which of its controls
// may dismiss it (that control's ID is handed out like a snapshot's, so the agent can use it).
import type { Cover } from '../contracts/engine.js';
import { globalId } from '../pagemodel/page.js';

/** "div.cookie-banner "We use cookies"" */
export function coverText(c: Cover): string {
  return `${c.selector}${c.text ? ` "${c.text}"` : ''}`;
}

/** " (its control f1_3 "Accept" may dismiss it)", or nothing when the cover offers no control. */
export function controlHint(c: Cover, frame: number): string {
  return c.control ? ` (its control ${globalId(frame, c.control.id)} "${c.control.name}" may dismiss it)` : '';
}

/** The refusal for an element covered by `c`, which lies in frame `frame` (the element's or an ancestor's). */
export function coveredReason(gid: string, c: Cover, frame: number): string {
  return `${gid} is covered by ${coverText(c)}${controlHint(c, frame)}`;
}
