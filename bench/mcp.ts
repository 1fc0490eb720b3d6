// What an MCP client pays per call, pagelens MCP against Playwright MCP, on the shared corpus:
//   snapshot: pagelens's page_snapshot response (semantic_v3, viewport, and fullPage) vs Playwright's AI
//             snapshot (page.ariaSnapshot({ mode: 'ai' }), what Playwright MCP's browser_snapshot
//             returns), framed as Playwright MCP frames it (URL, title, a yaml block);
//   action:   pagelens's answer to browser_hover on the first button (else link) of the snapshot
//             — result + delta, not a snapshot — vs Playwright MCP's answer to the same hover,
//             which is the AI snapshot taken again after it.
// Tokens are o200k. Hover is the action because it never navigates or submits on any page.
// Then, per tool, the median and largest answer over the same pages, next to Playwright MCP's
// answer to the same call where it has one (its snapshot for navigate/snapshot/hover; its console
// and network lists written in its own line format from the same messages and requests).
//   Run: node dist/bench/mcp.js [--limit N] [--sets news,shop,forms]   (N pages per set, default 5)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../src/browser/chromium.js';
import type { Lens } from '../src/browser/lens.js';
import type { SemanticV3Result } from '../src/model/contracts/schema.js';
import { countTokens, loadTokenizer } from '../src/model/renderers/tokens.js';
import { watchConsole, watchNetwork } from '../src/browser/tools/context.js';
import { runTool } from '../src/browser/tools/runTool.js';
import { CORPUS, DEFAULT_SETS } from './inputs.js';
import { htmlPagesIn, visitPages } from './measurePage.js';
import { median, round } from './stats.js';

interface Row {
  page: string;
  plSnapshot: number;
  /** page_snapshot with fullPage: the like-for-like size, since Playwright's covers the whole page. */
  plFull: number;
  pwSnapshot: number;
  plAction: number;
  pwAction: number;
  /** What the action was done on, and whether pagelens reported it done. */
  target: string;
  actionOk: boolean;
}

/** Playwright MCP's framing of a snapshot: the page's URL and title, then the YAML. */
function playwrightMcpText(url: string, title: string, yaml: string): string {
  return `### Page state\n- Page URL: ${url}\n- Page Title: ${title}\n- Page Snapshot:\n\`\`\`yaml\n${yaml}\n\`\`\``;
}

async function playwrightSnapshot(page: Page): Promise<number> {
  const yaml = await page.ariaSnapshot({ mode: 'ai' });
  return countTokens(playwrightMcpText(page.url(), await page.title(), yaml));
}

/** Per tool: pagelens's answer sizes, and Playwright MCP's to the same call (when it has that tool). */
const perTool = new Map<string, { pl: number[]; pw: number[] }>();

function note(tool: string, pl: number, pw?: number): void {
  let t = perTool.get(tool);
  if (!t) { t = { pl: [], pw: [] }; perTool.set(tool, t); }
  t.pl.push(pl);
  if (pw !== undefined) t.pw.push(pw);
}

/** Playwright MCP's browser_console_messages, in its line format, from the same messages. */
function playwrightConsole(page: Page): string {
  const lines = watchConsole(page).select('debug', true).map((e) => `[${e.type.toUpperCase()}] ${e.text}${e.location ? ` @ ${e.location}` : ''}`);
  return `### Result\n${lines.join('\n')}`;
}

/** Playwright MCP's browser_network_requests (static resources left out, as its default), from the same requests. */
function playwrightNetwork(page: Page): string {
  const lines = watchNetwork(page).entries.filter((e) => !['image', 'font', 'stylesheet', 'media'].includes(e.type))
    .map((e) => `[${e.method}] ${e.url} => ${e.failure ? `[FAILED] ${e.failure}` : `[${e.status ?? ''}]`}`);
  return `### Result\n${lines.join('\n')}`;
}

/** Every answer's size per tool, on one page: read-only tools and a reload through browser_navigate. */
async function measureTools(lens: Lens, page: Page): Promise<void> {
  const tokens = async (tool: string, args: Record<string, unknown> = {}) => countTokens((await runTool(lens, tool, args)).text);
  // Watching starts at the first call; the reload then fills the console and network logs.
  note('browser_navigate', await tokens('browser_navigate', { url: page.url() }), await playwrightSnapshot(page));
  const pw = await playwrightSnapshot(page);
  note('page_snapshot', await tokens('page_snapshot'), pw);
  note('page_snapshot fullPage', await tokens('page_snapshot', { fullPage: true }), pw);
  note('page_snapshot query', await tokens('page_snapshot', { query: 'search for a product', maxTokens: 600 }));
  note('browser_page_text', await tokens('browser_page_text'));
  note('snapshot_regions', await tokens('snapshot_regions'));
  note('dom_overview', await tokens('dom_overview'));
  note('browser_console_messages', await tokens('browser_console_messages', { all: true, level: 'debug' }), await countTokens(playwrightConsole(page)));
  note('browser_network_requests', await tokens('browser_network_requests'), await countTokens(playwrightNetwork(page)));
  note('page_snapshot axtree text', await tokens('page_snapshot', { mode: 'axtree', format: 'text' }));
}

