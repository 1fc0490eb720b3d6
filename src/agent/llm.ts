// An OpenAI-compatible Chat Completions client (OPENAI_BASE_URL, OPENAI_API_KEY, PAGELENS_MODEL):
// JSON answers are checked against a zod schema and, when invalid, asked for once more with the
// reason; a second invalid answer is an error, never a guess. On top of it, the LLM Chooser that
// observe / actOn / extract take: the model chooses among the budgeted candidates or fills a
// schema from the budgeted tree. The backend's planner reuses the client.
import { z } from 'zod';
import { ChooseAnswer, type Chooser, type ChooseRequest, type FillRequest } from '../model/retrieval/chooser.js';
import { PagelensError, isPagelensError } from '../model/contracts/errors.js';
import type { FillResult } from '../model/retrieval/extract.js';
import { FILTERED_LEGEND, type FilteredResult } from '../model/retrieval/rag.js';
import { displayUrl, redactCredentials } from '../model/safety/redact.js';
import { redactSecrets } from '../model/safety/secrets.js';
import { describeIssues } from '../model/contracts/validate.js';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_MODEL = 'gpt-4o-mini';

export interface LlmConfig {
  /** ".../v1": the client posts to `${baseUrl}/chat/completions`. */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Per request (default 60 s). */
  timeoutMs?: number;
}

/** The configuration the environment gives, or null when no endpoint is configured (then everything runs offline). */
export function llmConfigFromEnv(env: Record<string, string | undefined> = process.env): LlmConfig | null {
  const baseUrl = env.OPENAI_BASE_URL?.trim();
  const apiKey = env.OPENAI_API_KEY?.trim();
  if (!baseUrl && !apiKey) return null;
  return { baseUrl: (baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, ''), ...(apiKey && { apiKey }), model: env.PAGELENS_MODEL?.trim() || DEFAULT_MODEL };
}

export interface ChatMessage { role: 'system' | 'user' | 'assistant'; content: string }

const ChatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

export class ChatClient {
  constructor(readonly config: LlmConfig) {}

