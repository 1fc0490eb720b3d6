// Soak (issue 37): the real `pagelens mcp --offline` server and Playwright MCP, each a child over
// stdio driven by the MCP SDK client, on the same saved corpus pages in one run. Per page, per
// server: navigate, snapshot, click the page's buy control (else the first button), go back.
// Counted: per call kind p50/p99 wall time as the client sees it, calls past their client-side
// deadline, calls that errored, sessions that stopped answering (a follow-up tools/list fails),
// and each server's RSS at the end (the server process, and it plus its descendants: Chromium).
//   Run: node dist/bench/soak.js [--limit N] [--sets shop,news] [--json out.json]
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveFolder } from '../src/browser/static.js';
import { CORPUS } from './inputs.js';
import { callTool as call, peerMissing, startServer, type Answer, type Outcome, type ServerName, type Session } from './mcpServers.js';
import { htmlPagesIn } from './measurePage.js';
import { median, quantile, round } from './stats.js';

const CALL_DEADLINE_MS = 60_000;
/** A page's four steps share this budget; steps left when it is spent are not made (counted as skipped). */
const PAGE_BUDGET_MS = 150_000;
/** The liveness probe is cheap (no page work), so a short deadline is fair. */
const PROBE_DEADLINE_MS = 10_000;
const BUY = /add to (cart|basket)|buy now/i;

type Kind = 'navigate' | 'snapshot' | 'click' | 'back';
interface Row { server: ServerName; page: string; kind: Kind; ms: number; outcome: Outcome; detail?: string }
interface Tally { rows: Row[]; stopped: number; restarts: number; rssServerKb: number; rssTreeKb: number; procs: number }

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function answers(s: Session): Promise<boolean> {
  try {
    await Promise.race([s.client.listTools(undefined, { timeout: PROBE_DEADLINE_MS }), new Promise((_, no) => setTimeout(() => no(new Error('probe')), PROBE_DEADLINE_MS + 1_000).unref())]);
    return true;
  } catch {
    return false;
  }
}

/**
 * What to click. pagelens: the snapshot's interactive_tree nodes {i, r, n}; roles are the short V3
 * codes (button → btn). Read with a pattern, not JSON.parse: an answer over 8000 tokens is cut
 * (the rest via browser_more) and is then no longer valid JSON, yet its first part names nodes.
 */
function pagelensTarget(text: string): { id: string; name: string } | undefined {
  const tree = [...text.matchAll(/\{"i":"([^"]+)","r":"([^"]+)","n":"((?:[^"\\]|\\.)*)"/g)].map((m) => ({ i: m[1], r: m[2], n: m[3] }));
  const t = tree.find((n) => (n.r === 'btn' || n.r === 'link') && BUY.test(n.n)) ?? tree.find((n) => n.r === 'btn');
  return t && { id: t.i, name: t.n };
}

/** Playwright MCP (0.0.83's browser_click takes the ref as `target`): YAML lines like `- button "Add to cart" [ref=e12]`; a nameless `- button [ref=e3]` is a button too, as pagelens counts it. */
function playwrightTarget(text: string): { ref: string; name: string } | undefined {
  const nodes = [...text.matchAll(/- (button|link)(?: "((?:[^"\\]|\\.)*)")?[^\n]*?\[ref=([a-z0-9]+)\]/g)].map((m) => ({ role: m[1], name: m[2] ?? '', ref: m[3] }));
  const t = nodes.find((n) => BUY.test(n.name)) ?? nodes.find((n) => n.role === 'button');
  return t && { ref: t.ref, name: t.name };
}

