// What an action caused beyond the tree: console messages and page errors (from the host port),
// and, where the host offers it (extras.watchAction), the HTTP status of a document it loaded,
// requests that failed, popups it opened and files it downloaded. Listening starts before the
// action and stops when its answer is built, so each answer carries only its own effects.
import type { HostPage } from '../../model/contracts/hostPage.js';
import { consoleLogOf, renderConsole } from '../logs/console.js';
import type { ActionEffects, ToolExtras } from '../registry/extras.js';

/** Console lines an answer carries at most (the rest: browser_console_messages). */
const CONSOLE_LINES = 8;
/** Characters of one console line in an action's answer. */
const LINE_MAX = 240;

function cutLine(line: string): string {
  return line.length > LINE_MAX ? `${line.slice(0, LINE_MAX - 1)}…` : line;
}

export interface Happened extends ActionEffects {
  console?: string[];
}

export class ActionWatch {
  private readonly consoleStart: number;
  private readonly effects?: ReturnType<NonNullable<ToolExtras['watchAction']>>;

  constructor(private readonly page: HostPage, extras: ToolExtras) {
    const log = consoleLogOf(page);
    this.consoleStart = log.dropped + log.entries.length;
    this.effects = extras.watchAction?.();
  }

  /** Stops listening and says what happened; waits for downloads to be saved. */
  async finish(opts: { tabIndexOf?: (url: string) => Promise<number | undefined> } = {}): Promise<Happened> {
    const effects = await this.effects?.finish(opts) ?? {};
    const lines = this.newConsole();
    // The keys in the order answers always had: status, console, failed requests, popup, downloads.
    const { http, ...rest } = effects;
    return { ...(http && { http }), ...(lines.length && { console: lines }), ...rest };
  }

  private newConsole(): string[] {
    const log = consoleLogOf(this.page);
    const fresh = log.dropped + log.entries.length - this.consoleStart;
    if (fresh <= 0) return [];
    const entries = log.entries.slice(Math.max(0, log.entries.length - fresh));
    // An action's answer carries the gist of each message; browser_console_messages has them whole.
    const shown = entries.slice(-CONSOLE_LINES).map((e) => cutLine(renderConsole([e])));
    if (fresh > shown.length) shown.unshift(`${fresh - shown.length} earlier: browser_console_messages`);
    return shown;
  }
}
