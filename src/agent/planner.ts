// What decides the next step of a task: given the page state a client sent and the session's
// history, answer an action, or ask for more context. The heuristic planner (offline) and the
// OpenAI-compatible one implement this; the backend and the in-process agent loop use it.
import type { InteractRequest, InteractResponse, RequestedDomMode } from '../model/negotiation/interact.js';

/** One step of a session as the backend saw it. */
export interface SessionStep {
  at: number;
  url: string;
  domMode: InteractRequest['domMode'];
  /** The action answered (with the planner's thought), or the artifact asked for. */
  action?: string;
  thought?: string;
  requested?: RequestedDomMode;
  /** What the client reported of that action in its next request. */
  outcome?: { status: 'success' | 'failure' | 'pending'; error?: string; code?: string };
}

export interface SessionView {
  id: string | null;
  steps: readonly SessionStep[];
  /** Actions that failed, with how often: a planner must not retry them blindly. */
  failures: ReadonlyMap<string, number>;
  /** The artifact asked for in the previous answer, if it was a request for context. */
  lastRequested?: RequestedDomMode;
}

export interface Planner {
  readonly name: string;
  plan(request: InteractRequest, session: SessionView): Promise<InteractResponse>;
}
