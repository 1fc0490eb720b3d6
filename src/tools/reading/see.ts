// The seeing tools: snapshots in every mode, the exploration levels (overview, regions, one
// region, one element), search, diff and the set-of-mark screenshot. None of them acts.
import { z } from 'zod';
import { PagelensError } from '../../model/contracts/errors.js';
import { DomOverviewParams } from '../../model/explore/explore.js';
import { FORMATS, givenOptions, MODE_HELP, SnapshotFormat, SnapshotMode, snapshotRequestConflict } from '../../model/contracts/snapshotRequest.js';
import type { SemanticV3Result } from '../../model/contracts/schema.js';
import { snapshotAnswer } from '../answers/snapshotAnswer.js';
import { markPage, observe } from '../registry/state.js';
import { answerText, observationLine } from '../answers/answerText.js';
import { isEmptyDelta, treeDelta } from '../answers/delta.js';
import { PAGE_TEXT_TOOL } from './pageTextTool.js';
import { SCREENSHOT_TOOL } from './screenshot.js';
import { defineTool, jsonResult, type ToolContext, type ToolDef, type ToolResult } from '../registry/types.js';

// The shared request schema (model/contracts/snapshotRequest.ts), with the options this tool offers.
const SnapshotArgs = z.strictObject({
  mode: SnapshotMode.optional().describe(Object.entries(MODE_HELP).filter(([m]) => m !== 'semantic_v3').map(([m, help]) => `${m}: ${help}`).join('; ')),
  fullPage: z.boolean().optional().describe('Beyond the viewport too'),
  format: SnapshotFormat.optional().describe('json: the JSON form'),
  query: z.string().min(1).optional().describe('A task: only what matters for it'),
  maxTokens: z.number().int().positive().optional().describe('With query: most tokens (default 2000)'),
});

async function snapshot(ctx: ToolContext, args: z.infer<typeof SnapshotArgs>): Promise<ToolResult> {
  // Combinations that mean nothing are refused, so a model never gets silently different output.
  const conflict = snapshotRequestConflict({ mode: args.mode ?? 'semantic_v3', format: args.format, query: args.query, given: givenOptions(args) });
  if (conflict) throw new PagelensError('BAD_INPUT', conflict);
  const { lens, state } = ctx;
  const mode = args.mode ?? 'semantic_v3';
  // The text form where a mode has one (it is the smaller), unless the client asked for JSON answers.
  const format = args.format ?? (ctx.answers !== 'json' && args.query === undefined && (FORMATS.text.modes as readonly string[]).includes(mode) ? 'text' : undefined);
  // Elements that listen for hover, double click or drag are found by the lens's own read, on
  // every face alike (src/browser/lens.ts readsGestures).
  const mark = await markPage(ctx.page, state);
  const r = await snapshotAnswer(lens, { ...args, ...(format && { format }) });
  if (mode === 'semantic_v3' && args.query === undefined) {
    // The tree the client now knows: the base of the next action's delta, under an id of its own.
    const seen = observe(state, { tree: (r.data as SemanticV3Result).interactive_tree, fullPage: args.fullPage ?? false, mark }, true);
    if (format === 'text') return { text: `${observationLine(seen)}\n${r.text}`, data: { ...r.data, observation: seen } };
    return jsonResult({ ...r.data, observation: seen });
  }
  if (r.screenshot === undefined) return { text: r.text, data: r.data };
  // hybrid: the screenshot goes as an image, not as base64 inside the text.
  const { screenshot, ...rest } = r.data as { screenshot: string };
  return { ...jsonResult(rest), images: [{ data: screenshot, mimeType: 'image/jpeg' }] };
}

/** The id of a page state an answer carried (state.ts observe). */
const OBSERVATION_ID = /^s\d+$/;

