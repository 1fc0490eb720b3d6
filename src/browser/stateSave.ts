// Saving and loading a context's state as every face does it (the library's lens.saveState, the MCP
// server's tool, autosave and save on exit): the check first, then the file; the answer says what
// happened in counts and origins, never a value.
import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { pageShows, type StateCheck } from './stateCheck.js';
import { applyState, captureState, describeState, readStateFile, writeStateFile } from './stateFile.js';

export interface SaveOutcome {
  saved: boolean;
  path: string;
  /** Sealed with PAGELENS_STATE_KEY. */
  encrypted?: boolean;
  /** One line for a person or a model: what was saved, or why nothing was and what the file still holds. */
  message: string;
}

export interface LoadOutcome { path: string; encrypted: boolean; message: string }

/**
 * Saves the context's state to `path`, unless `check` is given and `page` does not show it: then
 * the file is left as it was (the last good state) and the outcome says so.
 */
export async function saveContextState(context: BrowserContext, path: string, opts: { check?: StateCheck; page?: Page } = {}): Promise<SaveOutcome> {
  if (opts.check && !(opts.page && !opts.page.isClosed() && await pageShows(opts.page, opts.check))) {
    const kept = existsSync(path) ? `${path} keeps the last good state` : `nothing was written to ${path}`;
    return { saved: false, path, message: `state not saved: the page does not show ${JSON.stringify(opts.check.spec)} (--state-check), so it may be logged out; ${kept}` };
  }
  const state = await captureState(context);
  const { encrypted } = await writeStateFile(path, state);
  return { saved: true, path, encrypted, message: `state saved to ${path}${encrypted ? ' (encrypted)' : ''}: ${describeState(state)}` };
}

/** Loads `path` into the context; refused whole (nothing applied) when the file cannot be trusted. */
export async function loadContextState(context: BrowserContext, path: string): Promise<LoadOutcome> {
  const state = await readStateFile(path);
  await applyState(context, state);
  const encrypted = !!process.env.PAGELENS_STATE_KEY;
  return { path, encrypted, message: `state loaded from ${path}${encrypted ? ' (encrypted)' : ''}: ${describeState(state)}` };
}
