// The offline agent on MiniWoB++ task pages (Farama-Foundation/miniwob-plusplus, MIT; not part of
// this repository: give its `miniwob/html` folder). Each episode: the task page served from
// loopback (everything else blocked), Math.random seeded with "<task>:<episode>" so that a run is
// repeatable, the episode started as core.js starts it behind its "START" cover
// (core.startEpisodeReal), the utterance read from #query (core.getUtterance) given to
// `runAgent` with the heuristic planner as its task, and the reward the page's own checker gives
// (core.endEpisode) recorded: an episode succeeds when its first reward is > 0.
//   Run alone: node dist/bench/miniwob.js --dir /path/to/miniwob/html [--tasks a,b] [--episodes 15] [--json out.json]
//   Or: node dist/bench/run.js --only miniwob --miniwob-dir /path/to/miniwob/html
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { blockExternalRequests, launchChromium } from '../src/browser/chromium.js';
import { attach } from '../src/browser/lens.js';
import { gotoSettled } from '../src/browser/goto.js';
import { serveFolder } from '../src/browser/static.js';
import { appBackend, runAgent, type AgentStep } from '../src/agent/loop.js';
import { HeuristicPlanner } from '../src/agent/heuristic.js';
import { createApp } from '../src/server/app.js';
import { flag, runWhenScript } from './optionalPart.js';

/** The tasks a general web agent with a heuristic planner should do (the default set). */
export const DEFAULT_TASKS = [
  'click-button', 'click-button-sequence', 'click-link', 'click-tab', 'click-tab-2', 'click-checkboxes',
  'click-option', 'click-dialog', 'click-dialog-2', 'enter-text', 'enter-text-2', 'enter-password',
  'focus-text', 'focus-text-2', 'login-user', 'choose-list', 'use-autocomplete', 'click-collapsible', 'navigate-tree',
];
export const DEFAULT_EPISODES = 15;
/**
 * core.js gives an episode 10 s; the agent here runs in a shared, loaded browser and is not what
 * the time limit is about, so an episode gets this long. A reward core.js scales by time stays > 0.
 */
const EPISODE_MS = 60_000;
/** Steps the agent may take in one episode (the longest default task has about 6). */
const MAX_STEPS = 12;

export interface EpisodeStep { action?: string; asked?: string; thought?: string; result?: string }
export interface Episode {
  task: string;
  episode: number;
  seed: string;
  utterance: string;
  /** The first reward core.endEpisode gave (null: the episode never ended). */
  reward: number | null;
  rawReward: number | null;
  reason: string | null;
  success: boolean;
  /** How the agent ended: done, failed (a refusal), max_steps, stopped (the episode ended first), error. */
  agent: string;
  /** The agent said done with success while the page gave no positive reward: the worst outcome. */
  falseDone: boolean;
  message: string;
  steps: EpisodeStep[];
  ms: number;
}

export interface TaskRow { task: string; episodes: number; successes: number; falseDone: number; refused: number }

declare global {
  interface Window {
    core: { startEpisodeReal(): void; endEpisode(...a: unknown[]): void; getUtterance(): string; EPISODE_MAX_TIME: number; EP_TIMER: unknown };
    __pagelensEpisode?: { reward: number; raw: number; reason: string | null };
    __pagelensEpisodeEnded?: () => void;
    WOB_REWARD_GLOBAL: number;
    WOB_RAW_REWARD_GLOBAL: number;
    WOB_REWARD_REASON: string | null;
  }
  interface Math { seedrandom(seed: string): void }
}

/** Starts one seeded episode on a loaded task page; answers the utterance. Runs in the page's main world (core.js lives there). */
async function startEpisode(page: Page, seed: string): Promise<string> {
  return page.evaluate(({ seed, ms }) => {
    const core = window.core;
    const end = core.endEpisode;
    // Only the first end of an episode counts (core.js ignores later ones the same way: EP_TIMER).
    core.endEpisode = function (this: unknown, ...args: unknown[]) {
      const first = core.EP_TIMER !== null;
      end.apply(this, args);
      if (first && !window.__pagelensEpisode) {
        window.__pagelensEpisode = { reward: window.WOB_REWARD_GLOBAL, raw: window.WOB_RAW_REWARD_GLOBAL, reason: window.WOB_REWARD_REASON };
        window.__pagelensEpisodeEnded?.();
      }
    };
    Math.seedrandom(seed);
    core.EPISODE_MAX_TIME = ms;
    core.startEpisodeReal();
    return core.getUtterance();
  }, { seed, ms: EPISODE_MS });
}

