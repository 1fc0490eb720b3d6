// Entry of the in-page engine: bundled by esbuild into one script that every host injects,
// in an isolated world, so that the page can neither break it nor read its state.
import type { EngineSnapshotOptions } from '../model/schema.js';
import { frameOwners, ownerHits } from './frames.js';
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
  ownerHits,
};
export type EngineApi = typeof api;

if (!(ENGINE_KEY in globalThis)) {
  Object.defineProperty(globalThis, ENGINE_KEY, { value: api, enumerable: false });
  startAutoTagger(document);
}
