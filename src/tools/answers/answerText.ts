// The text form of an action's answer: what a model reads after each step, and what it pays for
// on every later turn. One verdict line, then only what the model can use: warnings, what the
// action caused (a dialog, a popup, a download, console errors, failed requests), and the page
// state as element lines with their IDs — the new document whole, or what changed since the tree
// the client last saw (`+` added, `-` gone, `~` changed, each with its current line). No
// coordinates (the model acts by ID), no unchanged counts, the URL once. The JSON form keeps
// every field (the tool result's data, and `--answers json`).
import { quotedPageText } from '../../model/renderers/pageText.js';
import { v3Line, v3Text } from '../../model/renderers/render.js';
import type { SemanticNodeV3 } from '../../model/contracts/schema.js';
import type { ActionResult } from '../../model/contracts/outcome.js';
import type { TreeDelta } from './delta.js';
import type { ModalState } from '../input/modal.js';

/** What an answer knows of its page state: the observation's id and what it builds on. */
export interface Observation {
  /** This answer's page state ("s4"), for dom_diff and for a client that trims its history. */
  id: string;
  /** A whole page: every earlier observation of the tab can be dropped (their first and last id). */
  supersedes?: [string, string];
  /** A delta: the observation it is read against. */
  since?: string;
}

/** The fields of an action answer the text form reads (acting.ts ActionAnswer). */
export interface AnswerParts {
  action?: ActionResult;
  navigated?: { url: string; status?: number };
  modal?: ModalState[];
  console?: string[];
  failedRequests?: string[];
  popup?: { url: string; note: string };
  downloads?: object[];
  delta?: TreeDelta | 'no changes';
  snapshot?: { title: string; url: string; scroll_position: string; interactive_tree: SemanticNodeV3[]; warnings?: string[] };
  webmcp?: string;
  text?: string[];
  note?: string;
}

/** Names of containers that changed are their text: the start is enough to tell what changed. */
const CONTAINER_NAME_MAX = 40;
/** Roles an agent acts on; other roles are containers whose names are derived from their content. */
const CONTROLS = new Set(['btn', 'inp', 'link', 'chk', 'radio', 'sel', 'menu', 'opt', 'tab', 'switch', 'slider', 'clickable', 'textbox', 'searchbox', 'spinbutton', 'menuitemcheckbox', 'menuitemradio', 'treeitem']);

/** `[s4: whole page; supersedes s1–s3]` or `[s5: changes since s4]`: what a client may drop, and what a delta builds on. */
export function observationLine(o: Observation): string {
  if (o.supersedes) return `[${o.id}: whole page; supersedes ${o.supersedes[0] === o.supersedes[1] ? o.supersedes[0] : `${o.supersedes[0]}–${o.supersedes[1]}`}]`;
  if (o.since) return `[${o.id}: changes since ${o.since}]`;
  return `[${o.id}: whole page]`;
}

const POINT = / at \(-?\d+, -?\d+\)/g;

export function verdictLine(a: ActionResult): string {
  if (!a.ok) return `FAILED ${a.error ? `${a.error.code}: ${a.error.message}` : a.detail ?? a.action}`;
  // Where a click landed is the JSON form's: a model acts by ID, never by those coordinates.
  return `ok: ${(a.detail ?? a.action).replace(POINT, '')}`;
}

function verificationLines(a: ActionResult): string[] {
  const v = a.verification;
  if (!v) return [];
  const head = v.success ? `verified: ${v.verifiedOutcome ?? v.actualOutcome}` : `not verified: ${v.feedback}`;
  return [head, ...v.errorsDetected.map((e) => `page error: ${quotedPageText(e)}`), ...(v.uncertain ?? []).map((u) => `uncertain: ${u}`)];
}

function modalLine(m: ModalState): string {
  if (m.kind === 'fileChooser') return `file chooser open (${m.multiple ? 'several files' : 'one file'}): browser_file_upload`;
  return `${m.type} dialog open: ${quotedPageText(m.message)}${m.defaultValue !== undefined ? ` (default ${quotedPageText(m.defaultValue)})` : ''}: browser_handle_dialog`;
}

/** Containers whose changes a page makes to tell something (a status line, an alert) are always said. */
const TELLING = new Set(['status', 'alert', 'log', 'dialog', 'alertdialog', 'heading', 'progressbar', 'timer', 'marquee']);

function echoesContent(node: SemanticNodeV3): boolean {
  return !CONTROLS.has(node.r) && !TELLING.has(node.r);
}

/** A changed element: its line now; a container whose name is all that changed, cut short. */
function changedLine(node: SemanticNodeV3, onlyName: boolean): string {
  if (onlyName && !CONTROLS.has(node.r) && node.n.length > CONTAINER_NAME_MAX) return `~ ${v3Line({ ...node, n: `${node.n.slice(0, CONTAINER_NAME_MAX - 1)}…` })}`;
  return `~ ${v3Line(node)}`;
}

function deltaLines(d: TreeDelta | 'no changes', tree: readonly SemanticNodeV3[]): string[] {
  if (d === 'no changes') return ['no changes on the page'];
  const byId = new Map(tree.map((n) => [n.i, n]));
  const lines = d.added.map((n) => `+ ${v3Line(n)}`);
  for (const c of d.changed) {
    const node = byId.get(c.i);
    const onlyName = Object.keys(c).every((k) => k === 'i' || k === 'n');
    // A container's name is its content: when elements came or went, its new name only echoes them.
    if (!node || (onlyName && echoesContent(node) && (d.added.length || d.removed.length))) continue;
    lines.push(changedLine(node, onlyName));
  }
  if (d.removed.length) lines.push(`- ${d.removed.join(' ')}`);
  return lines;
}

