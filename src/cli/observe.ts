// `pagelens observe <url> "…"` (ranked candidates; --act to carry the instruction out) and
// `pagelens extract <url> "…" [--schema '{"name":"string","price":"number"}']`, plus the printing
// of `pagelens snapshot <url> --query "…" --max-tokens N`. With OPENAI_BASE_URL (or
// OPENAI_API_KEY) set, an LLM chooses among the budgeted candidates; without, the offline ranker.
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ChatClient, llmChooser, llmConfigFromEnv } from '../agent/llm.js';
import type { Lens } from '../browser/lens.js';
import type { Chooser } from '../model/retrieval/chooser.js';
import { PagelensError } from '../model/contracts/errors.js';
import { formatPayload } from '../model/renderers/format.js';
import { parseExpectSpec } from '../model/contracts/outcome.js';
import { openPage } from './lazy.js';
import { addStateOptions, openStateOptions, saveAtEnd, type StateFlags } from './stateFlags.js';
import { parseViewport } from '../model/contracts/viewport.js';

interface PageFlags extends StateFlags {
  viewport: string;
  cdp?: string;
  offline?: boolean;
  pretty?: boolean;
  maxTokens?: number;
}

interface ObserveFlags extends PageFlags { act?: boolean; expect?: string; limit?: number }
interface ExtractFlags extends PageFlags { schema?: string }

/** --max-tokens N: a positive integer, or BAD_INPUT before any browser starts. */
export function parseMaxTokens(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < 1) throw new PagelensError('BAD_INPUT', `--max-tokens must be a positive whole number of tokens, got "${text}".`);
  return n;
}

function parseLimit(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1) throw new PagelensError('BAD_INPUT', `--limit must be a positive whole number, got "${text}".`);
  return n;
}

/** The LLM chooser when an endpoint is configured; undefined (the offline ranker) otherwise. */
export function chooserFromEnv(): Chooser | undefined {
  const config = llmConfigFromEnv();
  return config ? llmChooser(new ChatClient(config)) : undefined;
}

const FIELD_TYPES: Record<string, () => z.ZodType> = {
  string: () => z.string(), number: () => z.number(), integer: () => z.number().int(), boolean: () => z.boolean(),
  'string[]': () => z.array(z.string()), 'number[]': () => z.array(z.number()),
};

/**
 * --schema: a JSON object of field → type ("string", "number", "integer", "boolean", "string[]",
 * "number[]", a nested object, or [ {…} ] for a list of objects); "@file.json" reads it from a file.
 * A field whose type ends in "?" is optional.
 */
export function schemaFromSpec(spec: string): z.ZodType {
  let raw: unknown;
  try {
    raw = JSON.parse(spec.startsWith('@') ? readFileSync(spec.slice(1), 'utf8') : spec);
  } catch (e) {
    throw new PagelensError('BAD_INPUT', `--schema must be JSON like {"name":"string","price":"number"} (or @file.json): ${(e as Error).message}`);
  }
  const build = (v: unknown, path: string): z.ZodType => {
    if (typeof v === 'string') {
      const optional = v.endsWith('?');
      const make = FIELD_TYPES[optional ? v.slice(0, -1) : v];
      if (!make) throw new PagelensError('BAD_INPUT', `--schema: "${path}" has type "${v}"; expected one of ${Object.keys(FIELD_TYPES).join(', ')} (optionally with "?"), an object or [ {…} ].`);
      return optional ? make().optional() : make();
    }
    if (Array.isArray(v) && v.length === 1) return z.array(build(v[0], `${path}[]`));
    if (v && typeof v === 'object' && !Array.isArray(v)) return z.object(Object.fromEntries(Object.entries(v).map(([k, t]) => [k, build(t, path ? `${path}.${k}` : k)])));
    throw new PagelensError('BAD_INPUT', `--schema: "${path || 'the schema'}" must be a type name, an object of fields, or [ {…} ].`);
  };
  return build(raw, '');
}

function print(flags: { pretty?: boolean }, payload: object): void {
  process.stdout.write((flags.pretty ? formatPayload(payload) : JSON.stringify(payload)) + '\n');
}

async function withPage<T>(target: string, flags: PageFlags, fn: (lens: Lens) => Promise<T>): Promise<T> {
  const open = await openPage(target, { viewport: parseViewport(flags.viewport), cdpEndpoint: flags.cdp, ...(flags.offline && { blockExternal: true }), ...await openStateOptions(flags) });
  try {
    return await fn(open.lens);
  } finally {
    await saveAtEnd(open.lens, flags);
    await open.close();
  }
}

