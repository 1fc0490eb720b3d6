// selectDomMode (seed 000 §14–§15, 001 §3.2): every keyword class of the seed, the decision tree,
// the fallback chain, and what a backend can ask for. Pure: no browser.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { FALLBACK_CHAIN, SIMPLE_ACTIONS, VISUAL_KEYWORDS, modeChain, selectDomMode } from '../../src/model/negotiation/modes.js';

test('every visual or spatial word of the seed, in every class, selects hybrid and names the word', () => {
  for (const [kind, words] of Object.entries(VISUAL_KEYWORDS)) {
    assert.ok(words.length > 0, kind);
    for (const word of words) {
      const pick = selectDomMode(`please handle the ${word} thing`);
      assert.equal(pick.mode, 'hybrid', `${kind}: "${word}" → ${JSON.stringify(pick)}`);
      assert.ok(pick.reason.includes(`"${word}"`), pick.reason);
      assert.equal(pick.fellBackFrom, undefined);
    }
  }
  // The seed's own classes are all there.
  assert.deepEqual(Object.keys(VISUAL_KEYWORDS).sort(), ['appearance', 'element', 'ordinal', 'query', 'spatial']);
  assert.ok(VISUAL_KEYWORDS.spatial.includes('next to') && VISUAL_KEYWORDS.appearance.includes('looks like'));
});

test('visual words match as words: plurals and any case count, parts of other words do not', () => {
  assert.equal(selectDomMode('Click the ICONS row').mode, 'hybrid');
  assert.equal(selectDomMode('open the gear icon in the Top Right corner').mode, 'hybrid');
  assert.equal(selectDomMode('the field right\nnext   to the label').mode, 'hybrid');
  for (const q of ['stop the upload', 'read the topic', 'submit the leftover form', 'fill the redirect url', 'press showcase']) {
    assert.equal(selectDomMode(q).mode, 'semantic_v3', q);
  }
});

test('every simple action of the seed keeps semantic_v3, and says why', () => {
  for (const action of SIMPLE_ACTIONS) {
    const pick = selectDomMode(`${action} the account settings`);
    assert.equal(pick.mode, 'semantic_v3', action);
    assert.match(pick.reason, new RegExp(`simple action \\("${action}"\\)`), pick.reason);
  }
  const plain = selectDomMode('log me in');
  assert.equal(plain.mode, 'semantic_v3');
  assert.match(plain.reason, /default/);
  assert.equal(selectDomMode('').mode, 'semantic_v3');
});

test('a visual word wins over a simple action (001: "Click the blue button" is hybrid)', () => {
  const pick = selectDomMode('Click the blue button');
  assert.equal(pick.mode, 'hybrid');
  assert.match(pick.reason, /"blue"/);
  assert.equal(selectDomMode('Select the second card').mode, 'hybrid');
  assert.equal(selectDomMode('what is the price of tea?').mode, 'hybrid');
});

test('full only when the backend asks, in any of its three ways; never from the query', () => {
  const everyWord = [...Object.values(VISUAL_KEYWORDS).flat(), ...SIMPLE_ACTIONS, 'full dom', 'raw html', 'everything'];
  for (const w of everyWord) assert.notEqual(selectDomMode(`${w} please`).mode, 'full', w);
  for (const ctx of [{ requestedDomMode: 'full' as const }, { needs_full_dom: true }, { status: 'needs_full_dom' }]) {
    const pick = selectDomMode('click save', ctx);
    assert.equal(pick.mode, 'full', JSON.stringify(ctx));
    assert.match(pick.reason, /asked for the full DOM/);
  }
  // A backend's whole negotiation answer may be passed as is; its other fields are ignored.
  assert.equal(selectDomMode('click save', { status: 'needs_context', requestedDomMode: 'hybrid', reason: 'colour' } as never).mode, 'hybrid');
});

test('what else the backend may ask for: hybrid (or a screenshot), skeleton (or the skeleton DOM)', () => {
  assert.equal(selectDomMode('click save', { requestedDomMode: 'hybrid' }).mode, 'hybrid');
  assert.equal(selectDomMode('click save', { needsScreenshot: true }).mode, 'hybrid');
  assert.equal(selectDomMode('click save', { requestedDomMode: 'skeleton' }).mode, 'skeleton');
  assert.equal(selectDomMode('the blue one', { needsSkeletonDom: true }).mode, 'skeleton');
  // Both: the screenshot comes with the skeleton anyway.
  assert.equal(selectDomMode('click save', { needsSkeletonDom: true, needsScreenshot: true }).mode, 'hybrid');
});

test('the fallback chain: semantic_v3 → semantic → skeleton, each skip said, null when nothing is left', () => {
  assert.deepEqual(FALLBACK_CHAIN, ['semantic_v3', 'semantic', 'skeleton']);
  const v3Failed = selectDomMode('click save', { failed: ['semantic_v3'] });
  assert.equal(v3Failed.mode, 'semantic');
  assert.deepEqual(v3Failed.fellBackFrom, ['semantic_v3']);
  assert.match(v3Failed.reason, /^semantic_v3 failed or came back empty: falling back to semantic \(first choice semantic_v3: a simple action/);
  const both = selectDomMode('click save', { failed: ['semantic_v3', 'semantic'] });
  assert.equal(both.mode, 'skeleton');
  assert.deepEqual(both.fellBackFrom, ['semantic_v3', 'semantic']);
  const none = selectDomMode('click save', { failed: ['semantic_v3', 'semantic', 'skeleton'] });
  assert.equal(none.mode, null);
  assert.match(none.reason, /every mode of the chain failed or came back empty \(semantic_v3 → semantic → skeleton\)/);
  // A first choice outside the default chain falls into it.
  assert.deepEqual(modeChain('hybrid'), ['hybrid', 'semantic_v3', 'semantic', 'skeleton']);
  assert.deepEqual(modeChain('skeleton'), ['skeleton', 'semantic_v3', 'semantic']);
  const hybridFailed = selectDomMode('the blue button', { failed: ['hybrid'] });
  assert.equal(hybridFailed.mode, 'semantic_v3');
  assert.deepEqual(hybridFailed.fellBackFrom, ['hybrid']);
  const fullFailed = selectDomMode('x', { needs_full_dom: true, failed: ['full', 'semantic_v3'] });
  assert.equal(fullFailed.mode, 'semantic');
  assert.deepEqual(fullFailed.fellBackFrom, ['full', 'semantic_v3']);
  // Modes that failed but are not next in line change nothing.
  assert.equal(selectDomMode('click save', { failed: ['skeleton'] }).mode, 'semantic_v3');
});

test('bad input is BAD_INPUT with what was expected', () => {
  const bad = (f: () => unknown, re: RegExp) => assert.throws(f, (e) => isPagelensError(e, 'BAD_INPUT') && re.test((e as Error).message));
  bad(() => selectDomMode(42 as never), /query/);
  bad(() => selectDomMode('x', { requestedDomMode: 'everything' as never }), /requestedDomMode/);
  bad(() => selectDomMode('x', { failed: ['nope' as never] }), /failed/);
  bad(() => selectDomMode('x', 'full' as never), /mode-selection context/);
});
