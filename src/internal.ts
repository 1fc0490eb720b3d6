// `pagelens/internal`: the building blocks behind the public entry (src/index.ts) — renderers,
// ranking, region planning, negotiation, the caches' constants. Usable (the benchmarks and tests
// use them), but not a promise: they change when the design does, without a major version.

// ---- The page model and its renderers ----
export { composePage, globalId, parseGlobalId, DOC_ATTR, type PlacedFrame } from './model/pagemodel/page.js';
export { FrameSnapshot } from './model/contracts/schema.js';
export { renderV3, renderSemantic, renderText } from './model/renderers/render.js';
export { minifyRole, INTERACTIVE_ROLES } from './model/pagemodel/roles.js';
export { countTokens } from './model/renderers/tokens.js';
export { parseInput, type InputIssue } from './model/contracts/validate.js';
export { computeTreeHash, shouldSendTree, DeltaTracker } from './model/renderers/hash.js';

// ---- Artifacts and the mode-selection chain ----
export { CaptureRequest } from './model/negotiation/modes.js';
export { selectDomMode, modeChain, visualReference, simpleAction, VISUAL_KEYWORDS, SIMPLE_ACTIONS, FALLBACK_CHAIN, type VisualKeywordClass } from './model/negotiation/modes.js';
export { templatize, untemplatize, estimateTokens, type TemplatizeResult } from './model/renderers/templatize.js';
export { renderSkeleton, SKELETON_LISTS, type SkeletonOptions, type SelectOptions } from './model/renderers/skeleton.js';
export { layoutMarks, screenshotHash, MARK_COLOURS, type Mark, type Markable } from './browser/screenshot.js';

// ---- DOM RAG and instruction parsing ----
export {
  FILTER_DEFAULTS, getDomStats, needsFiltering, chunkDomNodes, scoreChunkRelevance, filterDomForQuery, toRagNodes,
  type FilterOptions, type Reranker, type RerankChunk, type DomStats,
} from './model/retrieval/rag.js';
export { parseIntent } from './model/tasks/intent.js';

// ---- The hierarchical index and the exploration toolkit ----
export { DOM_OVERVIEW_TOOL } from './model/explore/explore.js';
export { planRegions, buildRegions, RegionMemory, elementKind, type RegionTree, type RegionNode, type RegionPlan } from './model/explore/regions.js';
export { pageOverview } from './model/explore/pageOverview.js';
export { regionsResult } from './model/explore/regionList.js';
export { expandRegion } from './model/explore/expandRegion.js';
export { elementContext } from './model/explore/elementContext.js';
export { planOverview, renderOverview, displayShape, type OverviewParams, type OverviewPlan } from './model/explore/overview.js';
export { searchPage, parseSearch } from './model/explore/search.js';
export { groupSimilar, groupNames, idRange, selectorShape, nodeGroupKey, type GroupKey } from './model/renderers/grouping.js';
export { diffSnapshots, MOVE_THRESHOLD, type DiffSide } from './model/explore/diff.js';
export { hintText } from './browser/lens.js';
export { SNAPSHOT_TTL_MS, MUTATION_LIMIT } from './browser/lens.js';

// ---- Browser plumbing ----
export { CHROMIUM_ARGS } from './browser/chromium.js';
export { parseViewport } from './session/open.js';

// ---- The negotiation backend ----
export { doneMessage, requestedArtifacts } from './model/negotiation/interact.js';
export { negotiate, carries, closeCandidates, type Candidate as NegotiationCandidate, type NegotiationInput } from './model/negotiation/negotiation.js';
export { DEMO_TASK } from './model/tasks/demo.js';
export { DEFAULT_MAX_BODY } from './server/app.js';
