// The trace of an MCP session (`pagelens mcp --save-trace DIR`): one archive a session in DIR,
// each tool call a step, written as soon as the call has answered (the archive is whole after
// every step, so a server killed mid-session leaves the calls before it). The observation is the
// answer as the client got it; the boxes are those of every ID the session has shown on the
// current document (a delta lists only what changed; the model still holds the rest).
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { countTokens } from '../model/renderers/tokens.js';
import { listedIds, secretIds } from '../model/trace/observation.js';
import type { TraceStep, TraceVerdict } from '../model/trace/runRecord.js';
import { captureStep, type CoverSource, type Listed } from './capture.js';
import { TraceWriter } from './writer.js';

/** A finished tool call, as the server hands it to the trace. */
export interface TracedCall {
  tool: string;
  args: Record<string, unknown>;
  /** The text items the client got, in order, and the images' sizes. */
  texts: string[];
  images: number[];
  isError: boolean;
  /** The answer's payload (tools/types.ts ToolResult.data), read for boxes and the verdict. */
  data: unknown;
  ms: number;
  /** The page the call left current, if there is one. */
  page?: Page;
  /** Where that page's secret fields show their value (its lens's secretCovers()), painted over in the step's screenshot. */
  covers?: CoverSource;
}

export interface McpTrace {
  readonly path: string;
  /** Steps recorded so far: the next call is step steps + 1. */
  readonly steps: number;
  record(call: TracedCall): Promise<void>;
  close(status?: string): void;
  /** The secret values learnt so far, for scrubbing what this record cannot mask itself (a Playwright trace): never written. */
  secretValues(): string[];
}

interface NodeLike { i: string; r?: string; n?: string; v?: string; xy?: [number, number]; box?: [number, number, number, number] }

/** The nodes an answer's payload carries (a whole tree, or a delta's added and changed). */
function nodesOf(data: unknown): { whole: boolean; nodes: NodeLike[] } {
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  const tree = (d.interactive_tree ?? (d.snapshot as Record<string, unknown> | undefined)?.interactive_tree) as NodeLike[] | undefined;
  if (Array.isArray(tree)) return { whole: true, nodes: tree };
  const delta = d.delta as { added?: NodeLike[]; changed?: NodeLike[] } | undefined;
  if (delta && typeof delta === 'object') return { whole: false, nodes: [...delta.added ?? [], ...(delta.changed ?? []).filter((c) => c && typeof c.i === 'string')] };
  return { whole: false, nodes: [] };
}

function verdictOf(call: TracedCall, text: string): TraceVerdict {
  const d = (call.data && typeof call.data === 'object' ? call.data : {}) as { action?: { ok: boolean; detail?: string; action: string; error?: { code: string; message: string }; verification?: { success: boolean; actualOutcome: string; confidence?: number; feedback?: string } } };
  const delta = /^\[s\d+: changes since s\d+\]\n([\s\S]*)$/m.exec(text)?.[1] ?? (/^\[s\d+: whole page/m.test(text) ? 'a new page state, whole' : undefined);
  const a = d.action;
  if (call.isError || (a && !a.ok)) {
    const m = /^(?:FAILED )?([A-Z][A-Z_]{2,}): (.*)$/m.exec(text);
    const code = a?.error?.code ?? m?.[1] ?? 'FAILED';
    const reason = a?.error?.message ?? m?.[2] ?? text.split('\n')[0];
    return { outcome: call.isError && !a ? 'error' : 'refused', detail: text.split('\n')[0], refusal: { code, reason }, ...(delta && { delta }) };
  }
  if (a?.verification) {
    const v = a.verification;
    return { outcome: v.success ? 'verified' : 'not_verified', detail: v.actualOutcome, verification: { success: v.success, actualOutcome: v.actualOutcome, ...(v.confidence !== undefined && { confidence: v.confidence }), ...(v.feedback && { feedback: v.feedback }) }, ...(delta && { delta }) };
  }
  if (a) return { outcome: 'ok', detail: a.detail ?? a.action, ...(delta && { delta }) };
  return { outcome: 'answered', detail: text.split('\n')[0].slice(0, 200), ...(delta && { delta }) };
}

/** The page's title, or nothing from a page that does not answer within a second. */
async function titleOf(page: Page): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), 1000); });
  return Promise.race([page.title().catch(() => undefined), late]).finally(() => clearTimeout(timer));
}

/** Starts the trace of one session: DIR/mcp-<time>-<random>.zip. */
export function startMcpTrace(dir: string, opts: { ceilingBytes?: number; answers?: 'text' | 'json'; pagelens?: string } = {}): McpTrace {
  const folder = resolve(dir);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const path = join(folder, `mcp-${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.zip`);
  const writer = new TraceWriter(path, { face: 'mcp', ...(opts.ceilingBytes && { ceilingBytes: opts.ceilingBytes }), ...(opts.pagelens && { pagelens: opts.pagelens }) });
  /** What the session has shown of the current document, by ID. */
  let shown = new Map<string, NodeLike>();
  let shownUrl: string | undefined;
  return {
    path,
    get steps() { return writer.stepCount; },
    secretValues: () => writer.secrets.secretValues(),
    async record(call) {
      const at = new Date(Date.now() - call.ms).toISOString();
      const text = call.texts.join('\n');
      const masked = writer.secrets.learnToolCall(call.args, text);
      const url = call.page?.url() ?? '';
      const { whole, nodes } = nodesOf(call.data);
      if (whole || url !== shownUrl) shown = new Map();
      shownUrl = url;
      for (const n of nodes) if (n && typeof n.i === 'string') shown.set(n.i, { ...shown.get(n.i), ...n });
      for (const id of listedIds(text)) if (!shown.has(id)) shown.set(id, { i: id });
      for (const id of (call.data as { delta?: { removed?: string[] } } | undefined)?.delta?.removed ?? []) shown.delete(id);
      const secret = new Set(secretIds(text));
      const listed: Listed[] = [...shown.values()].map((n) => ({ id: n.i, ...(n.r && { role: n.r }), ...(n.n && { name: n.n }), ...(n.xy && { xy: n.xy }), ...(n.box && { box: n.box }), ...((n.v === '***' || secret.has(n.i)) && { secret: true }) }));
      const capture = call.page ? await captureStep(call.page, listed, call.covers).catch(() => undefined) : undefined;
      const title = call.page ? await titleOf(call.page) : undefined;
      const id = typeof call.args.id === 'string' ? call.args.id : typeof call.args.ref === 'string' ? call.args.ref : undefined;
      const step: Omit<TraceStep, 'step' | 'screenshot'> = {
        at, url, ...(title && { title }), frames: capture?.frames ?? 0, tool: call.tool,
        observation: {
          mode: opts.answers ?? 'text', format: /^\s*[{[]/.test(call.texts[0] ?? '') ? 'json' : 'text', text, tokens: await countTokens(text),
          ...(call.images.length && { imageBytes: call.images.reduce((a, b) => a + b, 0), omitted: [`${call.images.length} image(s) sent with the answer are not in the text`] }),
        },
        boxes: capture?.boxes ?? [],
        action: { text: `${call.tool}(${JSON.stringify(call.args)})`, ...(id && { id }), args: call.args },
        verdict: verdictOf(call, text),
        warnings: capture?.warnings ?? [],
        masked,
        timings: { totalMs: Math.round(call.ms), ...(capture && { captureMs: capture.ms }) },
      };
      writer.add(step, capture?.jpeg ? { jpeg: capture.jpeg, width: capture.width, height: capture.height, viewport: capture.viewport } : undefined);
    },
    close(status = 'closed') {
      writer.close({ status });
    },
  };
}
