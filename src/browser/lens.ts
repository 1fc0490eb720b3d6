// The lens: pagelens's face for one Playwright page, a thin facade over the core (targets,
// frames, IDs: lensCore.ts) and its features (reading, acting, verifying, the accessibility tree).
// Nothing imports this module but the faces; features take the core.
import type { Locator, Page } from 'playwright-core';
import type { z } from 'zod';
import { CoreLens, type ActOnOptions, type ActOnResult, type ExtractOptions, type ExtractResult, type ObserveOptions, type ObserveResult, type PageText, type PreActionState, type Presence, type SecretCovers, type SnapshotPayload } from '../core/lens.js';
import type { IdNumbering } from '../core/ledger.js';
import type { Action } from '../model/contracts/actions.js';
import { PagelensError } from '../model/contracts/errors.js';
import type { ActionResult, ExpectedOutcome, VerificationResult } from '../model/contracts/outcome.js';
import { summarize, type MutationEvent, type MutationSummary } from '../model/pagemodel/mutations.js';
import { ModelOptions, TextOptions, type ModelOptionsInput, type SemanticResult, type SemanticV3Result, type SnapshotOptionsInput, type TextOptionsInput } from '../model/contracts/schema.js';
import { parseInput } from '../model/contracts/validate.js';
import type { DomDiff, DomOverviewParamsInput, DomOverviewResponse, ElementContext, ExpandedRegion, ExpandRegionOptionsInput, ExploreOptionsInput, PageOverview, RefreshOptionsInput, RegionsResult, SearchOptionsInput, SearchResult } from '../model/explore/explore.js';
import type { PageModel } from '../model/pagemodel/page.js';
import type { FullResult, HybridResult, SkeletonResult } from '../model/renderers/artifacts.js';
import type { CaptureOptionsInput, CaptureResult } from '../model/negotiation/modes.js';
import type { AxTreeResult } from '../model/renderers/axtree.js';
import type { FilteredResult } from '../model/retrieval/rag.js';
import { performAction, type ActOptions } from './performAction.js';
import { readAxTree } from './axtree.js';
import { LensCore } from './lensCore.js';
import { recentEvents } from './events.js';
import { markGestureTargets } from './gestures.js';
import { locatorFor } from './locator.js';
import { cdpReadHost } from './readHost.js';
import { parseStateCheck } from './stateCheck.js';
import { loadContextState, saveContextState, type LoadOutcome, type SaveOutcome } from './stateSave.js';
import { waitForDomStability, type StabilityOptionsInput, type StabilityResult } from './stability.js';
import { callWebMcpTool, listWebMcpTools, type WebMcpResult, type WebMcpTool } from './webmcp.js';

/** How long a read waits for the search for gesture listeners of a document it reads first. */
const GESTURE_SEARCH_BUDGET_MS = 2000;

export class Lens {
  private lastPreAction?: { state: PreActionState; id?: string };
  /** The last search for gesture listeners, settled or not. */
  private searching: Promise<unknown> = Promise.resolve();

  /** Everything read of the page, written once for both hosts (src/core/lens.ts) over this host's transport (readHost.ts). */
  private readonly reads: CoreLens;

  private constructor(readonly page: Page, private readonly core: LensCore) {
    this.reads = new CoreLens(cdpReadHost(core));
  }

  /**
   * `opts.numbering`: one per session of several tabs, so that no two tabs hand out the same ID.
   * `opts.world`: the engine's isolated world, when not the usual one (a session reconnected to a browser: target.ts).
   */
  static async attach(page: Page, opts: { numbering?: IdNumbering; world?: string } = {}): Promise<Lens> {
    return new Lens(page, await LensCore.attach(page, opts.numbering, opts.world));
  }

  /**
   * The snapshot payload in the requested mode (with `query`: the task-filtered tree); its IDs
   * are bound to the documents it read.
   */
  async snapshot(options: SnapshotOptionsInput & { query: string }): Promise<FilteredResult>;
  async snapshot(options: SnapshotOptionsInput & { mode: 'semantic' }): Promise<SemanticResult>;
  async snapshot(options: SnapshotOptionsInput & { mode: 'axtree' }): Promise<AxTreeResult>;
  async snapshot(options: SnapshotOptionsInput & { mode: 'skeleton' }): Promise<SkeletonResult>;
  async snapshot(options: SnapshotOptionsInput & { mode: 'full' }): Promise<FullResult>;
  async snapshot(options: SnapshotOptionsInput & { mode: 'hybrid' }): Promise<HybridResult>;
  async snapshot(options?: SnapshotOptionsInput & { mode?: 'semantic_v3' }): Promise<SemanticV3Result>;
  async snapshot(options: SnapshotOptionsInput & { mode: 'semantic_v3' | 'semantic' }): Promise<SemanticV3Result | SemanticResult>;
  async snapshot(options?: SnapshotOptionsInput): Promise<SnapshotPayload>;
  async snapshot(options: SnapshotOptionsInput = {}): Promise<SnapshotPayload> {
    const doubts = await this.readsGestures();
    const payload = await this.reads.snapshot(options);
    if (doubts.length) {
      const p = payload as { warnings?: string[] };
      p.warnings = [...p.warnings ?? [], ...doubts];
    }
    return payload;
  }

