// One snapshot request for every face: the modes, the formats and which option applies to which
// mode are one table (src/model/contracts/snapshotRequest.ts). The library, the MCP tool and the command line
// refuse the same combinations with the same reason (only the names of the options differ), and
// the library serves every mode the other faces do, axtree included.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { AxTreeResult } from '../../src/model/renderers/axtree.js';
import { FORMATS, OPTIONS, SNAPSHOT_MODES, snapshotRequestConflict, type SnapshotOption } from '../../src/model/contracts/snapshotRequest.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import { runCli } from '../support/cli-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

const NOWHERE = 'http://127.0.0.1:9/never.html';
const NO_BROWSER_ENV = { PAGELENS_CHROMIUM: '/nonexistent/chromium', PAGELENS_DEBUG: '' };

test('the table decides: an option is refused exactly for the modes its row leaves out', () => {
  for (const [opt, row] of Object.entries(OPTIONS) as Array<[SnapshotOption, (typeof OPTIONS)[SnapshotOption]]>) {
    if (row.needs) continue;
    for (const mode of SNAPSHOT_MODES) {
      const given = new Set<SnapshotOption>([opt]);
      const query = opt === 'query' ? 'x' : undefined;
      const conflict = snapshotRequestConflict({ mode, query, given });
      if (!row.modes || row.modes.includes(mode)) assert.equal(conflict, null, `${opt} with ${mode}`);
      else assert.match(conflict ?? '', new RegExp(`^${opt} does not apply to mode ${mode}: .+\\.$`), `${opt} with ${mode}`);
    }
  }
  for (const [format, row] of Object.entries(FORMATS)) {
    for (const mode of SNAPSHOT_MODES) {
      const conflict = snapshotRequestConflict({ mode, format: format as keyof typeof FORMATS, given: new Set() });
      assert.equal(conflict === null, (row.modes as readonly string[]).includes(mode), `${format} with ${mode}: ${conflict}`);
    }
  }
  assert.equal(snapshotRequestConflict({ mode: 'semantic_v3', given: new Set(['maxTokens']) }), 'maxTokens only applies with query: it is the budget of a filtered snapshot.');
});

test('the library, the MCP tool and the command line refuse the same combination for the same reason', async () => {
  const { lens } = await h.open('frames-leaf.html');
  const cases: Array<{ lib: object; tool: object; cli: string[]; reason: RegExp }> = [
    { lib: { mode: 'axtree', fullPage: true }, tool: { mode: 'axtree', fullPage: true }, cli: ['--mode', 'axtree', '--full-page'], reason: /the accessibility tree always covers the whole page\.$/ },
    { lib: { query: 'pay', fullPage: true }, tool: { query: 'pay', fullPage: true }, cli: ['--query', 'pay', '--full-page'], reason: /a filtered snapshot always searches the whole page\.$/ },
    { lib: { mode: 'hybrid', fullPage: true }, tool: { mode: 'hybrid', fullPage: true }, cli: ['--mode', 'hybrid', '--full-page'], reason: /it shows the viewport, as its screenshot does\.$/ },
    { lib: { mode: 'skeleton', query: 'pay' }, tool: { mode: 'skeleton', query: 'pay' }, cli: ['--mode', 'skeleton', '--query', 'pay'], reason: /it filters the semantic tree \(leave mode out\)\.$/ },
  ];
  for (const c of cases) {
    let libMessage = '';
    await assert.rejects(lens.snapshot(c.lib as never), (e) => { libMessage = (e as Error).message; return isPagelensError(e, 'BAD_INPUT'); });
    assert.match(libMessage, c.reason, JSON.stringify(c.lib));
    await assert.rejects(runTool(lens, 'page_snapshot', c.tool), (e) => isPagelensError(e, 'BAD_INPUT') && (e as Error).message === libMessage, JSON.stringify(c.tool));
    const cli = await runCli(['snapshot', NOWHERE, ...c.cli], { env: NO_BROWSER_ENV });
    assert.match(cli.stderr, /^pagelens: BAD_INPUT: /, c.cli.join(' '));
    assert.match(cli.stderr.trim(), c.reason, c.cli.join(' '));
    assert.doesNotMatch(cli.stderr, /NO_BROWSER/);
  }
});

test('the library serves every mode of the table, axtree included', async () => {
  const { lens } = await h.open('frames-leaf.html');
  const ax = AxTreeResult.parse(await lens.snapshot({ mode: 'axtree' }));
  assert.match(ax.outline, /button: Leaf button/);
  const modes = new Set<string>();
  for (const mode of SNAPSHOT_MODES) modes.add(((await lens.snapshot({ mode })) as { mode?: string }).mode ?? mode);
  assert.deepEqual([...modes].sort(), [...SNAPSHOT_MODES].sort());
});