/** Requests an action makes (a document, a fetch, a socket) are listed; what a page loads for its look and code is counted. */
const ASKED = / \((document|xhr|fetch|websocket|eventsource)\)$/;
/** Characters of one console line in a text answer (the log tool has them whole). */
const CONSOLE_LINE_MAX = 160;
/** Lines of each kind an answer shows; the rest is counted. */
const EFFECT_LINES = 3;
const COUNT_LINE = /^(\d+) (more|earlier): /;
const FAILED_LOAD = /^\[error\] Failed to load resource: /;

/**
 * What the console and the network said during the action, as a model can use it: errors and
 * warnings (the first line of each), the failed requests the action made, and counts for the rest.
 * A failed load of the page's own stylesheets, scripts and images is counted, and Chrome's console
 * line for it is left out when the requests are reported (it says the same). The JSON form keeps all.
 */
function cut(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The page's origin, when it has one: its own requests are named by their path. */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

function effectLines(consoleLines: readonly string[], failedRequests: readonly string[] | undefined, pageUrl?: string): string[] {
  const origin = originOf(pageUrl);
  const local = (f: string) => (origin ? f.split(`${origin}/`).join('/') : f);
  const lines: string[] = [];
  let unlisted = 0;
  let resources = 0;
  const asked: string[] = [];
  for (const f of failedRequests ?? []) {
    const m = COUNT_LINE.exec(f);
    if (m) unlisted += Number(m[1]);
    else if (ASKED.test(f)) asked.push(f);
    else resources++;
  }
  let consoleMore = 0;
  const serious: string[] = [];
  for (const c of consoleLines) {
    const m = COUNT_LINE.exec(c);
    if (m) consoleMore += Number(m[1]);
    else if (failedRequests && FAILED_LOAD.test(c)) continue;
    else if (/^\[(error|warning)\]/.test(c)) serious.push(cut(c.split('\\n')[0], CONSOLE_LINE_MAX));
    else consoleMore++;
  }
  // The same message said again is counted, not repeated.
  const distinct = [...new Set(serious)];
  const repeats = serious.length - distinct.length;
  lines.push(...distinct.slice(0, EFFECT_LINES).map((c) => `console ${c}`));
  consoleMore += repeats + Math.max(0, distinct.length - EFFECT_LINES);
  if (consoleMore) lines.push(`console: ${consoleMore} more message${consoleMore === 1 ? '' : 's'}`);
  lines.push(...asked.slice(0, EFFECT_LINES).map((f) => `failed request: ${local(f)}`));
  unlisted += Math.max(0, asked.length - EFFECT_LINES);
  const counted = [resources && `${resources} of the page's own resources`, unlisted && `${unlisted} more`].filter(Boolean);
  if (counted.length) lines.push(`failed requests: ${counted.join(', ')}`);
  return lines;
}

/** The page's text lines, without those that only say again an element's name listed above them. */
function pageTextBeside(page: readonly string[], tree: readonly SemanticNodeV3[]): string[] {
  const names = new Set(tree.map((n) => n.n.trim()).filter(Boolean));
  return page.filter((t) => !names.has(t.replace(/^#+ /, '').trim()));
}

/**
 * The answer as text. `tree` is the page's tree now (a delta's changed lines are read from it);
 * `observation` is absent when the answer carries no page state (a dialog blocks the page); `text`
 * is the page's text section split into the page's lines and ours (without it, a.text as it is).
 */
export function answerText(a: AnswerParts, tree: readonly SemanticNodeV3[] = [], observation?: Observation, text?: { page: string[]; notes: string[] }): string {
  const lines: string[] = [];
  if (a.action) {
    lines.push(verdictLine(a.action));
    if (a.action.recovered) lines.push(`recovered: ${a.action.recovered.message}`);
    lines.push(...verificationLines(a.action));
    for (const w of a.action.warnings ?? []) lines.push(`warning: ${w}`);
  }
  if (a.note) lines.push(a.note);
  for (const m of a.modal ?? []) lines.push(modalLine(m));
  if (a.popup) lines.push(`popup: <${a.popup.url}> ${a.popup.note}`);
  if (a.downloads?.length) lines.push(`downloads: ${JSON.stringify(a.downloads)}`);
  lines.push(...effectLines(a.console ?? [], a.failedRequests, a.snapshot?.url ?? a.navigated?.url));
  const status = a.navigated?.status !== undefined && a.navigated.status !== 200 ? ` (HTTP ${a.navigated.status})` : '';
  if (a.navigated && !a.snapshot) lines.push(`now at <${a.navigated.url}>${status}`);
  if (observation) lines.push(observationLine(observation));
  if (a.snapshot) {
    const page = v3Text({ ...a.snapshot, warnings: a.snapshot.warnings ?? [] }).replace(/^page: /, status ? `page${status}: ` : 'page: ');
    // The URL once: the verdict of a navigation names it already.
    const said = a.action?.detail?.includes(a.snapshot.url) ?? false;
    lines.push(said ? page.replace(` <${a.snapshot.url}>`, '') : page);
    if (a.webmcp) lines.push(`page tools (WebMCP): ${a.webmcp}`);
    // The page's own words, each line marked as such: a line of page text can never pass for an element line or ours.
    if (text) lines.push(...pageTextBeside(text.page, a.snapshot.interactive_tree).map((t) => `> ${t}`), ...text.notes);
    else lines.push(...(a.text ?? []));
  } else if (a.delta) {
    lines.push(...deltaLines(a.delta, tree));
  }
  return lines.join('\n');
}