  /**
   * The accessibility-tree path: Chrome's AX tree of every frame in one tree, as semantic nodes
   * and as an outline. Nodes the tagger stamped carry their data-llm-id, so either ID works.
   */
  axtree(): Promise<AxTreeResult> {
    return readAxTree(this.core);
  }

  /**
   * Finds the elements that listen for double clicks, hover or drag and drop (not only by an
   * attribute), so that the next snapshot lists them; see gestures.ts for what it costs. Every
   * read does this by itself (readsGestures); this call searches every frame, changed or not.
   */
  markGestureTargets(): Promise<{ marked: number; warnings: string[] }> {
    return this.searchGestures(false);
  }

  private searchGestures(onlyIfChanged: boolean): Promise<{ marked: number; warnings: string[] }> {
    // One search at a time: a read's search that ran past its budget is finished before the next
    // begins, so a caller that awaits this one knows no search is left at work.
    const run = this.searching.catch(() => undefined).then(() => markGestureTargets(this.core, onlyIfChanged));
    this.searching = run.catch(() => undefined);
    return run;
  }

  /**
   * Every face reads a page the same way: before each read, the frames whose document changed
   * since their last search are searched for gesture listeners (a few to tens of ms; nothing when
   * the page stood still), so a label that takes a double click is listed in the library's reads
   * as in the MCP face's, also when the page rendered it after the first read (a to-do added). What
   * the search could not do comes back as the read's doubts (a snapshot's warnings; the model has
   * no place for them).
   */
  private async readsGestures(): Promise<string[]> {
    // A slow search must not hold the read: past its budget the read goes on, says so, and the
    // search's marks count from the next read on. A search that failed, whole or for a frame, says
    // so too: the read may then miss what it would have listed.
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<'late'>((r) => { timer = setTimeout(() => r('late'), GESTURE_SEARCH_BUDGET_MS); });
    const search = this.searchGestures(true).then((m) => m.warnings, (e: Error) => [`hover, double-click and drag targets could not be searched for (${e.message.split('\n')[0]}), so this read may not list them`]);
    const r = await Promise.race([search, budget]).finally(() => clearTimeout(timer));
    return r === 'late'
      ? [`the search for elements that take a hover, double click or drag took longer than ${GESTURE_SEARCH_BUDGET_MS / 1000} s (a large page on a busy machine), so this read may not list them; it goes on in the background and the next read includes them`]
      : r;
  }

  /** A read of the exploration and task paths, after the same search (its doubts have no place there). */
  private async afterGestures<T>(read: () => Promise<T>): Promise<T> {
    await this.readsGestures();
    return read();
  }

  /** Tools the page declares through WebMCP (document.modelContext), every frame's. */
  webMcpTools(): Promise<WebMcpTool[]> {
    return listWebMcpTools(this.core);
  }

  /** Calls one of them, in the frame that registered it; its output is the page's, untrusted. */
  callWebMcpTool(tool: WebMcpTool, input: object): Promise<WebMcpResult> {
    return callWebMcpTool(this.core, tool, input);
  }

  /** The page's headings and text blocks, every frame's, in document order (see src/core/pageText.ts). */
  pageText(): Promise<PageText> {
    return this.reads.pageText();
  }

  /** The compact text form of the same model. */
  async text(options: TextOptionsInput = {}): Promise<string> {
    const opts = parseInput(TextOptions, options, 'text options');
    // The model has no place for a read's doubts: a late search only means its marks come next time.
    await this.readsGestures();
    return this.reads.text({ fullPage: opts.fullPage });
  }

  /** The page model behind every renderer; the IDs in it are handed out like a snapshot's. */
  async model(options: ModelOptionsInput = {}): Promise<PageModel> {
    const opts = parseInput(ModelOptions, options, 'model options');
    // The model has no place for a read's doubts: a late search only means its marks come next time.
    await this.readsGestures();
    return this.reads.model(opts);
  }

  /** Runs an action ("click(12)" or a typed Action) with self-healing and optional verification. */
  act(action: string | Action, options: ActOptions = {}): Promise<ActionResult> {
    return performAction(this.core, action, options);
  }

