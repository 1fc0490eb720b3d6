// The seeing tools: snapshots in every mode, the exploration levels (overview, regions, one
// region, one element), search, diff and the set-of-mark screenshot. None of them acts.
import { z } from 'zod';
import { PagelensError } from '../model/contracts/errors.js';
import { DomOverviewParams } from '../model/explore/explore.js';
import { FORMATS, givenOptions, MODE_HELP, OPTIONS, SnapshotFormat, SnapshotMode, snapshotRequestConflict } from '../model/contracts/snapshotRequest.js';
import type { SemanticV3Result } from '../model/contracts/schema.js';
import { snapshotAnswer } from './snapshotAnswer.js';
import { markPage } from './state.js';
import { PAGE_TEXT_TOOL } from './pagetext.js';
import { SCREENSHOT_TOOL } from './screenshot.js';
import { defineTool, jsonResult, type ToolContext, type ToolDef, type ToolResult } from './types.js';

const modes = (m: readonly string[]) => m.join(', ');
// The shared request schema (model/contracts/snapshotRequest.ts), with the options this tool offers.
const SnapshotArgs = z.strictObject({
  mode: SnapshotMode.optional().describe(Object.entries(MODE_HELP).map(([m, help]) => `${m}: ${help}`).join('; ')),
  fullPage: z.boolean().optional().describe(`Keep elements outside the viewport too (${modes(OPTIONS.fullPage.modes!)})`),
  format: SnapshotFormat.optional().describe(Object.entries(FORMATS).map(([f, d]) => `${f}: ${d.help} (${modes(d.modes)})`).join('; ')),
  query: z.string().min(1).optional().describe('The task at hand ("price of the Dell monitor"): only what matters for it is returned, with what was left out'),
  maxTokens: z.number().int().positive().optional().describe('With query: a hard ceiling on the answer, in o200k tokens (default 2000)'),
});

async function snapshot(ctx: ToolContext, args: z.infer<typeof SnapshotArgs>): Promise<ToolResult> {
  // Combinations that mean nothing are refused, so a model never gets silently different output.
  const conflict = snapshotRequestConflict({ mode: args.mode ?? 'semantic_v3', format: args.format, query: args.query, given: givenOptions(args) });
  if (conflict) throw new PagelensError('BAD_INPUT', conflict);
  const { lens, state } = ctx;
  const mode = args.mode ?? 'semantic_v3';
  // Elements that listen for hover, double click or drag are listed once found (see gestures.ts).
  if (mode === 'semantic_v3') await lens.markGestureTargets?.();
  const mark = await markPage(ctx.page, state);
  const r = await snapshotAnswer(lens, args);
  if (mode === 'semantic_v3' && args.query === undefined) {
    // The tree the client now knows: the base of the next action's delta.
    state.baseline = { tree: (r.data as SemanticV3Result).interactive_tree, fullPage: args.fullPage ?? false, mark };
  }
  if (r.screenshot === undefined) return { text: r.text, data: r.data };
  // hybrid: the screenshot goes as an image, not as base64 inside the text.
  const { screenshot, ...rest } = r.data as { screenshot: string };
  return { ...jsonResult(rest), images: [{ data: screenshot, mimeType: 'image/jpeg' }] };
}

/** Exploration answers carry a compact text form: that is what the model reads. */
function textOf(r: { text: string }): ToolResult {
  return { text: r.text, data: r };
}

const refresh = z.boolean().optional().describe('Read the page again even if the last reading is still fresh');

export const SEE_TOOLS: ToolDef[] = [
  defineTool({
    name: 'page_snapshot',
    description: 'What the page shows and what can be done on it, with an ID per element (i) to act on. Default: the compact semantic_v3 interactive tree of the viewport (legend in the server instructions). With query (+ maxTokens): only what matters for that task, within a token budget.',
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
    description: 'What changed between two readings of the page, by their snapshotId (from dom_overview, snapshot_regions, dom_search…).',
    input: z.strictObject({ snapshotA: z.string().min(1), snapshotB: z.string().min(1) }),
    needs: ['diff'],
    run: async ({ lens }, args) => textOf(await lens.diff!(args.snapshotA, args.snapshotB)),
  }),
  SCREENSHOT_TOOL,
  PAGE_TEXT_TOOL,
];
