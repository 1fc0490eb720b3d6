// The real TodoMVC 2.0 apps (tastejs/todomvc, MIT; not part of this repository: give the folder
// that holds its `examples/`), operated the way an agent reads a page through the MCP tools: from
// the semantic_v3 listing alone, through `lens.act`, with one reading rule for every app (the row's text by its
// name, its toggle named for it or the first one after it, the delete button revealed by a hover).
// Each flow starts from a fresh context; the app's own DOM is read afterwards to say whether it
// did what was asked.
//   Run alone: node dist/bench/todomvc.js --dir /path/to/todomvc [--apps react,vue] [--json out.json]
//   Or: node dist/bench/run.js --only todomvc --todomvc-dir /path/to/todomvc
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { blockExternalRequests, launchChromium } from '../src/browser/chromium.js';
import { attach, type Lens } from '../src/browser/lens.js';
import { gotoSettled } from '../src/browser/goto.js';
import { serveFolder } from '../src/browser/static.js';
import type { SemanticV3Result } from '../src/model/contracts/schema.js';
import { flag, runWhenScript } from './optionalPart.js';

/** The TodoMVC 2.0 apps that ship a built `dist`, by the path of their page under the folder. */
export const APPS: Record<string, string> = {
  angular: 'examples/angular/dist/browser/index.html',
  backbone: 'examples/backbone/dist/index.html',
  // Ember's router reads the path (rootURL …/dist/): its page is the folder, not index.html.
  emberjs: 'examples/emberjs/todomvc/dist/',
  'javascript-es5': 'examples/javascript-es5/dist/index.html',
  'javascript-es6': 'examples/javascript-es6/dist/index.html',
  jquery: 'examples/jquery/dist/index.html',
  lit: 'examples/lit/dist/index.html',
  preact: 'examples/preact/dist/index.html',
  react: 'examples/react/dist/index.html',
  'react-redux': 'examples/react-redux/dist/index.html',
  svelte: 'examples/svelte/dist/index.html',
  vue: 'examples/vue/dist/index.html',
  'web-components': 'examples/web-components/dist/index.html',
};

const SEED = ['feed the cat', 'water the plants', 'call mum'];

/** A to-do as the app shows it: its text, whether its checkbox is ticked, whether it is visible. */
interface Row { title: string; done: boolean; visible: boolean }

/**
 * One walker through open shadow roots, installed in every page of a flow's context so that the
 * harness's page functions share it: `__deep(root)` is every element under `root` (a document or
 * an element, the element's own shadow root last), each shadow root's elements right after its host.
 */
const DEEP_WALKER = `Object.defineProperty(globalThis, '__deep', { value: (root) => {
  const out = [];
  const walk = (r) => { for (const el of r.querySelectorAll('*')) { out.push(el); if (el.shadowRoot) walk(el.shadowRoot); } };
  walk(root);
  if (root.shadowRoot) walk(root.shadowRoot);
  return out;
} })`;

/** The walker in a page function (it runs in the page, where the init script put it). */
type Deep = (root: Document | Element) => Element[];
declare const __deep: Deep;

/** The app's rows, read through open shadow roots: an `li` holding a checkbox, and its label's text. */
async function rowsOf(page: Page): Promise<Row[]> {
  return page.evaluate(() => {
    const checkbox = (li: Element) => __deep(li).find((e) => e.matches('input[type=checkbox]')) as HTMLInputElement | undefined;
    // The row's text: the first label or span with words that a person sees (a "visually hidden"
    // label for screen readers, a 1px clipped box, is not it).
    const titleOf = (li: Element) => __deep(li).find((e) => /^(LABEL|SPAN)$/.test(e.tagName) && (e.textContent ?? '').trim() && e.getBoundingClientRect().width > 2 && e.getBoundingClientRect().height > 2);
    return __deep(document).filter((el) => el.tagName === 'LI' && checkbox(el) && titleOf(el)).map((li) => ({
      title: (titleOf(li)!.textContent ?? '').trim(),
      done: checkbox(li)!.checked,
      visible: li.checkVisibility(),
    }));
  });
}

/** Adds to-dos through the app itself (keyboard into its new-todo field), each once the last is in. */
async function seed(page: Page, titles: string[]): Promise<void> {
  for (const [i, t] of titles.entries()) {
    await page.evaluate(() => (__deep(document).find((e) => e.matches('input.new-todo, input[placeholder*="needs to be done"]')) as HTMLInputElement).focus());
    await page.keyboard.type(t);
    await page.keyboard.press('Enter');
    // The app clears its field when it has taken the to-do: typing on before that joins two titles.
    await page.waitForFunction((n) => __deep(document).filter((el) => el.tagName === 'LI' && el.querySelector('label, input')).length >= n, i + 1, { timeout: 30_000 });
  }
}

type Node = SemanticV3Result['interactive_tree'][number];

