// An action's result in the record's words, the same for every face that acts (agent, library,
// extension): refused with its code, verified or not with what changed, or ran.
import type { ActionResult } from '../contracts/outcome.js';
import type { TraceVerdict } from './runRecord.js';

export function verdictOfResult(r: ActionResult): TraceVerdict {
  const v = r.verification;
  const delta = v ? [v.pageState.urlChanged ? `navigated to ${v.pageState.url}` : '', ...v.pageState.recentMutations].filter(Boolean).join('\n') || (v.pageState.domChanged ? 'the page changed' : 'no change seen') : undefined;
  if (!r.ok) return { outcome: 'refused', detail: r.detail ?? r.error?.message ?? r.action, refusal: { code: r.error?.code ?? 'FAILED', reason: r.error?.message ?? r.detail ?? 'the action failed' }, ...(delta && { delta }) };
  if (v) return { outcome: v.success ? 'verified' : 'not_verified', detail: v.actualOutcome, verification: { success: v.success, actualOutcome: v.actualOutcome, confidence: v.confidence, feedback: v.feedback }, ...(delta && { delta }) };
  return { outcome: 'ok', ...(r.detail && { detail: r.detail }) };
}
