// What happened on the page besides what the tree shows: the engine's mutation log (toasts,
// errors, loading states, even ones already gone) and the browser console.
import { z } from 'zod';
import { renderEvents } from '../browser/events.js';
import { summarize } from '../model/outcome.js';
import { CONSOLE_LEVELS, renderConsole, watchConsole, type ConsoleLevel } from './console.js';
import { defineTool, type ToolDef } from './types.js';

export const LOG_TOOLS: ToolDef[] = [
  defineTool({
    name: 'recent_events',
    description: 'The page\'s latest meaningful changes, oldest first ("[2s ago] Added: \'Saved\'"), transient toasts and errors included, with a summary of errors and successes.',
    input: z.strictObject({ limit: z.number().int().min(1).max(100).optional().describe('Events at most (default 10)') }),
    run: async ({ lens }, a) => {
      const { events, unread } = await lens.recentEvents(a.limit ?? 10);
      const summary = summarize(events);
      const lines = events.length ? renderEvents(events) : ['no changes recorded'];
      if (summary.errors.length) lines.push(`errors: ${summary.errors.join(' | ')}`);
      if (summary.successes.length) lines.push(`successes: ${summary.successes.join(' | ')}`);
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
    }),
    run: async ({ lens }, a) => {
      const log = watchConsole(lens.page);
      const entries = log.select(a.level ?? 'info', a.all ?? false);
      const head = log.dropped ? `(${log.dropped} older messages dropped)\n` : '';
      return { text: head + (entries.length ? renderConsole(entries) : 'no console messages'), data: { messages: entries, dropped: log.dropped } };
    },
  }),
];
