// src/core/ledger.ts on its own (issue 44): the one ID ledger both hosts use, fed models and a fake
// storage that keeps only what survives JSON (as chrome.storage.session keeps it). One test per rule:
// numbering across documents, binding to the issuing document, other tabs, restart; and that a
// refusal never re-binds an old ID. The same rules on real pages: test/core/host-matrix.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IdNumbering, memoryStorage, releaseLedger, tabLedger, type IdLedger, type LedgerStorage } from '../../src/core/ledger.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { PageModel, PageNode } from '../../src/model/pagemodel/page.js';

/** A storage that keeps values as JSON text, as a browser's session store would: a Map or a class would not survive it. */
function jsonStorage(): LedgerStorage & { values: Map<string, string> } {
  const values = new Map<string, string>();
  return {
    values,
    get: async (key) => (values.has(key) ? JSON.parse(values.get(key)!) : undefined),
    set: async (key, value) => { values.set(key, JSON.stringify(value)); },
    remove: async (key) => { values.delete(key); },
  };
}

/** A read of frame 0 (and frame 1 when `frameIds` are given) handed out by document `doc`. */
function model(doc: string, ids: number[], opts: { frameDoc?: string; frameIds?: number[]; name?: string } = {}): PageModel {
  const node = (gid: string, frame: number, i: number): PageNode => ({ id: gid.replace(/^f\d+_/, ''), gid, frame, role: 'button', name: `${opts.name ?? 'Button'} ${gid}`, tag: 'button', states: [], box: [0, i * 20, 80, 20] });
  const nodes = [...ids.map((n, i) => node(String(n), 0, i)), ...(opts.frameIds ?? []).map((n, i) => node(`f1_${n}`, 1, i))];
  const frames = [{ id: 0, url: `http://127.0.0.1/${doc}` }, ...(opts.frameDoc ? [{ id: 1, url: `http://127.0.0.1/${opts.frameDoc}` }] : [])];
  return {
    url: `http://127.0.0.1/${doc}`, title: doc, viewport: { width: 1280, height: 800 }, scrollPosition: '0%', nodes, total: nodes.length,
    frames: frames as PageModel['frames'], docs: opts.frameDoc ? { 0: doc, 1: opts.frameDoc } : { 0: doc }, warnings: [], structure: [], headings: [], timeMs: 0,
    engine: { ms: 0, reusedNames: 0, visited: 0 },
  };
}

/** A document numbers itself as a host would: from where the ledger says, issuing `count` IDs. */
function numberDocument(ledger: IdLedger, lineage: string, top: boolean, count: number): number[] {
  const from = ledger.start(lineage, top);
  const ids = Array.from({ length: count }, (_, i) => from + i + 1);
  ledger.claimed(lineage, top, from + count);
  return ids;
}

const refusedWith = (code: string) => (e: unknown) => isPagelensError(e, code as never);

test('numbering: a lineage\'s first document starts where the tab started, every later one above every ID the session handed out', async () => {
  const session = new IdNumbering(jsonStorage());
  const tab = await tabLedger(session, '1');
  assert.deepEqual(numberDocument(tab, 'main', true, 3), [1, 2, 3], 'the first tab\'s first document is numbered as it always was');
  assert.deepEqual(numberDocument(tab, 'frame-a', false, 2), [1, 2], 'an iframe\'s first document too');
  // An ID handed out by no read (a search's text block, a cover's control) counts as much as a read's.
  tab.note('9', { doc: 'A', frame: 0, role: 'item', name: 'a paragraph', centre: [0, 0] });
  assert.deepEqual(numberDocument(tab, 'main', true, 2), [10, 11], 'the next top document starts above 9');
  assert.deepEqual(numberDocument(tab, 'frame-a', false, 1), [12], 'so does the iframe\'s next document');
  assert.deepEqual(numberDocument(tab, 'frame-b', false, 1), [1], 'a new iframe starts a lineage where the tab started');
  const other = await tabLedger(session, '2');
  assert.deepEqual(numberDocument(other, 'main', true, 2), [13, 14], 'another tab starts above the whole session');
  assert.deepEqual(numberDocument(other, 'frame-c', false, 1), [13], 'and so do its iframes\' first documents');
});