  /**
   * A Playwright Locator for an element ID, scoped to the document that issued the ID (it matches
   * nothing once the page shows another one). Not for elements in closed shadow roots.
   */
  locator(id: string): Promise<Locator> {
    return locatorFor(this.core, id);
  }

  /**
   * Whether the text shows in any frame, as the engine reads it in its isolated world (the page
   * cannot fake it); `unread` names the frames that could not be searched, so "not found" is only
   * certain when it is empty.
   */
  findText(text: string): Promise<Presence> {
    if (typeof text !== 'string' || !text.trim()) throw new PagelensError('BAD_INPUT', 'findText(text): expected a non-empty string.');
    return this.reads.findOnFrames({ text }, 'Cannot search for the text');
  }

  /** Resolves once the DOM of every frame has been quiet and the network idle, or at the timeout. */
  waitForDomStability(options: StabilityOptionsInput = {}): Promise<StabilityResult> {
    return waitForDomStability(this.core, options);
  }

  /** The last meaningful changes across frames, oldest first; `unread` names frames whose log could not be read. */
  async recentEvents(limit = 10): Promise<{ events: MutationEvent[]; unread: string[] }> {
    if (!Number.isInteger(limit) || limit < 1) throw new PagelensError('BAD_INPUT', `recentEvents(limit): limit must be a positive integer, got ${String(limit)}.`);
    return recentEvents(this.core, limit);
  }

  async mutationSummary(): Promise<MutationSummary & { unread?: string[] }> {
    const { events, unread } = await recentEvents(this.core, 100);
    return { ...summarize(events), ...(unread.length > 0 && { unread }) };
  }

  /** Before an action: what verifyOutcome/quickVerify will compare against. */
  async capturePreActionState(expected?: ExpectedOutcome, id?: string): Promise<PreActionState> {
    const state = await this.reads.capturePreActionState(expected, id);
    this.lastPreAction = { state, id };
    return state;
  }

  async verifyOutcome(expected: ExpectedOutcome, pre?: PreActionState, id?: string): Promise<VerificationResult> {
    const base = pre ?? this.lastPreAction?.state;
    if (!base) throw new PagelensError('BAD_INPUT', 'Call capturePreActionState() before the action.');
    return this.reads.verifyOutcome(base, expected, id ?? this.lastPreAction?.id);
  }

  /** verifyOutcome with defaults: a click changes something, setValue the value, navigate the URL. */
  async quickVerify(kind: 'click' | 'setValue' | 'navigate', id?: string): Promise<VerificationResult> {
    if (!['click', 'setValue', 'navigate'].includes(kind)) throw new PagelensError('BAD_INPUT', `quickVerify(kind): expected "click", "setValue" or "navigate", got ${JSON.stringify(kind)}.`);
    return this.verifyOutcome(defaultOutcome(kind, id), undefined, id);
  }

  async close(): Promise<void> {
    await this.core.close();
  }

  // ---- saved state (issue 40: stateSave.ts) ----
  /**
   * Saves the browser context's cookies, localStorage and IndexedDB to `path` (0600; encrypted
   * when PAGELENS_STATE_KEY is set). With `check` (text, or `role "name"`), only when this page
   * shows it: a page that does not (logged out) leaves the last good file as it was.
   */
  async saveState(path: string, opts: { check?: string } = {}): Promise<SaveOutcome> {
    return saveContextState(this.page.context(), path, { page: this.page, ...(opts.check !== undefined && { check: parseStateCheck(opts.check) }) });
  }

  /** Loads a state saved by saveState into this page's context (refused whole when it cannot be trusted). */
  async loadState(path: string): Promise<LoadOutcome> {
    return loadContextState(this.page.context(), path);
  }

  // ---- artifacts (issue 10: src/core/artifacts.ts, capture.ts) ----
  /**
   * Where any image of the page must be painted over: the boxes (CSS px) of the secret fields that
   * show their value in clear (a password field the page turned into a text field, a card number),
   * in every frame, in the viewport or in page coordinates. Every image pagelens gives is painted
   * over already; this is for images taken another way (a trace's).
   */
  secretCovers(space: 'viewport' | 'document' = 'viewport'): Promise<SecretCovers> {
    return this.reads.secretCovers(space);
  }

  /**
   * The payload a task calls for, read from the live page: `selectDomMode(query, requested)`
   * picks the mode (semantic_v3 by default, hybrid for visual or spatial words, full only when
   * `requested` asks for it), and a mode that fails or comes back empty hands over to the next
   * (semantic_v3 → semantic → skeleton), as `reason` and `fellBackFrom` say.
   */
  capture(options: CaptureOptionsInput): Promise<CaptureResult> { return this.afterGestures(() => this.reads.capture(options)); }
  // ---- end artifacts ----

