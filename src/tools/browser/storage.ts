// browser_storage_state: the browser context's logins (cookies, localStorage, IndexedDB) saved to or
// loaded from a file, so that an agent logs in once and a later session starts logged in. The
// holder of the browser does the work and decides which paths may be used (a state file is a
// credential); the answer is one line of counts and origins, never a cookie or a stored value.
import { z } from 'zod';
import { PagelensError } from '../../model/contracts/errors.js';
import { requireHost } from '../registry/host.js';
import { defineTool, jsonResult, type ToolDef } from '../registry/types.js';

export const STORAGE_TOOLS: ToolDef[] = [
  defineTool({
    name: 'browser_storage_state',
    description: 'Save the browser\'s logins (cookies, localStorage, IndexedDB) to a state file, or load one saved before. With the server\'s --state-check, a save happens only while the page still shows it (logged in); otherwise the last good file is kept. Paths: the files the server was started with, or under its --state-dir.',
    input: z.strictObject({
      action: z.enum(['save', 'load']).describe('save the current state, or load a saved one (then open or reload a page)'),
      path: z.string().min(1).optional().describe('Absolute path of the state file (default: the server\'s --save-storage-state for save, --storage-state for load)'),
    }),
    needs: ['tabs'],
    run: async (ctx, a) => {
      const host = requireHost(ctx.host, 'browser_storage_state');
      if (!host.storageState) throw new PagelensError('BAD_INPUT', 'browser_storage_state is unavailable on this host: it keeps no state files.');
      const r = await host.storageState(a.action, a.path);
      const data = { action: a.action, ...r };
      // One line for a model; the payload itself for a client that asked for JSON answers.
      return ctx.answers === 'json' ? jsonResult(data) : { text: r.message, data };
    },
  }),
];
