// The whole-task part's rows (bench/tasks.ts) and its run of record, bench/tasks-baseline.json, from
// which docs/benchmarks.md and the README's headline take their task figures (bench/docs.ts).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { REPO_ROOT } from './inputs.js';
import { round } from './stats.js';

export interface TasksRun { rows: TaskRow[]; text: string; startedAt: string }

export const TaskRow = z.object({
  task: z.string(),
  page: z.string(),
  server: z.enum(['pagelens', 'playwright']),
  ok: z.boolean(),
  calls: z.number(),
  definitionTokens: z.number(),
  answerTokens: z.number(),
  total: z.number(),
  detail: z.string().optional(),
});
export type TaskRow = z.infer<typeof TaskRow>;

/** The run of record of this part: its rows and where they were measured (docs/benchmarks.md and the README are written from it). */
export const TASKS_BASELINE = join(REPO_ROOT, 'bench', 'tasks-baseline.json');
const TasksBaseline = z.object({
  startedAt: z.string(),
  machine: z.object({ cpus: z.number(), node: z.string(), playwrightMcp: z.string() }),
  config: z.object({ limit: z.number(), todomvcApps: z.array(z.string()) }),
  rows: z.array(TaskRow),
});
export type TasksBaseline = z.infer<typeof TasksBaseline>;

export function readTasksBaseline(file = TASKS_BASELINE): TasksBaseline | undefined {
  return existsSync(file) ? TasksBaseline.parse(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

export function saveTasksBaseline(run: TasksRun, limit: number, file = TASKS_BASELINE): void {
  const peer = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', '@playwright', 'mcp', 'package.json'), 'utf8')) as { version: string };
  const baseline: TasksBaseline = {
    startedAt: run.startedAt,
    machine: { cpus: cpus().length, node: process.version, playwrightMcp: peer.version },
    config: { limit, todomvcApps: [...new Set(run.rows.filter((r) => r.task === 'todomvc').map((r) => r.page))] },
    rows: run.rows,
  };
  writeFileSync(file, JSON.stringify(baseline, null, 1) + '\n');
}

/** Per task kind: pages, successes on each server, and the ratio of the mean totals. */
export function taskKinds(rows: readonly TaskRow[]): Array<{ task: string; pages: number; okPagelens: number; okPlaywright: number; ratio: number }> {
  return [...new Set(rows.map((r) => r.task))].map((task) => {
    const of = (server: TaskRow['server']) => rows.filter((r) => r.task === task && r.server === server);
    const mean = (rs: TaskRow[]) => rs.reduce((n, r) => n + r.total, 0) / Math.max(1, rs.length);
    const [pl, pw] = [of('pagelens'), of('playwright')];
    return { task, pages: pl.length, okPagelens: pl.filter((r) => r.ok).length, okPlaywright: pw.filter((r) => r.ok).length, ratio: mean(pw) ? mean(pl) / mean(pw) : NaN };
  });
}

/** The table: per task kind, success and tokens side by side, and the ratio of the totals. */
export function renderTasks(rows: TaskRow[]): string {
  const of = (kind: string, server: TaskRow['server']) => rows.filter((r) => r.task === kind && r.server === server);
  const sum = (rs: TaskRow[], f: (r: TaskRow) => number) => rs.reduce((n, r) => n + f(r), 0);
  const mean = (rs: TaskRow[], f: (r: TaskRow) => number) => (rs.length ? round(sum(rs, f) / rs.length, 0) : 0);
  const lines = [
    'TASKS: whole tasks through pagelens mcp (defaults) and Playwright MCP (defaults), tokens a model is sent (o200k): definitions + instructions once per task, and every answer',
    '| task | pages | success pagelens | success Playwright MCP | calls pagelens / PW | definitions pagelens / PW | answers pagelens / PW | total pagelens | total Playwright MCP | pagelens / PW |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  // Pages, successes and the ratio are taskKinds's, so that the table and the README say one figure.
  for (const k of taskKinds(rows)) {
    const [pl, pw] = [of(k.task, 'pagelens'), of(k.task, 'playwright')];
    lines.push(`| ${k.task} | ${k.pages} | ${k.okPagelens}/${k.pages} | ${k.okPlaywright}/${pw.length} | ${mean(pl, (r) => r.calls)} / ${mean(pw, (r) => r.calls)} | ${mean(pl, (r) => r.definitionTokens)} / ${mean(pw, (r) => r.definitionTokens)} | ${mean(pl, (r) => r.answerTokens)} / ${mean(pw, (r) => r.answerTokens)} | ${mean(pl, (r) => r.total)} | ${mean(pw, (r) => r.total)} | ${round(k.ratio, 2)} |`);
  }
  lines.push('(means per task; calls, definitions, answers and totals are per task; the ratio is of the mean totals)');
  const failed = rows.filter((r) => !r.ok);
  if (failed.length) lines.push('', 'not done:', ...failed.map((r) => `- ${r.server} ${r.task} ${r.page}${r.detail ? `: ${r.detail}` : ''}`));
  return lines.join('\n');
}
