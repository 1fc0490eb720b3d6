// The public surface of pagelens. Anything not exported here is internal.
export { attach, Lens } from './browser/lens.js';
export { launchChromium, connectChromium, findChromium, blockExternalRequests, CHROMIUM_ARGS } from './browser/chromium.js';
export { PagelensError, type ErrorCode } from './model/errors.js';
export { V3_LEGEND, minifyRole } from './model/roles.js';
export { renderV3, renderSemantic, renderText } from './model/render.js';
export { countTokens } from './model/tokens.js';
export type { PageModel, PageNode } from './model/page.js';
export {
  SemanticV3Result, SemanticResult, SemanticNodeV3, SemanticNode, SnapshotOptions, SnapshotMode, FrameInfo,
} from './model/schema.js';
export { AxTreeResult } from './model/axtree.js';
export { Action, parseAction, formatAction } from './model/actions.js';
export { ExpectedOutcome, VerificationResult, ActionResult, parseExpectSpec } from './model/outcome.js';
export { computeTreeHash, shouldSendTree, DeltaTracker } from './model/hash.js';
export type { MutationEvent, MutationSummary } from './model/mutations.js';
