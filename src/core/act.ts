// The act pipeline, written once for every host (issue 19): resolve the ID in the document that
// issued it (NAVIGATED, UNKNOWN_ID, with recovery where the host offers it) → refuse a stale ID →
// read what the expected outcome needs → perform (the cover check, ancestor frames included, is in
// locate.ts) → verify, or let the page settle. Each host gives only its transport (the port).
import { formatAction, formatMasked, toAction, targetOf, type Action } from '../model/contracts/actions.js';
import { asPagelensError, isPagelensError, PagelensError } from '../model/contracts/errors.js';
import type { HostElement } from '../model/contracts/host.js';
import { parseExpectSpec, type ActionResult, type ExpectedOutcome } from '../model/contracts/outcome.js';
import { staleReason } from '../model/acting/stale.js';
import { perform } from './perform.js';
import type { ActHost } from './port.js';
import { capturePre, verifyOutcome } from './verify.js';

/** Long enough for a page to react (a scroll handler, a debounced request), short enough per step. */
const AFTER_ACTION = { timeoutMs: 3000, quietMs: 200, afterAction: true } as const;

export interface CoreActOptions {
  /** The outcome to verify (already checked against the schema by the face), or the CLI form ("navigation|element_appears:Thanks"). */
  expect?: ExpectedOutcome | string;
  /** Wait for the page to settle after acting (not when verifying, which waits itself). Default: on. */
  settle?: boolean;
  /** Recover an ID whose element was re-rendered away, where the host can. Default: on. */
  recover?: boolean;
  /** Warnings the host gathered before acting (a network it cannot watch, input it could not make trusted). */
  warnings?: string[];
}

export async function runAct(host: ActHost, input: string | Action, opts: CoreActOptions = {}): Promise<ActionResult> {
  let action: Action;
  try {
    action = toAction(input);
  } catch (e) {
    const err = asPagelensError(e);
    return { action: typeof input === 'string' ? input : JSON.stringify(input), ok: false, method: 'none', error: { code: err.code, message: err.message } };
  }
  // Masked until the field is known not to be secret (model/contracts/actions.ts formatMasked): a refusal must not echo a password.
  const result: ActionResult = { action: formatMasked(action), ok: false, method: 'none' };
  const warnings: string[] = [...opts.warnings ?? []];
  const requested = targetOf(action);
  let el: HostElement | undefined;
  let gid = requested;
  try {
    const expected = typeof opts.expect === 'string' ? parseExpectSpec(opts.expect) : opts.expect;
    if (requested) {
      try {
        el = await host.resolve(requested);
        await refuseIfStale(host, el);
      } catch (e) {
        if (!isPagelensError(e, 'UNKNOWN_ID') || opts.recover === false || !host.recover) throw e;
        const r = await host.recover(requested);
        if (!r.ok) throw new PagelensError(r.code, r.message);
        gid = r.gid;
        el = await host.resolve(gid, { doc: r.doc });
        result.recovered = { from: requested, to: gid, confidence: r.confidence, message: r.message };
      }
    }
    if (!el || !('value' in action) || await isPlainField(host, el)) result.action = formatAction(action);
    const pre = expected ? await capturePre(host, expected, gid) : undefined;
    const done = await perform(host, action, el);
    result.ok = true;
    result.method = done.method;
    if (done.status !== undefined) result.status = done.status;
    result.detail = (result.recovered ? `${result.recovered.message}; ` : '') + done.detail;
    warnings.push(...done.warnings ?? []);
    if (expected && pre) {
      result.verification = await verifyOutcome(host, pre, expected, gid);
    } else if (opts.settle !== false) {
      try {
        const settled = await host.settle(AFTER_ACTION);
        if (!settled.settled) warnings.push(`the page had not settled when the action returned (${settled.reason ?? 'it was still changing'})`);
      } catch (e) {
        warnings.push(`the page could not be watched settling after the action (${host.describe(e)})`);
      }
    }
  } catch (e) {
    const err = asPagelensError(e);
    if (typeof err.details?.status === 'number') result.status = err.details.status;
    result.error = { code: err.code, message: result.recovered ? `${result.recovered.message}; then: ${err.message}` : err.message };
  } finally {
    if (el) await host.release(el).catch(() => {});
  }
  if (warnings.length) result.warnings = warnings;
  return result;
}

/** The element must still be what the last snapshot showed (the rule: model/acting/stale.ts). */
async function refuseIfStale(host: ActHost, el: HostElement): Promise<void> {
  const known = host.sighting(el.gid);
  if (!known) return;
  const why = staleReason(el.gid, known, await host.element(el, 'elementState'));
  if (why) throw new PagelensError('STALE_ID', why);
}

/** A field that takes text and is not secret: what is typed there may be echoed. */
async function isPlainField(host: ActHost, el: HostElement): Promise<boolean> {
  const entry = await host.element(el, 'textEntry');
  // A refused field may still be secret: only one known not to be keeps the value in view.
  return entry.secret === false;
}