/** The four steps on one page; returns false when the session stopped answering. */
async function soakPage(s: Session, url: string, page: string, rows: Row[]): Promise<boolean> {
  const began = performance.now();
  const left = () => PAGE_BUDGET_MS - (performance.now() - began);
  const step = async (kind: Kind, tool: string, args: Record<string, unknown>): Promise<Answer> => {
    if (left() <= 0) { rows.push({ server: s.name, page, kind, ms: NaN, outcome: 'skipped', detail: 'page budget spent' }); return { outcome: 'skipped', ms: NaN, text: '' }; }
    const a = await call(s, tool, args, Math.min(CALL_DEADLINE_MS, left()));
    rows.push({ server: s.name, page, kind, ms: a.ms, outcome: a.outcome, ...(a.detail && { detail: a.detail }) });
    return a;
  };
  let bad = false;
  const nav = await step('navigate', 'browser_navigate', { url });
  bad ||= nav.outcome !== 'ok';
  // fullPage: Playwright MCP's snapshot covers the whole page, and a viewport-only tree would miss buy buttons below the fold.
  const snap = await step('snapshot', s.name === 'pagelens' ? 'page_snapshot' : 'browser_snapshot', s.name === 'pagelens' ? { fullPage: true } : {});
  bad ||= snap.outcome !== 'ok';
  if (s.name === 'pagelens') {
    const t = pagelensTarget(snap.text);
    if (t) { const c = await step('click', 'browser_click', { id: t.id }); rows[rows.length - 1].detail ??= `clicked "${t.name.slice(0, 40)}"`; bad ||= c.outcome !== 'ok'; } else rows.push({ server: s.name, page, kind: 'click', ms: NaN, outcome: 'skipped', detail: 'no buy control or button' });
  } else {
    const t = playwrightTarget(snap.text);
    if (t) { const c = await step('click', 'browser_click', { element: t.name || 'button', target: t.ref }); rows[rows.length - 1].detail ??= `clicked "${t.name.slice(0, 40)}"`; bad ||= c.outcome !== 'ok'; } else rows.push({ server: s.name, page, kind: 'click', ms: NaN, outcome: 'skipped', detail: `no buy control or button in ${JSON.stringify(snap.text.slice(0, 300))}` });
  }
  const back = await step('back', 'browser_navigate_back', {});
  bad ||= back.outcome !== 'ok';
  // Only a failure is followed up: probing after every page would add calls the other side doesn't make.
  return !bad || answers(s);
}

