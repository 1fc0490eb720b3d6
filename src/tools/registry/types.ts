// The shape of a tool: a name, a description written for a model, a zod input schema (the single
// source of both the JSON Schemas we publish and the validation runTool applies) and a handler.
import type { z } from 'zod';
import type { ActHost } from '../../core/port.js';
import type { HostPage } from '../../model/contracts/hostPage.js';
import type { ToolExtras } from './extras.js';
import type { ToolResult } from './result.js';
import type { TabHost } from './host.js';
import type { LensCapability, ToolLens } from './toolLens.js';
import type { ToolState } from './state.js';

export type { ToolResult } from './result.js';
export type { ActionEffects, OpenChooser, ToolExtras } from './extras.js';


/**
 * What a tool runs on: the lens-level reads and acts, the page side of the host port, and what
 * runTool remembers between calls. Nothing here is a host's own page object.
 */
export interface ToolContext {
  lens: ToolLens;
  page: HostPage;
  /** The act pipeline's host (src/core): what the shared locate, verification and text search read through. */
  port: ActHost;
  /** What only some hosts offer (the CDP host: Playwright's locators, file choosers, network, images). */
  extras: ToolExtras;
  state: ToolState;
  /** The holder of the browser (tabs, closing it); absent when runTool is called on a bare lens. */
  host?: TabHost;
  /** The context of another tab's lens (browser_tabs new), made the way this one was. */
  contextOf?(lens: Parameters<ToolContextMaker>[0]): ToolContext;
  /** How page states and action answers are written: compact text (default) or the JSON payload. */
  answers?: 'text' | 'json';
  /** The tools the client was offered (toolset.ts); any other is refused. Absent: every tool. */
  offered?: ReadonlySet<string>;
  /** Most tokens the answer may take (see ceiling.ts): tools that can cut their answer well read it. */
  ceiling?: number;
}

type ToolContextMaker = (lens: Awaited<ReturnType<TabHost['newTab']>>) => ToolContext;

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  /** Members of the lens or extras the tool cannot run without: a host that lacks one lists the tool as unavailable. */
  needs?: ToolNeed[];
  run(ctx: ToolContext, args: z.infer<S>): Promise<ToolResult>;
}

export type ToolNeed = LensCapability | `extras.${keyof ToolExtras & string}` | 'tabs';

/** Declares a tool with its handler typed by its own schema. */
export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef {
  return def as unknown as ToolDef;
}

/**
 * Characters JSON.stringify leaves as they are that break or reorder a line on screen (line and
 * paragraph separators, NEL, bidi and other format characters). They occur only inside strings,
 * where their escapes mean the same: page text (a dialog's message, a name) cannot start a line.
 */
const RAW_IN_JSON = /[\p{Cf}\u2028\u2029\u0085]/gu;

/** The usual answer: compact JSON, which is what a model reads best per token. */
export function jsonResult(data: unknown, isError = false): ToolResult {
  const text = JSON.stringify(data).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return { text, data, ...(isError && { isError }) };
}