  /**
   * One completion; its text. Transport failures and answers outside the protocol are ENGINE_ERROR
   * with the reason. Errors name the endpoint without its credentials and never quote an
   * upstream's body as it is (a refusal can quote the key it refused).
   */
  async complete(messages: ChatMessage[]): Promise<string> {
    const { url, headers } = this.endpoint();
    const shown = displayUrl(url);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.config.model, messages, temperature: 0, response_format: { type: 'json_object' } }),
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 60_000),
      });
    } catch (e) {
      throw new PagelensError('ENGINE_ERROR', `The model endpoint ${shown} could not be reached: ${this.scrub((e as Error).message)}`);
    }
    const body = await res.text();
    if (!res.ok) throw new PagelensError('ENGINE_ERROR', `The model endpoint ${shown} answered HTTP ${res.status}${this.upstreamReason(res.status, body)}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new PagelensError('ENGINE_ERROR', `The model endpoint ${shown} answered something that is not JSON (${body.length} characters).`);
    }
    const r = ChatResponse.safeParse(parsed);
    if (!r.success) throw new PagelensError('ENGINE_ERROR', `The model endpoint ${shown} answered outside the Chat Completions protocol (${describeIssues(r.error).map((i) => `${i.path}: ${i.message}`).join('; ')}).`);
    return r.data.choices[0].message.content ?? '';
  }

  /** The URL to post to, without user info: fetch refuses it there, so `user:pass@` becomes Basic auth (when no key is set). */
  private endpoint(): { url: string; headers: Record<string, string> } {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    let url = `${this.config.baseUrl}/chat/completions`;
    let basic: string | undefined;
    try {
      const u = new URL(url);
      if (u.username || u.password) {
        basic = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64');
        u.username = '';
        u.password = '';
        url = u.href;
      }
    } catch { /* an unparseable base URL: fetch says so, scrubbed */ }
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    else if (basic) headers.authorization = `Basic ${basic}`;
    return { url, headers };
  }

  /** What an upstream's refusal may say: why, in its own short words at most, never its body as sent. */
  private upstreamReason(status: number, body: string): string {
    if (status === 401 || status === 403 || status === 407) return ' (the endpoint refused the credentials: check OPENAI_API_KEY and OPENAI_BASE_URL).';
    let message: unknown;
    try { message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message; } catch { /* not JSON */ }
    return typeof message === 'string' && message ? `: ${this.scrub(message).slice(0, 200)}` : '.';
  }

  /** Text with this client's own secrets (the key, the URL's password) and anything credential-shaped masked. */
  private scrub(text: string): string {
    const secrets = [this.config.apiKey];
    try { const u = new URL(this.config.baseUrl); secrets.push(decodeURIComponent(u.password), u.password); } catch { /* none */ }
    return redactCredentials(redactSecrets(text, secrets.filter((s): s is string => !!s && s.length >= 4)));
  }

  /**
   * A JSON answer checked against `schema`. An invalid one is shown back to the model with what
   * is wrong, once; a second invalid answer throws ENGINE_ERROR.
   */
  async json<S extends z.ZodType>(messages: ChatMessage[], schema: S): Promise<z.infer<S>> {
    let conversation = [...messages];
    for (let attempt = 1; ; attempt++) {
      const content = await this.complete(conversation);
      const checked = checkJson(content, schema);
      if (checked.ok) return checked.value;
      if (attempt >= 2) throw new PagelensError('ENGINE_ERROR', `The model (${this.config.model}) answered invalid JSON twice: ${checked.problem}`);
      conversation = [...conversation, { role: 'assistant', content }, { role: 'user', content: `That answer is not valid: ${checked.problem}. Answer again with only the JSON object, as asked.` }];
    }
  }
}

function checkJson<S extends z.ZodType>(content: string, schema: S): { ok: true; value: z.infer<S> } | { ok: false; problem: string } {
  const text = content.trim().replace(/^```(?:json)?\s*/i, '').replace(/\s*```$/, '');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { ok: false, problem: `it is not JSON (${(e as Error).message})` };
  }
  const r = schema.safeParse(value);
  if (r.success) return { ok: true, value: r.data };
  return { ok: false, problem: describeIssues(r.error).slice(0, 5).map((i) => `${i.path || 'answer'}: ${i.message}`).join('; ') };
}

const CHOOSE_SYSTEM = `You choose the element of a web page that an instruction refers to.
You get the instruction and a task-filtered tree of the page's elements.
${FILTERED_LEGEND}
Answer with a JSON object: {"choices":[{"id":"<i of a node>","confidence":<0..1>,"reason":"<a few words>"}],"ambiguous":<true|false>}
- choices: at most 5, best first, only IDs that appear in the tree
- ambiguous: true when the instruction fits several elements equally well and you cannot tell which one is meant`;

const FILL_SYSTEM = `You extract data from a web page for an instruction.
You get the instruction, the JSON Schema of the answer, and a task-filtered tree of the page's content and elements.
${FILTERED_LEGEND}
Answer with a JSON object: {"data": <the data, matching the schema>, "sources": {"<field path>": "<i of the node the value came from>"}}
- use only what the tree shows; a field the page does not show is null (or left out when it is optional)
- copy values as the page writes them, converted to the schema's types (numbers without currency signs)`;

/** The tree a model is shown: the payload minus what only a program needs. */
function treeForModel(p: FilteredResult): string {
  return JSON.stringify({ url: p.url, title: p.title, tree: p.tree, groups: p.groups, omitted: p.omitted });
}

/** A Chooser backed by a Chat Completions model. */
export function llmChooser(client: ChatClient): Chooser {
  return {
    name: `llm:${client.config.model}`,
    async choose(req: ChooseRequest) {
      const ids = new Set(req.payload.tree.map((n) => n.i));
      const Answer = ChooseAnswer.superRefine((a, ctx) => {
        a.choices.forEach((c, i) => { if (!ids.has(c.id)) ctx.addIssue({ code: 'custom', path: ['choices', i, 'id'], message: `"${c.id}" is not the i of any node in the tree` }); });
        if (!a.choices.length && !a.ambiguous) ctx.addIssue({ code: 'custom', path: ['choices'], message: 'no choice given' });
      });
      return client.json([
        { role: 'system', content: CHOOSE_SYSTEM },
        { role: 'user', content: `Instruction: ${req.instruction}\nTree: ${treeForModel(req.payload)}` },
      ], Answer);
    },
    async fill(req: FillRequest): Promise<FillResult> {
      const ids = new Set(req.payload.tree.map((n) => n.i));
      const data = req.schema ?? (req.jsonSchema ? z.unknown() : z.object({ extraction: z.string() }));
      const Answer = z.object({ data, sources: z.record(z.string(), z.string()).optional() }).superRefine((a, ctx) => {
        for (const [field, id] of Object.entries(a.sources ?? {})) if (!ids.has(id)) ctx.addIssue({ code: 'custom', path: ['sources', field], message: `"${id}" is not the i of any node in the tree` });
      });
      const schemaText = req.jsonSchema ? JSON.stringify(req.jsonSchema) : '{"type":"object","properties":{"extraction":{"type":"string"}},"required":["extraction"]}';
      try {
        const answer = await client.json([
          { role: 'system', content: FILL_SYSTEM },
          { role: 'user', content: `Instruction: ${req.instruction}\nSchema: ${schemaText}\nTree: ${treeForModel(req.payload)}` },
        ], Answer);
        const value = answer.data as unknown;
        return { data: value, sources: answer.sources ?? {}, missing: missingFields(value, req.jsonSchema?.properties ? Object.keys(req.jsonSchema.properties) : ['extraction']) };
      } catch (e) {
        if (isPagelensError(e)) throw e;
        throw new PagelensError('ENGINE_ERROR', `the model's extraction failed: ${(e as Error).message}`);
      }
    },
  };
}

function missingFields(value: unknown, fields: string[]): string[] {
  if (!value || typeof value !== 'object') return fields;
  return fields.filter((f) => (value as Record<string, unknown>)[f] === undefined || (value as Record<string, unknown>)[f] === null);
}
