// Entry of the in-page engine: bundled by esbuild into one script that every host injects,
// in an isolated world, so that the page can neither break it nor read its state.
import { gestureRoots, gestureSearchFailed, markGestures } from './semantics/gestures.js';
import type { EngineShape } from '../model/contracts/engine.js';
import type { EngineSnapshotOptions } from '../model/contracts/schema.js';
import { markDocument } from './identity/document.js';
import { withLabelIndex } from './semantics/labels.js';
import { frameOwners, ownerHits } from './identity/frames.js';
import { resolvePath } from './toolkit/paths.js';
import * as actions from './acting/actions.js';
import { pressLanded, watchPress } from './acting/pressWatch.js';
import { domActivity, getMutationSummary, getRecentMutations, mutationsSince, recentMutationEvents, startMutationLog } from './changes/mutationLog.js';
import { adoptShadowRoot } from './identity/shadow.js';
import { startChangeTracking } from './changes/changes.js';
import { startViewportMembers } from './walk/viewportMembers.js';
import { snapshot } from './walk/snapshot.js';
import { answerRead } from './changes/delta.js';
import type { ReadBase } from '../model/pagemodel/frameRead.js';
import { describeElements } from './toolkit/describeElements.js';
import { elementContext, xpathOf } from './toolkit/elementContext.js';
import { findSelector } from './toolkit/findSelector.js';
import { hiddenControls } from './structure/hiddenControls.js';
import { pageLayout } from './structure/pageLayout.js';
import { textBlocks } from './structure/textBlocks.js';
import { readContent } from './structure/readContent.js';
import { readStructured } from './structure/structured.js';
import { nativeOptions } from './semantics/options.js';
import { serializeDocument } from './toolkit/serialize.js';
import { namePaths } from './semantics/nameCheck.js';
import { lastIssuedId, lookup, lookupIn, numberFrom, stampedWhere, startAutoTagger, tagSubtree, taggerStats } from './identity/tagger.js';
import { isSecretField } from './semantics/secretFields.js';
import { secretBoxes } from './semantics/secretBoxes.js';

const ENGINE_KEY = '__pagelens';

function readFrame(opts: EngineSnapshotOptions) {
  return withLabelIndex(() => snapshot(opts));
}

// Checked against the contract the Node side validates answers with (src/model/contracts/engine.ts).
const api = {
  version: 2,
  snapshot: readFrame,
  /** The read as JSON text, whole or as a delta against the read the host holds (src/page/changes/delta.ts). */
  read: (opts: EngineSnapshotOptions, since?: ReadBase | null) => answerRead(readFrame(opts), opts, since),
  adoptShadowRoot,
  lookup,
  lookupIn,
  lastIssuedId,
  numberFrom,
  markDocument,
  tagAll: () => tagSubtree(document),
  secretIds: () => stampedWhere(isSecretField),
  secretBoxes,
  frameOwners,
  resolvePath,
  ownerHits,
  findOnPage: actions.findOnPage,
  scrollPage: actions.scrollPage,
  content: readContent,
  structured: readStructured,
  markGestures,
  gestureRoots,
  gestureSearchFailed,
  nativeOptions,
  serializeDocument,
  namePaths,
  /** Debug: what the auto-tagger did (tests check that a read spares it work, and that it works in slices). */
  taggerStats,
  pageLayout, describeElements, textBlocks, hiddenControls, findSelector,
  // A plain object, not the module namespace: tests replace single calls to force failure paths.
  act: { ...actions, elementContext, xpathOf, watchPress, pressLanded },
  domActivity, mutationsSince, getRecentMutations, getMutationSummary, recentMutationEvents,
} satisfies EngineShape & Record<string, unknown>;
export type EngineApi = typeof api;

if (!(ENGINE_KEY in globalThis)) {
  Object.defineProperty(globalThis, ENGINE_KEY, { value: api, enumerable: false });
  startAutoTagger(document);
  startMutationLog(document);
  startChangeTracking(document);
  startViewportMembers(document);
}
