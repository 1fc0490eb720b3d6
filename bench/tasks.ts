// Whole tasks as a user pays for them (issue 43): `pagelens mcp` and Playwright MCP, each started
// as its user starts it, each driven the plain way its README advises — navigate, read the page
// when the answers so far do not show what is needed, then act by the ID (ref) the answers gave —
// and every token the model would be sent counted: the tool definitions and the server's
// instructions once per task, and every answer. Success is judged from the page, by a script the
// bench's own server puts into every page it serves (judge.ts), never from what a tool says.
//   Tasks: TodoMVC (add three todos, complete the second; real apps from --todomvc-dir), login
//   form fill (corpus forms pages labelled with a login form), add to cart (corpus shop pages
//   whose HTML names an add-to-cart control).
//   Run alone: node dist/bench/tasks.js [--limit N] [--todomvc-dir DIR] [--apps react,vue] [--json out.json] [--save-baseline] [--show-answers]
//   (--save-baseline writes bench/tasks-baseline.json, and docs/benchmarks.md and the README from it)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from '../src/model/renderers/tokens.js';
import { CORPUS } from './inputs.js';
import { writeBenchDocs } from './docs.js';
import { renderTasks, saveTasksBaseline, TASKS_BASELINE, type TaskRow, type TasksRun } from './tasksBaseline.js';
import { htmlPagesIn } from './measurePage.js';
import { callTool, peerMissing, startServer, type ServerName, type Session } from './mcpServers.js';
import { startJudgedSite, type JudgedSite, type JudgeState } from './judge.js';
import { pagelensReader, playwrightReader, type Kind, type PageReader } from './taskReaders.js';

const CALL_MS = 60_000;
/** --show-answers: every answer on stderr, as the model would read it, with its token count. */
const SHOW_ANSWERS = process.argv.includes('--show-answers');
const SEED = ['feed the cat', 'water the plants', 'call mum'];
const TODOMVC_APPS: Record<string, string> = {
  react: 'examples/react/dist/index.html',
  vue: 'examples/vue/dist/index.html',
  backbone: 'examples/backbone/dist/index.html',
  preact: 'examples/preact/dist/index.html',
  jquery: 'examples/jquery/dist/index.html',
};
const BUY = /add to (cart|basket|bag)|buy now/i;
const USER = /user|e-?mail|login|account|name|nick|id\b|phone/i;
const PASS = /pass|pwd|kennwort|mot de passe|contrase|senha|пароль|密码/i;
const EMAIL = 'ada.lovelace@example.com';
const PASSWORD = 'correct horse battery';

interface Task {
  kind: 'todomvc' | 'login' | 'cart';
  page: string;
  url: string;
  /** Drives one server through the task. */
  drive(d: Driver): Promise<void>;
  /** Whether the page shows the task done. */
  done(s: JudgeState): boolean;
}

/** One server on one task: its calls, their answers' tokens, and what the reader knows of the page. */
class Driver {
  calls = 0;
  answerTokens = 0;
  readonly log: string[] = [];

  constructor(readonly s: Session, readonly reader: PageReader) {}

  async call(tool: string, args: Record<string, unknown>): Promise<string> {
    const a = await callTool(this.s, tool, args, CALL_MS);
    this.calls++;
    const tokens = await countTokens(a.text);
    this.answerTokens += tokens;
    if (SHOW_ANSWERS) console.error(`--- ${this.s.name} ${tool} ${JSON.stringify(args).slice(0, 80)} (${tokens} tokens)\n${a.text}`);
    this.log.push(`${tool} ${JSON.stringify(args).slice(0, 80)} → ${a.outcome}`);
    if (a.outcome !== 'ok') throw new Error(`${tool} ${a.outcome}: ${a.detail ?? a.text.slice(0, 200)}`);
    this.reader.absorb(a.text);
    return a.text;
  }

  async navigate(url: string): Promise<void> {
    await this.call('browser_navigate', { url });
  }