/** `pagelens snapshot --query`: the filtered payload on stdout, what was kept and left out on stderr. */
export async function printFilteredSnapshot(lens: Lens, flags: { query: string; maxTokens?: number; pretty?: boolean }): Promise<void> {
  const t0 = performance.now();
  const result = await lens.snapshot({ query: flags.query, ...(flags.maxTokens !== undefined && { maxTokens: flags.maxTokens }) });
  print(flags, result);
  const left = result.omitted.reduce((s, o) => s + o.omitted, 0);
  process.stderr.write(`pagelens: ${result.filteredCount} of ${result.originalCount} nodes kept (${left} left out, in ${result.omitted.length} regions), ${result.tokens} tokens (o200k, limit ${result.maxTokens}), ${result.tokenReduction}% fewer than the whole tree, ${Math.round(performance.now() - t0)} ms\n`);
}

function pageOptions(cmd: Command): Command {
  return addStateOptions(cmd, { save: true, autosave: false })
    .option('--max-tokens <n>', 'budget of the filtered tree the answer is taken from (o200k tokens)', parseMaxTokens)
    .option('--viewport <WxH>', 'viewport size', '1280x800')
    .option('--pretty', 'one element per line instead of compact JSON')
    .option('--cdp <endpoint>', 'attach to a running browser over CDP (ws://… or http://host:9222)')
    .option('--offline', 'abort every request that is not to loopback (always on for local files)');
}

export function addObserveCommands(program: Command): void {
  pageOptions(program.command('observe <url-or-file> <instruction>')
    .description('rank the elements an instruction refers to ("add the Dell monitor to the cart"); --act carries it out')
    .option('--act', 'act on the best candidate, with verification (refused when the best ones are too close to call)')
    .option('--expect <outcome>', 'with --act: the outcome to verify (navigation, element_appears:TEXT, value_changes, …)')
    .option('--limit <n>', 'how many candidates to list', parseLimit))
    .action(async (target: string, instruction: string, flags: ObserveFlags) => {
      if (flags.expect !== undefined && !flags.act) throw new PagelensError('BAD_INPUT', '--expect only applies with --act.');
      if (flags.limit !== undefined && flags.act) throw new PagelensError('BAD_INPUT', '--limit does not apply to --act: it acts on the best candidate.');
      const expect = flags.expect !== undefined ? parseExpectSpec(flags.expect) : undefined;
      const chooser = chooserFromEnv();
      await withPage(target, flags, async (lens) => {
        const common = { ...(flags.maxTokens !== undefined && { maxTokens: flags.maxTokens }), ...(chooser && { chooser }) };
        if (flags.act) {
          const r = await lens.actOn(instruction, { ...common, ...(expect && { expect }) });
          print(flags, r);
          const ok = r.ok && (r.verification?.success ?? true);
          process.stderr.write(`pagelens: ${ok ? 'ok' : 'FAILED'} ${r.action} (${r.chooser}) ${r.error ? `${r.error.code}: ${r.error.message}` : r.verification?.feedback ?? r.detail ?? ''}\n`);
          if (!ok) process.exitCode = 1;
          return;
        }
        const r = await lens.observe(instruction, { ...common, ...(flags.limit !== undefined && { limit: flags.limit }) });
        print(flags, r);
        const top = r.candidates[0];
        process.stderr.write(`pagelens: ${r.candidates.length} candidates (${r.chooser}, from a ${r.tokens}-token tree)${top ? `, best ${top.suggestedAction} ${top.description} (confidence ${top.confidence})` : ''}${r.ambiguous ? '; the best ones are too close to call' : ''}\n`);
      });
    });

  pageOptions(program.command('extract <url-or-file> <instruction>')
    .description('structured data from the page\'s content ("the product\'s name, price and brand")')
    .option('--schema <json>', 'fields and types: \'{"name":"string","price":"number","inStock":"boolean?"}\', [ {…} ] for a list, or @file.json'))
    .action(async (target: string, instruction: string, flags: ExtractFlags) => {
      const schema = flags.schema !== undefined ? schemaFromSpec(flags.schema) : undefined;
      const chooser = chooserFromEnv();
      await withPage(target, flags, async (lens) => {
        const r = await lens.extract(instruction, schema, { ...(flags.maxTokens !== undefined && { maxTokens: flags.maxTokens }), ...(chooser && { chooser }) });
        print(flags, r);
        process.stderr.write(`pagelens: ${r.ok ? 'ok' : 'INCOMPLETE'} (${r.chooser}, from a ${r.tokens}-token tree)${r.missing.length ? `; not found: ${r.missing.join(', ')}` : ''}${r.issues ? `; ${r.issues.join('; ')}` : ''}\n`);
        if (!r.ok) process.exitCode = 1;
      });
    });
}
