// Acting by ID in a tab: the act pipeline shared with the CDP host (src/core/act.ts: resolve in the
// issuing document, stale check, cover check through ancestor frames, perform, verify) over this
// host's port (hostEngine.ts). What stays here is the extension's own decision: whether to attach
// chrome.debugger for trusted input (Chrome shows a bar while it is attached), and saying when it
// could not be.
import { toAction, type Action } from '../../src/model/contracts/actions.js';
import type { ActionResult, ExpectedOutcome } from '../../src/model/contracts/outcome.js';
import { runAct } from '../../src/core/act.js';
import { extensionActHost } from './hostEngine.js';
import { trustedInput } from './input.js';
import { restoreTab, saveTab } from './tab.js';

export interface ActOptions {
  /** What the action should do: verified when given, as on the CDP host (nothing is verified by default). */
  expect?: ExpectedOutcome;
  /** false: DOM events only, never the debugger. Default true. */
  trusted?: boolean;
}

/** Actions done with trusted input when the debugger can be attached. */
const INPUT_ACTIONS = new Set<Action['type']>(['click', 'dblclick', 'hover', 'setValue', 'type', 'clear', 'check', 'uncheck', 'toggle', 'press', 'select']);

export async function act(tabId: number, input: string | Action, opts: ActOptions = {}): Promise<ActionResult> {
  let type: Action['type'] | undefined;
  try { type = toAction(input).type; } catch { /* the pipeline refuses it with BAD_INPUT */ }
  await restoreTab(tabId);
  // The debugger is attached only for actions that use input.
  const wanted = type !== undefined && INPUT_ACTIONS.has(type);
  const input_ = opts.trusted === false ? { ok: false as const, reason: 'trusted input was turned off' }
    : wanted ? await trustedInput(tabId) : { ok: false as const, reason: 'not needed' };
  const result = await runAct(extensionActHost(tabId, input_.ok), input, { ...(opts.expect && { expect: opts.expect }) });
  // IDs the action named (a cover's control, a recovered element) are kept across service-worker restarts.
  await saveTab(tabId);
  if (!input_.ok && wanted && result.method === 'js') {
    result.warnings = [...result.warnings ?? [], `no trusted input (${input_.reason}): DOM events were used, which the page can tell apart from a person's`];
  }
  return result;
}
