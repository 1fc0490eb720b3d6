// One lens over one port (issue 44): everything a face reads of a page, built once from a host's
// ReadHost (src/core/port.ts) and used by both hosts (src/browser/lens.ts, extension/src/tabLens.ts):
// the one snapshot-mode dispatch, the artifacts and the capture chain, the page model and its text
// form, exploration, task reading (observe/act/extract), the reader's text and verification. Each
// host keeps only its transport; nothing here knows which host it reads.
import type { z } from 'zod';
import { PagelensError } from '../model/contracts/errors.js';
import { ExpectedOutcome, type VerificationResult } from '../model/contracts/outcome.js';
import { ScreenshotOptions, SnapshotOptions, type SemanticResult, type SemanticV3Result, type SnapshotOptionsInput } from '../model/contracts/schema.js';
import { givenOptions, snapshotRequestConflict, type NameOf } from '../model/contracts/snapshotRequest.js';
import { parseInput } from '../model/contracts/validate.js';
import type { Presence } from '../model/acting/verdict.js';
import type {
  DomDiff, DomOverviewResponse, ElementContext, ExpandedRegion, ExpandRegionOptionsInput, ExploreOptionsInput, PageOverview,
  RefreshOptionsInput, RegionsResult, SearchOptionsInput, SearchResult,
} from '../model/explore/explore.js';
import { parseGlobalId, type PageModel } from '../model/pagemodel/page.js';
import type { FullResult, HybridResult, SkeletonResult } from '../model/renderers/artifacts.js';
import type { CaptureOptionsInput, CaptureResult } from '../model/negotiation/modes.js';
import type { AxTreeResult } from '../model/renderers/axtree.js';
import { renderText } from '../model/renderers/render.js';
import type { FilteredResult } from '../model/retrieval/rag.js';
import { fullSnapshot, hybridSnapshot, skeletonSnapshot } from './artifacts.js';
import { capture } from './capture.js';
import { domDiff, domOverview, domSearch, elementContext, expandRegion, pageOverview, regions, type ExploreHost } from './explore.js';
import { readHandedOut } from './handOut.js';
import { actOn, extract, observe, type ActOnOptions, type ActOnResult, type ExtractOptions, type ExtractResult, type ObserveHost, type ObserveOptions, type ObserveResult } from './observe.js';
import { readPageText, type PageText } from './pageText.js';
import type { ReadHost, ReadOptions } from './port.js';
import { filteredSnapshot, type RagHost } from './rag.js';
import { secretCovers, type SecretCovers } from './secretCovers.js';
import { semanticSnapshot } from './semantic.js';
import { currentSnapshot, newSnapshot, type KeptSnapshot, type SnapshotSource } from './snapshots.js';
import { capturePre, findOnFrames, verifyOutcome, type PreActionState } from './verify.js';

export type SnapshotPayload = SemanticV3Result | SemanticResult | AxTreeResult | SkeletonResult | FullResult | HybridResult | FilteredResult;
export type { PageText, TextBlock } from './pageText.js';
export type { PreActionState } from './verify.js';
export type { SecretCovers } from './secretCovers.js';
export type { Presence } from '../model/acting/verdict.js';
export type { ActOnOptions, ActOnResult, ExtractOptions, ExtractResult, ObserveOptions, ObserveResult } from './observe.js';

export class CoreLens {
  /** Exploration's host: the host's snapshot store, its whole-page read, the payload's IDs handed out. */
  readonly explore: ExploreHost<KeptSnapshot>;
  /** Task reading's host: the exploration snapshot and the ledger. */
  readonly rag: RagHost;
  private readonly observing: ObserveHost;

  constructor(readonly host: ReadHost) {
    const source: SnapshotSource = {
      engine: host.engine,
      store: host.snapshots,
      // The whole page with structure and attributes; its IDs are handed out when an answer shows them.
      read: () => host.read({ fullPage: true, structure: true, attributes: true }),
      navigations: () => host.navigations(),
    };
    this.explore = {
      engine: host.engine,
      current: (opts) => currentSnapshot(source, opts),
      fresh: () => newSnapshot(source),
      get: (id) => host.snapshots.get(id),
      invalidate: (snap) => host.snapshots.invalidate(snap),
      handOut(snap, extra) {
        host.ledger.handOut(snap.model);
        for (const e of extra) {
          const p = parseGlobalId(e.gid);
          const doc = p && snap.model.docs[p.frame];
          // Recorded as an item: acting on it later checks that it still shows these words.
          if (p && doc && !host.ledger.sighting(e.gid)) host.ledger.note(e.gid, { doc, frame: p.frame, role: 'item', name: e.name ?? '', centre: [0, 0] });
        }
        void host.keep();
      },
    };
    this.rag = {
      engine: host.engine,
      current: (opts) => currentSnapshot(source, opts),
      record: (model) => { host.ledger.handOut(model); void host.keep(); },
    };
    this.observing = {
      ...this.rag,
      act: (action, opts) => host.act(action, opts),
      title: async () => (host.title ? host.title() : (await currentSnapshot(source, {})).snap.model.title),
    };
  }

  // ---- reading ----

