// PLACEHOLDER until the instruction parser lands.
import { PagelensError } from '../model/errors.js';
import type { InteractResponse } from '../model/interact.js';
import type { Planner } from './planner.js';

export class HeuristicPlanner implements Planner {
  readonly name = 'heuristic';
  async plan(): Promise<InteractResponse> { throw new PagelensError('INTERNAL', 'the heuristic planner is not built yet'); }
}
