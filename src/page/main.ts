// Entry of the in-page engine: bundled by esbuild into one script that every host injects,
// in an isolated world, so that the page can neither break it nor read its state.
import type { EngineSnapshotOptions } from '../model/schema.js';
import { frameOwners, ownerHits } from './frames.js';
import { resolvePath } from './paths.js';
import * as actions from './actions.js';
import { domActivity, getMutationSummary, getRecentMutations, mutationsSince, recentMutationEvents, startMutationLog } from './mutationLog.js';
import { adoptShadowRoot } from './shadow.js';
import { snapshot } from './snapshot.js';
import { lastIssuedId, lookup, startAutoTagger, tagSubtree } from './tagger.js';

const ENGINE_KEY = '__pagelens';

const api = {
  version: 1,
  snapshot: (opts: EngineSnapshotOptions) => snapshot(opts),
  adoptShadowRoot,
  lookup,
  lastIssuedId,
  tagAll: () => tagSubtree(document),
  frameOwners,
  resolvePath,
  ownerHits,
  act: actions,
  domActivity, mutationsSince, getRecentMutations, getMutationSummary, recentMutationEvents,
};
export type EngineApi = typeof api;

if (!(ENGINE_KEY in globalThis)) {
  Object.defineProperty(globalThis, ENGINE_KEY, { value: api, enumerable: false });
  startAutoTagger(document);
  startMutationLog(document);
}
