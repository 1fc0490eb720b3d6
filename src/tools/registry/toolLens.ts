// What the tools read and act through on the engine side: the lens-level reads and acts. The CDP
// host's Lens has every member; the extension's (extension/src/toolLens.ts) has the required ones
// and those it can answer the same way. A tool that needs a member a host lacks is listed as
// unavailable there, with the reason (dispatch.ts: availability), never silently missing.
import type { Action } from '../../model/contracts/actions.js';
import type { ActionResult, ExpectedOutcome } from '../../model/contracts/outcome.js';
import type { MutationEvent } from '../../model/pagemodel/mutations.js';
import type { SemanticV3Result, SnapshotOptionsInput } from '../../model/contracts/schema.js';
import type { AxTreeResult } from '../../model/renderers/axtree.js';
import type { HybridResult } from '../../model/renderers/artifacts.js';
import type { FilteredResult } from '../../model/retrieval/rag.js';
import type { DomDiff, DomOverviewParamsInput, DomOverviewResponse, ElementContext, ExpandedRegion, RegionsResult, SearchResult } from '../../model/explore/explore.js';

/** An answer a tool sends as it is (JSON), or reads a few fields of. */
type Answer<T = object> = T;

export interface ToolLens {
  snapshot(options: SnapshotOptionsInput & { query: string }): Promise<FilteredResult>;
  snapshot(options: SnapshotOptionsInput & { mode: 'hybrid' }): Promise<HybridResult>;
  snapshot(options?: SnapshotOptionsInput & { mode?: 'semantic_v3' }): Promise<SemanticV3Result>;
  snapshot(options?: SnapshotOptionsInput): Promise<object>;
  /** An action with the host's act pipeline; `expect` as the CLI and the LLM spell it. */
  act(action: string | Action, options?: { expect?: string | ExpectedOutcome }): Promise<ActionResult>;

  // ---- what not every host has (see unavailableReason in dispatch.ts) ----
  text?(options?: { fullPage?: boolean }): Promise<string>;
  axtree?(): Promise<AxTreeResult>;
  markGestureTargets?(): Promise<{ marked: number; warnings: string[] }>;
  recentEvents?(limit?: number): Promise<{ events: MutationEvent[]; unread: string[] }>;
  overview?(params?: DomOverviewParamsInput): Promise<DomOverviewResponse>;
  regions?(options?: { refresh?: boolean }): Promise<RegionsResult>;
  expandRegion?(region: string, options?: { limit?: number; refresh?: boolean }): Promise<ExpandedRegion>;
  elementContext?(target: string, options?: { refresh?: boolean }): Promise<ElementContext>;
  search?(query: string, options?: { limit?: number; refresh?: boolean }): Promise<SearchResult>;
  diff?(snapshotA: string, snapshotB: string): Promise<DomDiff>;
  observe?(instruction: string, options?: { limit?: number; maxTokens?: number }): Promise<Answer>;
  actOn?(instruction: string, options?: { expect?: string; maxTokens?: number }): Promise<ActionResult>;
  extract?(instruction: string, schema?: never, options?: { maxTokens?: number }): Promise<Answer<{ ok: boolean }>>;
  pageText?(): Promise<{ blocks: Array<{ id: string; frame: number; level?: number; text: string }>; warnings: string[] }>;
  webMcpTools?(): Promise<Array<Answer<{ name: string; description: string; frame?: number; frameUrl?: string; inputSchema?: object; annotations?: { readOnly?: boolean; consequential?: boolean } }>>>;
  callWebMcpTool?(tool: never, input: object): Promise<{ status: string; output?: unknown; errorText?: string }>;
}

/** The members a host may lack, by name. */
export type LensCapability = Exclude<{ [K in keyof ToolLens]-?: undefined extends ToolLens[K] ? K : never }[keyof ToolLens], undefined>;
