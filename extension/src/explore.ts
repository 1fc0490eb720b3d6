// The hierarchical index, the exploration toolkit and the task reading behind observe/act/extract
// in the extension: src/core/explore.ts, snapshots.ts, rag.ts and observe.ts (written once for every
// host) bound to a tab — its engine side of the port (hostEngine.ts), its page-model read
// (snapshot.ts readModel), a snapshot store per tab and the act pipeline (act.ts).
import type { ExploreHost } from '../../src/core/explore.js';
import type { ObserveHost } from '../../src/core/observe.js';
import { parseExpectSpec } from '../../src/model/contracts/outcome.js';
import { act } from './act.js';
import { currentSnapshot, KeptSnapshots, newSnapshot, type KeptSnapshot, type SnapshotSource } from '../../src/core/snapshots.js';
import { parseGlobalId } from '../../src/model/pagemodel/page.js';
import { extensionEngine } from './hostEngine.js';
import { readModel } from './snapshot.js';
import { saveTab, tabState } from './tab.js';

/** Each tab's snapshots (kept in the service worker's memory: a new worker takes a new one). */
const stores = new Map<number, KeptSnapshots>();

function storeOf(tabId: number): KeptSnapshots {
  let s = stores.get(tabId);
  if (!s) { s = new KeptSnapshots(); stores.set(tabId, s); }
  return s;
}

/** Exploration's host in one tab. */
export function exploreHost(tabId: number): ExploreHost<KeptSnapshot> {
  const engine = extensionEngine(tabId);
  const store = storeOf(tabId);
  const source: SnapshotSource = {
    engine,
    store,
    // The whole page with structure and attributes; its IDs are bound to their documents as any read's are.
    read: () => readModel(tabId, { fullPage: true, structure: true }),
    // The extension does not count navigations: each frame's document is checked instead (a new page is a new document).
    navigations: () => 0,
  };
  return {
    engine,
    current: (opts) => currentSnapshot(source, opts),
    fresh: () => newSnapshot(source),
    get: (id) => store.get(id),
    invalidate: (snap) => store.invalidate(snap),
    handOut(snap, extra) {
      const ledger = tabState(tabId).ledger;
      // The model's nodes were recorded when it was read; the extra IDs (headings, blocks, text) as items showing these words.
      let noted = false;
      for (const e of extra) {
        const p = parseGlobalId(e.gid);
        const doc = p && snap.model.docs[p.frame];
        if (p && doc && !ledger.sighting(e.gid)) { ledger.note(e.gid, { doc, frame: p.frame, role: 'item', name: e.name ?? '', centre: [0, 0] }); noted = true; }
      }
      if (noted) void saveTab(tabId);
    },
  };
}

/** observe/act/extract's host in one tab: the exploration snapshot, the tab's ledger, the shared act pipeline. */
export function observeHost(tabId: number): ObserveHost {
  const explore = exploreHost(tabId);
  return {
    engine: explore.engine,
    current: (opts) => explore.current(opts),
    async record(model) {
      tabState(tabId).ledger.handOut(model);
      await saveTab(tabId);
    },
    act: (action, opts) => {
      const expect = typeof opts.expect === 'string' ? parseExpectSpec(opts.expect) : opts.expect;
      return act(tabId, action, expect ? { expect } : {});
    },
    // The document's title as the engine read it (isolated world); the tab's title would fall back to the URL.
    title: async () => (await explore.current({})).snap.model.title,
  };
}
