// The planners behind one interface, by name (`--planner heuristic|openai`).
import { PagelensError } from '../model/contracts/errors.js';
import type { Planner } from './planner.js';

export const PLANNER_NAMES = ['heuristic', 'openai'] as const;
export type PlannerName = (typeof PLANNER_NAMES)[number];

export async function createPlanner(name: PlannerName): Promise<Planner> {
  switch (name) {
    case 'heuristic': return new (await import('./heuristic.js')).HeuristicPlanner();
    case 'openai': return new (await import('./openaiPlanner.js')).OpenAIPlanner();
    default: throw new PagelensError('BAD_INPUT', `unknown planner "${String(name)}" (expected ${PLANNER_NAMES.join(' or ')})`);
  }
}
