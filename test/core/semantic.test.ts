// src/core/semantic.ts on its own (issue 44): the semantic payloads from the host's read (semantic_v3
// of the viewport, semantic of what was asked), the page's recent events rendered in, what the host
// could not read said as a warning, the real o200k token count, and every ID shown handed out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdNumbering, tabLedger } from '../../src/core/ledger.js';
import type { ReadHost, ReadOptions } from '../../src/core/port.js';
import { semanticSnapshot } from '../../src/core/semantic.js';
import type { MutationEvent } from '../../src/model/pagemodel/mutations.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';
import { countTokens } from '../../src/model/renderers/tokens.js';

function model(): PageModel {
  return {
    url: 'http://127.0.0.1/', title: 'Shop', viewport: { width: 800, height: 600 }, scrollPosition: '0%',
    nodes: [{ id: '1', gid: '1', frame: 0, role: 'button', name: 'Buy now', tag: 'button', states: [], box: [10, 10, 80, 20] }, { id: '2', gid: '2', frame: 0, role: 'textbox', name: 'Email', tag: 'input', value: 'a@b.c', states: [], box: [10, 40, 80, 20] }],
    total: 2, frames: [{ id: 0, url: 'http://127.0.0.1/', origin: 'http://127.0.0.1', parentId: null, crossOrigin: false, sandboxed: false }],
    docs: { 0: 'doc-0' }, warnings: ['a warning of the read'], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}

async function host(events: MutationEvent[], unread: string[]): Promise<ReadHost & { reads: ReadOptions[]; kept: number }> {
  const h = {
    reads: [] as ReadOptions[], kept: 0,
    ledger: await tabLedger(new IdNumbering(), 't'),
    async read(o: ReadOptions) { h.reads.push(o); return model(); },
    async keep() { h.kept++; },
    recentEvents: async (limit: number) => { assert.equal(limit, 10, 'ten recent changes at most'); return { events, unread }; },
  };
  return h as unknown as ReadHost & typeof h;
}

test('semantic_v3: the viewport read, rendered, with its recent events, what could not be read, and its real token count', async () => {
  const ev: MutationEvent = { timestamp: Date.now(), type: 'added', category: 'error', description: "error: 'Card declined'", seq: 3, frame: 1 };
  const h = await host([ev], ['recent changes in frame 2 could not be read (gone)']);
  const r = await semanticSnapshot(h, { mode: 'semantic_v3', fullPage: true, boxes: false });
  assert.deepEqual(h.reads, [{ fullPage: true }], 'reads what was asked');
  assert.equal(r.mode, 'semantic_v3');
  assert.deepEqual(r.mode === 'semantic_v3' && r.interactive_tree.map((n) => [n.i, n.n]), [['1', 'Buy now'], ['2', 'Email']]);
  assert.equal(r.recent_events?.length, 1);
  assert.match(r.recent_events![0], /Card declined.*\(frame 1\)/);
  assert.deepEqual(r.warnings, ['a warning of the read', 'recent changes in frame 2 could not be read (gone)']);
  // The count is of the payload as it stood before the count was added to it.
  assert.ok(r.meta.estimatedTokens > 20);
  assert.equal(r.meta.estimatedTokens, await countTokens(JSON.stringify({ ...r, meta: { ...r.meta, estimatedTokens: 0 } })));
  assert.equal(h.kept, 1);
  assert.equal(h.ledger.sighting('2')?.doc, 'doc-0', 'what it shows is handed out');
});

test('semantic (V2): its own payload; no events means no recent_events and no extra warning', async () => {
  const h = await host([], []);
  const r = await semanticSnapshot(h, { mode: 'semantic', fullPage: false, boxes: false });
  assert.equal(r.mode, 'semantic');
  assert.deepEqual(r.mode === 'semantic' && r.nodes.map((n) => n.name), ['Buy now', 'Email']);
  assert.equal(r.recent_events, undefined);
  assert.deepEqual(r.warnings, ['a warning of the read']);
});
