// The negotiation contract of `POST /api/agent/interact` (seed 001, seed 000 §13): a client sends
// semantic_v3 first; the backend answers with the next action, or asks for exactly the heavier
// artifacts it needs; the client retries with only those. One schema per message, which is also
// its TypeScript type.
import { z } from 'zod';
import { ExpectedOutcome, type ActionResult } from '../contracts/outcome.js';
import { DomMode, RequestedDomMode } from '../contracts/snapshotRequest.js';
import { FrameInfo, ScrollableContainer, SemanticNode, SemanticNodeV3, Viewport } from '../contracts/schema.js';

export { DomMode, RequestedDomMode } from '../contracts/snapshotRequest.js';


export const LastActionError = z.object({
  message: z.string(),
  code: z.string(),
  action: z.string(),
  elementId: z.union([z.string(), z.number()]).optional(),
});

export const DomChanges = z.object({
  addedCount: z.number().int().nonnegative(),
  removedCount: z.number().int().nonnegative(),
  dropdownDetected: z.boolean().optional(),
  dropdownOptions: z.array(z.string()).optional(),
  stabilizationTime: z.number().nonnegative().optional(),
  previousUrl: z.string().optional(),
  urlChanged: z.boolean().optional(),
  didNetworkOccur: z.boolean().optional(),
});

export const ClientObservations = z.object({
  didNetworkOccur: z.boolean().optional(),
  didDomMutate: z.boolean().optional(),
  didUrlChange: z.boolean().optional(),
});

/** The union of seed 001 §2 and seed 000 §13. */
export const InteractRequest = z.object({
  url: z.string().min(1),
  query: z.string().min(1),
  domMode: DomMode.default('semantic_v3'),
  interactiveTree: z.array(SemanticNodeV3).optional(),
  viewport: Viewport.optional(),
  pageTitle: z.string().optional(),
  /** Chrome tab id: debug metadata only. */
  tabId: z.union([z.number(), z.string()]).optional(),
  /** Full HTML: only when the backend asked for `full` (may be missing or empty with semantic_v3). */
  dom: z.string().optional(),
  semanticNodes: z.array(SemanticNode).optional(),
  skeletonDom: z.string().optional(),
  screenshot: z.string().nullable().optional(),
  screenshotHash: z.string().optional(),
  scrollPosition: z.string().optional(),
  scrollableContainers: z.array(ScrollableContainer).optional(),
  recentEvents: z.array(z.string()).optional(),
  frames: z.array(FrameInfo).optional(),
  taskId: z.string().min(1).max(200).optional(),
  sessionId: z.string().min(1).max(200).optional(),
  lastActionStatus: z.enum(['success', 'failure', 'pending']).optional(),
  lastActionError: LastActionError.optional(),
  lastActionResult: z.object({ success: z.boolean(), actualState: z.string().optional() }).optional(),
  domChanges: DomChanges.optional(),
  clientObservations: ClientObservations.optional(),
}).superRefine((r, ctx) => {
  // An artifact that is there counts even when empty: a page with no controls has an empty tree
  // and an empty skeleton, and it is a state like any other (a form's "thank you" page).
  if (r.interactiveTree === undefined && r.semanticNodes === undefined && r.skeletonDom === undefined && r.dom === undefined) {
    ctx.addIssue({ code: 'custom', path: ['interactiveTree'], message: 'a page state is required: interactiveTree (semantic_v3), semanticNodes, skeletonDom or dom' });
  }
  if (r.domMode === 'hybrid' && !r.screenshot) ctx.addIssue({ code: 'custom', path: ['screenshot'], message: 'domMode "hybrid" carries a screenshot' });
  if ((r.domMode === 'skeleton' || r.domMode === 'hybrid') && r.skeletonDom === undefined) ctx.addIssue({ code: 'custom', path: ['skeletonDom'], message: `domMode "${r.domMode}" carries skeletonDom` });
  if (r.domMode === 'full' && r.dom === undefined) ctx.addIssue({ code: 'custom', path: ['dom'], message: 'domMode "full" carries dom' });
});
export type InteractRequest = z.infer<typeof InteractRequest>;
export type InteractRequestInput = z.input<typeof InteractRequest>;

/** The next action, in the action grammar (`done("…")` ends the task). */
export const ActionResponse = z.object({
  thought: z.string(),
  action: z.string().min(1),
  expected_outcome: ExpectedOutcome.optional(),
  /** With done(): false when the task could not be achieved (the text says why). Default: achieved. */
  success: z.boolean().optional(),
});
export type ActionResponse = z.infer<typeof ActionResponse>;

export const NeedsContext = z.object({
  status: z.literal('needs_context'),
  requestedDomMode: RequestedDomMode,
  needsSkeletonDom: z.boolean().optional(),
  needsScreenshot: z.boolean().optional(),
  reason: z.string(),
});
export type NeedsContext = z.infer<typeof NeedsContext>;

/** The legacy request for the full DOM: emitted only in compatibility mode, always understood by the client. */
export const NeedsFullDom = z.object({
  status: z.literal('needs_full_dom'),
  needsFullDomReason: z.string(),
});
export type NeedsFullDom = z.infer<typeof NeedsFullDom>;

export const InteractResponse = z.union([ActionResponse, NeedsContext, NeedsFullDom]);
export type InteractResponse = z.infer<typeof InteractResponse>;

export const ErrorBody = z.object({
  error: z.string(),
  message: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** `done("…")`: the task is over; the text says how it ended. */
export function doneMessage(action: string): string | null {
  const m = /^\s*done\s*\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')?\s*\)\s*;?\s*$/i.exec(action);
  if (!m) return null;
  return (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1');
}

/** What a needs-context answer asks for, as artifact flags (the legacy form means `full`). */
export function requestedArtifacts(r: NeedsContext | NeedsFullDom): { mode: RequestedDomMode; skeleton: boolean; screenshot: boolean; dom: boolean } {
  if (r.status === 'needs_full_dom') return { mode: 'full', skeleton: false, screenshot: false, dom: true };
  return {
    mode: r.requestedDomMode,
    skeleton: r.needsSkeletonDom ?? (r.requestedDomMode === 'skeleton' || r.requestedDomMode === 'hybrid'),
    screenshot: r.needsScreenshot ?? r.requestedDomMode === 'hybrid',
    dom: r.requestedDomMode === 'full',
  };
}

/** How the last action went, in the request fields the contract has for it (`before`/`after`: the page's URL). */
export function actionReport(result: ActionResult, before: string, after: string): Partial<InteractRequestInput> {
  const v = result.verification;
  const ok = result.ok && (v?.success ?? true);
  const id = /^\s*\w+\s*\(\s*(f\d+_\d+|\d+)/.exec(result.action)?.[1];
  const added = v?.pageState.recentMutations.filter((m) => /\] Added/.test(m)).length ?? 0;
  const removed = v?.pageState.recentMutations.filter((m) => /\] Removed/.test(m)).length ?? 0;
  return {
    lastActionStatus: ok ? 'success' : 'failure',
    ...(!ok && {
      lastActionError: {
        message: result.error?.message ?? v?.feedback ?? 'the action did not have the expected effect',
        code: result.error?.code ?? 'VERIFICATION_FAILED',
        action: result.action,
        ...(id && { elementId: id }),
      },
    }),
    lastActionResult: { success: ok, ...(v && { actualState: v.actualOutcome }) },
    domChanges: { addedCount: added, removedCount: removed, urlChanged: before !== after, ...(before !== after && { previousUrl: before }) },
    clientObservations: { didUrlChange: before !== after, ...(v && { didDomMutate: v.pageState.domChanged }) },
  };
}
