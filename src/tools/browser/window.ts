// The browser around the page: tabs, closing the browser, the viewport's size. Tabs and closing
// need the holder of the browser (ctx.host); resizing only needs the page (the host port).
import { z } from 'zod';
import { PagelensError } from '../../model/contracts/errors.js';
import type { ActionResult } from '../../model/contracts/outcome.js';
import { quotedPageText } from '../../model/renderers/pageText.js';
import { runAction } from '../answers/acting.js';
import { requireHost, type TabInfo } from '../registry/host.js';
import { defineTool, jsonResult, type ToolDef } from '../registry/types.js';

/** The tab list as a model reads it: one line each, the current one marked; titles are page text, quoted. */
function renderTabs(tabs: TabInfo[]): string {
  if (!tabs.length) return 'no tabs open (the next call opens one)';
  return tabs.map((t) => `${t.current ? '*' : ' '} ${t.index}: ${t.title ? quotedPageText(t.title) : '(no title)'} <${t.url}>${t.loading ? ` loading <${t.loading}>` : ''}`).join('\n');
}

const Tabs = z.strictObject({
  action: z.enum(['list', 'new', 'select', 'close']).describe('list the tabs, open a new one (it becomes current), select one, or close one'),
  index: z.number().int().min(0).optional().describe('Tab index for select (required) and close (default: the current tab)'),
  url: z.string().min(1).optional().describe('With new: open this URL in the new tab'),
});

const MIN_SIZE = 100;
const MAX_SIZE = 10_000;

export const WINDOW_TOOLS: ToolDef[] = [
  defineTool({
    name: 'browser_tabs',
    description: 'List, open, select or close tabs. Pages the site opens (popups, target=_blank) appear in the list. Actions and snapshots work on the current tab (*).',
    input: Tabs,
    needs: ['tabs'],
    run: async (ctx, a) => {
      const host = requireHost(ctx.host, 'browser_tabs');
      if (a.action === 'select' && a.index === undefined) throw new PagelensError('BAD_INPUT', 'browser_tabs select needs index (see browser_tabs list).');
      if (a.url !== undefined && a.action !== 'new') throw new PagelensError('BAD_INPUT', 'url only applies to browser_tabs new.');
      if (a.index !== undefined && (a.action === 'list' || a.action === 'new')) throw new PagelensError('BAD_INPUT', `index does not apply to browser_tabs ${a.action}.`);
      if (a.action === 'new') {
        if (a.url !== undefined) host.checkNavigation?.(a.url);
        const lens = await host.newTab();
        if (a.url !== undefined) {
          const url = a.url;
          // The new tab's own state: its first answer carries its whole snapshot.
          const tab = ctx.contextOf!(lens);
          const opened = await runAction(tab, () => tab.lens.act({ type: 'navigate', url }), { snapshot: true });
          const tabs = await host.listTabs();
          const data = { tabs, ...(opened.data as object) };
          return { text: `${renderTabs(tabs)}\n${opened.text}`, data, ...(opened.isError && { isError: true }) };
        }
      } else if (a.action === 'select') {
        await host.selectTab(a.index!);
      } else if (a.action === 'close') {
        await host.closeTab(a.index);
      }
      const tabs = await host.listTabs();
      const note = a.action === 'list' ? '' : '\n(take page_snapshot to see the current tab)';
      return { text: renderTabs(tabs) + note, data: { tabs } };
    },
  }),
  defineTool({
    name: 'browser_close',
    description: 'Close the browser (an attached one is only disconnected). The next tool call opens a fresh page.',
    input: z.strictObject({}),
    needs: ['tabs'],
    run: async (ctx) => {
      await requireHost(ctx.host, 'browser_close').closeBrowser();
      return jsonResult({ closed: true });
    },
  }),
  defineTool({
    name: 'browser_resize',
    description: 'Resize the viewport (CSS pixels). Answers with the delta: elements that came into or left the viewport.',
    input: z.strictObject({
      width: z.number().int().min(MIN_SIZE).max(MAX_SIZE).describe('Viewport width'),
      height: z.number().int().min(MIN_SIZE).max(MAX_SIZE).describe('Viewport height'),
    }),
    run: (ctx, a) => runAction(ctx, async (): Promise<ActionResult> => {
      const what = `resize(${a.width}x${a.height})`;
      try {
        await ctx.page.setViewport({ width: a.width, height: a.height });
        return { action: what, ok: true, method: 'none', detail: `viewport now ${a.width}x${a.height}` };
      } catch (e) {
        return { action: what, ok: false, method: 'none', error: { code: 'NOT_ACTIONABLE', message: (e as Error).message.split('\n')[0] } };
      }
    }),
  }),
];
