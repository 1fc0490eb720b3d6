// No swallowed failure: each check that used to turn an error into a positive answer is forced to
// fail here, and must come back as a refusal with the reason or a result marked uncertain.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { coreOf, type Lens } from '../../src/browser/lens.js';
import { idOf } from '../support/action-helpers.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

/** Runs `body` inside pagelens's isolated world of frame `ordinal`, to break the engine on purpose. */
async function sabotage(lens: Lens, ordinal: number, body: string): Promise<void> {
  const frame = (await coreOf(lens).frames.known()).find((f) => f.ordinal === ordinal);
  assert.ok(frame, `no frame ${ordinal}`);
  await frame.target.callFunction(frame.frameId, `function () { ${body} }`, []);
}

test('the cover check over an iframe fails: the click is refused with the reason, nothing is clicked', async () => {
  const { page, lens } = await h.open('actions-frames.html');
  const pay = idOf(await lens.snapshot({ fullPage: true }), 'Pay');
  await sabotage(lens, 0, 'globalThis.__pagelens.act.coverAt = () => { throw new Error("cover check sabotaged"); };');
  const r = await lens.act(`click(${pay})`);
  assert.equal(r.ok, false, JSON.stringify(r));
  assert.equal(r.error?.code, 'NOT_ACTIONABLE');
  assert.match(r.error!.message, /could not check whether anything in the page covers its frame there .*cover check sabotaged.*so it was not clicked/);
  const inner = page.frames().find((f) => f.url().includes('actions-frame-inner'))!;
  assert.equal(await inner.textContent('#out'), 'not paid');
});

test('occlusion of a frame that cannot be checked is a warning on the snapshot', async () => {
  const { lens } = await h.open('actions-frames.html');
  await lens.snapshot();
  await sabotage(lens, 0, 'globalThis.__pagelens.ownerHits = () => { throw new Error("hit test sabotaged"); };');
  const snap = await lens.snapshot();
  assert.ok(snap.interactive_tree.some((n) => n.n === 'Pay'), 'the frame\'s elements are still listed');
  assert.ok(snap.warnings?.some((w) => /^frame 1: whether anything in frame 0 covers it could not be checked \(.*hit test sabotaged.*\)/.test(w)), JSON.stringify(snap.warnings));
});

test('an invalid selector in an expected outcome is BAD_INPUT before acting, not "not found"', async () => {
  const { page, lens } = await h.open('actions-frames.html');
  const shadow = idOf(await lens.snapshot({ fullPage: true }), 'Shadow action');
  const r = await lens.act(`click(${shadow})`, { expect: { type: 'element_appears', selector: 'p[' } });
  assert.equal(r.ok, false);
  assert.equal(r.error?.code, 'BAD_INPUT');
  assert.match(r.error!.message, /"p\[" is not a valid CSS selector/);
  assert.equal(await page.textContent('#shadow-out'), 'shadow: not clicked');
});

test('an element that cannot be read is not "gone": element_disappears is uncertain, not verified', async () => {
  const { lens } = await h.open('actions-frames.html');
  const shadow = idOf(await lens.snapshot({ fullPage: true }), 'Shadow action');
  await lens.capturePreActionState({ type: 'element_disappears', id: shadow }, shadow);
  assert.equal((await lens.act(`click(${shadow})`, { settle: false })).ok, true);
  await sabotage(lens, 0, 'globalThis.__pagelens.act.elementState = () => { throw new Error("state sabotaged"); };');
  const v = await lens.verifyOutcome({ type: 'element_disappears', id: shadow, timeout: 300 });
  assert.equal(v.success, false, JSON.stringify(v));
  assert.ok(v.uncertain?.some((u) => /element \d+ could not be read .*state sabotaged/.test(u)), JSON.stringify(v.uncertain));
  assert.match(v.feedback, /Uncertain: /);
});

test('a frame whose mutation log cannot be read makes the verdict uncertain, naming the frame', async () => {
  const { lens } = await h.open('actions-frames.html');
  const pay = idOf(await lens.snapshot({ fullPage: true }), 'Pay');
  await sabotage(lens, 1, 'globalThis.__pagelens.mutationsSince = () => { throw new Error("log sabotaged"); };');
  const r = await lens.act(`click(${pay})`, { expect: { type: 'any_change', timeout: 500 } });
  assert.equal(r.ok, true, JSON.stringify(r));
  const v = r.verification!;
  assert.ok(v.uncertain?.some((u) => /the log of frame 1 could not be read \(.*log sabotaged.*\), so errors shown there are unknown/.test(u)), JSON.stringify(v));
  assert.ok(v.confidence < 0.5, `confidence is lowered: ${v.confidence}`);
});

