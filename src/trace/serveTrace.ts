// The traces of `pagelens serve --save-trace DIR`: one archive a negotiation session (its
// sessionId, or taskId), one step a round: what the planner was given (the request, screenshot
// aside, and its o200k count), and its answer (thought and action, or what context it asked for).
// The server holds no page, so a step has no screenshot and no boxes. How the action went is
// learnt from the next round (the client reports it: lastActionStatus, lastActionError,
// lastActionResult) and written into the step that asked for it.
// Secrets: the server sees the planner's actions with their values and cannot tell a password
// field from a text field when it is empty. A value typed into a field the next round shows as
// "***" is a secret; so is one typed into a field the next round does not show, or with no next
// round (safe by default). The task may carry it too, so a session's archive is written when the
// session ends (a done() answer, idle for the session TTL, the server stopping), every entry
// masked with every secret learnt: a server that crashes loses the archives of open sessions.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseAction } from '../model/contracts/actions.js';
import type { InteractRequest, InteractResponse } from '../model/negotiation/interact.js';
import { doneMessage } from '../model/negotiation/interact.js';
import { countTokens } from '../model/renderers/tokens.js';
import { TraceSecrets } from '../model/trace/mask.js';
import type { TraceStep, TraceVerdict } from '../model/trace/runRecord.js';
import { DEFAULT_TRACE_CEILING, TraceWriter } from './writer.js';

/** One answered round, as the app hands it over. */
export interface NegotiationRound {
  request: InteractRequest;
  answer: InteractResponse;
  /** The session the round belongs to (none: a one-off request, not traced). */
  session?: string;
  /** When the request came, and how long the planner took. */
  at: string;
  askMs: number;
}

type Step = Omit<TraceStep, 'step' | 'screenshot'>;

interface Open {
  id: string;
  task: string;
  startedAt: string;
  steps: Step[];
  secrets: TraceSecrets;
  /** A value the last action typed, and into which ID: secret or not, the next round tells. */
  typed?: { id: string; value: string };
  /** The step whose action the next round reports on. */
  acting?: Step;
  bytes: number;
  lastSeen: number;
}

/** Open sessions kept at most: past it the least recently used is written and closed. */
const MAX_OPEN = 200;

const safeName = (id: string) => id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'session';

export class ServeTraces {
  private readonly open = new Map<string, Open>();
  private readonly dir: string;
  private readonly ceiling: number;
  private readonly sweep?: NodeJS.Timeout;

  constructor(dir: string, private readonly opts: { idleMs?: number; ceilingBytes?: number; pagelens?: string; log?: (line: string) => void } = {}) {
    this.dir = resolve(dir);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.ceiling = opts.ceilingBytes ?? DEFAULT_TRACE_CEILING;
    if (opts.idleMs) {
      const idle = opts.idleMs;
      this.sweep = setInterval(() => this.closeIdle(Date.now() - idle), Math.max(50, Math.min(30_000, idle / 4)));
      this.sweep.unref();
    }
  }

