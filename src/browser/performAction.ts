// Acting on the page over CDP: lens.act's options checked, the network watched, then the act
// pipeline shared with the extension (src/core/act.ts) over this host's port (hostEngine.ts).
// What stays here is transport: which CDP object group holds the handles, and the stability wait.
import { z } from 'zod';
import { formatMasked, toAction, type Action } from '../model/contracts/actions.js';
import { asPagelensError } from '../model/contracts/errors.js';
import { ExpectedOutcome, parseExpectSpec, type ActionResult } from '../model/contracts/outcome.js';
import { parseInput } from '../model/contracts/validate.js';
import { runAct } from '../core/act.js';
import type { LensCore } from './lensCore.js';
import { cdpActHost } from './hostEngine.js';
import { StabilityOptions, trackNetwork, type StabilityOptionsInput } from './stability.js';

const GROUP = 'pagelens-act';
/** Long enough for a page to react (a scroll handler, a debounced request), short enough per step. */
const AFTER_ACTION: StabilityOptionsInput = { timeout: 3000, stabilityThreshold: 200, networkIdleThreshold: 200, quietFromStart: true };

export interface ActOptions {
  /** The outcome to verify: typed, in the LLM's spelling, or the CLI form ("navigation|element_appears:Thanks"). */
  expect?: ExpectedOutcome | string;
  /** Wait for the page to settle after acting (ignored when verifying, which waits itself). Default: on. */
  settle?: boolean | StabilityOptionsInput;
  /** Recover an ID whose element was re-rendered away. Default: on. */
  recover?: boolean;
}

const ActOptionsShape = z.strictObject({ expect: z.unknown().optional(), settle: z.unknown().optional(), recover: z.boolean().optional() });

export async function performAction(core: LensCore, input: string | Action, opts: ActOptions = {}): Promise<ActionResult> {
  const action = toAction(input);
  parseInput(ActOptionsShape, opts, 'act options');
  const expect = opts.expect === undefined ? undefined
    : typeof opts.expect === 'string' ? parseExpectSpec(opts.expect) : parseInput(ExpectedOutcome, opts.expect, 'expected outcome');
  const settle = typeof opts.settle === 'object' ? parseInput(StabilityOptions, opts.settle, 'stability options') : AFTER_ACTION;
  const warnings: string[] = [];
  try {
    const trackers = await trackNetwork(core);
    for (const t of trackers) if (t.failure) warnings.push(`network activity is not watched (${t.failure}), so waits may end early`);
  } catch (e) {
    const err = asPagelensError(e);
    return { action: formatMasked(action), ok: false, method: 'none', error: { code: err.code, message: err.message } };
  }
  return runAct(cdpActHost(core, GROUP, settle), action, {
    ...(expect && { expect }), settle: opts.settle !== false, ...(opts.recover !== undefined && { recover: opts.recover }), warnings,
  });
}
