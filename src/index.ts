// The public surface of pagelens, grouped by concept. Every type that appears in an exported
// signature is exported too. Building blocks (renderers, ranking, region planning, constants of
// the caches, …) are in the `pagelens/internal` entry (src/internal.ts): usable, but not promised
// to stay. api/pagelens.api.md pins this surface (test/repo/api-report.test.ts).

// ---- Opening a page and attaching a lens ----
export { attach, Lens } from './browser/lens.js';
export { openPage, type OpenOptions, type OpenPage } from './session/open.js';
export { launchChromium, connectChromium, findChromium, blockExternalRequests, type LaunchChromiumOptions } from './browser/chromium.js';
export { gotoSettled, type Navigated } from './browser/goto.js';

// ---- Recording what the lens saw and did (docs/trace.md) ----
export { startTrace, type LensTrace, type LensTraceOptions, type TraceableLens } from './trace/library.js';
export type { PlaywrightTraceReport } from './trace/playwrightTrace.js';
export type { ScrubReport } from './trace/playwrightScrub.js';
export { readTrace, type ReadTrace } from './trace/readTrace.js';
export { startMcpTrace, type McpTrace, type TracedCall } from './trace/mcpTrace.js';
export type { CoverSource } from './trace/capture.js';
export { TraceRecord, TraceStep, TraceMeta, TraceEnd, TraceBox, TraceObservation, TraceVerdict, TRACE_SCHEMA, TRACE_VERSION, TRACE_VERSIONS } from './model/trace/runRecord.js';

// ---- Errors ----
export { PagelensError, ERROR_CODES, isPagelensError, type ErrorCode } from './model/contracts/errors.js';

// ---- Reading the page: the snapshot request and its payloads ----
export type { SecretCovers, SnapshotPayload } from './browser/lens.js';
export {
  SnapshotOptions, SnapshotMode, ScreenshotOptions, TextOptions, ModelOptions, SemanticV3Result, SemanticResult, SemanticNodeV3, SemanticNode,
  FrameInfo, RawNode, StructNode, StructKind, HeadingNode, Box,
  type SnapshotOptionsInput, type ScreenshotOptionsInput, type TextOptionsInput, type ModelOptionsInput, type SnapshotMeta, type ScrollInfo, type ScrollableContainer,
} from './model/contracts/schema.js';
export { SkeletonResult, FullResult, HybridResult } from './model/renderers/artifacts.js';
export { FilteredResult, FilteredNode, FilteredGroup, OmittedRegion, FILTERED_LEGEND, type KeptNode, type RagNode, type RagKind, type Chunk, type StructRef } from './model/retrieval/rag.js';
export { AxTreeResult } from './model/renderers/axtree.js';
export { V3_LEGEND } from './model/pagemodel/roles.js';
export { ID_ATTR, type PageModel, type PageNode, type PageStruct, type PageHeading } from './model/pagemodel/page.js';
export { DomModeContext, DomModeSelection, CaptureOptions, CaptureResult, type DomModeContextInput, type CaptureOptionsInput } from './model/negotiation/modes.js';

// ---- Acting and verifying ----
export { Action, parseAction, formatAction, type ActionType } from './model/contracts/actions.js';
export type { ActOptions } from './browser/performAction.js';
export { ExpectedOutcome, VerificationResult, ActionResult, ActionMethod, OutcomeType, parseExpectSpec } from './model/contracts/outcome.js';
export type { PreActionState, Presence } from './browser/lens.js';
export { IdNumbering, type LedgerStorage } from './browser/lens.js';
export type { PageText, TextBlock } from './browser/lens.js';
export type { WebMcpTool, WebMcpResult } from './browser/webmcp.js';
export { StabilityOptions, type StabilityOptionsInput, type StabilityResult } from './browser/stability.js';
export type { MutationEvent, MutationSummary, MutationCategory } from './model/pagemodel/mutations.js';
export type { Marks, FrameMark } from './browser/events.js';