  /** Records a round; a done() answer ends its session's archive. Never throws. */
  async round(r: NegotiationRound): Promise<void> {
    if (!r.session) return;
    try {
      let s = this.open.get(r.session);
      if (!s) {
        s = { id: r.session, task: r.request.query, startedAt: r.at, steps: [], secrets: new TraceSecrets(), bytes: 0, lastSeen: Date.now() };
        this.open.set(r.session, s);
        if (this.open.size > MAX_OPEN) this.closeIdle(Infinity, 1);
      }
      s.lastSeen = Date.now();
      this.learn(s, r.request);
      s.steps.push(await this.stepOf(s, r));
      if ('action' in r.answer && doneMessage(r.answer.action) !== null) this.finish(s, 'done');
    } catch (e) {
      this.opts.log?.(`the trace could not record a round of session ${r.session}: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  /** Writes and closes the archives of sessions unused since `before` (at most `limit`, least recently used first). */
  closeIdle(before: number, limit = Infinity): void {
    const idle = [...this.open.values()].filter((s) => s.lastSeen < before).sort((a, b) => a.lastSeen - b.lastSeen).slice(0, limit);
    for (const s of idle) this.finish(s, 'idle');
  }

  /** Writes every open session's archive (the server is stopping). */
  close(status = 'server stopped'): void {
    if (this.sweep) clearInterval(this.sweep);
    for (const s of [...this.open.values()]) this.finish(s, status);
  }

  /** What this round's request says of the last: whether its typed value was secret, and how the action went. */
  private learn(s: Open, req: InteractRequest): void {
    const typed = s.typed;
    s.typed = undefined;
    if (typed) {
      const node = req.interactiveTree?.find((n) => n.i === typed.id);
      const why = !req.interactiveTree ? undefined : !node ? 'the field was not shown again' : node.v === '***' ? 'the page shows it as ***' : undefined;
      if (why || !req.interactiveTree) {
        const said = s.secrets.learnValue(typed.value, `the value typed into ${typed.id} (${why ?? 'a secret field: the next round showed no tree'})`);
        if (said) s.acting?.masked.push(said);
      }
    }
    const step = s.acting;
    if (!step || (!req.lastActionStatus && !req.lastActionError && !req.lastActionResult)) return;
    s.acting = undefined;
    step.verdict = verdictOfReport(req, step.verdict);
  }

  private async stepOf(s: Open, r: NegotiationRound): Promise<Step> {
    const { screenshot, ...given } = r.request;
    const text = JSON.stringify(given);
    const tokens = await countTokens(text);
    const imageBytes = screenshot ? Math.floor(screenshot.length * 3 / 4) : 0;
    const light = s.bytes + text.length > this.ceiling;
    s.bytes += light ? 0 : text.length;
    const a = r.answer;
    const action = 'action' in a ? a.action : undefined;
    const id = action ? /^\s*\w+\s*\(\s*(f\d+_\d+|\d+)/.exec(action)?.[1] : undefined;
    const step: Step = {
      at: r.at, url: r.request.url, ...(r.request.pageTitle && { title: r.request.pageTitle }), frames: r.request.frames?.length ?? 1,
      round: { session: s.id, n: s.steps.length + 1 },
      observation: {
        mode: r.request.domMode, format: 'json', text: light ? '' : text, tokens,
        ...(imageBytes && { imageBytes }),
        omitted: [
          ...(imageBytes ? [`the screenshot sent to the planner (${Math.round(imageBytes / 1024)} KB) is not kept: the server has no page to take its own`] : []),
          ...(light ? [`the request's text: the session's trace reached its ceiling (${this.ceiling} bytes)`] : []),
        ],
      },
      boxes: [],
      ...('thought' in a && a.thought && { thought: a.thought }),
      ...(action && { action: { text: action, ...(id && { id }) } }),
      verdict: answerVerdict(a),
      warnings: [],
      masked: [],
      timings: { askMs: Math.round(r.askMs) },
    };
    if (action) {
      s.acting = step;
      try {
        const parsed = parseAction(action);
        if ((parsed.type === 'setValue' || parsed.type === 'type') && parsed.value) s.typed = { id: String(parsed.id), value: parsed.value };
      } catch {
        // An action the grammar does not read types nothing the trace can name.
      }
    }
    return step;
  }

  private finish(s: Open, status: string): void {
    this.open.delete(s.id);
    // A value typed by the last action with no round after it: not known to be safe, so masked.
    if (s.typed) {
      const said = s.secrets.learnValue(s.typed.value, `the value typed into ${s.typed.id} (no round after it showed the field)`);
      if (said) s.acting?.masked.push(said);
    }
    const path = join(this.dir, `serve-${s.startedAt.replace(/[:.]/g, '-')}-${safeName(s.id)}-${randomBytes(3).toString('hex')}.zip`);
    const writer = new TraceWriter(path, { face: 'serve', task: s.task, secrets: s.secrets, startedAt: s.startedAt, ceilingBytes: this.ceiling, ...(this.opts.pagelens && { pagelens: this.opts.pagelens }) });
    for (const step of s.steps) writer.add(step);
    const last = s.steps.at(-1)?.action?.text;
    const message = last ? doneMessage(last) : null;
    writer.close({ status, ...(message !== null && { message }) });
    this.opts.log?.(`trace of session ${s.id}: ${s.steps.length} round(s) written to ${path}`);
  }
}

/** The planner's answer, before the next round says how its action went. */
function answerVerdict(a: InteractResponse): TraceVerdict {
  if ('action' in a) {
    const done = doneMessage(a.action);
    return done !== null ? { outcome: 'done', detail: done } : { outcome: 'answered', detail: `the planner answered ${a.action}; how it went is in the next round's report` };
  }
  if (a.status === 'needs_full_dom') return { outcome: 'answered', detail: `asked for the full DOM: ${a.needsFullDomReason}` };
  return { outcome: 'answered', detail: `asked for more context (${a.requestedDomMode}): ${a.reason}` };
}

/** The client's report of the action, in the record's words. */
function verdictOfReport(req: InteractRequest, before: TraceVerdict): TraceVerdict {
  const changes = req.domChanges;
  const delta = changes ? [changes.urlChanged && changes.previousUrl ? `navigated from ${changes.previousUrl} to ${req.url}` : '', `${changes.addedCount} added, ${changes.removedCount} removed`].filter(Boolean).join('\n') : undefined;
  const e = req.lastActionError;
  if (e) return { outcome: 'refused', detail: e.message, refusal: { code: e.code, reason: e.message }, ...(delta && { delta }) };
  const r = req.lastActionResult;
  if (r) return { outcome: r.success ? 'verified' : 'not_verified', detail: r.actualState ?? before.detail, verification: { success: r.success, actualOutcome: r.actualState ?? (r.success ? 'as expected' : 'not as expected') }, ...(delta && { delta }) };
  if (req.lastActionStatus === 'failure') return { outcome: 'not_verified', detail: 'the client reported the action failed', ...(delta && { delta }) };
  return { outcome: 'ok', detail: 'the client reported the action ran', ...(delta && { delta }) };
}
