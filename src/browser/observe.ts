// observe / act / extract on the CDP host: src/core/observe.ts (written once for every host) bound
// to this host's task reading (rag.ts), its act pipeline (actions.ts performAction, with its
// network watch) and the document's title.
import type { z } from 'zod';
import {
  actOn as actOnHost, extract as extractOn, observe as observeOn,
  type ActOnOptions, type ActOnResult, type ExtractOptions, type ExtractResult, type ObserveHost, type ObserveOptions, type ObserveResult,
} from '../core/observe.js';
import { performAction } from './actions.js';
import type { LensCore } from './core.js';
import { ragHost } from './rag.js';

export type { ActOnOptions, ActOnResult, ExtractOptions, ExtractResult, ObserveOptions, ObserveResult } from '../core/observe.js';

function observeHost(core: LensCore): ObserveHost {
  return { ...ragHost(core), act: (action, opts) => performAction(core, action, opts), title: () => core.page.title() };
}

export const observe = (core: LensCore, instruction: string, options: ObserveOptions = {}): Promise<ObserveResult> => observeOn(observeHost(core), instruction, options);
export const actOn = (core: LensCore, instruction: string, options: ActOnOptions = {}): Promise<ActOnResult> => actOnHost(observeHost(core), instruction, options);
export function extract<S extends z.ZodType = z.ZodType>(core: LensCore, instruction: string, schema?: S, options: ExtractOptions = {}): Promise<ExtractResult<z.infer<S>>> {
  return extractOn(observeHost(core), instruction, schema, options);
}
