// What runTool remembers per lens between calls: the tree the client last saw (the base of the
// next delta), the modal states the page is in, and an action a dialog interrupted.
import type { Lens } from '../browser/lens.js';
import type { ActionResult } from '../model/outcome.js';
import type { SemanticNodeV3 } from '../model/schema.js';
import { watchConsole } from './console.js';
import { ModalTracker } from './modal.js';

export interface PendingAction {
  promise: Promise<ActionResult>;
  urlBefore: string;
}

export interface ToolState {
  modal: ModalTracker;
  /** The semantic_v3 tree the client last saw, and whether it was the full page. */
  baseline?: { tree: SemanticNodeV3[]; fullPage: boolean };
  /** An action still running because a dialog opened under it; answered by browser_handle_dialog. */
  pending?: PendingAction;
}

// Keyed by lens so that runTool(lens, …) keeps the same signature for every face.
const states = new WeakMap<Lens, ToolState>();

export function stateOf(lens: Lens): ToolState {
  let s = states.get(lens);
  if (!s) {
    s = { modal: new ModalTracker(lens.page) };
    states.set(lens, s);
    // A library caller has no holder watching the console: from the first tool call, then.
    watchConsole(lens.page);
  }
  return s;
}
