// The acting tools, by pagelens ID. Parameter names follow Playwright MCP (text, submit, slowly,
// values, key, paths, accept, promptText) with `id` in place of its `ref`. Each answers through
// runAction: the ActionResult, modal states, and a delta (a snapshot after a navigation).
import { z } from 'zod';
import { ElementId, formatAction, type Action } from '../../model/contracts/actions.js';
import { PagelensError, asPagelensError } from '../../model/contracts/errors.js';
import type { ActionResult } from '../../model/contracts/outcome.js';
import { quotedPageText } from '../../model/renderers/pageText.js';
import { withLinearPatterns } from '../../model/safety/linearPattern.js';
import { unsafeSchemaReason } from '../../model/safety/schemaSafety.js';
import { finishPending, refuseWhileDialog, runAction } from '../answers/acting.js';
import type { ActHost } from '../../core/port.js';
import { findOnFrames } from '../../core/verify.js';
import { pressedDetail, UNCOMMITTED } from '../../core/perform.js';
import { noteTypedSecret } from '../registry/state.js';
import { defineTool, type ToolContext, type ToolDef } from '../registry/types.js';

// The instructions say what an ID is; the name says the rest.
const id = ElementId;
// What `expect` takes is said once, in the server's instructions (EXPECT_HELP), not in every tool.
const expect = z.string().min(1).optional();

/** What `expect` accepts: in the MCP server's instructions, and in page_snapshot's OpenAI description. */
export const EXPECT_HELP = 'expect, the outcome an action verifies: navigation[:URL-PART], element_appears:TEXT, element_disappears:TEXT, value_changes, state_changes, any_change, no_change; | = or.';

async function act(ctx: ToolContext, action: Action, expected?: string): Promise<ActionResult> {
  const r = await ctx.lens.act(action, expected ? { expect: expected } : {});
  // Masked by the act pipeline: the field is secret (or not known to be plain), and the value may
  // come back in a URL the page builds from it (state.ts noteTypedSecret).
  if ('value' in action && r.action !== formatAction(action)) noteTypedSecret(ctx, action.value);
  return r;
}

/** An action done through the host's extras rather than lens.act, reported the same way. */
async function viaExtras(what: string, method: ActionResult['method'], run: () => Promise<string>): Promise<ActionResult> {
  try {
    return { action: what, ok: true, method, detail: await run() };
  } catch (e) {
    const err = e instanceof PagelensError ? e : new PagelensError('NOT_ACTIONABLE', asPagelensError(e).message);
    return { action: what, ok: false, method: 'none', error: { code: err.code, message: err.message } };
  }
}

const FieldType = z.enum(['textbox', 'checkbox', 'radio', 'combobox', 'slider']);

/** One field of browser_fill_form as the action that sets it. */
function fieldAction(f: { id: string; value: string; type?: z.infer<typeof FieldType> }): Action {
  switch (f.type) {
    case 'checkbox': case 'radio': return { type: f.value === 'false' ? 'uncheck' : 'check', id: f.id };
    case 'combobox': return { type: 'select', id: f.id, option: f.value };
    default: return { type: 'setValue', id: f.id, value: f.value };
  }
}

/** Sets the fields one by one and stops at the first that fails: later fields may depend on it. */
async function fillForm(ctx: ToolContext, fields: Array<{ id: string; value: string; type?: z.infer<typeof FieldType> }>, expected?: string): Promise<ActionResult> {
  const done: string[] = [];
  for (let k = 0; k < fields.length; k++) {
    const last = k === fields.length - 1;
    const r = await act(ctx, fieldAction(fields[k]), last ? expected : undefined);
    if (!r.ok || last) {
      return { ...r, action: `fill_form(${fields.map((f) => f.id).join(', ')})`, detail: [...done, r.detail ?? ''].filter(Boolean).join('; ') };
    }
    done.push(r.detail ?? r.action);
  }
  throw new PagelensError('BAD_INPUT', 'fields must not be empty');
}

const TEXT_WAIT_MS = 10_000;

/**
 * Polls every frame's text, read by the engine in its isolated world (the page cannot fake it),
 * until `text` shows (or, with gone, shows nowhere), or the time is up: null when it happened,
 * else why not. Text not found while a frame could not be searched is not gone.
 */
