// What happened on the page besides what the tree shows: the engine's mutation log (toasts,
// errors, loading states, even ones already gone) and the browser console.
import { z } from 'zod';
import { renderEvents, summarize } from '../../model/pagemodel/mutations.js';
import { quotedPageText } from '../../model/renderers/pageText.js';
import { fitLines } from '../answers/budget.js';
import { NETWORK_TOOL } from './network.js';
import { ceilingOf } from '../answers/ceiling.js';
import { CONSOLE_LEVELS, consoleLogOf, renderConsole, type ConsoleLevel } from './console.js';
import { defineTool, type ToolDef } from '../registry/types.js';

/** Tokens kept for the lines around the messages (dropped count, "N more"). */
const CONSOLE_ENVELOPE = 40;

export const LOG_TOOLS: ToolDef[] = [
  defineTool({
    name: 'recent_events',
    description: 'The page\'s latest meaningful changes, oldest first ("[2s ago] Added: \'Saved\'"), transient toasts and errors included, with a summary of errors and successes.',
    input: z.strictObject({ limit: z.number().int().min(1).max(100).optional().describe('Events at most (default 10)') }),
    needs: ['recentEvents'],
    run: async ({ lens }, a) => {
      const { events, unread } = await lens.recentEvents!(a.limit ?? 10);
      const summary = summarize(events);
      const lines = events.length ? renderEvents(events) : ['no changes recorded'];
      // The messages are page text: quoted (src/model/renderers/pageText.ts), so none can pass for our own words.
      if (summary.errors.length) lines.push(`errors: ${summary.errors.map(quotedPageText).join(', ')}`);
      if (summary.successes.length) lines.push(`successes: ${summary.successes.map(quotedPageText).join(', ')}`);
      if (summary.has_loading) lines.push('loading: something was still loading');
      for (const u of unread) lines.push(`warning: ${u}`);
      return { text: lines.join('\n'), data: { events, summary, ...(unread.length && { unread }) } };
    },
  }),
  defineTool({
    name: 'browser_console_messages',
    description: 'Console messages and uncaught errors of the current page (all: since the tab opened), oldest first.',
    input: z.strictObject({
      level: z.enum(CONSOLE_LEVELS as [ConsoleLevel, ...ConsoleLevel[]]).optional().describe('Least severe level to return: error, warning, info (default) or debug'),
      all: z.boolean().optional().describe('Include the messages of earlier pages of this tab (default: the current page only)'),
      since: z.number().int().min(0).optional().describe('Only messages after this one (the number an earlier answer gave in "since=")'),
    }),
    run: async ({ page, ceiling }, a) => {
      const log = consoleLogOf(page);
      const entries = log.select(a.level ?? 'info', a.all ?? false).filter((e) => a.since === undefined || (e.seq ?? 0) > a.since);
      const head = log.dropped ? `(${log.dropped} older messages dropped)\n` : '';
      // Oldest first, as many as the ceiling holds (less room for the lines around them); the rest by since=.
      const { kept } = await fitLines(entries, (e) => renderConsole([e]), (ceiling ?? ceilingOf('browser_console_messages')) - CONSOLE_ENVELOPE);
      const shown = kept.length || !entries.length ? kept : entries.slice(0, 1);
      const rest = entries.length - shown.length;
      const tail = rest ? `\n${rest} more messages: browser_console_messages since=${shown[shown.length - 1].seq}` : '';
      return { text: head + (shown.length ? renderConsole(shown) : 'no console messages') + tail, data: { messages: shown, more: rest, dropped: log.dropped } };
    },
  }),
  NETWORK_TOOL,
];
