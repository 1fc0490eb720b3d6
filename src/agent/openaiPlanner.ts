// PLACEHOLDER until the OpenAI-compatible client lands.
import { PagelensError } from '../model/errors.js';
import type { InteractResponse } from '../model/interact.js';
import type { Planner } from './planner.js';

export class OpenAIPlanner implements Planner {
  readonly name = 'openai';
  async plan(): Promise<InteractResponse> { throw new PagelensError('INTERNAL', 'the openai planner is not built yet'); }
}
