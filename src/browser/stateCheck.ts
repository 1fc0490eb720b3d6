// The check a save must pass before it may replace a saved state (--state-check): the page still
// shows what only a logged-in user sees ("Log out", or `button "Log out"`). A state saved after a
// logout or an expired session would overwrite the good file with a logged-out one; with the
// check, that save is skipped and the last good file kept. A page that does not answer in time
// fails the check: a save that cannot be vouched for is not made.
import type { Page } from 'playwright-core';
import { PagelensError } from '../model/contracts/errors.js';

export type StateCheck = { kind: 'text'; text: string; spec: string } | { kind: 'role'; role: AriaRole; name: string; spec: string };
type AriaRole = Parameters<Page['getByRole']>[0];

/** How long the page may take to answer the check before it counts as failed. */
const CHECK_WAIT_MS = 3000;

/** `role "name"` (the way a snapshot writes an element, `btn` for button) or plain text shown on the page. */
export function parseStateCheck(spec: string): StateCheck {
  const s = spec.trim();
  if (!s) throw new PagelensError('BAD_INPUT', '--state-check is empty: give text the logged-in page shows ("Log out") or a role and name (button "Log out").');
  const m = /^([a-z]+)\s+"(.+)"$/.exec(s);
  if (m) return { kind: 'role', role: (m[1] === 'btn' ? 'button' : m[1]) as AriaRole, name: m[2]!, spec: s };
  return { kind: 'text', text: s, spec: s };
}

/** Whether the page shows what the check names, visible, now. */
export async function pageShows(page: Page, check: StateCheck): Promise<boolean> {
  const locator = check.kind === 'role' ? page.getByRole(check.role, { name: check.name, exact: true }) : page.getByText(check.text);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<number>((r) => { timer = setTimeout(() => r(0), CHECK_WAIT_MS); });
  try {
    return await Promise.race([locator.filter({ visible: true }).count().catch(() => 0), late]) > 0;
  } finally {
    clearTimeout(timer);
  }
}
