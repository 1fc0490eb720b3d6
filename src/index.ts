// The public surface of pagelens. Anything not exported here is internal; every type that appears
// in an exported signature is exported too.
export { attach, Lens } from './browser/lens.js';
export type { ActOptions } from './browser/actions.js';
export type { StabilityOptionsInput, StabilityResult } from './browser/stability.js';
export type { PreActionState } from './browser/verify.js';
export { launchChromium, connectChromium, findChromium, blockExternalRequests, CHROMIUM_ARGS, type LaunchChromiumOptions } from './browser/chromium.js';
export { gotoSettled } from './browser/goto.js';
export { openPage, parseViewport, type OpenOptions, type OpenPage } from './session/open.js';
export { PagelensError, ERROR_CODES, isPagelensError, type ErrorCode } from './model/errors.js';
export { parseInput, type InputIssue } from './model/validate.js';
export { V3_LEGEND, minifyRole, INTERACTIVE_ROLES } from './model/roles.js';
export { renderV3, renderSemantic, renderText } from './model/render.js';
export { countTokens } from './model/tokens.js';
export { composePage, globalId, parseGlobalId, ID_ATTR, DOC_ATTR, type PageModel, type PageNode, type PageStruct, type PageHeading, type PlacedFrame } from './model/page.js';
export {
  SemanticV3Result, SemanticResult, SemanticNodeV3, SemanticNode, SnapshotOptions, SnapshotMode, FrameInfo, FrameSnapshot, RawNode,
  TextOptions, ModelOptions, StructNode, StructKind, HeadingNode, Box, type ModelOptionsInput, type SnapshotOptionsInput, type TextOptionsInput, type ScrollableContainer, type SnapshotMeta, type ScrollInfo,
} from './model/schema.js';
export { AxTreeResult } from './model/axtree.js';
export { Action, parseAction, formatAction, type ActionType } from './model/actions.js';
export { ExpectedOutcome, VerificationResult, ActionResult, ActionMethod, OutcomeType, parseExpectSpec } from './model/outcome.js';
export { computeTreeHash, shouldSendTree, DeltaTracker } from './model/hash.js';
export type { MutationEvent, MutationSummary, MutationCategory } from './model/mutations.js';
