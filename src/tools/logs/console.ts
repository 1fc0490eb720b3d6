// The page's console, kept from the moment a holder starts watching: messages and uncaught errors
// as the host reports them (HostPage events), with their level, in a bounded buffer (a page that
// logs in a loop must not grow the server without end; what was dropped is counted and said).
import type { HostPage } from '../../model/contracts/hostPage.js';
import { oneLine } from '../../model/renderers/pageText.js';

export type ConsoleLevel = 'error' | 'warning' | 'info' | 'debug';
export const CONSOLE_LEVELS: readonly ConsoleLevel[] = ['error', 'warning', 'info', 'debug'];

export interface ConsoleEntry {
  level: ConsoleLevel;
  /** The console method (log, warn, error…), or "pageerror" for an uncaught exception. */
  type: string;
  text: string;
  /** url:line of the call, when the browser says. */
  location?: string;
  timestamp: number;
  /** Which document of the tab logged it (0 = the first one watched); see ConsoleLog.document. */
  document?: number;
  /** 1 for the tab's first message, then one more per message: what `since` counts. */
  seq?: number;
}

/** Messages kept per page; older ones are dropped first. */
export const CONSOLE_LIMIT = 500;
/** A single message longer than this is cut: one huge object dump must not fill a model's context. */
const TEXT_LIMIT = 2000;

export class ConsoleLog {
  readonly entries: ConsoleEntry[] = [];
  dropped = 0;
  /**
   * The tab's current document, counted from 0: the host reports a main-frame commit before the
   * new document's first script runs, so every message after it belongs to the new page.
   */
  document = 0;

  constructor(page: HostPage) {
    page.watch({
      console: (e) => this.push({ level: e.level, type: e.type, text: e.text, ...(e.location && { location: e.location }), timestamp: e.at }),
      document: () => { this.document++; },
    });
  }

  /** Entries at `level` or more severe, oldest first; only the current document's unless `all`. */
  select(level: ConsoleLevel = 'info', all = false): ConsoleEntry[] {
    const max = CONSOLE_LEVELS.indexOf(level);
    return this.entries.filter((e) => CONSOLE_LEVELS.indexOf(e.level) <= max && (all || e.document === this.document));
  }

  private push(e: ConsoleEntry): void {
    e.document = this.document;
    e.seq = this.dropped + this.entries.length + 1;
    if (e.text.length > TEXT_LIMIT) e.text = `${e.text.slice(0, TEXT_LIMIT)}… (${e.text.length} chars)`;
    this.entries.push(e);
    if (this.entries.length > CONSOLE_LIMIT) {
      this.entries.shift();
      this.dropped++;
    }
  }
}

const logs = new WeakMap<HostPage, ConsoleLog>();

/** The page's console log, started on first call (a holder calls it when the page opens). */
export function consoleLogOf(page: HostPage): ConsoleLog {
  let log = logs.get(page);
  if (!log) {
    log = new ConsoleLog(page);
    logs.set(page, log);
  }
  return log;
}

/** One line per entry, whatever the page printed (its line breaks escaped): what a model reads. */
export function renderConsole(entries: readonly ConsoleEntry[]): string {
  return entries.map((e) => `[${e.level}] ${oneLine(e.text)}${e.location ? ` @ ${oneLine(e.location)}` : ''}`).join('\n');
}