export function renderToolTable(): string {
  const head = ['tool', 'pagelens median', 'pagelens max', 'Playwright MCP median', 'Playwright MCP max', 'pages'];
  const body = [...perTool.entries()].map(([tool, t]) => [tool, num(median(t.pl)), num(Math.max(...t.pl)),
    t.pw.length ? num(median(t.pw)) : '–', t.pw.length ? num(Math.max(...t.pw)) : '–', String(t.pl.length)]);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((x, c) => x.padEnd(widths[c])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

/** The first action answer, printed after the table so a reader sees what the tokens are. */
let sample: string | undefined;

async function measure(lens: Lens, page: Page, name: string): Promise<Row> {
  const snap = await runTool(lens, 'page_snapshot', {});
  const plSnapshot = await countTokens(snap.text);
  const plFull = await countTokens((await runTool(lens, 'page_snapshot', { fullPage: true })).text);
  const pwSnapshot = await playwrightSnapshot(page);
  const tree = (snap.data as SemanticV3Result).interactive_tree;
  const target = tree.find((n) => n.r === 'btn' && !n.occ) ?? tree.find((n) => n.r === 'link' && !n.occ) ?? tree[0];
  if (!target) return { page: name, plSnapshot, plFull, pwSnapshot, plAction: NaN, pwAction: NaN, target: '(nothing to act on)', actionOk: false };
  const hovered = await runTool(lens, 'browser_hover', { id: target.i });
  const plAction = await countTokens(hovered.text);
  // The same hover has happened on the page: Playwright MCP would now send the snapshot again.
  const pwAction = await playwrightSnapshot(page);
  note('browser_hover', plAction, pwAction);
  const ok = (hovered.data as { action?: { ok?: boolean } }).action?.ok === true;
  sample ??= `${name}: ${hovered.text}`;
  return { page: name, plSnapshot, plFull, pwSnapshot, plAction, pwAction, target: `${target.r} "${target.n.slice(0, 24)}"`, actionOk: ok };
}

const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${round(a / b, 3)}` : '–');
const num = (x: number) => (Number.isFinite(x) ? String(Math.round(x)) : '–');

export function renderTable(rows: Row[]): string {
  const head = ['page', 'pagelens snapshot', 'full page', 'Playwright snapshot', 'ratio', 'full ratio', 'pagelens action', 'Playwright action', 'ratio', 'hovered'];
  const body = rows.map((r) => [r.page, num(r.plSnapshot), num(r.plFull), num(r.pwSnapshot), ratio(r.plSnapshot, r.pwSnapshot), ratio(r.plFull, r.pwSnapshot), num(r.plAction), num(r.pwAction), ratio(r.plAction, r.pwAction), `${r.target}${r.actionOk ? '' : ' (not done)'}`]);
  const med = (k: keyof Row) => median(rows.map((r) => r[k] as number));
  const ratios = (a: keyof Row, b: keyof Row) => median(rows.map((r) => (r[a] as number) / (r[b] as number)));
  body.push([`median of ${rows.length}`, num(med('plSnapshot')), num(med('plFull')), num(med('pwSnapshot')), `${round(ratios('plSnapshot', 'pwSnapshot'), 3)}`, `${round(ratios('plFull', 'pwSnapshot'), 3)}`, num(med('plAction')), num(med('pwAction')), `${round(ratios('plAction', 'pwAction'), 3)}`, '']);
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((r) => r[c].length)));
  const line = (cells: string[]) => `| ${cells.map((x, c) => x.padEnd(widths[c])).join(' | ')} |`;
  return [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...body.map(line)].join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const limit = args.includes('--limit') ? Number(args[args.indexOf('--limit') + 1]) || 5 : 5;
  const sets = args.includes('--sets') ? args[args.indexOf('--sets') + 1].split(',') : DEFAULT_SETS;
  if (!existsSync(CORPUS)) {
    console.log(`bench mcp: skipped — the shared corpus is not at ${CORPUS}`);
    return;
  }
  await loadTokenizer();
  const browser = await launchChromium();
  const rows: Row[] = [];
  try {
    for (const set of sets) {
      const folder = join(CORPUS, set);
      if (!existsSync(folder)) { console.log(`bench mcp: set ${set} skipped — not in ${CORPUS}`); continue; }
      await visitPages(browser, folder, htmlPagesIn(folder), limit, set, async (opened, file) => {
        await measureTools(opened.lens, opened.page);
        rows.push(await measure(opened.lens, opened.page, `${set}/${file}`));
        return true;
      });
    }
  } finally {
    await browser.close();
  }
  console.log(renderTable(rows));
  if (sample) console.log(`a pagelens action answer: ${sample}`);
  console.log(`\nper tool, answer tokens over ${rows.length} pages (– : Playwright MCP has no such tool):`);
  console.log(renderToolTable());
  console.log('tokens: o200k. snapshot: page_snapshot (semantic_v3, viewport; full page: fullPage true) vs Playwright MCP browser_snapshot (AI snapshot with its URL/title header); action: browser_hover\'s answer (result + delta) vs the AI snapshot Playwright MCP sends after the same hover.');
}

if (process.argv[1] && /bench[\\/]mcp\.js$/.test(process.argv[1])) await main();
