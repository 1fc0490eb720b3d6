// How every acting tool answers: what happened (the ActionResult), the modal states the page is
// in, and a delta against the tree the client last saw. The full snapshot is sent only when the
// page navigated (the old IDs mean nothing there) or the client has not seen one yet.
import { PagelensError } from '../../model/contracts/errors.js';
import type { ActionResult } from '../../model/contracts/outcome.js';
import type { SemanticNodeV3, SemanticV3Result } from '../../model/contracts/schema.js';
import { quotedPageText } from '../../model/renderers/pageText.js';
import { isEmptyDelta, treeDelta, type TreeDelta } from './delta.js';
import type { ModalState } from '../input/modal.js';
import { textBlocks } from '../reading/pageTextTool.js';
import { answerText, type AnswerParts, type Observation } from './answerText.js';
import { webMcpLine } from '../browser/webmcp.js';
import { markPage, observe, type PageMark } from '../registry/state.js';
import type { ToolContext, ToolResult } from '../registry/types.js';
import { jsonResult } from '../registry/types.js';
import { ActionWatch, type Happened } from './watch.js';

/** How long browser_handle_dialog waits for the action the dialog interrupted to finish. */
const PENDING_WAIT_MS = 15_000;

export interface ActionAnswer extends Happened {
  action: ActionResult;
  navigated?: { url: string; status?: number };
  modal?: ModalState[];
  /** Changes since the last tree the client saw (absent when a snapshot is sent instead). */
  delta?: TreeDelta | 'no changes';
  snapshot?: SemanticV3Result;
  /** With a snapshot: the tools the page declares through WebMCP, by name. */
  webmcp?: string;
  /** With a snapshot: the first of the page's headings and text blocks (see src/core/pageText.ts). */
  text?: string[];
  note?: string;
  /** The page state this answer carries, by id, and what it replaces or builds on (state.ts observe). */
  observation?: Observation;
}

export interface AnswerOptions {
  /** Send the whole snapshot even when the URL stayed (browser_navigate to the same URL loads a new document). */
  snapshot?: boolean;
}

/** Refuses to act while a dialog blocks the page: any input would hang behind it. */
export function refuseWhileDialog(ctx: ToolContext): void {
  const d = ctx.state.modal.dialog;
  // The message is page text: quoted as a JSON string, so its line breaks cannot start a line of their own.
  if (d) throw new PagelensError('NOT_ACTIONABLE', `A ${d.type} dialog is open (${quotedPageText(d.message)}): answer it with browser_handle_dialog first.`);
}

/**
 * Runs an action and answers with its outcome. A dialog opened by the action blocks it until
 * answered, so the action is raced against the dialog: the response then reports the dialog and
 * browser_handle_dialog finishes the story.
 */
export async function runAction(ctx: ToolContext, perform: () => Promise<ActionResult>, opts: AnswerOptions = {}): Promise<ToolResult> {
  refuseWhileDialog(ctx);
  const { state, page } = ctx;
  const before = await markPage(page, state);
  const watch = new ActionWatch(page, ctx.extras);
  const promise = perform();
  const opened = state.modal.next().then((m) => ({ modal: m }) as const);
  const raced = await Promise.race([promise.then((r) => ({ done: r }) as const), opened]);
  state.modal.cancelWaits();
  if ('modal' in raced && state.modal.dialog) {
    // Keep a rejection from going unhandled; browser_handle_dialog awaits the promise itself.
    promise.catch(() => {});
    state.pending = { promise, before, watch };
    return written(ctx, {
      modal: state.modal.states(),
      note: 'The action opened a dialog and waits on it: answer with browser_handle_dialog (accept, promptText).',
    }, false);
  }
  return answer(ctx, 'done' in raced ? raced.done : await promise, before, opts, watch);
}

/**
 * After browser_handle_dialog: the interrupted action's result, or a plain answer. `nextModal`
 * was asked for before the dialog was answered: the action may open another dialog at once (two
 * alerts in a row), which blocks it again and is reported as the first one was.
 */
