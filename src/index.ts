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
// Skeleton, full and hybrid artifacts and the mode-selection chain (issue 10)
export {
  SkeletonResult, FullResult, HybridResult, CaptureOptions, CaptureRequest, CaptureResult, type CaptureOptionsInput,
} from './model/artifacts.js';
export {
  selectDomMode, modeChain, visualReference, simpleAction, VISUAL_KEYWORDS, SIMPLE_ACTIONS, FALLBACK_CHAIN, DomModeContext, DomModeSelection,
  type DomModeContextInput, type VisualKeywordClass,
} from './model/modes.js';
export { templatize, untemplatize, estimateTokens, type TemplatizeResult } from './model/templatize.js';
export { renderSkeleton, SKELETON_LISTS, type SkeletonOptions, type SelectOptions } from './model/skeleton.js';
export { layoutMarks, screenshotHash, MARK_COLOURS, type Mark, type Markable } from './browser/screenshot.js';
export { ScreenshotOptions, type ScreenshotOptionsInput } from './model/schema.js';
// DOM RAG, observe / act / extract (issue 13)
export {
  FilteredResult, FilteredNode, FilteredGroup, OmittedRegion, FILTERED_LEGEND, FILTER_DEFAULTS, getDomStats, needsFiltering, chunkDomNodes, scoreChunkRelevance,
  filterDomForQuery, toRagNodes, type RagNode, type Chunk, type StructRef, type FilterOptions, type Reranker, type RerankChunk, type DomStats,
} from './model/rag.js';
export { parseIntent, type Intent, type Verb } from './model/intent.js';
export { Candidate, ChooseAnswer, heuristicChooser, type Chooser, type ChooseRequest, type FillRequest } from './model/chooser.js';
export type { FillResult, JsonSchema } from './model/extract.js';
export type { ObserveOptions, ObserveResult, ActOnOptions, ActOnResult, ExtractOptions, ExtractResult } from './browser/observe.js';
export { ChatClient, llmChooser, llmConfigFromEnv, type LlmConfig, type ChatMessage } from './agent/llm.js';
// The hierarchical index and the exploration toolkit (issue 12)
export {
  DOM_OVERVIEW_TOOL, DomOverviewParams, DomOverviewResponse, OutlineElement, InteractiveElement, GroupedInteractiveElement, HeadingElement,
  PageOverview, Region, RegionsResult, SubsectionRef, RegionElement, ElementGroup, ExpandedRegion, ElementContext, Neighbor, SelectorHint, HintRoot,
  OptionInfo, BoundingBox, DomDiff, DiffElement, DiffChange, SearchResult, SearchHit, ExploreOptions, RefreshOptions, ExpandRegionOptions, SearchOptions,
  type DomOverviewParamsInput, type ExploreOptionsInput, type RefreshOptionsInput, type ExpandRegionOptionsInput, type SearchOptionsInput,
} from './model/explore.js';
export { planRegions, buildRegions, RegionMemory, regionsResult, expandRegion, pageOverview, elementContext, elementKind, type RegionTree, type RegionNode, type RegionPlan } from './model/regions.js';
export { planOverview, renderOverview, searchPage, parseSearch, displayShape, type OverviewParams, type OverviewPlan } from './model/overview.js';
export { groupSimilar, groupNames, idRange, selectorShape, nodeGroupKey, type GroupKey } from './model/grouping.js';
export { diffSnapshots, MOVE_THRESHOLD, type DiffSide } from './model/diff.js';
export { hintText } from './browser/explore.js';
export { SNAPSHOT_TTL_MS, MUTATION_LIMIT } from './browser/snapshots.js';
// The tool registry shared by the MCP server and other stacks (issue 14)
export { toolDefinitions, runTool, runToolSafely, TOOL_NAMES, type McpToolDefinition, type OpenAiToolDefinition, type ToolResult, type TreeDelta, type TreeChange, type ModalState } from './tools/index.js';

// The negotiation backend and the agent loop (issue 11).
export {
  InteractRequest, InteractResponse, ActionResponse, NeedsContext, NeedsFullDom, ErrorBody, DomMode, RequestedDomMode,
  doneMessage, requestedArtifacts, type InteractRequestInput,
} from './model/interact.js';
export { negotiate, carries, closeCandidates, type Candidate as NegotiationCandidate, type NegotiationInput } from './model/negotiation.js';
export { DEMO_TASK } from './model/demo.js';
export type { Planner, SessionStep, SessionView } from './agent/planner.js';
export { createPlanner, PLANNER_NAMES, type PlannerName } from './agent/planners.js';
export { HeuristicPlanner } from './agent/heuristic.js';
export { OpenAIPlanner } from './agent/openaiPlanner.js';
export { runAgent, httpBackend, appBackend, type Backend, type AgentRun, type AgentStep, type AgentOptions } from './agent/loop.js';
export { createApp, DEFAULT_MAX_BODY, type AppOptions } from './server/app.js';
export { startServer, type ServeOptions, type RunningServer } from './server/serve.js';
export { SessionStore, type SessionLimits } from './server/sessions.js';