  /** The element the answers so far show, else the page read again (each read a call, counted). */
  async find(kind: Kind, name: RegExp, near?: string): Promise<string> {
    for (const read of [undefined, ...this.reader.reads]) {
      if (read) await this.call(read.tool, read.args);
      const ref = this.reader.find(kind, name, near);
      if (ref) return ref;
    }
    throw new Error(`no ${kind} named ${name}${near ? ` near "${near}"` : ''} in what the server showed`);
  }

  type(ref: string, text: string, submit: boolean): Promise<string> {
    return this.call('browser_type', { ...this.reader.target(ref), text, ...(submit && { submit: true }) });
  }

  click(ref: string): Promise<string> {
    return this.call('browser_click', this.reader.target(ref));
  }
}

function todomvcTasks(dir: string, origin: string, apps: string[]): Task[] {
  return apps.filter((a) => TODOMVC_APPS[a] && existsSync(join(dir, TODOMVC_APPS[a]))).map((app) => ({
    kind: 'todomvc',
    page: app,
    url: `${origin}/todomvc/${TODOMVC_APPS[app]}`,
    drive: async (d) => {
      await d.navigate(`${origin}/todomvc/${TODOMVC_APPS[app]}`);
      const field = await d.find('field', /what needs to be done|new todo|todo/i);
      for (const t of SEED) await d.type(field, t, true);
      await d.click(await d.find('checkbox', new RegExp(`^${SEED[1]}$|toggle`, 'i'), SEED[1]));
    },
    done: (s) => JSON.stringify(s.rows.map((r) => [r.title, r.done])) === JSON.stringify(SEED.map((t, i) => [t, i === 1])),
  }));
}

/** Corpus forms pages whose labels name a login form with a user (or email) field and a password field. */
function loginTasks(origin: string, limit: number): Task[] {
  const folder = join(CORPUS, 'forms');
  if (!existsSync(join(folder, 'labels.json'))) return [];
  const labels = JSON.parse(readFileSync(join(folder, 'labels.json'), 'utf8')) as Record<string, { forms: string[]; visible_html_fields: Array<Record<string, string>> }>;
  const tasks: Task[] = [];
  for (const page of htmlPagesIn(folder)) {
    const l = labels[page];
    const form = l?.forms.findIndex((f) => f === 'l') ?? -1;
    if (form < 0) continue;
    const fields = Object.entries(l.visible_html_fields[form] ?? {});
    const user = fields.find(([, t]) => t === 'us' || t === 'ue' || t === 'e1')?.[0];
    const pass = fields.find(([, t]) => t === 'p1')?.[0];
    if (!user || !pass) continue;
    tasks.push({
      kind: 'login',
      page,
      url: `${origin}/corpus/forms/${page}`,
      drive: async (d) => {
        await d.navigate(`${origin}/corpus/forms/${page}`);
        const u = await d.find('field', USER);
        const p = await d.find('password', PASS);
        await d.type(u, EMAIL, false);
        await d.type(p, PASSWORD, false);
      },
      done: (s) => s.fields[user] === EMAIL && s.fields[pass] === PASSWORD,
    });
    if (tasks.length >= limit) break;
  }
  return tasks;
}

/** Corpus shop pages whose HTML names an add-to-cart or buy-now control. */
function cartTasks(origin: string, limit: number): Task[] {
  const folder = join(CORPUS, 'shop');
  if (!existsSync(folder)) return [];
  const tasks: Task[] = [];
  for (const page of htmlPagesIn(folder)) {
    if (!BUY.test(readFileSync(join(folder, page), 'utf8'))) continue;
    tasks.push({
      kind: 'cart',
      page,
      url: `${origin}/corpus/shop/${page}`,
      drive: async (d) => {
        await d.navigate(`${origin}/corpus/shop/${page}`);
        await d.click(await d.find('button', BUY));
      },
      done: (s) => s.clicks.some((c) => BUY.test(c)),
    });
    if (tasks.length >= limit) break;
  }
  return tasks;
}