// ---- Observe, act on an instruction, extract ----
export type { ObserveOptions, ObserveResult, ActOnOptions, ActOnResult, ExtractOptions, ExtractResult } from './browser/lens.js';
export type { Intent, Verb, Vertical, Horizontal } from './model/tasks/intent.js';
export { Candidate, ChooseAnswer, heuristicChooser, type Chooser, type ChooseRequest, type FillRequest } from './model/retrieval/chooser.js';
export type { FillResult, JsonSchema, PageFacts } from './model/retrieval/extract.js';
export type { ProductFacts } from './model/retrieval/productFacts.js';
export { ChatClient, llmChooser, llmConfigFromEnv, type LlmConfig, type ChatMessage } from './agent/llm.js';

// ---- Exploring a large page: the hierarchical index and the toolkit ----
export {
  DomOverviewParams, DomOverviewResponse, OutlineElement, InteractiveElement, GroupedInteractiveElement, HeadingElement,
  PageOverview, Region, RegionsResult, SubsectionRef, RegionElement, ElementGroup, ExpandedRegion, ElementContext, Neighbor,
  BoundingBox, DomDiff, DiffElement, DiffChange, SearchResult, SearchHit, ExploreOptions, RefreshOptions, ExpandRegionOptions, SearchOptions,
  type DomOverviewParamsInput, type ExploreOptionsInput, type RefreshOptionsInput, type ExpandRegionOptionsInput, type SearchOptionsInput,
} from './model/explore/explore.js';
export { SelectorHint, HintRoot, OptionInfo } from './model/contracts/engineAnswers.js';

// ---- Tools for agents: one registry for MCP, OpenAI-style function calling and the library ----
export {
  toolDefinitions, TOOL_NAMES, TOOL_GROUPS, DEFAULT_TOOLSET,
  type Json, type DefinitionOptions, type ToolGroup, type McpToolDefinition, type OpenAiToolDefinition, type ToolResult, type TreeDelta, type TreeChange, type ModalState, type TabHost, type TabInfo,
} from './tools/index.js';
export { runTool, runToolSafely, type RunToolOptions } from './browser/tools/runTool.js';

// ---- The MCP server, to run or to embed ----
export { createMcpServer, runMcpServer, type McpServerOptions } from './mcp/server.js';
export { BrowserSession, SharedBrowser, type BrowserOptions } from './mcp/browser.js';
export { FilePolicy, type FilePolicyOptions } from './mcp/filePolicy.js';
// Saved state (issue 40): logins across restarts, sessions across MCP connections.
export type { LoadOutcome, SaveOutcome } from './browser/stateSave.js';
export { STATE_KEY_ENV, type StorageState } from './browser/stateFile.js';
export type { StateOptions } from './mcp/stateKeeper.js';
export { SESSION_KEY_HEADER } from './mcp/sessionKeys.js';
export type { McpHttpOptions } from './mcp/http.js';
export type { SessionRegistry, Misrouted } from './mcp/ownership.js';

// ---- The negotiation backend and the agent loop ----
export {
  InteractRequest, InteractResponse, ActionResponse, NeedsContext, NeedsFullDom, ErrorBody, DomMode, RequestedDomMode, type InteractRequestInput,
} from './model/negotiation/interact.js';
export { createApp, type AppOptions } from './server/app.js';
export { startServer, type ServeOptions, type RunningServer } from './server/serve.js';
export { MemorySessionStore, StoreUnavailableError, type SessionStore, type OpenSession, type SessionLimits } from './server/sessions.js';
export type { Planner, SessionStep, SessionView } from './agent/planner.js';
export { createPlanner, PLANNER_NAMES, type PlannerName } from './agent/planners.js';
export { HeuristicPlanner } from './agent/heuristic.js';
export { OpenAIPlanner } from './agent/openaiPlanner.js';
export { runAgent, httpBackend, appBackend, type Backend, type AgentRun, type AgentStep, type AgentOptions } from './agent/loop.js';