/** The reading rules: what an agent reading the listing would pick. */
const reader = {
  // As the MCP face reads (page_snapshot): elements that listen for a double click or a hover
  // through addEventListener (an Angular label) are found first, then listed.
  tree: async (lens: Lens) => { await lens.markGestureTargets(); return (await lens.snapshot()).interactive_tree; },
  named(tree: Node[], name: string): Node {
    // The row's text (an item, or text that listens for clicks of its own) before a control it names.
    const n = tree.find((x) => x.r === 'item' && x.n === name) ?? tree.find((x) => x.r === 'clickable' && x.n === name) ?? tree.find((x) => x.n === name);
    if (!n) throw new Error(`no element named "${name}" is listed`);
    return n;
  },
  /** A row's toggle: a checkbox named for the row, else the first checkbox listed after its text. */
  toggle(tree: Node[], title: string): Node {
    const named = tree.find((x) => x.r === 'chk' && (x.n === title || x.n?.endsWith(`· ${title}`)));
    if (named) return named;
    const at = tree.indexOf(reader.named(tree, title));
    const next = tree.slice(at + 1).find((x) => x.r === 'chk');
    if (!next) throw new Error(`no checkbox after "${title}"`);
    return next;
  },
  /** The first control of `role` listed after `id`, before the next row's text. */
  after(tree: Node[], id: string, role: string): Node | undefined {
    const at = tree.findIndex((x) => x.i === id);
    for (const x of tree.slice(at + 1)) {
      if (x.r === 'item') return undefined;
      if (x.r === role) return x;
    }
    return undefined;
  },
};

async function act(lens: Lens, action: string): Promise<void> {
  const r = await lens.act(action);
  if (!r.ok) throw new Error(`${action}: ${r.error?.code ?? ''} ${r.error?.message ?? r.detail ?? ''}`.trim());
}

interface Flow { name: string; seeded: boolean; completeFirst?: boolean; run(lens: Lens): Promise<void>; check(rows: Row[]): string | undefined }

const titles = (rows: Row[]) => rows.map((r) => r.title).join(', ');
/** The same to-dos, in any order (some apps list the newest first). */
const same = (a: string[], b: string[]) => a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);
const doneOf = (rows: Row[]) => rows.filter((r) => r.done).map((r) => r.title);

/** The seven flows: add, complete, filter, edit by double-click, delete after hover, toggle all, clear completed. */
export const FLOWS: Flow[] = [
  {
    name: 'add', seeded: false,
    async run(lens) {
      const field = (await reader.tree(lens)).find((x) => x.r === 'inp');
      if (!field) throw new Error('no text field is listed');
      await act(lens, `setValue(${field.i}, "buy milk")`);
      await act(lens, `press(${field.i}, "Enter")`);
    },
    check: (rows) => same(rows.map((r) => r.title), ['buy milk']) ? undefined : `rows: ${titles(rows)}`,
  },
  {
    name: 'complete', seeded: true,
    async run(lens) { await act(lens, `check(${reader.toggle(await reader.tree(lens), 'water the plants').i})`); },
    check: (rows) => rows.length === 3 && same(doneOf(rows), ['water the plants']) ? undefined : `done: ${rows.map((r) => `${r.title}=${r.done}`).join(', ')}`,
  },
  {
    name: 'filter', seeded: true, completeFirst: true,
    async run(lens) { await act(lens, `click(${reader.named(await reader.tree(lens), 'Active').i})`); },
    check: (rows) => same(rows.filter((r) => r.visible).map((r) => r.title), ['feed the cat', 'call mum']) ? undefined : `visible: ${titles(rows.filter((r) => r.visible))}`,
  },
  {
    name: 'edit', seeded: true,
    async run(lens) {
      await act(lens, `dblclick(${reader.named(await reader.tree(lens), 'water the plants').i})`);
      const tree = await reader.tree(lens);
      const editor = tree.find((x) => x.r === 'inp' && x.s?.includes('focused')) ?? tree.find((x) => x.r === 'inp' && x.v === 'water the plants');
      if (!editor) throw new Error('no edit field is listed after the double-click');
      await act(lens, `setValue(${editor.i}, "water the roses")`);
      await act(lens, `press(${editor.i}, "Enter")`);
    },
    check: (rows) => same(rows.map((r) => r.title), ['feed the cat', 'water the roses', 'call mum']) ? undefined : `rows: ${titles(rows)}`,
  },
  {
    name: 'delete', seeded: true,
    async run(lens) {
      const item = reader.named(await reader.tree(lens), 'water the plants');
      await act(lens, `hover(${item.i})`);
      const destroy = reader.after(await reader.tree(lens), item.i, 'btn');
      if (!destroy) throw new Error('no button in the row after hovering it');
      await act(lens, `click(${destroy.i})`);
    },
    check: (rows) => same(rows.map((r) => r.title), ['feed the cat', 'call mum']) ? undefined : `rows: ${titles(rows)}`,
  },
  {
    name: 'toggle all', seeded: true,
    async run(lens) {
      const all = (await reader.tree(lens)).find((x) => x.r === 'chk' && /\ball\b/i.test(x.n ?? ''));
      if (!all) throw new Error('no "all" checkbox is listed');
      await act(lens, `check(${all.i})`);
    },
    check: (rows) => rows.length === 3 && rows.every((r) => r.done) ? undefined : `done: ${rows.map((r) => `${r.title}=${r.done}`).join(', ')}`,
  },
  {
    name: 'clear completed', seeded: true, completeFirst: true,
    async run(lens) {
      const clear = (await reader.tree(lens)).find((x) => x.r === 'btn' && /clear completed/i.test(x.n ?? ''));
      if (!clear) throw new Error('no "Clear completed" button is listed');
      await act(lens, `click(${clear.i})`);
    },
    check: (rows) => same(rows.map((r) => r.title), ['feed the cat', 'call mum']) ? undefined : `rows: ${titles(rows)}`,
  },
];