  /**
   * The payload in the requested mode (with `query`: the task-filtered tree): the one mode
   * dispatch of every face and host. An option that does not apply to its mode is BAD_INPUT
   * (model/contracts/snapshotRequest.ts), named as `name` says the face spells it.
   */
  snapshot(input: SnapshotOptionsInput & { query: string }, name?: NameOf): Promise<FilteredResult>;
  snapshot(input: SnapshotOptionsInput & { mode: 'semantic' }, name?: NameOf): Promise<SemanticResult>;
  snapshot(input: SnapshotOptionsInput & { mode: 'axtree' }, name?: NameOf): Promise<AxTreeResult>;
  snapshot(input: SnapshotOptionsInput & { mode: 'skeleton' }, name?: NameOf): Promise<SkeletonResult>;
  snapshot(input: SnapshotOptionsInput & { mode: 'full' }, name?: NameOf): Promise<FullResult>;
  snapshot(input: SnapshotOptionsInput & { mode: 'hybrid' }, name?: NameOf): Promise<HybridResult>;
  snapshot(input?: SnapshotOptionsInput & { mode?: 'semantic_v3' }, name?: NameOf): Promise<SemanticV3Result>;
  snapshot(input?: SnapshotOptionsInput, name?: NameOf): Promise<SnapshotPayload>;
  async snapshot(input: SnapshotOptionsInput = {}, name?: NameOf): Promise<SnapshotPayload> {
    const opts = parseInput(SnapshotOptions, input, 'snapshot options');
    const conflict = snapshotRequestConflict({ mode: opts.mode, query: opts.query, given: givenOptions(input) }, name);
    if (conflict) throw new PagelensError('BAD_INPUT', conflict);
    if (opts.query !== undefined) return filteredSnapshot(this.rag, opts);
    switch (opts.mode) {
      case 'semantic': case 'semantic_v3': return semanticSnapshot(this.host, opts);
      case 'skeleton': return skeletonSnapshot(this.host, opts.fullPage);
      case 'full': return fullSnapshot(this.host);
      case 'hybrid': return hybridSnapshot(this.host, ScreenshotOptions.parse(opts.screenshot ?? {}));
      case 'axtree':
        if (!this.host.axtree) throw new PagelensError('BAD_INPUT', 'mode axtree is not offered by this host: Chrome\'s accessibility tree is read over CDP only; the other modes are.');
        return this.host.axtree();
    }
  }

  /**
   * Where any image of the page must be painted over: the boxes of the secret fields that show
   * their value in clear, in every frame (secretCovers.ts), in the viewport or in page coordinates.
   */
  secretCovers(space: 'viewport' | 'document' = 'viewport'): Promise<SecretCovers> {
    return secretCovers(this.host.engine, { space });
  }

  /** The payload a task calls for (capture.ts: the mode-selection chain, with its fallbacks). */
  capture(options: CaptureOptionsInput): Promise<CaptureResult> {
    return capture(this.host, options);
  }

  /** The page model behind every renderer; the IDs in it are handed out like a snapshot's. */
  model(opts: ReadOptions): Promise<PageModel> {
    return readHandedOut(this.host, opts);
  }

  /** The compact text form of the model. */
  async text(opts: { fullPage: boolean }): Promise<string> {
    return renderText(await this.model({ fullPage: opts.fullPage }));
  }

  /** The page's headings and text blocks, every frame's, in document order. */
  async pageText(): Promise<PageText> {
    const { ledger } = this.host;
    // Every line's ID is handed out as an item: acting on it later checks it still shows its words.
    const text = await readPageText(this.host.engine, (b, doc, shows) => {
      if (!ledger.sighting(b.id)) ledger.note(b.id, { doc, frame: b.frame, role: 'item', name: shows, centre: [0, 0] });
    });
    await this.host.keep();
    return text;
  }

  // ---- exploration (issue 12) ----
  pageOverview(options: RefreshOptionsInput = {}): Promise<PageOverview> { return pageOverview(this.explore, options); }
  regions(options: RefreshOptionsInput = {}): Promise<RegionsResult> { return regions(this.explore, options); }
  expandRegion(region: string, options: ExpandRegionOptionsInput = {}): Promise<ExpandedRegion> { return expandRegion(this.explore, region, options); }
  elementContext(target: string, options: RefreshOptionsInput = {}): Promise<ElementContext> { return elementContext(this.explore, target, options); }
  overview(params: unknown = {}, options: ExploreOptionsInput = {}): Promise<DomOverviewResponse> { return domOverview(this.explore, params, options); }
  diff(snapshotA: string, snapshotB: string): Promise<DomDiff> { return domDiff(this.explore, snapshotA, snapshotB); }
  search(query: string, options: SearchOptionsInput = {}): Promise<SearchResult> { return domSearch(this.explore, query, options); }

  // ---- observe / act / extract (issue 13) ----
  observe(instruction: string, options: ObserveOptions = {}): Promise<ObserveResult> { return observe(this.observing, instruction, options); }
  actOn(instruction: string, options: ActOnOptions = {}): Promise<ActOnResult> { return actOn(this.observing, instruction, options); }
  extract<S extends z.ZodType = z.ZodType>(instruction: string, schema?: S, options: ExtractOptions = {}): Promise<ExtractResult<z.infer<S>>> {
    return extract(this.observing, instruction, schema, options);
  }

  // ---- verification outside an action ----

  /** Before an action: what verifyOutcome will compare against. */
  capturePreActionState(expected?: ExpectedOutcome, defaultId?: string): Promise<PreActionState> {
    return capturePre(this.host.verifier(), expected === undefined ? undefined : parseInput(ExpectedOutcome, expected, 'expected outcome'), defaultId);
  }

  /** Polls until one of the alternatives holds or the timeout passes; then lets the page settle and reads its errors. */
  verifyOutcome(pre: PreActionState, expected: ExpectedOutcome, defaultId?: string): Promise<VerificationResult> {
    return verifyOutcome(this.host.verifier(), pre, parseInput(ExpectedOutcome, expected, 'expected outcome'), defaultId);
  }

  /** Whether text (or a selector) shows in any frame, read by the engine in its isolated world; unread frames are named. */
  findOnFrames(query: { text?: string; selector?: string }, refusal?: string): Promise<Presence> {
    return findOnFrames(this.host.verifier(), query, refusal);
  }
}
