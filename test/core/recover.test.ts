// src/core/recover.ts on its own (issue 44): an ID whose element was re-rendered away is matched
// again only within the document that issued it (same role and name where it stood), the match is
// noted in the ledger; an ID of a document that is gone is never re-bound across documents.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdNumbering, tabLedger, type IdLedger } from '../../src/core/ledger.js';
import { recoverInLedger } from '../../src/core/recover.js';
import type { PageModel, PageNode } from '../../src/model/pagemodel/page.js';

const n = (id: string, name: string, y: number, role = 'button'): PageNode => ({ id, gid: id, frame: 0, role, name, tag: 'button', states: [], box: [10, y, 80, 20] });
function model(doc: string, nodes: PageNode[]): PageModel {
  return {
    url: `http://127.0.0.1/${doc}`, title: doc, viewport: { width: 800, height: 600 }, scrollPosition: '0%', nodes, total: nodes.length,
    frames: [{ id: 0, url: `http://127.0.0.1/${doc}`, origin: 'http://127.0.0.1', parentId: null, crossOrigin: false, sandboxed: false }],
    docs: { 0: doc }, warnings: [], structure: [], headings: [], timeMs: 0, engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}

async function ledgerWith(doc: string, nodes: PageNode[]): Promise<IdLedger> {
  const ledger = await tabLedger(new IdNumbering(), 't');
  ledger.handOut(model(doc, nodes));
  return ledger;
}

test('within the same document: the one element of the same role and name where it stood is the match, and it is noted', async () => {
  const ledger = await ledgerWith('doc-A', [n('3', 'Add to cart', 100), n('4', 'Checkout', 200)]);
  let reads = 0;
  const r = await recoverInLedger(ledger, '3', async () => { reads++; return model('doc-A', [n('9', 'Add to cart', 102), n('4', 'Checkout', 200)]); });
  assert.equal(reads, 1);
  assert.ok(r.ok, JSON.stringify(r));
  assert.equal(r.gid, '9');
  assert.equal(r.doc, 'doc-A', 'bound to the document that issued the lost ID');
  assert.match(r.message, /ID 3 → ID 9/);
  assert.deepEqual([ledger.sighting('9')?.doc, ledger.sighting('9')?.name], ['doc-A', 'Add to cart'], 'the match is handed out like a snapshot\'s ID');
});

test('across documents: never re-bound, NAVIGATED, and nothing noted', async () => {
  const ledger = await ledgerWith('doc-A', [n('3', 'Add to cart', 100)]);
  const r = await recoverInLedger(ledger, '3', async () => model('doc-B', [n('9', 'Add to cart', 100)]));
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.code, 'NAVIGATED');
  assert.match(r.message, /belongs to a document that is gone/);
  assert.equal(ledger.sighting('9'), undefined, 'nothing of the later document was handed out by the attempt');
});

test('an ID no snapshot handed out, or one with no single match, is not recovered (and the page is not read for the first)', async () => {
  const ledger = await ledgerWith('doc-A', [n('3', 'Delete', 100)]);
  let reads = 0;
  const unknown = await recoverInLedger(ledger, '77', async () => { reads++; return model('doc-A', []); });
  assert.deepEqual([unknown.ok, !unknown.ok && unknown.code, reads], [false, 'UNKNOWN_ID', 0]);
  const twins = await recoverInLedger(ledger, '3', async () => model('doc-A', [n('8', 'Delete', 100), n('9', 'Delete', 100)]));
  assert.equal(twins.ok, false, 'two equally good matches are not a match');
  const none = await recoverInLedger(ledger, '3', async () => model('doc-A', [n('8', 'Help', 400, 'link')]));
  assert.equal(none.ok, false);
});
