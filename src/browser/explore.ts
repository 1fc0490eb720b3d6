// The hierarchical index and the exploration toolkit on the CDP host: src/core/explore.ts (written
// once for every host) bound to this host's engine side of the port (hostEngine.ts), its snapshot
// cache (snapshots.ts) and its ID ledger.
import {
  domDiff as diffOn, domOverview as overviewOn, domSearch as searchOn, elementContext as contextOn, expandRegion as expandOn,
  pageOverview as pageOverviewOn, regions as regionsOn, type ExploreHost,
} from '../core/explore.js';
import type {
  DomDiff, DomOverviewResponse, ElementContext, ExpandedRegion, ExpandRegionOptionsInput, ExploreOptionsInput, PageOverview,
  RefreshOptionsInput, RegionsResult, SearchOptionsInput, SearchResult,
} from '../model/explore/explore.js';
import { parseGlobalId } from '../model/pagemodel/page.js';
import type { LensCore } from './core.js';
import { cdpEngine } from './hostEngine.js';
import { currentSnapshot, newSnapshot, type Snapshot } from './snapshots.js';

export { hintText } from '../core/explore.js';

const GROUP = 'pagelens-explore';

/** Exploration's host over a lens core: the snapshots it caches, the IDs it hands out. */
function exploreHost(core: LensCore): ExploreHost<Snapshot> {
  return {
    engine: cdpEngine(core, GROUP),
    current: (opts) => currentSnapshot(core, opts),
    fresh: () => newSnapshot(core),
    get: (id) => core.snapshots.get(id),
    invalidate: (snap) => core.snapshots.invalidate(snap),
    handOut(snap, extra) {
      core.ids.handOut(snap.model);
      for (const e of extra) {
        const p = parseGlobalId(e.gid);
        const doc = p && snap.model.docs[p.frame];
        // Recorded as an item: acting on it later checks that it still shows these words.
        if (p && doc && !core.ids.sighting(e.gid)) core.ids.note(e.gid, { doc, frame: p.frame, role: 'item', name: e.name ?? '', centre: [0, 0] });
      }
    },
  };
}

export const pageOverview = (core: LensCore, options: RefreshOptionsInput = {}): Promise<PageOverview> => pageOverviewOn(exploreHost(core), options);
export const regions = (core: LensCore, options: RefreshOptionsInput = {}): Promise<RegionsResult> => regionsOn(exploreHost(core), options);
export const expandRegion = (core: LensCore, region: string, options: ExpandRegionOptionsInput = {}): Promise<ExpandedRegion> => expandOn(exploreHost(core), region, options);
export const elementContext = (core: LensCore, target: string, options: RefreshOptionsInput = {}): Promise<ElementContext> => contextOn(exploreHost(core), target, options);
export const domOverview = (core: LensCore, params: unknown = {}, options: ExploreOptionsInput = {}): Promise<DomOverviewResponse> => overviewOn(exploreHost(core), params, options);
export const domDiff = (core: LensCore, snapshotA: string, snapshotB: string): Promise<DomDiff> => diffOn(exploreHost(core), snapshotA, snapshotB);
export const domSearch = (core: LensCore, query: string, options: SearchOptionsInput = {}): Promise<SearchResult> => searchOn(exploreHost(core), query, options);