async function waitText(port: ActHost, text: string, gone: boolean): Promise<string | null> {
  const deadline = Date.now() + TEXT_WAIT_MS;
  let last = { found: false, unread: [] as string[] };
  while (Date.now() < deadline) {
    last = await findOnFrames(port, { text }, 'Cannot search for the text');
    if (gone ? !last.found && !last.unread.length : last.found) return null;
    await new Promise((res) => setTimeout(res, 200));
  }
  const unread = last.unread.join('; ');
  if (gone && !last.found) return `"${text}" is not shown where the page could be searched, but it is not known to be gone: ${unread}`;
  return `"${text}" ${gone ? 'still shows' : 'did not appear'} after ${TEXT_WAIT_MS / 1000} s${unread ? ` (${unread})` : ''}`;
}

export const ACT_TOOLS: ToolDef[] = [
  defineTool({
    name: 'browser_navigate',
    description: 'Open a URL. Answers with the new page.',
    input: z.strictObject({ url: z.string().min(1) }),
    run: (ctx, a) => {
      ctx.host?.checkNavigation?.(a.url);
      return runAction(ctx, () => act(ctx, { type: 'navigate', url: a.url }), { snapshot: true });
    },
  }),
  defineTool({
    name: 'browser_navigate_back',
    description: 'Go back.',
    input: z.strictObject({}),
    run: (ctx) => runAction(ctx, () => act(ctx, { type: 'back' }), { snapshot: true }),
  }),
  defineTool({
    name: 'browser_click',
    description: 'Click an element.',
    input: z.strictObject({
      id,
      doubleClick: z.boolean().optional(),
      button: z.enum(['left', 'right', 'middle']).optional(),
      modifiers: z.array(z.enum(['Alt', 'Control', 'ControlOrMeta', 'Meta', 'Shift'])).optional(),
      expect,
    }),
    run: (ctx, a) => runAction(ctx, async () => {
      const button = a.button ?? 'left';
      if (!a.modifiers?.length && button === 'left') return act(ctx, { type: a.doubleClick ? 'dblclick' : 'click', id: a.id }, a.expect);
      // lens.act clicks the left button alone: the host's extras press another or hold modifiers.
      const how = [button !== 'left' && `${button} button`, a.modifiers?.length && `holding ${a.modifiers.join('+')}`].filter(Boolean).join(', ');
      const what = `${a.doubleClick ? 'dblclick' : 'click'}(${a.id}) with ${how}`;
      const clickWith = ctx.extras.clickWith;
      if (!clickWith) throw new PagelensError('BAD_INPUT', `this host clicks with the left button alone, without modifiers: leave out button and modifiers.`);
      return viaExtras(what, 'mouse', async () => {
        await clickWith(a.id, { button, ...(a.modifiers && { modifiers: a.modifiers }), clicks: a.doubleClick ? 2 : 1 });
        return `${a.doubleClick ? 'double-clicked' : 'clicked'} ${a.id} with ${how}`;
      });
    }),
  }),
  defineTool({
    name: 'browser_type',
    description: 'Type into a field, replacing its text.',
    input: z.strictObject({
      id,
      text: z.string(),
      submit: z.boolean().optional().describe('Press Enter after'),
      slowly: z.boolean().optional().describe('Key by key, for widgets that react to each key'),
      expect,
    }),
    run: (ctx, a) => runAction(ctx, async () => {
      const typed = await act(ctx, { type: a.slowly ? 'type' : 'setValue', id: a.id, value: a.text }, a.submit ? undefined : a.expect);
      if (!a.submit || !typed.ok) return typed;
      const pressed = await act(ctx, { type: 'press', id: a.id, keys: 'Enter' }, a.expect);
      // Enter was pressed: the text is committed, so the typing's note that it is not would mislead.
      return { ...pressed, action: `${typed.action}; ${pressed.action}`, detail: [typed.detail?.replace(UNCOMMITTED, ''), pressed.detail === pressedDetail('Enter', a.id) ? 'then Enter' : pressed.detail].filter(Boolean).join(', ') };
    }),
  }),
  defineTool({
    name: 'browser_fill_form',
    description: 'Fill several fields at once; stops at the first that fails. checkbox/radio take "true"/"false", combobox an option label.',
    input: z.strictObject({
      fields: z.array(z.strictObject({
        id,
        value: z.string().describe('Text, option label, or "true"/"false" for a checkbox'),
        type: FieldType.optional().describe('textbox (default), checkbox, radio, combobox, slider'),
      })).min(1),
      expect,
    }),
    run: (ctx, a) => runAction(ctx, () => fillForm(ctx, a.fields, a.expect)),
  }),
  defineTool({
    name: 'browser_select_option',
    description: 'Choose options of a select, listbox or combobox.',
    input: z.strictObject({ id, values: z.array(z.string()).min(1).describe('Labels or values'), expect }),
    run: (ctx, a) => runAction(ctx, () => act(ctx, { type: 'select', id: a.id, option: a.values.length === 1 ? a.values[0] : a.values }, a.expect)),
  }),
  defineTool({
    name: 'browser_check',
    description: 'Check (or, with checked false, uncheck) a checkbox, radio or switch.',
    input: z.strictObject({ id, checked: z.boolean().optional().describe('false to uncheck (default true)'), expect }),
    run: (ctx, a) => runAction(ctx, () => act(ctx, { type: a.checked === false ? 'uncheck' : 'check', id: a.id }, a.expect)),
  }),
  defineTool({
    name: 'browser_hover',
    description: 'Move the mouse over an element.',
    input: z.strictObject({ id, expect }),
    run: (ctx, a) => runAction(ctx, () => act(ctx, { type: 'hover', id: a.id }, a.expect)),
  }),
  defineTool({
    name: 'browser_press_key',
    description: 'Press a key ("Enter", "Control+A") on the element or on what has focus.',
    input: z.strictObject({ key: z.string().min(1), id: id.optional(), expect }),
    run: (ctx, a) => runAction(ctx, () => act(ctx, { type: 'press', keys: a.key, ...(a.id && { id: a.id }) }, a.expect)),
  }),
  defineTool({
    name: 'browser_scroll',
    description: 'Scroll the page, a scroll container (by id), or bring an element into view (id without direction).',
    input: z.strictObject({
      id: id.optional(),
      direction: z.enum(['up', 'down', 'left', 'right', 'top', 'bottom']).optional(),
      amount: z.number().positive().optional().describe('CSS pixels (default: a page)'),
      expect,
    }),
    run: (ctx, a) => runAction(ctx, () => act(ctx, { type: 'scroll', ...(a.id && { id: a.id }), ...(a.direction && { direction: a.direction }), ...(a.amount && { amount: a.amount }) }, a.expect)),
  }),
  defineTool({
    name: 'browser_file_upload',
    description: 'Upload files: to the file chooser a click opened, or to a file input by id. Without paths, the open chooser is cancelled.',
    input: z.strictObject({
      paths: z.array(z.string().min(1)).optional().describe('Absolute paths of the files'),
      id: id.optional().describe('A file input, when no chooser is open'),
    }),
    needs: ['extras.setInputFiles', 'extras.watchChoosers'],
    run: async (ctx, a) => {
      // Refused before the chooser is touched: a refusal leaves it open for a path that may be read.
      const paths = ctx.host?.checkUploads ? await ctx.host.checkUploads(a.paths ?? []) : a.paths ?? [];
      return runAction(ctx, () => {
        const chooser = ctx.state.modal.chooser;
        if (chooser) {
          ctx.state.modal.chooser = undefined;
          return viaExtras(`file_upload(${paths.length} files)`, 'none', async () => {
            try {
              await chooser.setFiles(paths);
            } catch (e) {
              // A file that cannot be read fails before the chooser is touched: it stays open for a retry.
              ctx.state.modal.chooser = chooser;
              throw e;
            }
            return paths.length ? `set ${paths.length} file(s) on the open chooser` : 'cancelled the file chooser';
          });
        }
        const target = a.id;
        if (!target) throw new PagelensError('NOT_ACTIONABLE', 'No file chooser is open: click the file input first, or give its id.');
        return viaExtras(`file_upload(${target}, ${paths.length} files)`, 'none', async () => {
          await ctx.extras.setInputFiles!(target, paths);
          return `set ${paths.length} file(s) on ${target}`;
        });
      });
    },
  }),
  defineTool({
    name: 'browser_handle_dialog',
    description: 'Accept or dismiss the open dialog.',
    input: z.strictObject({ accept: z.boolean(), promptText: z.string().optional() }),
    run: async (ctx, a) => {
      const d = ctx.page.dialogs.pending();
      if (!d) throw new PagelensError('NOT_ACTIONABLE', 'No dialog is open.');
      const what = `${a.accept ? 'accepted' : 'dismissed'} the ${d.type} ${quotedPageText(d.message)}`;
      const next = ctx.state.modal.next();
      await ctx.page.dialogs.answer(a.accept ? { accept: true, ...(a.promptText !== undefined && { promptText: a.promptText }) } : { accept: false });
      return finishPending(ctx, { action: `handle_dialog(${a.accept ? 'accept' : 'dismiss'})`, ok: true, method: 'none', detail: what }, next);
    },
  }),
  defineTool({
    name: 'browser_wait_for',
    description: 'Wait up to 10 s for text to show or textGone to go, or wait time seconds.',
    input: z.strictObject({
      text: z.string().min(1).optional(),
      textGone: z.string().min(1).optional(),
      time: z.number().positive().max(60).optional(),
    }),
    run: (ctx, a) => {
      if (a.text === undefined && a.textGone === undefined && a.time === undefined) throw new PagelensError('BAD_INPUT', 'browser_wait_for needs text, textGone or time.');
      refuseWhileDialog(ctx);
      return runAction(ctx, async () => {
        const what = `wait_for(${JSON.stringify(a)})`;
        if (a.time !== undefined) await new Promise((r) => setTimeout(r, a.time! * 1000));
        for (const [text, gone] of [[a.text, false], [a.textGone, true]] as const) {
          if (text === undefined) continue;
          const failed = await waitText(ctx.port, text, gone);
          if (failed) return { action: what, ok: false, method: 'none', error: { code: 'NOT_ACTIONABLE', message: failed } };
        }
        return { action: what, ok: true, method: 'none', detail: 'waited' };
      });
    },
  }),
  defineTool({
    name: 'observe',
    description: 'Candidate elements for an instruction ("the search box"), best first, with the action each would take.',
    input: z.strictObject({
      instruction: z.string().min(1),
      limit: z.number().int().positive().optional().describe('Candidates to return (default 5)'),
      maxTokens: z.number().int().positive().optional().describe('Budget of the tree they are chosen from (default 2000)'),
    }),
    needs: ['observe'],
    run: async ({ lens }, a) => {
      const r = await lens.observe!(a.instruction, { ...(a.limit && { limit: a.limit }), ...(a.maxTokens && { maxTokens: a.maxTokens }) });
      return { text: JSON.stringify(r), data: r };
    },
  }),
  defineTool({
    name: 'act',
    description: 'Do what an instruction says ("click Sign in", "type hello into the search box"): finds the element, acts, verifies. Refuses when two candidates are too close to call.',
    input: z.strictObject({ instruction: z.string().min(1), expect, maxTokens: z.number().int().positive().optional() }),
    needs: ['actOn'],
    run: (ctx, a) => runAction(ctx, () => ctx.lens.actOn!(a.instruction, { ...(a.expect && { expect: a.expect }), ...(a.maxTokens && { maxTokens: a.maxTokens }) })),
  }),
  defineTool({
    name: 'extract',
    description: 'Structured data from the page\'s content for an instruction, optionally shaped by a JSON Schema (given as a JSON string).',
    input: z.strictObject({
      instruction: z.string().min(1),
      schema: z.string().optional().describe('JSON Schema of the answer, as a JSON string, e.g. {"type":"object","properties":{"price":{"type":"string"}}}'),
      maxTokens: z.number().int().positive().optional(),
    }),
    needs: ['extract'],
    run: async ({ lens }, a) => {
      const schema = a.schema === undefined ? undefined : schemaFrom(a.schema);
      const r = await lens.extract!(a.instruction, schema as never, { ...(a.maxTokens && { maxTokens: a.maxTokens }) });
      return { text: JSON.stringify(r), data: r, ...(!r.ok && { isError: true }) };
    },
  }),
];

function schemaFrom(text: string): z.ZodType {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new PagelensError('BAD_INPUT', `schema is not a JSON Schema in a JSON string: ${(e as Error).message.split('\n')[0]}`);
  }
  // Checked before it is built: validation runs on the event loop (src/model/safety/schemaSafety.ts),
  // and its patterns on RE2, linear in the value (src/model/safety/linearPattern.ts).
  const unsafe = unsafeSchemaReason(json);
  if (unsafe) throw new PagelensError('BAD_INPUT', `schema refused: ${unsafe}`);
  try {
    return withLinearPatterns(json, () => z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]));
  } catch (e) {
    throw new PagelensError('BAD_INPUT', `schema is not a JSON Schema in a JSON string: ${(e as Error).message.split('\n')[0]}`);
  }
}