export async function finishPending(ctx: ToolContext, handled: ActionResult, nextModal: Promise<ModalState>): Promise<ToolResult> {
  const pending = ctx.state.pending;
  ctx.state.pending = undefined;
  if (!pending) { ctx.state.modal.cancelWaits(); return answer(ctx, handled, await markPage(ctx.page, ctx.state)); }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((r) => { timer = setTimeout(() => r('timeout'), PENDING_WAIT_MS); });
  const another = nextModal.then(() => 'modal' as const);
  const r = await Promise.race([pending.promise, another, timeout]).finally(() => clearTimeout(timer));
  ctx.state.modal.cancelWaits();
  if (r === 'modal' && ctx.state.modal.dialog) {
    ctx.state.pending = pending;
    return written(ctx, {
      action: handled,
      modal: ctx.state.modal.states(),
      note: 'Another dialog opened: answer it with browser_handle_dialog.',
    }, false);
  }
  if (r === 'timeout' || r === 'modal') return answer(ctx, { ...handled, warnings: ['the action behind the dialog had not finished; take a snapshot to see the page'] }, pending.before, {}, pending.watch);
  return answer(ctx, { ...r, detail: [r.detail, handled.detail].filter(Boolean).join('; ') }, pending.before, {}, pending.watch);
}

/** Builds the response of a finished action: result, modal states, and delta or snapshot. */
export async function answer(ctx: ToolContext, action: ActionResult, before: PageMark, opts: AnswerOptions = {}, watch?: ActionWatch): Promise<ToolResult> {
  const { lens, state } = ctx;
  const happened = await watch?.finish({ tabIndexOf: (u) => popupIndex(ctx, u) }) ?? {};
  const { http, ...effects } = happened;
  // The lens may already refuse an error page itself (status and NAVIGATION_FAILED): said once.
  if (http && http.status >= 400 && action.ok) {
    // The page loaded, but it is an error page: the agent must not read it as the page it asked for.
    action = { ...action, warnings: [...action.warnings ?? [], `the page answered HTTP ${http.status}${http.statusText ? ` ${http.statusText}` : ''}`] };
  }
  const out: ActionAnswer = { action, ...effects };
  const modal = state.modal.states();
  if (modal.length) out.modal = modal;
  const url = await ctx.page.url();
  // Another URL, or another document at the same one (a reload, a form posted back to itself),
  // during the action or since the tree the client holds (a navigation that came late). The new
  // document is sent whole, under its own IDs: never as a delta that would map old IDs onto it.
  const left = (mark: PageMark) => stripHash(url) !== stripHash(mark.url) || state.loads > mark.loads;
  const navigated = left(before) || (!!state.baseline && left(state.baseline.mark)) || action.error?.code === 'NAVIGATED';
  if (navigated || http) out.navigated = { url, ...(http && { status: http.status }) };
  // Reading the page while a dialog is open would hang on it.
  if (state.modal.dialog) return written(ctx, out, !action.ok);
  const fullPage = state.baseline?.fullPage ?? false;
  const mark = await markPage(ctx.page, state);
  const baseline = state.baseline;
  const whole = navigated || !baseline || !!opts.snapshot;
  // What listens for hover, double click or drag is found by the lens's read itself (its doubts in the snapshot's warnings).
  const snap = await lens.snapshot({ fullPage });
  let text: { page: string[]; notes: string[] } | undefined;
  if (whole || !baseline) {
    out.snapshot = snap;
    const tools = await webMcpLine(lens);
    if (tools) out.webmcp = tools;
    // A host without the text reader says so rather than leaving the section out unexplained.
    text = lens.pageText
      ? await textBlocks(lens).catch((e: Error) => ({ page: [], notes: [`warning: the page's text could not be read (${e.message.split('\n')[0]})`] }))
      : { page: [], notes: ['warning: this host does not read the page\'s text blocks (browser_page_text is unavailable here)'] };
    out.text = [...text.page, ...text.notes];
  } else {
    const d = treeDelta(baseline.tree, snap.interactive_tree);
    out.delta = isEmptyDelta(d) ? 'no changes' : d;
  }
  out.observation = observe(state, { tree: snap.interactive_tree, fullPage, mark }, whole);
  return written(ctx, out, !action.ok, snap.interactive_tree, text);
}

/** The answer as the client asked for it: compact text (default) or JSON; data is always the whole answer. */
function written(ctx: ToolContext, out: AnswerParts & { observation?: Observation }, isError: boolean, tree: SemanticNodeV3[] = [], text?: { page: string[]; notes: string[] }): ToolResult {
  if (ctx.answers === 'json') return jsonResult(out, isError);
  return { text: answerText(out, tree, out.observation, text), data: out, ...(isError && { isError }) };
}

/** The tab a popup opened in: the last one at its URL that is not the current tab. */
async function popupIndex(ctx: ToolContext, url: string): Promise<number | undefined> {
  const tabs = await ctx.host?.listTabs().catch(() => undefined);
  return tabs?.filter((t) => t.url === url && !t.current).pop()?.index;
}

function stripHash(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}
