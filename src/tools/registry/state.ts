// What runTool remembers per page between calls: the tree the client last saw (the base of the
// next delta), the modal states the page is in, and an action a dialog interrupted.
import type { HostPage } from '../../model/contracts/hostPage.js';
import type { ActionResult } from '../../model/contracts/outcome.js';
import type { SemanticNodeV3 } from '../../model/contracts/schema.js';
import { consoleLogOf } from '../logs/console.js';
import type { ToolExtras } from './extras.js';
import { ModalTracker } from '../input/modal.js';
import type { ActionWatch } from '../answers/watch.js';

/** Where the page was before an action: its URL and how many documents it had loaded. */
export interface PageMark { url: string; loads: number }

/** A tree the client was sent, whether it was the full page, and where the page was then. */
export interface Observed { tree: SemanticNodeV3[]; fullPage: boolean; mark: PageMark }

/** Observations kept for dom_diff. */
const OBSERVATIONS_KEPT = 8;

/**
 * Records a tree the client is being sent and returns its id; `whole` (a full page) also says
 * which earlier ids it makes obsolete. The tree becomes the base of the next action's delta.
 */
export function observe(state: ToolState, seen: Observed, whole: boolean): { id: string; supersedes?: [string, string]; since?: string } {
  const since = state.baseline?.id;
  const id = `s${++state.observed}`;
  state.observations.set(id, seen);
  for (const old of state.observations.keys()) if (state.observations.size > OBSERVATIONS_KEPT) state.observations.delete(old);
  state.baseline = { ...seen, id };
  if (whole) return { id, ...(state.observed > 1 && { supersedes: ['s1', `s${state.observed - 1}`] as [string, string] }) };
  return { id, ...(since && { since }) };
}

/** An answer cut at its ceiling (see ceiling.ts), kept whole for browser_more. */
export interface CutAnswer { tool: string; text: string; ceiling: number }

export interface PendingAction {
  promise: Promise<ActionResult>;
  before: PageMark;
  /** What the action caused, still being collected while the dialog waits. */
  watch?: ActionWatch;
}

export interface ToolState {
  modal: ModalTracker;
  /**
   * The semantic_v3 tree the client last saw, whether it was the full page, and where the page was
   * then: a delta is only ever sent against a tree of the same document.
   */
  baseline?: Observed & { id: string };
  /** Page states sent to the client, by observation id ("s3"): the newest few, for dom_diff. */
  observations: Map<string, Observed>;
  /** Observation ids handed out on this tab so far. */
  observed: number;
  /** An action still running because a dialog opened under it; answered by browser_handle_dialog. */
  pending?: PendingAction;
  /**
   * Documents the page has loaded since the first tool call: a reload or a form posted back to
   * the same URL is a new document (old IDs refused) though the URL did not change.
   */
  loads: number;
  /** The last answer cut at its ceiling, for browser_more. */
  cut?: CutAnswer;
}

// Keyed by the page (one HostPage per tab), so that every face keeps the same state for a tab.
const states = new WeakMap<HostPage, ToolState>();

export function stateOf(page: HostPage, extras: ToolExtras): ToolState {
  let s = states.get(page);
  if (!s) {
    const state: ToolState = { modal: new ModalTracker(page, extras), loads: 0, observations: new Map(), observed: 0 };
    s = state;
    states.set(page, s);
    // Once per new document, never for same-document navigations (history API, #hash).
    page.watch({ document: () => { state.loads++; } });
    // A library caller has no holder watching the console: from the first tool call, then.
    consoleLogOf(page);
    extras.networkLog?.();
  }
  return s;
}

export async function markPage(page: HostPage, state: ToolState): Promise<PageMark> {
  return { url: await page.url(), loads: state.loads };
}

/** Values typed into secret fields, kept per session (its holder) or per page (a bare lens): the newest so many. */
const TYPED_SECRETS_KEPT = 50;
const typedSecrets = new WeakMap<object, string[]>();

/** Whose typed secrets these are: the holder of the browser when there is one (every tab of a session), else the page. */
function secretsKey(ctx: { host?: object; page: HostPage }): object {
  return ctx.host ?? ctx.page;
}

/**
 * A value pagelens typed into a field it holds secret (the act pipeline masked it): the page may
 * carry it on in a URL (a method=get form), which every answer then shows masked (dispatch.ts).
 */
export function noteTypedSecret(ctx: { host?: object; page: HostPage }, value: string): void {
  if (!value) return;
  const key = secretsKey(ctx);
  const list = typedSecrets.get(key) ?? [];
  if (!list.includes(value)) list.push(value);
  if (list.length > TYPED_SECRETS_KEPT) list.shift();
  typedSecrets.set(key, list);
}

export function typedSecretsOf(ctx: { host?: object; page: HostPage }): readonly string[] {
  return typedSecrets.get(secretsKey(ctx)) ?? [];
}
