// The offline agent as the tests run it: the heuristic planner behind the backend's own app, in
// process (no port), and a one-line account of what a run did for assertion messages.
import { appBackend, runAgent } from '../../src/agent/loop.js';
import { HeuristicPlanner } from '../../src/agent/heuristic.js';
import { createApp } from '../../src/server/app.js';

export const offlineBackend = () => appBackend(createApp({ planner: new HeuristicPlanner() }));

/** Each step's action (or its request for more context) and whether it succeeded. */
export const stepsSaid = (run: Awaited<ReturnType<typeof runAgent>>) =>
  JSON.stringify(run.steps.map((s) => [(s.response as { action?: string }).action ?? 'asked for context', s.result?.ok]));
