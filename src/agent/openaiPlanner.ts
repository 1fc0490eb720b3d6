// The planner backed by any OpenAI-compatible Chat Completions endpoint (OPENAI_BASE_URL,
// OPENAI_API_KEY, PAGELENS_MODEL): the V3 legend and the contract in the system prompt, the page
// state and the session's history in the user message, and a JSON answer checked against the
// same response schema the backend serves (retried once when invalid, by the client).
import { PagelensError } from '../model/contracts/errors.js';
import { InteractResponse, type InteractRequest } from '../model/negotiation/interact.js';
import { V3_LEGEND } from '../model/pagemodel/roles.js';
import { ChatClient, llmConfigFromEnv, type LlmConfig } from './llm.js';
import type { Planner, SessionView } from './planner.js';

const SYSTEM = `You drive a web browser for a user, one action at a time, until the task is done.
You get the task, the page as a semantic_v3 interactive tree, and what happened so far.
${V3_LEGEND}

Answer with ONE JSON object, either the next action:
{"thought":"<why, one sentence>","action":"<action>","expected_outcome":{"type":"<navigation|element_appears|element_disappears|value_changes|state_changes|any_change>", "text":"<for element_appears/disappears>", "id":"<element id, optional>"}}
or, only when the tree cannot tell you what to do, a request for more context:
{"status":"needs_context","requestedDomMode":"skeleton|hybrid|full","needsSkeletonDom":true|false,"needsScreenshot":true|false,"reason":"<why>"}

Actions (IDs are the tree's i values, exactly): click(12), dblclick(12), hover(12), setValue(14, "text"), type(14, "text"),
clear(14), select(3, "Option label"), select(3, ["A", "B"]), check(5), uncheck(5), press(7, "Enter"), press("Escape"),
scroll(down), scroll(12), navigate("https://…"), back(), reload(), done("what was achieved, or why it cannot be").
Rules:
- Ask for skeleton when several candidates carry the same label; hybrid when the task refers to colours, icons or positions or when many look alike; full only when you need raw HTML attributes. Never ask again for what you were already given, nor twice in a row.
- Never repeat an action that failed: choose another element or explain with done("…").
- Elements with occ are covered: deal with the cover first. Passwords show as "***".
- When every part of the task is done, answer done("…").`;

export class OpenAIPlanner implements Planner {
  readonly name = 'openai';
  private readonly client: ChatClient;

  constructor(config: LlmConfig | null = llmConfigFromEnv()) {
    if (!config) throw new PagelensError('BAD_INPUT', 'The openai planner needs an endpoint: set OPENAI_BASE_URL (any OpenAI-compatible server) and/or OPENAI_API_KEY, and optionally PAGELENS_MODEL.');
    this.client = new ChatClient(config);
  }

  async plan(request: InteractRequest, session: SessionView): Promise<InteractResponse> {
    const page = {
      task: request.query,
      url: request.url,
      title: request.pageTitle,
      scroll_position: request.scrollPosition,
      interactive_tree: request.interactiveTree ?? request.semanticNodes,
      ...(request.skeletonDom !== undefined && { skeleton: request.skeletonDom }),
      ...(request.dom && { dom: request.dom.slice(0, 60_000) }),
      ...(request.screenshot && { screenshot: 'a screenshot was sent with this request (hybrid); boxes are in interactive_tree' }),
      ...(request.recentEvents && { recent_events: request.recentEvents }),
      last_action: request.lastActionStatus && { status: request.lastActionStatus, error: request.lastActionError, result: request.lastActionResult },
      history: session.steps.slice(-10).map((s) => ({ action: s.action ?? `asked for ${s.requested}`, outcome: s.outcome?.status ?? null, error: s.outcome?.error })),
      failed_actions: [...session.failures.keys()],
    };
    return this.client.json([{ role: 'system', content: SYSTEM }, { role: 'user', content: JSON.stringify(page) }], InteractResponse);
  }
}
