// src/core/verify.ts on its own (issue 44): the reads before and after an action over a fake ActHost
// (frames with mutation logs, one element whose state the test sets), and a verdict that says only
// what it observed: a changed value is 'value_changes', an unchanged one is never success, a frame
// whose log could not be read makes the verdict uncertain (never quietly positive), an error the
// page showed fails it, another main document is a navigation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ActHost } from '../../src/core/port.js';
import { capturePre, eventsSince, findOnFrames, verifyOutcome } from '../../src/core/verify.js';
import type { ElementState } from '../../src/model/contracts/engine.js';
import { isPagelensError, PagelensError } from '../../src/model/contracts/errors.js';
import type { HostElement, HostFrame } from '../../src/model/contracts/host.js';
import type { MutationEvent } from '../../src/model/pagemodel/mutations.js';

interface Log { doc: string; count: number; events: MutationEvent[]; broken?: boolean }

interface Page {
  url: string;
  logs: Log[];
  state: ElementState;
  /** Text findOnPage finds, per frame. */
  text: string[];
  settles: number;
}

function state(value: string): ElementState {
  return { connected: true, visible: true, tag: 'input', type: 'text', role: 'textbox', name: 'Email', value, valueKey: `k:${value}`, checked: null, states: [], focused: false, scrollContainer: false, inClosedShadow: false };
}

function fake(): { host: ActHost; page: Page } {
  const page: Page = { url: 'http://127.0.0.1/form', logs: [{ doc: 'doc-0', count: 5, events: [] }, { doc: 'doc-1', count: 1, events: [] }], state: state('old'), text: ['', ''], settles: 0 };
  const frames = (): HostFrame[] => page.logs.map((_, i) => ({ ordinal: i, url: page.url, offset: [0, 0], handle: i, ...(i && { parent: 0 }) }));
  const log = (f: HostFrame) => { const l = page.logs[f.ordinal]; if (l.broken) throw new Error(`frame ${f.ordinal} is busy`); return l; };
  const host = {
    frames: async () => frames(),
    layout: async (use: (f: HostFrame[], w: string[]) => Promise<unknown>) => use(frames(), []),
    async engine(f: HostFrame, call: string, args: unknown[] = []) {
      const l = log(f);
      switch (call) {
        case 'domActivity': return { doc: l.doc, seq: l.events.length, count: l.count, quietMs: 1e9, readyState: 'complete' };
        case 'mutationsSince': {
          const [doc, seq] = args as [string | null, number];
          return { doc: l.doc, events: doc === l.doc ? l.events.slice(seq) : l.events };
        }
        case 'findOnPage': {
          const q = args[0] as { text?: string; selector?: string };
          if (q.selector === '##') return { ok: false, reason: 'invalid selector ##' };
          return { ok: true, found: !!q.text && page.text[f.ordinal].includes(q.text) };
        }
      }
      throw new Error(`no ${call}`);
    },
    resolve: async (gid: string): Promise<HostElement> => {
      if (gid !== '5') throw new PagelensError('UNKNOWN_ID', `no element ${gid}`);
      return { gid, frame: frames()[0], doc: 'doc-0', handle: gid };
    },
    element: async (_el: HostElement, call: string) => { if (call === 'elementState') return page.state; throw new Error(`no ${call}`); },
    release: async () => {},
    sighting: () => undefined,
    describe: (e: unknown) => (e instanceof Error ? e.message : String(e)),
    url: async () => page.url,
    settle: async () => { page.settles++; return { settled: true, waitedMs: 0 }; },
  };
  return { host: host as unknown as ActHost, page };
}

const event = (description: string, category: MutationEvent['category'] = 'text', seq = 1): MutationEvent => ({ timestamp: Date.now(), type: 'added', category, description, seq });

test('a changed value is value_changes, and success', async () => {
  const { host, page } = fake();
  const pre = await capturePre(host, { type: 'value_changes' }, '5');
  assert.equal(pre.elements.get('5')?.kind, 'state');
  page.state = state('new@example.com');
  page.logs[0].count++;
  const v = await verifyOutcome(host, pre, { type: 'value_changes', timeout: 200 }, '5');
  assert.equal(v.success, true);
  assert.equal(v.verifiedOutcome, 'value_changes');
  assert.equal(v.actualOutcome, 'value is now "new@example.com"');
  assert.equal(v.pageState.domChanged, true);
  assert.equal(v.uncertain, undefined, 'every check was made');
});

