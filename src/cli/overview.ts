// `pagelens overview <url>` (dom_overview) and `pagelens regions <url>` (L0 + L1, then an
// expanded region and one element in depth): the text forms on stdout, a one-line summary with
// the real token count on stderr. Flags are checked before any browser starts.
import { Command, Option } from 'commander';
import { PagelensError } from '../model/contracts/errors.js';
import { DomOverviewParams, type DomOverviewParamsInput } from '../model/explore/explore.js';
import { formatPayload } from '../model/renderers/format.js';
import { countTokens } from '../model/renderers/tokens.js';
import { parseInput } from '../model/contracts/validate.js';
import { openPage } from './lazy.js';
import { parseViewport } from '../model/contracts/viewport.js';

interface CommonFlags {
  viewport: string;
  format: 'text' | 'json';
  pretty?: boolean;
  cdp?: string;
  offline?: boolean;
}

interface OverviewFlags extends CommonFlags {
  filters?: string;
  maxRows?: string;
  all?: boolean;
  group: boolean;
}

interface RegionsFlags extends CommonFlags {
  expand?: string;
  context?: string;
  limit?: string;
}

const SECTIONS = ['outline', 'interactives', 'headings'] as const;

function common(cmd: Command): Command {
  return cmd
    .option('--viewport <WxH>', 'viewport size', '1280x800')
    .addOption(new Option('--format <format>', 'the text form, or the JSON answer').choices(['text', 'json']).default('text'))
    .option('--pretty', 'with --format json: one entry per line')
    .option('--cdp <endpoint>', 'attach to a running browser over CDP (ws://… or http://host:9222)')
    .option('--offline', 'abort every request that is not to loopback (always on for local files)');
}

/** The dom_overview parameters the flags ask for, checked like the tool's own. */
export function overviewParamsOf(flags: OverviewFlags): DomOverviewParamsInput {
  const params: Record<string, unknown> = {};
  if (flags.filters !== undefined) {
    const names = flags.filters.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = names.filter((n) => !(SECTIONS as readonly string[]).includes(n));
    if (!names.length || unknown.length) throw new PagelensError('BAD_INPUT', `--filters takes a comma-separated list of ${SECTIONS.join(', ')}; got ${JSON.stringify(flags.filters)}.`);
    params.filters = Object.fromEntries(SECTIONS.map((s) => [s, names.includes(s)]));
  }
  if (flags.maxRows !== undefined) {
    const n = Number(flags.maxRows);
    if (!/^\d+$/.test(flags.maxRows.trim())) throw new PagelensError('BAD_INPUT', `--max-rows takes a whole number from 1 to 100, got ${JSON.stringify(flags.maxRows)}.`);
    params.max_rows = n;
  }
  if (flags.all) params.viewport = false;
  return parseInput(DomOverviewParams, params, 'overview flags') as DomOverviewParamsInput;
}

function checkCommon(flags: CommonFlags): void {
  if (flags.pretty && flags.format !== 'json') throw new PagelensError('BAD_INPUT', '--pretty only applies to --format json.');
}

async function overviewCommand(target: string, flags: OverviewFlags): Promise<void> {
  checkCommon(flags);
  const params = overviewParamsOf(flags);
  const open = await openPage(target, { viewport: parseViewport(flags.viewport), cdpEndpoint: flags.cdp, ...(flags.offline && { blockExternal: true }) });
  try {
    const t0 = performance.now();
    const ov = await open.lens.overview(params, { group: flags.group });
    const ms = Math.round(performance.now() - t0);
    process.stdout.write((flags.format === 'json' ? (flags.pretty ? formatPayload(ov) : JSON.stringify(ov)) : ov.text) + '\n');
    process.stderr.write(`pagelens: dom_overview ${ov.summary.shown} shown of ${ov.summary.total_elements}, ${await countTokens(ov.text)} tokens (o200k, text form), ${ms} ms\n`);
  } finally {
    await open.close();
  }
}

async function regionsCommand(target: string, flags: RegionsFlags): Promise<void> {
  checkCommon(flags);
  let limit: number | undefined;
  if (flags.limit !== undefined) {
    limit = Number(flags.limit);
    if (!/^\d+$/.test(flags.limit.trim()) || limit < 1) throw new PagelensError('BAD_INPUT', `--limit takes a whole number of element lines, got ${JSON.stringify(flags.limit)}.`);
    if (flags.expand === undefined) throw new PagelensError('BAD_INPUT', '--limit only applies with --expand: it is the number of element lines of the expanded region.');
  }
  if (flags.expand !== undefined && !flags.expand.trim()) throw new PagelensError('BAD_INPUT', '--expand takes a region ID such as R2 or R2.Filters.');
  if (flags.context !== undefined && !flags.context.trim()) throw new PagelensError('BAD_INPUT', '--context takes an element ID (14, f1_3) or a CSS selector.');
  const open = await openPage(target, { viewport: parseViewport(flags.viewport), cdpEndpoint: flags.cdp, ...(flags.offline && { blockExternal: true }) });
  try {
    const lens = open.lens;
    const page = await lens.pageOverview();
    const regions = await lens.regions();
    const expanded = flags.expand !== undefined ? await lens.expandRegion(flags.expand, limit !== undefined ? { limit } : {}) : undefined;
    const context = flags.context !== undefined ? await lens.elementContext(flags.context) : undefined;
    const texts = [page.text, regions.text, expanded?.text, context?.text].filter((t): t is string => !!t);
    if (flags.format === 'json') {
      const out = { page, regions, ...(expanded && { expanded }), ...(context && { context }) };
      process.stdout.write((flags.pretty ? formatPayload(out) : JSON.stringify(out)) + '\n');
    } else {
      process.stdout.write(texts.join('\n\n') + '\n');
    }
    const tokens = await Promise.all(texts.map((t) => countTokens(t)));
    const names = ['L0', 'L1', ...(expanded ? ['L2'] : []), ...(context ? ['L3'] : [])];
    process.stderr.write(`pagelens: ${regions.regions.length} regions; ${names.map((n, i) => `${n} ${tokens[i]}`).join(', ')} tokens (o200k, text forms); snapshot ${regions.snapshotId}\n`);
  } finally {
    await open.close();
  }
}

export function addExploreCommands(program: Command): void {
  common(program.command('overview <url-or-file>').description('dom_overview: page structure, controls and key text in view, with element IDs'))
    .option('--filters <list>', 'sections to include: outline,interactives,headings (default: all three)')
    .option('--max-rows <n>', 'rows per section, 1–100 (default 30)')
    .option('--all', 'the whole page, not only what is in the viewport')
    .option('--no-group', 'one line per element instead of "N similar" groups')
    .action((target: string, flags: OverviewFlags) => overviewCommand(target, flags));
  common(program.command('regions <url-or-file>').description('the page (L0) and its regions (L1); --expand one (L2), --context one element (L3)'))
    .option('--expand <region>', 'a region or subsection to list the elements of (R2, R2.Filters)')
    .option('--context <element>', 'an element ID (14, f1_3) or CSS selector to describe in depth')
    .option('--limit <n>', 'with --expand: element lines at most (default 25)')
    .action((target: string, flags: RegionsFlags) => regionsCommand(target, flags));
}
