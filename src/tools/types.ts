// The shape of a tool: a name, a description written for a model, a zod input schema (the single
// source of both the JSON Schemas we publish and the validation runTool applies) and a handler.
import type { z } from 'zod';
import type { Lens } from '../browser/lens.js';
import type { TabHost } from './host.js';
import type { ToolState } from './state.js';

/** What a tool answers: the text a model reads, the same as data, and images (screenshots). */
export interface ToolResult {
  text: string;
  data: unknown;
  images?: Array<{ data: string; mimeType: string }>;
  /** The tool ran but failed (an action refused, an ID gone): the text says what to do. */
  isError?: boolean;
}

export interface ToolContext {
  lens: Lens;
  state: ToolState;
  /** The holder of the browser (tabs, closing it); absent when runTool is called on a bare lens. */
  host?: TabHost;
  /** Most tokens the answer may take (see ceiling.ts): tools that can cut their answer well read it. */
  ceiling?: number;
}

export interface ToolDef<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  run(ctx: ToolContext, args: z.infer<S>): Promise<ToolResult>;
}

/** Declares a tool with its handler typed by its own schema. */
export function defineTool<S extends z.ZodObject>(def: ToolDef<S>): ToolDef {
  return def as unknown as ToolDef;
}

/** The usual answer: compact JSON, which is what a model reads best per token. */
export function jsonResult(data: unknown, isError = false): ToolResult {
  return { text: JSON.stringify(data), data, ...(isError && { isError }) };
}