test('an unchanged page is never success when the expectation failed: nothing verified, and it says what it saw', async () => {
  const { host } = fake();
  const pre = await capturePre(host, { type: 'value_changes' }, '5');
  const v = await verifyOutcome(host, pre, { type: 'value_changes', timeout: 150 }, '5');
  assert.equal(v.success, false);
  assert.equal(v.verifiedOutcome, null);
  assert.equal(v.actualOutcome, 'value unchanged ("old")');
  assert.equal(v.pageState.domChanged, false);
  assert.match(v.feedback, /^Expected the value to change within 150 ms, but value unchanged/);
  const any = await verifyOutcome(host, await capturePre(host, { type: 'any_change' }), { type: 'any_change', timeout: 150 });
  assert.deepEqual([any.success, any.actualOutcome], [false, 'nothing on the page changed']);
});

test('a frame whose log could not be read makes the verdict uncertain, with the reason, and lowers its confidence', async () => {
  const { host, page } = fake();
  const sure = await verifyOutcome(host, await capturePre(host, { type: 'no_change' }), { type: 'no_change', timeout: 100 });
  page.logs[1].broken = true;
  const pre = await capturePre(host, { type: 'no_change' });
  assert.deepEqual(pre.unmarked, ['frame 1 could not be read before the action (frame 1 is busy)']);
  const v = await verifyOutcome(host, pre, { type: 'no_change', timeout: 100 });
  assert.equal(v.verifiedOutcome, 'no_change', 'what was seen held');
  assert.ok(v.uncertain?.includes('frame 1 could not be read before the action (frame 1 is busy)'), JSON.stringify(v.uncertain));
  assert.ok(v.uncertain?.some((u) => /^the log of frame 1 could not be read \(frame 1 is busy\), so errors shown there are unknown$/.test(u)), JSON.stringify(v.uncertain));
  assert.ok(v.confidence < sure.confidence, `${v.confidence} < ${sure.confidence}`);
});

test('an error the page showed fails a met outcome; another main document is a navigation; events carry their frame', async () => {
  const { host, page } = fake();
  const pre = await capturePre(host, { type: 'any_change' });
  page.logs[1].events.push(event("error: 'Card declined'", 'error'));
  page.logs[1].count++;
  const v = await verifyOutcome(host, pre, { type: 'any_change', timeout: 200 });
  assert.equal(v.verifiedOutcome, 'any_change');
  assert.equal(v.success, false, 'met, but the page showed an error');
  assert.deepEqual(v.errorsDetected, ['Card declined']);
  const seen = await eventsSince(host, pre);
  assert.deepEqual(seen.events.map((e) => e.frame), [1]);
  // The same URL, another main document (a form posted back to itself): a navigation.
  const pre2 = await capturePre(host, { type: 'navigation' });
  page.logs[0] = { doc: 'doc-0-later', count: 0, events: [] };
  const nav = await verifyOutcome(host, pre2, { type: 'navigation', timeout: 200 });
  assert.deepEqual([nav.success, nav.actualOutcome], [true, 'navigated to http://127.0.0.1/form']);
});

test('findOnFrames: a frame that could not be searched is named, not read as absent; a query the engine cannot run is BAD_INPUT', async () => {
  const { host, page } = fake();
  page.text[1] = 'Thank you for your order';
  assert.deepEqual(await findOnFrames(host, { text: 'Thank you' }), { found: true, unread: [] });
  page.logs[1].broken = true;
  assert.deepEqual(await findOnFrames(host, { text: 'Thank you' }), { found: false, unread: ['frame 1 could not be searched (frame 1 is busy)'] });
  await assert.rejects(findOnFrames(host, { selector: '##' }, 'Cannot verify'), (e) => isPagelensError(e, 'BAD_INPUT') && (e as Error).message === 'Cannot verify: invalid selector ##.');
  // element_appears with a frame unsearched after the action: not met, and uncertain.
  page.logs[1].broken = false;
  page.text[1] = '';
  const pre = await capturePre(host, { type: 'element_appears', text: 'Thank you' });
  page.logs[1].broken = true;
  const v = await verifyOutcome(host, pre, { type: 'element_appears', text: 'Thank you', timeout: 150 });
  assert.equal(v.success, false);
  assert.ok(v.uncertain?.includes('frame 1 could not be searched (frame 1 is busy)'), JSON.stringify(v.uncertain));
});

test('capturePre: an element that is gone before element_disappears is refused before acting; a gone element reads as gone', async () => {
  const { host } = fake();
  await assert.rejects(capturePre(host, { type: 'element_disappears', id: '9' }), (e) => isPagelensError(e, 'BAD_INPUT') && /not on the page before the action/.test((e as Error).message));
  const pre = await capturePre(host, { type: 'value_changes', id: '9' });
  assert.equal(pre.elements.get('9')?.kind, 'gone');
  assert.equal(pre.doc, 'doc-0');
  assert.deepEqual([...pre.marks.keys()], [0, 1]);
});
