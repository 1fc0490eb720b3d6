// src/core/handOut.ts on its own (issue 44): a read handed to the caller records its nodes in the
// tab's ledger, bound to the document that issued them, and keeps the ledger; IDs of an earlier
// document are then looked up there and nowhere else.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readHandedOut } from '../../src/core/handOut.js';
import { IdNumbering, tabLedger } from '../../src/core/ledger.js';
import type { PageModel } from '../../src/model/pagemodel/page.js';

function model(doc: string, names: string[]): PageModel {
  return {
    url: `http://127.0.0.1/${doc}`, title: doc, viewport: { width: 800, height: 600 }, scrollPosition: '0%',
    nodes: names.map((name, i) => ({ id: String(i + 1), gid: String(i + 1), frame: 0, role: 'button', name, tag: 'button', states: [], box: [0, i * 20, 40, 20] })),
    total: names.length, frames: [{ id: 0, url: `http://127.0.0.1/${doc}`, origin: 'http://127.0.0.1', parentId: null, crossOrigin: false, sandboxed: false }],
    docs: { 0: doc }, warnings: [], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}

test('readHandedOut: reads as asked, binds every node to its document, keeps the ledger once', async () => {
  const ledger = await tabLedger(new IdNumbering(), 't');
  const calls: string[] = [];
  let next = model('doc-A', ['Save', 'Cancel']);
  const host = { ledger, read: async (o: { fullPage: boolean }) => { calls.push(`read ${o.fullPage}`); return next; }, keep: async () => { calls.push('keep'); } };
  const m = await readHandedOut(host, { fullPage: true });
  assert.equal(m, next, 'the model as read');
  assert.deepEqual(calls, ['read true', 'keep'], 'kept after it was handed out');
  assert.equal(ledger.sighting('1')?.doc, 'doc-A');
  assert.deepEqual(ledger.sighting('2')?.centre, [20, 30]);
  assert.deepEqual(ledger.admit('2', 'here'), { frame: 0, local: '2', doc: 'doc-A' });
  // The page navigated; the new document's read is handed out: ID 1 is now bound to doc-B, and an
  // ID only the earlier document issued stays bound to it (the host refuses it there: NAVIGATED).
  next = model('doc-B', ['Next']);
  await readHandedOut(host, { fullPage: false });
  assert.equal(ledger.sighting('1')?.doc, 'doc-B');
  assert.equal(ledger.admit('2', 'here').doc, 'doc-A', 'an ID of the earlier document is never re-bound to the later one');
  assert.equal(ledger.expectedDoc('7', 0), 'doc-B', 'an ID never handed out is looked up in the frame\'s last document');
});

test('readHandedOut: a read that fails hands out nothing and keeps nothing', async () => {
  const ledger = await tabLedger(new IdNumbering(), 't');
  let kept = 0;
  const host = { ledger, read: async () => { throw new Error('frame gone'); }, keep: async () => { kept++; } };
  await assert.rejects(readHandedOut(host, { fullPage: true }), /frame gone/);
  assert.equal(kept, 0);
  assert.equal(ledger.sighting('1'), undefined);
});
