// The ID ledger remembers the last 60,000 IDs handed out, newest last, and forgets the oldest
// beyond that. A warm read of a big page hands out the same IDs again; the ledger then updates
// their sightings in place instead of moving each one to the end (issue 21). That shortcut must
// forget exactly what moving them would have forgotten. No page: the ledger is fed models.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdLedger, IdNumbering } from '../../src/core/ledger.js';
import type { PageModel, PageNode } from '../../src/model/pagemodel/page.js';

function model(from: number, count: number, name = 'Save'): PageModel {
  const nodes = Array.from({ length: count }, (_, i): PageNode => ({
    id: String(from + i), gid: String(from + i), frame: 0, role: 'button', name: `${name} ${from + i}`, tag: 'button', states: [], box: [0, i * 20, 80, 20],
  }));
  return {
    url: 'http://127.0.0.1/', title: 't', viewport: { width: 1280, height: 800 }, scrollPosition: '0%', nodes, total: count,
    frames: [{ id: 0, url: 'http://127.0.0.1/' }] as PageModel['frames'], docs: { 0: 'doc-a' }, warnings: [], structure: [], headings: [], timeMs: 0,
    engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}

test('handing out the same IDs again keeps them newest: the ledger forgets the IDs handed out longest ago', () => {
  const ledger = new IdLedger(new IdNumbering(), 'tab');
  ledger.handOut(model(30_001, 30_000)); // B
  ledger.handOut(model(1, 30_000)); // A: now the newest
  ledger.handOut(model(1, 30_000, 'Saved')); // A again, the same IDs: still the newest, with the new sightings
  ledger.handOut(model(30_001, 100)); // part of B again: those 100 become the newest
  ledger.handOut(model(60_001, 150)); // 150 new IDs: the 150 handed out longest ago are forgotten
  const gone = (gid: number) => ledger.sighting(String(gid)) === undefined;
  assert.deepEqual([30_001, 30_100, 1, 30_000].filter(gone), [], 'handed out in the last reads');
  assert.deepEqual([30_101, 30_250].filter((g) => !gone(g)), [], 'the oldest, forgotten');
  assert.equal(gone(30_251), false);
  assert.equal(ledger.sighting('7')?.name, 'Saved 7', 'the sighting of the last read');
  // Once more with the newest read repeated: what a warm re-read of an unchanged page does.
  ledger.handOut(model(60_001, 150));
  ledger.handOut(model(60_151, 10));
  assert.deepEqual([30_251, 30_260].filter((g) => !gone(g)), []);
  assert.equal(gone(60_001), false);
});
