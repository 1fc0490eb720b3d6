// src/core/act.ts on its own (issue 44): the act pipeline over a fake ActHost. An ID is resolved in
// its document; an element re-rendered away is recovered where the host can (and said), else the
// refusal stands; an element that is no longer what the snapshot showed is STALE_ID; a value is
// masked in the result until the field is known not to be secret; a page that did not settle is said.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runAct } from '../../src/core/act.js';
import type { ActHost } from '../../src/core/port.js';
import { PagelensError } from '../../src/model/contracts/errors.js';
import type { HostElement, HostFrame, Recovery, Seen } from '../../src/model/contracts/host.js';

function fake(opts: { live?: string[]; recover?: Recovery; seen?: Seen; secret?: boolean; settled?: boolean } = {}) {
  const frame: HostFrame = { ordinal: 0, url: 'http://a/', offset: [0, 0], clip: [0, 0, 800, 600], handle: 0 };
  const log: string[] = [];
  let value = '';
  const host = {
    frames: async () => [frame],
    layout: async (use: (f: HostFrame[], w: string[]) => Promise<unknown>) => use([frame], []),
    resolve: async (gid: string, o?: { doc?: string }): Promise<HostElement> => {
      log.push(`resolve ${gid}${o?.doc ? ` in ${o.doc}` : ''}`);
      if (!(opts.live ?? ['5']).includes(gid)) throw new PagelensError('UNKNOWN_ID', `element ${gid} is gone`);
      return { frame, gid, doc: 'doc-0', handle: gid };
    },
    async element(el: HostElement, call: string, args: unknown[] = []) {
      switch (call) {
        case 'elementState': return { connected: true, visible: true, tag: 'button', type: null, role: 'button', name: 'Pause', value, valueKey: value, checked: null, states: [], focused: true, scrollContainer: false, inClosedShadow: false };
        case 'textEntry': return { kind: 'type', secret: opts.secret ?? false };
        case 'focusForTyping': case 'watchPress': return { ok: true };
        case 'valueIs': return args[0] === value;
        case 'prepare': return { ok: true, point: [10, 10], box: [5, 5, 10, 10], viewport: [800, 600] };
        case 'pressLanded': return { watched: true, landed: true };
      }
      throw new Error(`unexpected ${call} on ${el.gid}`);
    },
    release: async (el: HostElement) => { log.push(`release ${el.gid}`); },
    sighting: () => opts.seen,
    describe: (e: unknown) => (e as Error).message,
    ...(opts.recover && { recover: async (gid: string) => { log.push(`recover ${gid}`); return opts.recover!; } }),
    url: async () => 'http://a/',
    settle: async () => ({ settled: opts.settled ?? true, waitedMs: 0, ...(opts.settled === false && { reason: 'a spinner kept spinning' }) }),
    input: { trusted: true, move: async () => {}, click: async () => { log.push('click'); }, insertText: async (t: string) => { value = t; }, typeText: async (t: string) => { value = t; }, press: async () => {} },
  };
  return { host: host as unknown as ActHost, log };
}

test('an ID resolved and acted on; its element released; a page that did not settle is said', async () => {
  const f = fake({ settled: false });
  const r = await runAct(f.host, 'click(5)');
  assert.deepEqual([r.ok, r.method, r.detail], [true, 'mouse', 'clicked 5 at (10, 10)']);
  assert.deepEqual(r.warnings, ['the page had not settled when the action returned (a spinner kept spinning)']);
  assert.deepEqual(f.log, ['resolve 5', 'click', 'release 5']);
});

test('an element re-rendered away is recovered in its document and the result says so; without recovery the refusal stands', async () => {
  const f = fake({ live: ['9'], recover: { ok: true, gid: '9', doc: 'doc-0', confidence: 0.9, message: 'recovered element (ID 5 → ID 9, confidence 0.9)' } });
  const r = await runAct(f.host, { type: 'click', id: '5' });
  assert.equal(r.ok, true);
  assert.deepEqual(r.recovered, { from: '5', to: '9', confidence: 0.9, message: 'recovered element (ID 5 → ID 9, confidence 0.9)' });
  assert.match(r.detail ?? '', /^recovered element \(ID 5 → ID 9, confidence 0\.9\); clicked 9/);
  assert.ok(f.log.includes('resolve 9 in doc-0'), 'the match is looked up in the document that issued the lost ID');
  const off = await runAct(f.host, 'click(5)', { recover: false });
  assert.deepEqual([off.ok, off.error?.code], [false, 'UNKNOWN_ID']);
  const across = fake({ live: [], recover: { ok: false, code: 'NAVIGATED', message: 'element 5 belongs to a document that is gone' } });
  const refused = await runAct(across.host, 'click(5)');
  assert.deepEqual(refused.error, { code: 'NAVIGATED', message: 'element 5 belongs to a document that is gone' });
  assert.equal(refused.recovered, undefined);
});

test('an element that is no longer what the snapshot showed is STALE_ID, and nothing is pressed', async () => {
  const f = fake({ seen: { role: 'button', name: 'Play' } });
  const r = await runAct(f.host, 'click(5)');
  assert.equal(r.error?.code, 'STALE_ID');
  assert.match(r.error?.message ?? '', /5 is now button "Pause", not the button "Play"/);
  assert.ok(!f.log.includes('click'));
});

test('a value is masked in the result until the field is known not to be secret', async () => {
  const secret = await runAct(fake({ secret: true }).host, 'setValue(5, "hunter2")');
  assert.equal(secret.action, 'setValue(5, "***")');
  assert.ok(!JSON.stringify(secret).includes('hunter2'));
  const plain = await runAct(fake().host, 'setValue(5, "Ada")');
  assert.equal(plain.action, 'setValue(5, "Ada")');
  const gone = await runAct(fake({ live: [] }).host, 'setValue(5, "hunter2")');
  assert.equal(gone.action, 'setValue(5, "***")', 'a refusal never echoes the value');
  const bad = await runAct(fake().host, 'frobnicate(5)');
  assert.deepEqual([bad.ok, bad.error?.code, bad.action], [false, 'BAD_INPUT', 'frobnicate(5)']);
});

test('with an expected outcome: verified after acting, and the verdict is the observed one', async () => {
  const r = await runAct(fake().host, 'type(5, "Ada")', { expect: 'value_changes' });
  assert.equal(r.verification?.success, true);
  assert.equal(r.verification?.verifiedOutcome, 'value_changes');
  // This fake has no mutation logs to read: the verdict says so instead of being sure.
  assert.ok(r.verification?.uncertain?.some((u) => /could not be read before the action/.test(u)), JSON.stringify(r.verification?.uncertain));
});