test('a DOM that cannot be indexed for the AX tree is reported, not silently left without IDs', async () => {
  const { lens } = await h.open('actions-frames.html');
  await lens.snapshot();
  const full = await lens.axtree();
  assert.equal(full.warnings, undefined);
  assert.ok(full.meta.taggedInteractive > 0);
  coreOf(lens).pageTarget.cdp.injectFault('DOM.getDocument', 'DOM indexing sabotaged');
  const ax = await lens.axtree();
  coreOf(lens).pageTarget.cdp.injectFault('DOM.getDocument', null);
  assert.ok(ax.warnings?.some((w) => /the DOM of the page could not be indexed \(.*DOM indexing sabotaged.*\): its nodes carry no data-llm-id/.test(w)), JSON.stringify(ax.warnings));
});

test('an iframe that cannot be located is listed with its real cause, not as "detached"', async () => {
  const { lens } = await h.open('actions-frames.html');
  // Sabotaged from the document's first read on: a frame structure listed with a failed owner is
  // never kept, so every read (and the search for gesture listeners before it) meets the fault.
  coreOf(lens).pageTarget.cdp.injectFault('DOM.getFrameOwner', 'owner lookup sabotaged');
  const snap = await lens.snapshot();
  coreOf(lens).pageTarget.cdp.injectFault('DOM.getFrameOwner', null);
  const frame = snap.frames?.find((f) => f.id === 1);
  assert.match(frame?.error ?? '', /CDP_ERROR: owner lookup sabotaged/, JSON.stringify(snap.frames));
  assert.doesNotMatch(frame!.error!, /detached/);
});

test('a closed shadow root that cannot be adopted is a warning, and is retried', async () => {
  const { page, lens } = await h.open('actions-frames.html');
  await lens.snapshot();
  await sabotage(lens, 0, 'const real = globalThis.__pagelens.adoptShadowRoot; globalThis.__realAdopt = real; globalThis.__pagelens.adoptShadowRoot = () => { throw new Error("adoption sabotaged"); };');
  await page.evaluate(() => {
    const host = document.createElement('div');
    document.body.append(host);
    host.attachShadow({ mode: 'closed' }).innerHTML = '<button>Late closed</button>';
  });
  let warned: string | undefined;
  for (let i = 0; i < 20 && !warned; i++) {
    warned = (await lens.snapshot({ fullPage: true })).warnings?.find((w) => /closed shadow root.* could not be read, so .* content is missing \(.*adoption sabotaged/.test(w));
    if (!warned) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(warned, 'the failed adoption is reported');
  await sabotage(lens, 0, 'globalThis.__pagelens.adoptShadowRoot = globalThis.__realAdopt;');
  const healed = await lens.snapshot({ fullPage: true });
  assert.ok(healed.interactive_tree.some((n) => n.n === 'Late closed'), 'adopted on the next read once it works');
  assert.equal(healed.warnings, undefined);
});

test('an engine answer that breaks its contract is ENGINE_ERROR, not a wrong snapshot', async () => {
  const { lens } = await h.open('actions-frames.html');
  await lens.snapshot();
  // Reads come through `read` (JSON text, whole or a delta); `snapshot` is the plain call.
  await sabotage(lens, 0, 'globalThis.__pagelens.read = () => JSON.stringify({ kind: "whole", doc: "x", nodes: "not a list" }); globalThis.__pagelens.snapshot = () => ({ doc: "x", nodes: "not a list" });');
  await assert.rejects(lens.snapshot(), (e: any) => e.code === 'ENGINE_ERROR' && /answered (read|snapshot) with something it never returns/.test(e.message));
});

test('a network that cannot be watched is said, not taken for idle', async () => {
  const { lens } = await h.open('actions-frames.html');
  const shadow = idOf(await lens.snapshot({ fullPage: true }), 'Shadow action');
  coreOf(lens).pageTarget.cdp.injectFault('Network.enable', 'network sabotaged');
  const r = await lens.act(`click(${shadow})`);
  assert.equal(r.ok, true);
  assert.ok(r.warnings?.some((w) => /network activity is not watched \(.*network sabotaged.*\)/.test(w)), JSON.stringify(r));
});

test('a navigation that ends on the browser\'s error page is not a verified navigation', async () => {
  const { lens } = await h.open('verify-error-link.html');
  const snap = await lens.snapshot();
  const link = snap.interactive_tree.find((n) => n.n === 'View cart');
  assert.ok(link, JSON.stringify(snap.interactive_tree));
  const r = await lens.act(`click(${link.i})`, { expect: { type: 'navigation' } });
  assert.equal(r.ok, true, JSON.stringify(r));
  assert.equal(r.verification?.success, false, JSON.stringify(r.verification));
  assert.match(r.verification?.errorsDetected[0] ?? '', /could not be loaded.*error page/);
  assert.match(r.verification?.feedback ?? '', /showed an error/);
});
