// The saved state of an MCP server's browser session (issue 40): loaded into the context when it
// opens (--storage-state), saved on close and every --autosave seconds (--save-storage-state), each
// save behind the --state-check when one is given, and the browser_storage_state tool's paths
// confined the way uploads are: a state file is a credential, so the agent may read or write only
// the files named on the command line and files under a --state-dir, never elsewhere on the disk.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { isInside } from '../browser/static.js';
import { parseStateCheck, type StateCheck } from '../browser/stateCheck.js';
import { stateKey } from '../browser/stateFile.js';
import { loadContextState, saveContextState, type SaveOutcome } from '../browser/stateSave.js';
import { PagelensError } from '../model/contracts/errors.js';

export interface StateOptions {
  /** Load this state file into the context when it opens. */
  storageState?: string;
  /** Save the context's state here when the session closes (and every autosaveS seconds). */
  saveStorageState?: string;
  /** Seconds between saves to saveStorageState while the browser is open. */
  autosaveS?: number;
  /** Save only when the current page shows this (text, or `role "name"`): still logged in. */
  stateCheck?: string;
  /** Folders browser_storage_state may read and write state files in, besides the two files above. */
  stateDirs?: string[];
}

/** How long a save on close may take before the session closes without it. */
const CLOSE_SAVE_MS = 5000;

/** Refuses state flags that cannot mean anything, before any browser starts. */
export function checkStateOptions(opts: StateOptions): void {
  for (const [flag, path] of [['--storage-state', opts.storageState], ['--save-storage-state', opts.saveStorageState]] as const) {
    if (path !== undefined && !isAbsolute(path)) throw new PagelensError('BAD_INPUT', `${flag} must be an absolute path, got "${path}".`);
  }
  if (opts.autosaveS !== undefined && !opts.saveStorageState) throw new PagelensError('BAD_INPUT', '--autosave saves to --save-storage-state: give that file too.');
  if (opts.stateCheck !== undefined) parseStateCheck(opts.stateCheck);
  // A blank PAGELENS_STATE_KEY is refused now, not at the first save.
  stateKey();
}

export class StateKeeper {
  private readonly check?: StateCheck;
  private readonly dirs: string[];
  private timer?: NodeJS.Timeout;
  /** Whether the last autosave was refused by the check: said once per streak, not every N seconds. */
  private refusing = false;

  constructor(private readonly opts: StateOptions, private readonly log: (msg: string) => void = (m) => process.stderr.write(`pagelens mcp: ${m}\n`)) {
    checkStateOptions(opts);
    if (opts.stateCheck !== undefined) this.check = parseStateCheck(opts.stateCheck);
    this.dirs = (opts.stateDirs ?? []).map((d) => {
      try {
        const real = realpathSync(resolve(d));
        if (statSync(real).isDirectory()) return real;
      } catch { /* reported below */ }
      throw new PagelensError('BAD_INPUT', `--state-dir ${d}: not an existing folder.`);
    });
  }

  /** The context just opened: load the start state, start autosaving. */
  async opened(context: BrowserContext, page: () => Page | undefined, opts: { load?: boolean } = {}): Promise<void> {
    clearInterval(this.timer);
    if (this.opts.storageState && opts.load !== false) this.log((await loadContextState(context, this.opts.storageState)).message);
    if (this.opts.autosaveS && this.opts.saveStorageState) {
      this.timer = setInterval(() => void this.autosave(context, page()), this.opts.autosaveS * 1000);
      this.timer.unref();
    }
  }

  /** The session is closing: the last save, bounded so that a page that hangs cannot hold the close. */
  async closing(context: BrowserContext | undefined, page: Page | undefined): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    if (!context || !this.opts.saveStorageState) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((r) => { timer = setTimeout(() => r(`state not saved on close: the browser did not answer within ${CLOSE_SAVE_MS / 1000} s; ${this.opts.saveStorageState} keeps what it had`), CLOSE_SAVE_MS); });
    const saving = this.save(context, page, this.opts.saveStorageState).then((o) => o.message, (e: Error) => `state not saved on close: ${e.message.split('\n')[0]}`);
    this.log(await Promise.race([saving, late]).finally(() => clearTimeout(timer)));
  }

  /** browser_storage_state: save or load, at `path` (confined) or the file the command line named. */
  async run(action: 'save' | 'load', path: string | undefined, context: BrowserContext, page: Page | undefined): Promise<{ done: boolean; message: string }> {
    const file = this.confine(action, path);
    if (action === 'save') {
      const o = await this.save(context, page, file);
      return { done: o.saved, message: o.message };
    }
    const loaded = await loadContextState(context, file);
    return { done: true, message: `${loaded.message}; open or reload a page to use it` };
  }

  private save(context: BrowserContext, page: Page | undefined, file: string): Promise<SaveOutcome> {
    return saveContextState(context, file, { ...(this.check && { check: this.check }), ...(page && { page }) });
  }

  private async autosave(context: BrowserContext, page: Page | undefined): Promise<void> {
    try {
      const o = await this.save(context, page, this.opts.saveStorageState!);
      if (!o.saved && !this.refusing) this.log(`autosave: ${o.message}`);
      if (o.saved && this.refusing) this.log(`autosave: the check passes again; ${o.message}`);
      this.refusing = !o.saved;
    } catch (e) {
      // A context closing under the timer: the close's own save says what happened.
      if (!/closed/i.test((e as Error).message)) this.log(`autosave failed: ${(e as Error).message.split('\n')[0]}`);
    }
  }

  /** The real path the tool may use, or BAD_INPUT saying why not and what would allow it. */
  confine(action: 'save' | 'load', path: string | undefined): string {
    const named = [this.opts.saveStorageState, this.opts.storageState].filter((p): p is string => !!p).map((p) => resolve(p));
    const fallback = action === 'save' ? this.opts.saveStorageState : (this.opts.storageState ?? this.opts.saveStorageState);
    const p = path ?? fallback;
    if (p === undefined) throw new PagelensError('BAD_INPUT', `browser_storage_state ${action} needs a path: no ${action === 'save' ? '--save-storage-state' : '--storage-state'} file was given to the server.`);
    if (!isAbsolute(p)) throw new PagelensError('BAD_INPUT', `${p}: state file paths must be absolute.`);
    if (named.includes(resolve(p))) return resolve(p);
    if (!this.dirs.length) throw new PagelensError('BAD_INPUT', `${p} is not a state file this server was given: state files are credentials, so the tool may only use --storage-state, --save-storage-state and files under a --state-dir folder.`);
    // The folder must exist and be inside a state dir once links are followed; the file must not be a dotfile.
    let folder: string;
    try { folder = realpathSync(dirname(p)); } catch { throw new PagelensError('BAD_INPUT', `${p}: its folder does not exist.`); }
    let real = resolve(folder, basename(p));
    try { real = realpathSync(real); } catch { if (action === 'load') throw new PagelensError('BAD_INPUT', `${p}: no such file.`); }
    const root = this.dirs.find((r) => isInside(r, real));
    if (!root) throw new PagelensError('BAD_INPUT', `${p} is outside the --state-dir folders (${this.dirs.join(', ')}): refused.`);
    if (relative(root, real).split(sep).some((seg) => seg.startsWith('.'))) throw new PagelensError('BAD_INPUT', `${p} is a dotfile or inside a dot-folder: refused.`);
    return real;
  }
}