/** dom_diff between two page states the client was sent: the same +/-/~ lines as an action's answer. */
function observationDiff({ state }: ToolContext, a: string, b: string): ToolResult {
  const get = (id: string) => {
    const o = OBSERVATION_ID.test(id) ? state.observations.get(id) : undefined;
    if (!o) throw new PagelensError('BAD_INPUT', `${id} is not a page state this tab still keeps (the newest ${[...state.observations.keys()].join(', ') || 'none'}); two page states, or two snapshotIds of the exploration tools.`);
    return o;
  };
  const [x, y] = [get(a), get(b)];
  // IDs of two documents are not the same elements: comparing them would pair strangers.
  if (x.mark.loads !== y.mark.loads || x.mark.url.split('#')[0] !== y.mark.url.split('#')[0]) {
    throw new PagelensError('BAD_INPUT', `${a} and ${b} are of different documents: their IDs do not carry over; read the page again.`);
  }
  const d = treeDelta(x.tree, y.tree);
  const text = answerText({ delta: isEmptyDelta(d) ? 'no changes' : d }, y.tree, { id: b, since: a });
  return { text, data: { from: a, to: b, delta: d } };
}

/** Exploration answers carry a compact text form: that is what the model reads. */
function textOf(r: { text: string }): ToolResult {
  return { text: r.text, data: r };
}

const refresh = z.boolean().optional().describe('Read the page again even if the last reading is still fresh');

export const SEE_TOOLS: ToolDef[] = [
  defineTool({
    name: 'page_snapshot',
    description: "The page's elements, one line each with its ID.",
    input: SnapshotArgs,
    run: snapshot,
  }),
  defineTool({
    name: 'dom_overview',
    description: 'Get a filtered overview of the current page showing structure, interactive elements, and key content. Returns element IDs that can be used with other DOM tools. This is your primary reconnaissance tool - use it first when exploring a new page or after navigation.',
    input: DomOverviewParams,
    needs: ['overview'],
    run: async ({ lens }, args) => textOf(await lens.overview!(args)),
  }),
  defineTool({
    name: 'snapshot_regions',
    description: 'The page as regions (landmarks, forms, dialogs, blocks) with a one-line summary each; open one with expand_region.',
    input: z.strictObject({ refresh }),
    needs: ['regions'],
    run: async ({ lens }, args) => textOf(await lens.regions!({ refresh: args.refresh ?? false })),
  }),
  defineTool({
    name: 'expand_region',
    description: 'The elements of one region or subsection ("R2", "R2.Filters"), with their IDs.',
    input: z.strictObject({
      region: z.string().min(1).describe('Region name from snapshot_regions, e.g. "R2" or "R2.Filters"'),
      limit: z.number().int().min(1).max(1000).optional().describe('Element lines at most (default 25)'),
      refresh,
    }),
    needs: ['expandRegion'],
    run: async ({ lens }, args) => textOf(await lens.expandRegion!(args.region, { ...(args.limit && { limit: args.limit }), refresh: args.refresh ?? false })),
  }),
  defineTool({
    name: 'element_context',
    description: 'One element in depth: its label, state, options, form, region, neighbours and a selector hint.',
    input: z.strictObject({ target: z.string().min(1).describe('Element ID ("12", "f1_5") or a CSS selector'), refresh }),
    needs: ['elementContext'],
    run: async ({ lens }, args) => textOf(await lens.elementContext!(args.target, { refresh: args.refresh ?? false })),
  }),
  defineTool({
    name: 'dom_search',
    description: 'Find elements and text blocks by text, role:NAME, tag:NAME or [attribute=value].',
    input: z.strictObject({
      query: z.string().min(1).describe('Text to find, or role:button, tag:input, [name=email]'),
      limit: z.number().int().min(1).max(200).optional().describe('Elements at most (default 20)'),
      refresh,
    }),
    needs: ['search'],
    run: async ({ lens }, args) => textOf(await lens.search!(args.query, { ...(args.limit && { limit: args.limit }), refresh: args.refresh ?? false })),
  }),
  defineTool({
    name: 'dom_diff',
    description: 'What changed between two readings of the page: page states of answers ("s3") or snapshotIds of dom_overview, snapshot_regions, dom_search.',
    input: z.strictObject({ snapshotA: z.string().min(1), snapshotB: z.string().min(1) }),
    needs: ['diff'],
    run: async (ctx, args) => OBSERVATION_ID.test(args.snapshotA) || OBSERVATION_ID.test(args.snapshotB)
      ? observationDiff(ctx, args.snapshotA, args.snapshotB)
      : textOf(await ctx.lens.diff!(args.snapshotA, args.snapshotB)),
  }),
  SCREENSHOT_TOOL,
  PAGE_TEXT_TOOL,
];