/** Every process below `root` (Chromium's zygote, renderers, GPU…), from /proc's parent links. */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try { parent.set(Number(d), Number(readFileSync(`/proc/${d}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1])); } catch { /* exited meanwhile */ }
  }
  const out: number[] = [];
  const walk = (p: number) => { for (const [c, pp] of parent) if (pp === p) { out.push(c); walk(c); } };
  walk(root);
  return out;
}

function rssKb(pid: number): number {
  try { return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0); } catch { return 0; }
}

function measureRss(s: Session, t: Tally): void {
  const pid = s.transport.pid;
  if (!pid) return;
  const kids = descendants(pid);
  t.rssServerKb = rssKb(pid);
  // Summed RSS double-counts pages shared between Chromium processes: an upper bound, same for both sides.
  t.rssTreeKb = t.rssServerKb + kids.reduce((a, k) => a + rssKb(k), 0);
  t.procs = 1 + kids.length;
}

function table(tallies: Record<ServerName, Tally>): string {
  const kinds: Kind[] = ['navigate', 'snapshot', 'click', 'back'];
  const ms = (t: Tally, k: Kind) => t.rows.filter((r) => r.kind === k && (r.outcome === 'ok' || r.outcome === 'error')).map((r) => r.ms);
  const count = (t: Tally, o: Outcome) => t.rows.filter((r) => r.outcome === o).length;
  const lines: Array<[string, (t: Tally) => number, string]> = [];
  for (const k of kinds) {
    lines.push([`${k} p50 ms`, (t) => median(ms(t, k)), 'ms']);
    lines.push([`${k} p99 ms`, (t) => quantile(ms(t, k), 0.99), 'ms']);
  }
  lines.push(['calls made', (t) => t.rows.filter((r) => r.outcome !== 'skipped').length, 'n']);
  lines.push(['calls erroring', (t) => count(t, 'error'), 'n']);
  lines.push(['calls past deadline', (t) => count(t, 'deadline'), 'n']);
  lines.push(['steps skipped', (t) => count(t, 'skipped'), 'n']);
  lines.push(['sessions stopped answering', (t) => t.stopped, 'n']);
  lines.push(['RSS server at end, MB', (t) => t.rssServerKb / 1024, 'mb']);
  lines.push(['RSS server + children at end, MB', (t) => t.rssTreeKb / 1024, 'mb']);
  lines.push(['processes in tree at end', (t) => t.procs, 'n']);
  const fmt = (x: number, u: string) => (Number.isFinite(x) ? (u === 'n' ? String(x) : String(round(x, u === 'mb' ? 1 : 0))) : '–');
  const body = lines.map(([label, f, u]) => {
    const a = f(tallies.pagelens), b = f(tallies.playwright);
    return [label, fmt(a, u), fmt(b, u), Number.isFinite(a) && Number.isFinite(b) && b > 0 ? String(round(a / b, 2)) : '–'];
  });
  const head = ['', 'pagelens', 'Playwright MCP', 'ratio'];
  const w = head.map((h, c) => Math.max(h.length, ...body.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((x, c) => x.padEnd(w[c])).join(' | ')} |`;
  return [line(head), `|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

export interface SoakOptions { limit: number; sets: string[]; minutes?: number }
export interface SoakRun { text: string; json: object }

/** The soak part of `npm run bench` (and of this script run alone): the report, or why it was skipped. */
export async function runSoak(opts: SoakOptions): Promise<{ skipped: string } | SoakRun> {
  const { limit, sets } = opts;
  const runBudgetMs = (opts.minutes ?? 30) * 60_000;
  if (!existsSync(CORPUS)) return { skipped: `the shared corpus is not at ${CORPUS}` };
  const missing = peerMissing();
  if (missing) return { skipped: missing };
  const pages = sets.flatMap((set) => (existsSync(join(CORPUS, set)) ? htmlPagesIn(join(CORPUS, set)).slice(0, limit).map((f) => `${set}/${f}`) : []));
  if (!pages.length) return { skipped: `no pages for sets ${sets.join(',')} in ${CORPUS}` };
  // One server for the whole corpus, so both browsers see one loopback origin for every page.
  const site = await serveFolder(CORPUS);
  const origin = site.url.replace(/\/$/, '');
  const tallies: Record<ServerName, Tally> = {
    pagelens: { rows: [], stopped: 0, restarts: 0, rssServerKb: 0, rssTreeKb: 0, procs: 0 },
    playwright: { rows: [], stopped: 0, restarts: 0, rssServerKb: 0, rssTreeKb: 0, procs: 0 },
  };
  const sessions: Record<ServerName, Session> = { pagelens: await startServer('pagelens', origin), playwright: await startServer('playwright', origin) };
  const t0 = performance.now();
  let done = 0;
  try {
    for (const page of pages) {
      if (performance.now() - t0 > runBudgetMs) { console.error(`soak: run budget spent after ${done} pages`); break; }
      for (const name of ['pagelens', 'playwright'] as const) {
        const alive = await soakPage(sessions[name], `${site.url}${page}`, page, tallies[name].rows);
        if (!alive) {
          // A dead session is counted and replaced, so one hang doesn't end the soak for the other pages.
          tallies[name].stopped++;
          console.error(`soak: ${name} stopped answering on ${page}; stderr tail: ${sessions[name].stderrTail.join(' | ')}`);
          await sessions[name].client.close().catch(() => {});
          sessions[name] = await startServer(name, origin);
          tallies[name].restarts++;
        }
      }
      done++;
      console.error(`soak: ${done}/${pages.length} ${page}`);
    }
    for (const name of ['pagelens', 'playwright'] as const) measureRss(sessions[name], tallies[name]);
  } finally {
    await Promise.allSettled([sessions.pagelens.client.close(), sessions.playwright.client.close()]);
    await site.close();
  }
  const out = [`SOAK: ${done} pages (${sets.join(',')}, --limit ${limit}), ${round((performance.now() - t0) / 1000, 0)} s, deadline ${CALL_DEADLINE_MS / 1000} s per call\n`, table(tallies)];
  const odd = [...tallies.pagelens.rows, ...tallies.playwright.rows].filter((r) => r.outcome !== 'ok');
  if (odd.length) out.push(`\nnot ok:\n${odd.map((r) => `- ${r.server} ${r.kind} ${r.page}: ${r.outcome}${r.detail ? ` (${r.detail})` : ''}`).join('\n')}`);
  out.push('\nsnapshot: pagelens page_snapshot {fullPage: true} vs Playwright MCP browser_snapshot. times: wall time per MCP call as the client sees it (p50/p99 over ok and erroring calls; nearest rank). RSS: VmRSS from /proc at the end; children summed, so shared pages count more than once.');
  return { text: out.join('\n'), json: { pages, limit, sets, tallies } };
}

async function main(): Promise<void> {
  const run = await runSoak({ limit: Number(flag('--limit')) || 10, sets: (flag('--sets') ?? 'shop,news').split(',').filter(Boolean), minutes: Number(flag('--minutes')) || 30 });
  if ('skipped' in run) { console.log(`SOAK skipped: ${run.skipped}`); return; }
  console.log(run.text);
  const jsonOut = flag('--json');
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify(run.json, null, 2));
}

if (process.argv[1] && /bench[\\/]soak\.js$/.test(process.argv[1])) await main();
