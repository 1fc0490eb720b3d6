// src/core/perform.ts on its own (issue 44): one action on a resolved element over a fake ActHost
// whose element answers the test sets. Real input where a person's would go, the engine's script
// where it cannot reach (said: method "js"), never past a cover; what a secret field was given is
// stripped from every detail ("***"); a URL pagelens cannot open is refused; a value the page did
// not keep is said, not claimed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { perform, UNCOMMITTED } from '../../src/core/perform.js';
import type { ActHost } from '../../src/core/port.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { HostElement, HostFrame } from '../../src/model/contracts/host.js';

type Answers = Record<string, (args: unknown[]) => unknown>;

function fake(answers: Answers, opts: { trusted?: boolean; url?: string } = {}) {
  const log: string[] = [];
  const frame: HostFrame = { ordinal: 0, url: 'http://a/', offset: [0, 0], clip: [0, 0, 800, 600], handle: 0 };
  let value = '';
  const defaults: Answers = {
    prepare: () => ({ ok: true, point: [40, 60], box: [30, 50, 20, 20], viewport: [800, 600] }),
    watchPress: () => ({ ok: true }),
    pressLanded: () => ({ watched: true, landed: true }),
    textEntry: () => ({ kind: 'type', secret: false }),
    focusForTyping: () => ({ ok: true }),
    valueIs: ([v]) => v === value,
    elementState: () => ({ connected: true, visible: true, tag: 'input', type: 'text', role: 'textbox', name: 'Name', value, valueKey: value, checked: null, states: [], focused: true, scrollContainer: false, inClosedShadow: false }),
    clickJs: () => ({ ok: true }),
  };
  const host = {
    frames: async () => [frame],
    layout: async (use: (f: HostFrame[], w: string[]) => Promise<unknown>) => use([frame], []),
    async element(_el: HostElement, call: string, args: unknown[] = []) {
      log.push(call);
      const a = answers[call] ?? defaults[call];
      if (!a) throw new Error(`unexpected ${call}`);
      return a(args);
    },
    describe: (e: unknown) => (e as Error).message,
    url: async () => opts.url ?? 'http://a/shop/cart',
    navigate: async (how: unknown) => { log.push(`navigate ${JSON.stringify(how)}`); return { status: 200 }; },
    settle: async () => ({ settled: true, waitedMs: 0 }),
    input: {
      trusted: opts.trusted ?? true,
      move: async (x: number, y: number) => { log.push(`move ${x},${y}`); },
      click: async (x: number, y: number, n = 1) => { log.push(`click ${x},${y}${n === 2 ? ' x2' : ''}`); },
      insertText: async (t: string) => { log.push(`insert ${t}`); value = t; },
      typeText: async (t: string) => { log.push(`keys ${t}`); value = t; },
      press: async (c: { key: { key: string }; modifiers: number }) => { log.push(`press ${c.modifiers ? "mod+" : ""}${c.key.key}`); },
    },
  };
  const el: HostElement = { frame, gid: '5', doc: 'doc-0', handle: 5 };
  return { host: host as unknown as ActHost, log, el, setValue: (v: string) => { value = v; } };
}

test('click: the press at the element\'s point with real input, watched; a press that landed on something else is COVERED, not "clicked"', async () => {
  const f = fake({});
  const done = await perform(f.host, { type: 'click', id: '5' }, f.el);
  assert.deepEqual(done, { method: 'mouse', detail: 'clicked 5 at (40, 60)' });
  assert.deepEqual(f.log.filter((l) => /^(move|click|watchPress|pressLanded)/.test(l)), ['move 40,60', 'watchPress', 'click 40,60', 'pressLanded']);
  const slid = fake({ pressLanded: () => ({ watched: true, landed: false, on: 'div.overlay "Authorize"' }) });
  await assert.rejects(perform(slid.host, { type: 'click', id: '5' }, slid.el), (e) => isPagelensError(e, 'COVERED') && /landed on div\.overlay "Authorize"/.test((e as Error).message));
});

test('click: a press whose landing could not be watched goes, and the answer warns so (never "landed" where nothing saw it)', async () => {
  for (const watchPress of [() => ({ ok: false, reason: 'its document has no window' }), () => { throw new Error('frame detached'); }]) {
    const f = fake({ watchPress });
    const done = await perform(f.host, { type: 'click', id: '5' }, f.el);
    assert.equal(done.detail, 'clicked 5 at (40, 60)');
    assert.match(done.warnings?.[0] ?? '', /where the press on 5 landed could not be watched \((its document has no window|frame detached)\)/);
    assert.ok(!f.log.includes('pressLanded'), 'nothing was watching: nothing to ask');
  }
});