function stepOf(s: AgentStep): EpisodeStep {
  const r = s.response as { action?: string; thought?: string; requestedDomMode?: string; reason?: string };
  const res = s.result;
  const result = !res ? undefined : !res.ok ? `refused ${res.error?.code}: ${res.error?.message}`
    : res.verification ? (res.verification.success ? 'verified' : `NOT verified: ${res.verification.actualOutcome}`) : 'ok';
  return {
    ...(r.action && { action: r.action }),
    ...(s.negotiated.length && { asked: s.negotiated.map((n) => ('requestedDomMode' in n ? n.requestedDomMode : 'full')).join(', ') }),
    ...(r.thought && { thought: r.thought }),
    ...(result && { result }),
  };
}

export async function runEpisode(browser: Browser, base: string, task: string, episode: number): Promise<Episode> {
  const t0 = performance.now();
  const seed = `${task}:${episode}`;
  const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
  await blockExternalRequests(context);
  let ended = false;
  const page = await context.newPage();
  const out: Episode = { task, episode, seed, utterance: '', reward: null, rawReward: null, reason: null, success: false, agent: 'error', falseDone: false, message: '', steps: [], ms: 0 };
  try {
    await page.exposeFunction('__pagelensEpisodeEnded', () => { ended = true; });
    await gotoSettled(page, `${base}miniwob/${task}.html`);
    await page.waitForFunction(() => typeof window.core?.startEpisodeReal === 'function' && typeof Math.seedrandom === 'function');
    out.utterance = await startEpisode(page, seed);
    const lens = await attach(page);
    const run = await runAgent(lens, {
      task: out.utterance, backend: appBackend(createApp({ planner: new HeuristicPlanner() })), maxSteps: MAX_STEPS,
      stopped: () => ended, sessionId: `miniwob-${seed}`,
    });
    out.agent = run.status === 'failed' || (run.status === 'done' && !run.success) ? 'refused' : run.status;
    out.message = run.message;
    out.steps = run.steps.map(stepOf);
    // The last action may have ended the episode as the agent finished.
    await page.waitForFunction(() => window.__pagelensEpisode !== undefined, undefined, { timeout: 1_000 }).catch(() => undefined);
    const got = await page.evaluate(() => window.__pagelensEpisode ?? null);
    if (got) Object.assign(out, { reward: got.reward, rawReward: got.raw, reason: got.reason });
    out.success = (out.rawReward ?? 0) > 0 && (out.reward ?? 0) > 0;
    out.falseDone = run.status === 'done' && run.success && !out.success;
  } catch (e) {
    out.agent = 'error';
    out.message = (e as Error).message.split('\n')[0];
  } finally {
    await context.close();
    out.ms = Math.round(performance.now() - t0);
  }
  return out;
}

export interface MiniwobOptions { dir: string; tasks?: string[]; episodes?: number; quiet?: boolean }

