// browser_network_requests: the page's requests as an agent needs them (method, URL, status and
// type), failed ones first (a 500 from "Save" is what the agent is looking for), then the rest,
// static resources only when asked, under the answer's ceiling.
import { z } from 'zod';
import { fitLines } from '../answers/budget.js';
import { ceilingOf } from '../answers/ceiling.js';
import { failed, renderRequest, STATIC_TYPES } from './requests.js';
import { defineTool, type ToolDef } from '../registry/types.js';

/** Tokens kept for the lines around the requests. */
const ENVELOPE = 40;

export const NETWORK_TOOL: ToolDef = defineTool({
  name: 'browser_network_requests',
  description: 'Requests of the current page: method, URL, status (or the failure) and type, failed ones first.',
  input: z.strictObject({
    static: z.boolean().optional().describe('Include images, fonts, stylesheets and media (default false)'),
    failedOnly: z.boolean().optional().describe('Only requests that failed or answered 400 or more'),
    all: z.boolean().optional().describe('Include the requests of earlier pages of this tab'),
  }),
  needs: ['extras.networkLog'],
  run: async ({ extras, ceiling }, a) => {
    const log = extras.networkLog!();
    const ofPage = log.entries.filter((e) => a.all || e.document === log.currentDocument);
    const picked = ofPage.filter((e) => (a.static || !STATIC_TYPES.has(e.type)) && (!a.failedOnly || failed(e)));
    const staticLeft = a.static ? 0 : ofPage.filter((e) => STATIC_TYPES.has(e.type) && (!a.failedOnly || failed(e))).length;
    const ordered = [...picked.filter(failed), ...picked.filter((e) => !failed(e))];
    const { kept } = await fitLines(ordered, renderRequest, (ceiling ?? ceilingOf('browser_network_requests')) - ENVELOPE);
    const lines = kept.map(renderRequest);
    const left = ordered.length - kept.length;
    if (left) lines.push(`${left} more requests: ask with failedOnly=true, or a larger ceiling`);
    if (log.dropped) lines.unshift(`(${log.dropped} older requests dropped)`);
    if (log.note) lines.unshift(`(${log.note})`);
    const nFailed = picked.filter(failed).length;
    const head = `${picked.length} requests, ${nFailed} failed${staticLeft ? ` (${staticLeft} images, fonts, stylesheets and media left out: static=true)` : ''}`;
    return { text: [head, ...lines].join('\n'), data: { requests: kept, more: left, failed: nFailed } };
  },
});