  // ---- exploration (issue 12: src/core/explore.ts) ----
  // Every answer carries its `text` form and the snapshotId it came from; one snapshot answers
  // for 30 s (not after a navigation, many DOM changes, a change a person would notice, or
  // `refresh: true`). IDs are the snapshot IDs ("12", "f1_5"), handed out like a snapshot's.
  /** L0: url, title, viewport, load status, landmarks, interactive count, forms. */
  pageOverview(options?: RefreshOptionsInput): Promise<PageOverview> { return this.afterGestures(() => this.reads.pageOverview(options)); }
  /** L1: regions (landmarks, forms, dialogs; blocks on pages without them) with summaries and subsections. */
  regions(options?: RefreshOptionsInput): Promise<RegionsResult> { return this.afterGestures(() => this.reads.regions(options)); }
  /** L2: the elements of a region or subsection ("R2", "R2.Filters"). */
  expandRegion(region: string, options?: ExpandRegionOptionsInput): Promise<ExpandedRegion> { return this.afterGestures(() => this.reads.expandRegion(region, options)); }
  /** L3: one element in depth, by ID ("12", "f1_5") or CSS selector (a selector hint, with its [frame]/[shadow] prefixes). */
  elementContext(target: string, options?: RefreshOptionsInput): Promise<ElementContext> { return this.afterGestures(() => this.reads.elementContext(target, options)); }
  /** dom_overview with the seed's parameters (see DOM_OVERVIEW_TOOL); `group: false` lists similar elements one by one. */
  overview(params: DomOverviewParamsInput = {}, options?: ExploreOptionsInput): Promise<DomOverviewResponse> { return this.afterGestures(() => this.reads.overview(params, options)); }
  /** dom_diff between two snapshots (by their snapshotId). */
  diff(snapshotA: string, snapshotB: string): Promise<DomDiff> { return this.reads.diff(snapshotA, snapshotB); }
  /** dom_search: elements and text blocks matching text, role:…, tag:… or [attribute=value]. */
  search(query: string, options?: SearchOptionsInput): Promise<SearchResult> { return this.afterGestures(() => this.reads.search(query, options)); }
  // ---- end exploration ----

  // ---- observe / act / extract (issue 13: src/core/observe.ts) ----
  /** Ranked candidates for an instruction. */
  observe(instruction: string, options?: ObserveOptions): Promise<ObserveResult> { return this.afterGestures(() => this.reads.observe(instruction, options)); }
  /** Observe, pick, act with verification; refuses when the top candidates are too close to call. */
  actOn(instruction: string, options?: ActOnOptions): Promise<ActOnResult> { return this.afterGestures(() => this.reads.actOn(instruction, options)); }
  /** Structured data from the page's content. */
  extract<S extends z.ZodType = z.ZodType>(instruction: string, schema?: S, options?: ExtractOptions): Promise<ExtractResult<z.infer<S>>> { return this.reads.extract(instruction, schema, options); }
  // ---- end observe ----
}

/** Sensible defaults for quickVerify: a click should change something, setValue the value, navigate the URL. */
function defaultOutcome(kind: 'click' | 'setValue' | 'navigate', id?: string): ExpectedOutcome {
  if (kind === 'setValue') return { type: 'value_changes', ...(id && { id }) };
  if (kind === 'navigate') return { type: 'navigation' };
  return { type: 'any_change' };
}

// What the lens's answers are made of, for the public entries (src/index.ts, src/internal.ts):
// written once in src/core, reached through this facade.
export type { ActOnOptions, ActOnResult, ExtractOptions, ExtractResult, ObserveOptions, ObserveResult, PageText, PreActionState, Presence, SecretCovers, SnapshotPayload, TextBlock } from '../core/lens.js';
export { hintText } from '../core/explore.js';
export { SNAPSHOT_TTL_MS, MUTATION_LIMIT } from '../core/snapshots.js';

/** A session's ID numbering (core/ledger.ts): the tabs of one session share one, so that no two hand out the same ID. */
export { IdNumbering, type LedgerStorage } from '../core/ledger.js';

/** Attaches pagelens to a Playwright page. */
export function attach(page: Page): Promise<Lens> {
  return Lens.attach(page);
}

/** The core behind a lens: for pagelens's own faces and tests, not part of the public API. */
export function coreOf(lens: Lens): LensCore {
  return lens['core'];
}

/** What a lens reads through (src/core/lens.ts), its toolkits' hosts included: for pagelens's own faces and tests, not part of the public API. */
export function readsOf(lens: Lens): CoreLens {
  return lens['reads'];
}