/** What a client is sent before the first call: every tool definition and the server's instructions. */
async function definitionTokens(s: Session): Promise<number> {
  const { tools } = await s.client.listTools();
  let n = await countTokens(s.client.getInstructions() ?? '');
  for (const t of tools) n += await countTokens(JSON.stringify({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  return n;
}

async function runOne(task: Task, server: ServerName, site: JudgedSite): Promise<TaskRow> {
  // A fresh server (and so a fresh browser context) per task: no task sees another's storage.
  // A server that does not start is that server's failed task, not the end of the run.
  let s: Session;
  try {
    s = await startServer(server, site.origin);
  } catch (e) {
    return { task: task.kind, page: task.page, server, ok: false, calls: 0, definitionTokens: 0, answerTokens: 0, total: 0, detail: `did not start: ${(e as Error).message.split('\n')[0].slice(0, 160)}` };
  }
  const d = new Driver(s, server === 'pagelens' ? pagelensReader() : playwrightReader());
  let detail: string | undefined;
  try {
    const definitions = await definitionTokens(s);
    site.reset();
    try {
      await task.drive(d);
    } catch (e) {
      detail = (e as Error).message.split('\n')[0].slice(0, 200);
    }
    const ok = await site.waitFor(task.done, 3_000);
    return { task: task.kind, page: task.page, server, ok, calls: d.calls, definitionTokens: definitions, answerTokens: d.answerTokens, total: definitions + d.answerTokens, ...(detail && { detail }) };
  } finally {
    await s.client.close().catch(() => {});
  }
}


export async function runTasks(opts: { limit: number; todomvcDir?: string; apps?: string[]; quiet?: boolean }): Promise<{ skipped: string } | TasksRun> {
  const missing = peerMissing();
  if (missing) return { skipped: missing };
  const startedAt = new Date().toISOString();
  const site = await startJudgedSite({ corpus: CORPUS, ...(opts.todomvcDir && { todomvc: opts.todomvcDir }) });
  const tasks = [
    ...(opts.todomvcDir ? todomvcTasks(opts.todomvcDir, site.origin, opts.apps ?? Object.keys(TODOMVC_APPS)) : []),
    ...loginTasks(site.origin, opts.limit),
    ...cartTasks(site.origin, opts.limit),
  ];
  if (!tasks.length) { await site.close(); return { skipped: `no tasks: no --todomvc-dir and no corpus at ${CORPUS}` }; }
  const rows: TaskRow[] = [];
  try {
    for (const task of tasks) {
      for (const server of ['pagelens', 'playwright'] as const) {
        const row = await runOne(task, server, site);
        rows.push(row);
        if (!opts.quiet) console.error(`tasks: ${task.kind} ${task.page} ${server}: ${row.ok ? 'ok' : 'FAILED'} ${row.calls} calls ${row.total} tokens${row.detail ? ` (${row.detail})` : ''}`);
      }
    }
  } finally {
    await site.close();
  }
  return { rows, text: renderTasks(rows), startedAt };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const dir = arg('--todomvc-dir');
  const apps = arg('--apps')?.split(',').filter(Boolean);
  const limit = Number(arg('--limit')) || 5;
  const run = await runTasks({ limit, ...(dir && { todomvcDir: dir }), ...(apps && { apps }) });
  if ('skipped' in run) { console.log(`TASKS skipped: ${run.skipped}`); return; }
  console.log(run.text);
  const out = arg('--json');
  if (out) writeFileSync(out, JSON.stringify(run.rows, null, 1));
  if (process.argv.includes('--save-baseline')) {
    saveTasksBaseline(run, limit);
    console.error(`tasks: baseline saved to ${TASKS_BASELINE}; wrote ${writeBenchDocs().join(', ') || 'nothing (the docs matched)'}`);
  }
}

if (process.argv[1] && /bench[\\/]tasks\.js$/.test(process.argv[1])) await main();
