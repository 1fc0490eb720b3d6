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

export function verdictLine(a: ActionResult): string {
  if (!a.ok) return `FAILED ${a.error ? `${a.error.code}: ${a.error.message}` : a.detail ?? a.action}`;
  return `ok: ${a.detail ?? a.action}`;
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
    if (node) lines.push(changedLine(node, Object.keys(c).every((k) => k === 'i' || k === 'n')));
  }
  if (d.removed.length) lines.push(`- ${d.removed.join(' ')}`);
  return lines;
}

/** `[error] Failed to load resource: … @ URL:1` for a URL whose failed request the answer lists. */
function restatesFailedLoad(line: string, failed: ReadonlySet<string>): boolean {
  const m = /^\[error\] Failed to load resource: .* @ (\S+?)(?::\d+)*$/.exec(line);
  return !!m && failed.has(m[1]);
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
  // Chrome's console line for a failed load says again what the failed-request line says.
  const failed = new Set((a.failedRequests ?? []).map((f) => f.split(' ')[1]));
  for (const c of a.console ?? []) if (!restatesFailedLoad(c, failed)) lines.push(`console ${c}`);
  for (const f of a.failedRequests ?? []) lines.push(`failed request: ${f}`);
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
    if (text) lines.push(...text.page.map((t) => `> ${t}`), ...text.notes);
    else lines.push(...(a.text ?? []));
  } else if (a.delta) {
    lines.push(...deltaLines(a.delta, tree));
  }
  return lines.join('\n');
}