export interface FlowResult { app: string; flow: string; ok: boolean; why?: string; ms: number }

async function runFlow(browser: Browser, url: string, app: string, flow: Flow): Promise<FlowResult> {
  const t0 = performance.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await blockExternalRequests(context);
  await context.addInitScript(DEEP_WALKER);
  try {
    const page = await context.newPage();
    await gotoSettled(page, url);
    if (flow.seeded) await seed(page, SEED);
    if (flow.completeFirst) {
      // The one completed to-do the flow needs, ticked by a user's click on its checkbox.
      await page.evaluate(() => {
        const li = __deep(document).find((e) => e.tagName === 'LI' && `${e.textContent}${e.shadowRoot?.textContent ?? ''}`.includes('water the plants'));
        (li && __deep(li).find((e) => e.matches('input[type=checkbox]')) as HTMLInputElement | undefined)?.click();
      });
    }
    const lens = await attach(page);
    await flow.run(lens);
    // Frameworks render on the next frame or microtask: give the app a moment to settle what it shows.
    await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => r(true))));
    const why = flow.check(await rowsOf(page));
    return { app, flow: flow.name, ok: why === undefined, ...(why && { why }), ms: Math.round(performance.now() - t0) };
  } catch (e) {
    return { app, flow: flow.name, ok: false, why: (e as Error).message.split('\n')[0], ms: Math.round(performance.now() - t0) };
  } finally {
    await context.close();
  }
}

export interface TodomvcOptions { dir: string; apps?: string[]; quiet?: boolean }

export async function runTodomvc(opts: TodomvcOptions): Promise<{ skipped: string } | { results: FlowResult[] }> {
  const dir = resolve(opts.dir);
  const apps = opts.apps ?? Object.keys(APPS);
  const unknown = apps.filter((a) => !APPS[a]);
  if (unknown.length) throw new Error(`BAD_INPUT: unknown app ${unknown.join(', ')} (known: ${Object.keys(APPS).join(', ')})`);
  const present = apps.filter((a) => existsSync(join(dir, APPS[a].endsWith('/') ? `${APPS[a]}index.html` : APPS[a])));
  if (!present.length) return { skipped: `no TodoMVC app at ${dir} (expected e.g. ${APPS.react}: the tastejs/todomvc repository)` };
  const server = await serveFolder(dir);
  const browser = await launchChromium();
  const results: FlowResult[] = [];
  try {
    for (const app of present) {
      for (const flow of FLOWS) {
        const r = await runFlow(browser, server.url + APPS[app], app, flow);
        results.push(r);
        if (!opts.quiet) process.stderr.write(`${r.ok ? '✓' : '✗'} ${app} ${flow.name} ${r.ms} ms${r.why ? ` (${r.why.slice(0, 120)})` : ''}\n`);
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { results };
}

export function renderTodomvc(results: FlowResult[]): string {
  const apps = [...new Set(results.map((r) => r.app))];
  const w = Math.max(3, ...apps.map((a) => a.length));
  const lines = [`TODOMVC (${apps.length} apps × ${FLOWS.length} flows through semantic_v3 and lens.act: ${FLOWS.map((f) => f.name).join(', ')})`,
    `${'app'.padEnd(w)}  passed  failed`];
  for (const a of apps) {
    const mine = results.filter((r) => r.app === a);
    lines.push(`${a.padEnd(w)}  ${String(mine.filter((r) => r.ok).length).padStart(6)}  ${mine.filter((r) => !r.ok).map((r) => r.flow).join(', ') || '-'}`);
  }
  lines.push(`${'total'.padEnd(w)}  ${results.filter((r) => r.ok).length}/${results.length}`);
  const failed = results.filter((r) => !r.ok);
  if (failed.length) lines.push('', 'FAILURES', ...failed.map((r) => `- ${r.app} ${r.flow}: ${r.why}`));
  return lines.join('\n');
}

runWhenScript(import.meta.url, {
  label: 'TODOMVC', dirHint: 'path/to/todomvc',
  run: (dir, argv) => runTodomvc({ dir, ...(flag(argv, '--apps') && { apps: flag(argv, '--apps')!.split(',').map((a) => a.trim()).filter(Boolean) }), quiet: argv.includes('--quiet') })
    .then((r) => ('skipped' in r ? r : r.results)),
  render: renderTodomvc,
  json: (results) => results,
});