test('click: never past a cover (no script click stands in), by script only where input cannot reach or is untrusted', async () => {
  const covered = fake({ prepare: () => ({ ok: false, code: 'COVERED', reason: 'is covered by div.cookie' }) });
  await assert.rejects(perform(covered.host, { type: 'click', id: '5' }, covered.el), (e) => isPagelensError(e, 'COVERED'));
  assert.ok(!covered.log.includes('clickJs'), 'no script click past a cover');
  const untrusted = fake({}, { trusted: false });
  assert.deepEqual(await perform(untrusted.host, { type: 'dblclick', id: '5' }, untrusted.el), { method: 'js', detail: 'clicked 5 by script: no trusted input' });
  assert.equal(untrusted.log.filter((l) => l === 'clickJs').length, 2, 'a double click is two');
  await assert.rejects(perform(untrusted.host, { type: 'click', id: '5' }, undefined), (e) => isPagelensError(e, 'BAD_INPUT'));
});

test('typing: the value is typed with real input and checked kept; a secret field\'s value is stripped from the detail', async () => {
  const plain = fake({});
  const done = await perform(plain.host, { type: 'setValue', id: '5', value: 'Ada' }, plain.el);
  assert.deepEqual(done, { method: 'keyboard', detail: `typed "Ada" into 5${UNCOMMITTED}` });
  assert.deepEqual(plain.log.filter((l) => /^(press|insert|keys)/.test(l)), ['press mod+A', 'insert Ada'], 'select all, then one trusted insertion');
  const secret = fake({ textEntry: () => ({ kind: 'type', secret: true }) });
  const hidden = await perform(secret.host, { type: 'type', id: '5', value: 'hunter2' }, secret.el);
  assert.equal(hidden.detail, `typed *** into 5${UNCOMMITTED}`);
  assert.ok(!JSON.stringify(hidden).includes('hunter2'), 'the secret is in no part of the answer');
  assert.ok(secret.log.includes('keys hunter2'), 'type() goes key by key');
  const picker = fake({ textEntry: () => ({ kind: 'set', secret: true }), setValue: () => ({ ok: true, value: '4242' }), valueIs: () => true });
  assert.equal((await perform(picker.host, { type: 'setValue', id: '5', value: '4242' }, picker.el)).detail, 'set 5 to ***');
});

test('typing: a value the page rejected or reformatted is said, not claimed; a refused field is refused', async () => {
  const f = fake({ valueIs: () => false, elementState: () => ({ connected: true, visible: true, tag: 'input', type: 'text', role: 'textbox', name: 'Phone', value: '(555) 01', valueKey: 'x', checked: null, states: [], focused: true, scrollContainer: false, inClosedShadow: false }) });
  await assert.rejects(perform(f.host, { type: 'setValue', id: '5', value: '55501' }, f.el), (e) => isPagelensError(e, 'NOT_ACTIONABLE') && /5 did not keep the value: it shows "\(555\) 01"/.test((e as Error).message));
  const ro = fake({ textEntry: () => ({ kind: 'refuse', reason: 'it is read-only' }) });
  await assert.rejects(perform(ro.host, { type: 'clear', id: '5' }, ro.el), (e) => isPagelensError(e, 'NOT_ACTIONABLE') && (e as Error).message === '5: it is read-only');
});

test('navigate: a relative URL against the page\'s, with the status; a scheme pagelens does not open is refused before navigating', async () => {
  const f = fake({});
  const done = await perform(f.host, { type: 'navigate', url: '../help' }, undefined);
  assert.deepEqual(done, { method: 'navigation', detail: 'opened http://a/shop/cart', status: 200 });
  assert.ok(f.log.includes('navigate {"goto":"http://a/help"}'), f.log.join('; '));
  await assert.rejects(perform(f.host, { type: 'navigate', url: 'javascript:alert(1)' }, undefined), (e) => isPagelensError(e, 'BAD_INPUT'));
  assert.equal(f.log.filter((l) => l.startsWith('navigate')).length, 1);
});

test('check: already in the state asked is done without a press; a click that did not take is refused', async () => {
  const already = fake({ checkedOf: () => true, elementState: () => ({ connected: true, visible: true, tag: 'input', type: 'checkbox', role: 'checkbox', name: 'Terms', value: null, valueKey: null, checked: true, states: [], focused: false, scrollContainer: false, inClosedShadow: false }) });
  const done = await perform(already.host, { type: 'check', id: '5' }, already.el);
  assert.equal(done.method, 'none');
  assert.ok(!already.log.some((l) => l.startsWith('click')));
  const stuck = fake({ checkedOf: () => false, elementState: () => ({ connected: true, visible: true, tag: 'input', type: 'checkbox', role: 'checkbox', name: 'Terms', value: null, valueKey: null, checked: false, states: [], focused: false, scrollContainer: false, inClosedShadow: false }) });
  await assert.rejects(perform(stuck.host, { type: 'check', id: '5' }, stuck.el), (e) => isPagelensError(e, 'NOT_ACTIONABLE'));
  assert.ok(stuck.log.includes('click 40,60'), 'it was pressed');
});