test('binding: an ID is looked up in the document that issued it, never in a later one, however often it is refused', async () => {
  const tab = await tabLedger(new IdNumbering(), '1');
  tab.handOut(model('A', [1, 2], { frameDoc: 'FA', frameIds: [1] }));
  tab.handOut(model('B', [5, 6], { frameDoc: 'FB', frameIds: [4] }));
  assert.equal(tab.admit('1', 'http://127.0.0.1/B').doc, 'A', 'an ID of A stays bound to A after B was handed out');
  assert.equal(tab.admit('f1_1', 'http://127.0.0.1/B').doc, 'FA', 'a frame\'s ID to the frame\'s document that issued it');
  assert.equal(tab.admit('5', 'http://127.0.0.1/B').doc, 'B');
  assert.equal(tab.admit('7', 'http://127.0.0.1/B').doc, 'B', 'an ID never handed out: the frame\'s last document');
  assert.equal(tab.admit('f2_1', 'x').doc, undefined, 'a frame this tab never handed out: no document (the host decides)');
  // A refusal (the host's, NAVIGATED) re-binds nothing: the ID stays A's, and A's URL is what the refusal names.
  for (let i = 0; i < 3; i++) assert.equal(tab.admit('1', 'x').doc, 'A');
  assert.equal(tab.urlOf('A'), 'http://127.0.0.1/A');
  assert.throws(() => tab.admit('not an id', 'x'), refusedWith('BAD_INPUT'));
});

test('other tab: an ID only another tab of the session handed out is refused; one both handed out is this tab\'s; a closed tab\'s no longer counts', async () => {
  const session = new IdNumbering();
  const one = await tabLedger(session, '1');
  const two = await tabLedger(session, '2');
  one.handOut(model('A', [1, 2, 3]));
  two.handOut(model('B', [3, 4]));
  assert.throws(() => two.admit('1', 'http://127.0.0.1/B'), (e) => refusedWith('NAVIGATED')(e) && /handed out in another tab, not this one \(http:\/\/127\.0\.0\.1\/B\)/.test((e as Error).message));
  assert.equal(two.admit('3', 'x').doc, 'B', 'an ID this tab handed out is its own, whatever another tab did');
  assert.throws(() => one.admit('4', 'x'), refusedWith('NAVIGATED'));
  assert.equal(two.sighting('1'), undefined, 'the refusal recorded nothing');
  await releaseLedger(one);
  assert.equal(two.admit('1', 'x').doc, 'B', 'tab one closed: its IDs are no longer another tab\'s (the engine\'s numbering still guards)');
  const other = new IdNumbering();
  assert.equal((await tabLedger(other, '1')).admit('4', 'x').doc, undefined, 'another session\'s tabs are none of this one\'s');
});

test('restart: a new session over the same storage knows what the last one knew, other tabs included; a forgotten tab is gone from it', async () => {
  const storage = jsonStorage();
  const before = new IdNumbering(storage);
  const one = await tabLedger(before, '1');
  const two = await tabLedger(before, '2');
  numberDocument(one, 'main', true, 2);
  one.handOut(model('A', [1, 2], { frameDoc: 'FA', frameIds: [1] }));
  one.note('30', { doc: 'A', frame: 0, role: 'item', name: 'a paragraph', centre: [0, 0] });
  two.handOut(model('B', [40]));
  await one.save();
  await two.save();
  // A service worker stopped and woken: nothing in memory, the storage as it was.
  const after = new IdNumbering(storage);
  const again = await tabLedger(after, '1');
  assert.equal(after.highWater, 40);
  assert.deepEqual(again.sighting('1'), { doc: 'A', frame: 0, role: 'button', name: 'Button 1', centre: [40, 10] });
  assert.equal(again.admit('f1_9', 'x').doc, 'FA', 'the frame\'s last document');
  assert.equal(again.urlOf('A'), 'http://127.0.0.1/A');
  assert.throws(() => again.admit('40', 'x'), refusedWith('NAVIGATED'), 'tab two, restored from storage alone, is still another tab');
  assert.deepEqual(numberDocument(again, 'main', true, 1), [41], 'the top frame\'s next document numbers above every ID handed out before the restart');
  assert.deepEqual(numberDocument(again, 'frame-new', false, 1), [1], 'and a new lineage starts where the tab started, as before');
  await after.forget('2');
  assert.equal(again.admit('40', 'x').doc, 'A', 'a tab closed for good leaves the session');
  assert.ok(![...storage.values.keys()].some((k) => k.endsWith('.2')), [...storage.values.keys()].join(' '));
  const third = new IdNumbering(storage);
  assert.equal((await tabLedger(third, '1')).admit('40', 'x').doc, 'A', 'nor does it come back with the next restart');
});

test('the in-memory storage the CDP host uses keeps a released ledger for the next holder of the same page', async () => {
  const session = new IdNumbering(memoryStorage());
  const lens = await tabLedger(session, 'target-1');
  lens.handOut(model('A', [1]));
  await releaseLedger(lens);
  const reattached = await tabLedger(session, 'target-1');
  assert.notEqual(reattached, lens);
  assert.equal(reattached.sighting('1')?.doc, 'A');
  // Two holders of one page share its ledger; it leaves the session when the last lets go.
  const second = await tabLedger(session, 'target-1');
  assert.equal(second, reattached);
  await releaseLedger(reattached);
  assert.equal((await tabLedger(session, 'target-1')), second);
});