/** Runs the episodes, or says why it cannot (no folder, unknown task). */
export async function runMiniwob(opts: MiniwobOptions): Promise<{ skipped: string } | { episodes: Episode[] }> {
  const dir = resolve(opts.dir);
  if (!existsSync(join(dir, 'core', 'core.js')) || !existsSync(join(dir, 'miniwob'))) {
    return { skipped: `no MiniWoB++ folder at ${dir} (expected core/core.js and miniwob/*.html: the miniwob/html folder of Farama-Foundation/miniwob-plusplus)` };
  }
  const tasks = opts.tasks ?? DEFAULT_TASKS;
  const missing = tasks.filter((t) => !/^[a-z0-9-]+$/.test(t) || !existsSync(join(dir, 'miniwob', `${t}.html`)));
  if (missing.length) throw new Error(`BAD_INPUT: no task page for ${missing.join(', ')} in ${join(dir, 'miniwob')}`);
  const server = await serveFolder(dir);
  const browser = await launchChromium();
  const episodes: Episode[] = [];
  try {
    for (const task of tasks) {
      for (let i = 0; i < (opts.episodes ?? DEFAULT_EPISODES); i++) {
        const ep = await runEpisode(browser, server.url, task, i);
        episodes.push(ep);
        if (!opts.quiet) process.stderr.write(`${ep.success ? '✓' : '✗'} ${task}#${i} ${ep.ms} ms ${ep.success ? '' : `(${ep.agent}: ${ep.message.slice(0, 100)})`}\n`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { episodes };
}

export function tableOf(episodes: Episode[]): TaskRow[] {
  const rows = new Map<string, TaskRow>();
  for (const e of episodes) {
    const r = rows.get(e.task) ?? { task: e.task, episodes: 0, successes: 0, falseDone: 0, refused: 0 };
    r.episodes++;
    if (e.success) r.successes++;
    if (e.falseDone) r.falseDone++;
    if (!e.success && e.agent === 'refused') r.refused++;
    rows.set(e.task, r);
  }
  return [...rows.values()];
}

/** The table, then every failure with the utterance, the steps the planner took and why it ended. */
export function renderMiniwob(episodes: Episode[]): string {
  const rows = tableOf(episodes);
  const w = Math.max(4, ...rows.map((r) => r.task.length));
  const lines = [`MINIWOB++ (offline heuristic planner; success = first reward > 0; seeded "<task>:<episode>")`,
    `${'task'.padEnd(w)}  episodes  successes  false-done  refused`];
  for (const r of rows) lines.push(`${r.task.padEnd(w)}  ${String(r.episodes).padStart(8)}  ${String(r.successes).padStart(9)}  ${String(r.falseDone).padStart(10)}  ${String(r.refused).padStart(7)}`);
  const tot = rows.reduce((a, r) => ({ e: a.e + r.episodes, s: a.s + r.successes, f: a.f + r.falseDone, x: a.x + r.refused }), { e: 0, s: 0, f: 0, x: 0 });
  lines.push(`${'total'.padEnd(w)}  ${String(tot.e).padStart(8)}  ${String(tot.s).padStart(9)}  ${String(tot.f).padStart(10)}  ${String(tot.x).padStart(7)}`);
  const failed = episodes.filter((e) => !e.success);
  if (failed.length) lines.push('', 'FAILURES');
  for (const e of failed) {
    const verdict = e.reward === null ? 'episode never ended' : `reward ${e.rawReward}${e.reason ? ` (${e.reason})` : ''}`;
    lines.push(`- ${e.task}#${e.episode} "${e.utterance}": ${verdict}; agent ${e.agent}${e.falseDone ? ' — FALSE DONE' : ''}: ${e.message}`);
    e.steps.forEach((s, i) => {
      lines.push(`    ${i + 1}. ${s.asked ? `[asked ${s.asked}] ` : ''}${s.action ?? '(no action)'}${s.result ? ` → ${s.result}` : ''}${s.thought ? `  — ${s.thought}` : ''}`);
    });
  }
  return lines.join('\n');
}

runWhenScript(import.meta.url, {
  label: 'MINIWOB', dirHint: 'path/to/miniwob-plusplus/miniwob/html',
  async run(dir, argv) {
    const episodes = flag(argv, '--episodes');
    const n = episodes === undefined ? undefined : Number(episodes);
    if (n !== undefined && (!Number.isInteger(n) || n < 1)) throw new Error(`BAD_INPUT: --episodes expects a positive integer, got "${episodes}"`);
    const tasks = flag(argv, '--tasks')?.split(',').map((t) => t.trim()).filter(Boolean);
    const run = await runMiniwob({ dir, ...(tasks && { tasks }), ...(n && { episodes: n }), quiet: argv.includes('--quiet') });
    return 'skipped' in run ? run : run.episodes;
  },
  render: renderMiniwob,
  json: (episodes) => episodes,
});
