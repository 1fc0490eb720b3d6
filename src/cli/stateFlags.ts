// The saved-state flags (issue 40), shared by `pagelens mcp` and the one-shot commands: where a
// session starts logged in (--storage-state), where it saves (--save-storage-state, --autosave)
// and the check a save must pass (--state-check). The passphrase is never a flag: argv is visible
// to every local user, so encryption is PAGELENS_STATE_KEY in the environment.
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { PagelensError } from '../model/contracts/errors.js';

export interface StateFlags {
  storageState?: string;
  saveStorageState?: string;
  autosave?: number;
  stateCheck?: string;
}

function parseSeconds(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < 1) throw new PagelensError('BAD_INPUT', `--autosave must be a whole number of seconds ≥ 1, got "${text}".`);
  return n;
}

export function addStateOptions(cmd: Command, opts: { save: boolean; autosave?: boolean } = { save: true }): Command {
  cmd.option('--storage-state <file>', 'start logged in: load cookies, localStorage and IndexedDB from this state file (encrypted ones need PAGELENS_STATE_KEY)');
  if (!opts.save) return cmd;
  cmd.option('--save-storage-state <file>', 'save cookies, localStorage and IndexedDB to this file at the end (0600; encrypted when PAGELENS_STATE_KEY is set)')
    .option('--state-check <text>', 'save only while the page shows this text, or role and name (button "Log out"): a logged-out page keeps the last good file');
  if (opts.autosave !== false) cmd.option('--autosave <seconds>', 'also save to --save-storage-state every this many seconds', parseSeconds);
  return cmd;
}

/**
 * The flags as options with absolute paths, checked before anything starts: a start state that is
 * altered, wrongly keyed or not a state file is refused here, with nothing loaded.
 */
export async function stateFlags(flags: StateFlags): Promise<{ storageState?: string; saveStorageState?: string; autosaveS?: number; stateCheck?: string }> {
  if (flags.autosave !== undefined && !flags.saveStorageState) throw new PagelensError('BAD_INPUT', '--autosave saves to --save-storage-state: give that file too.');
  if (flags.stateCheck !== undefined && !flags.saveStorageState) throw new PagelensError('BAD_INPUT', '--state-check guards the saves to --save-storage-state: give that file too.');
  const { parseStateCheck } = await import('../browser/stateCheck.js');
  const { readStateFile, stateKey } = await import('../browser/stateFile.js');
  stateKey();
  if (flags.stateCheck !== undefined) parseStateCheck(flags.stateCheck);
  const storageState = flags.storageState !== undefined ? resolve(flags.storageState) : undefined;
  if (storageState) await readStateFile(storageState);
  return {
    ...(storageState && { storageState }),
    ...(flags.saveStorageState !== undefined && { saveStorageState: resolve(flags.saveStorageState) }),
    ...(flags.autosave !== undefined && { autosaveS: flags.autosave }),
    ...(flags.stateCheck !== undefined && { stateCheck: flags.stateCheck }),
  };
}

/** What openPage needs of the flags: the start state, checked (see stateFlags). */
export async function openStateOptions(flags: StateFlags): Promise<{ storageState?: string }> {
  const s = await stateFlags(flags);
  return s.storageState ? { storageState: s.storageState } : {};
}

/** A one-shot command's save at its end (--save-storage-state, behind --state-check), said on stderr. */
export async function saveAtEnd(lens: { saveState(path: string, opts?: { check?: string }): Promise<{ message: string }> }, flags: StateFlags): Promise<void> {
  if (!flags.saveStorageState) return;
  try {
    const r = await lens.saveState(resolve(flags.saveStorageState), flags.stateCheck !== undefined ? { check: flags.stateCheck } : {});
    process.stderr.write(`pagelens: ${r.message}\n`);
  } catch (e) {
    process.stderr.write(`pagelens: state not saved: ${(e as Error).message.split('\n')[0]}\n`);
    process.exitCode = 1;
  }
}
