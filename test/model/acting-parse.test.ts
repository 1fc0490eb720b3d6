// Pure parts of acting: the action grammar, key chords, expected outcomes, ghost scoring, delta hashing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatAction, parseAction, toAction } from '../../src/model/contracts/actions.js';
import { PagelensError } from '../../src/model/contracts/errors.js';
import { pickGhost, sameLabelIgnoringCounts, scoreGhosts } from '../../src/model/acting/ghost.js';
import { computeTreeHash, DeltaTracker, shouldSendTree } from '../../src/model/renderers/hash.js';
import { parseChord } from '../../src/model/contracts/keys.js';
import { eventText, formatMutation, summarize } from '../../src/model/pagemodel/mutations.js';
import { ExpectedOutcome, parseExpectSpec } from '../../src/model/contracts/outcome.js';

test('parses what a backend sends into typed actions', () => {
  const cases: Array<[string, unknown]> = [
    ['click(12)', { type: 'click', id: '12' }],
    ['  click( f1_5 ) ', { type: 'click', id: 'f1_5' }],
    ['click(id="55")', { type: 'click', id: '55' }],
    ['dblclick(3)', { type: 'dblclick', id: '3' }],
    ['hover(3)', { type: 'hover', id: '3' }],
    ['setValue(14, "SpaceX")', { type: 'setValue', id: '14', value: 'SpaceX' }],
    ["setValue(14, 'He said \\'hi\\', twice')", { type: 'setValue', id: '14', value: "He said 'hi', twice" }],
    ['setValue(14, "a, b (c)")', { type: 'setValue', id: '14', value: 'a, b (c)' }],
    ['setValue(14, "")', { type: 'setValue', id: '14', value: '' }],
    ['setValue(14, 42)', { type: 'setValue', id: '14', value: '42' }],
    ['type(4, "line\\nbreak")', { type: 'type', id: '4', value: 'line\nbreak' }],
    ['clear(4)', { type: 'clear', id: '4' }],
    ['select(3, "Express")', { type: 'select', id: '3', option: 'Express' }],
    ['select(12, ["Taiwan", "Tajikistan"])', { type: 'select', id: '12', option: ['Taiwan', 'Tajikistan'] }],
    ["select(12, options=[ 'A, B' ,\"C\" ])", { type: 'select', id: '12', option: ['A, B', 'C'] }],
    ['check(f1_5)', { type: 'check', id: 'f1_5' }],
    ['uncheck(5)', { type: 'uncheck', id: '5' }],
    ['toggle(5)', { type: 'toggle', id: '5' }],
    ['press("Enter")', { type: 'press', keys: 'Enter' }],
    ['press(7, "Control+A")', { type: 'press', id: '7', keys: 'Control+A' }],
    ['press(Escape)', { type: 'press', keys: 'Escape' }],
    ['scroll(feed)', { type: 'scroll', id: 'feed' }],
    ['scroll(down)', { type: 'scroll', direction: 'down' }],
    ['scroll(up, 300)', { type: 'scroll', direction: 'up', amount: 300 }],
    ['scroll(12, down, 400)', { type: 'scroll', id: '12', direction: 'down', amount: 400 }],
    ['scroll()', { type: 'scroll' }],
    ['scrollIntoView(9)', { type: 'scroll', id: '9', intoView: true }],
    ['submit(9)', { type: 'submit', id: '9' }],
    ['navigate("https://example.com/a?b=1")', { type: 'navigate', url: 'https://example.com/a?b=1' }],
    ['back()', { type: 'back' }],
    ['reload()', { type: 'reload' }],
  ];
  for (const [text, expected] of cases) assert.deepEqual(parseAction(text), expected, text);
});

test('the canonical string form reads back as the same action', () => {
  for (const s of ['click(12)', 'select(12, ["Taiwan", "Tajikistan"])', 'setValue(14, "Space \\"X\\"")', 'press(7, "Control+A")', 'scroll(12, down, 400)', 'scroll(down)', 'scrollIntoView(3)', 'navigate("https://a.b/")', 'back()']) {
    const a = parseAction(s);
    assert.deepEqual(parseAction(formatAction(a)), a, s);
  }
});

test('malformed or unknown actions are BAD_INPUT saying what was expected, never a guess', () => {
  const bad: Array<[string, RegExp]> = [
    ['clik(12)', /unknown action "clik".*click, dblclick/],
    ['click', /expected name\(arguments\)/],
    ['click()', /missing id; expected click\(12\)/],
    ['click(12, 13)', /too many arguments; expected click\(12\)/],
    ['setValue(14)', /missing value; expected setValue\(14, "SpaceX"\)/],
    ['setValue(14, "unterminated)', /unterminated string/],
    ['setValue(14, hello world)', /must be quoted/],
    ['select(3)', /missing option/],
    ['press()', /missing the key to press/],
    ['scroll(down, -5)', /could not read argument|positive/],
    ['scroll(12, sideways)', /could not read argument "sideways"/],
    ['click(12,)', /trailing comma/],
    ['click(foo bar)', /must be quoted/],
    ['navigate()', /missing url/],
    ['click(12) and then click(13)', /must be quoted/],
    ['', /expected name\(arguments\)/],
    ['select(12, [])', /empty list/],
    ['select(12, ["a", 3])', /list items must be quoted/],
    ['select(12, ["a")', /unterminated list|expected "," or "\]"/],
    ['click([1, 2])', /list items must be quoted|expected string/],
    ['click(["1"])', /id: .*expected/i],
    ['press(["Enter"])', /only accepted as the options of select/],
  ];
  for (const [text, message] of bad) {
    assert.throws(() => parseAction(text), (e: unknown) => e instanceof PagelensError && e.code === 'BAD_INPUT' && message.test(e.message), text);
  }
  assert.throws(() => toAction({ type: 'click' }), /Not a valid action object: id/);
  // Unknown keys are refused, not ignored: a typo must not silently change what is done.
  assert.throws(() => toAction({ type: 'click', id: '3', force: true }), (e: unknown) => e instanceof PagelensError && e.code === 'BAD_INPUT' && /force/.test(e.message));
  assert.deepEqual(toAction({ type: 'select', id: '3', option: 'Express' }), { type: 'select', id: '3', option: 'Express' });
});

test('key chords', () => {
  const a = parseChord('Control+A');
  assert.equal(a.modifiers, 2);
  assert.equal(a.key.code, 'KeyA');
  assert.equal(parseChord('Enter').key.text, '\r');
  assert.equal(parseChord('shift+tab').modifiers, 8);
  assert.equal(parseChord('Shift+a').key.text, 'A');
  assert.throws(() => parseChord('Hyper+A'), /not a modifier/);
  assert.throws(() => parseChord('Control+Banana'), /not a key name/);
});

test('expected outcomes: CLI spec, wire spelling, validation', () => {
  assert.deepEqual(parseExpectSpec('navigation'), { type: 'navigation' });
  assert.deepEqual(parseExpectSpec('navigation|element_appears:Thank you'), { type: 'navigation', orOutcome: { type: 'element_appears', text: 'Thank you' } });
  assert.deepEqual(parseExpectSpec('element_appears:css=.toast'), { type: 'element_appears', selector: '.toast' });
  assert.throws(() => parseExpectSpec('teleport'), /not an expected outcome/);
  assert.throws(() => parseExpectSpec('element_appears'), (e: unknown) => e instanceof PagelensError && e.code === 'BAD_INPUT' && /needs text or selector/.test(e.message));
  assert.deepEqual(ExpectedOutcome.parse({ type: 'navigation', or_element_appears: 'Thank you', timeout_ms: 1500 }),
    { type: 'navigation', orOutcome: { type: 'element_appears', text: 'Thank you' }, timeout: 1500 });
});

test('mutation events render as the seed shows them and summarise errors and successes', () => {
  const now = 10_000;
  assert.equal(formatMutation({ timestamp: 8_000, type: 'added', description: "'Saved Successfully'" }, now), "[2s ago] Added: 'Saved Successfully'");
  assert.equal(formatMutation({ timestamp: 9_000, type: 'removed', description: "button: 'Submit'" }, now), "[1s ago] Removed button: 'Submit'");
  assert.equal(eventText({ description: "'Saving…' → 'Saved'" }), 'Saved');
  assert.equal(eventText({ description: "field Email: 'Please include an @'" }), 'Please include an @');
  const s = summarize([
    { timestamp: 1, type: 'added', category: 'form', description: "'Invalid email'", seq: 1 },
    { timestamp: 2, type: 'removed', category: 'form', description: "'Invalid email'", seq: 2 },
    { timestamp: 3, type: 'added', category: 'success', description: "'Saved'", seq: 3 },
  ]);
  assert.deepEqual([s.has_errors, s.has_success, s.errors, s.successes], [true, true, ['Invalid email'], ['Saved']]);
});

test('ghost matching: same role and name required; the one in place wins; look-alikes are refused', () => {
  const lost = { role: 'button', name: 'Save', centre: [100, 100] as [number, number] };
  const scored = scoreGhosts(lost, [
    { gid: '92', role: 'button', name: 'Save', centre: [110, 104] },
    { gid: '93', role: 'button', name: 'Discard', centre: [100, 100] },
    { gid: '94', role: 'link', name: 'Save', centre: [100, 100] },
    { gid: '55', role: 'button', name: 'Save', centre: [100, 100] },
  ], '55');
  // Another name or another role is never the same element, however close.
  assert.deepEqual(scored.map((c) => [c.gid, c.confidence, c.distance]), [['92', 1, 11]]);
  const v = pickGhost(scored);
  assert.ok(v.ok && v.match.gid === '92');
  // Moved far, but the only "Save" button left: recovered with less confidence.
  const moved = pickGhost(scoreGhosts(lost, [{ gid: '7', role: 'button', name: '  save ', centre: [900, 900] }]));
  assert.ok(moved.ok && moved.match.confidence === 0.7);
  // Nothing shares role and name.
  const none = pickGhost(scoreGhosts(lost, [{ gid: '7', role: 'link', name: 'Save', centre: [100, 100] }]));
  assert.ok(!none.ok && /no element on the page has the same role and name/.test(none.reason));
  // Two in place (a re-rendered list of identical buttons): refused, not guessed.
  const rows = pickGhost(scoreGhosts(lost, [
    { gid: '1', role: 'button', name: 'Save', centre: [100, 100] },
    { gid: '2', role: 'button', name: 'Save', centre: [100, 140] },
  ]));
  assert.ok(!rows.ok && /ambiguous: 2 elements .* where it was \(1, 2\)/.test(rows.reason), JSON.stringify(rows));
  const far = pickGhost(scoreGhosts(lost, [
    { gid: '1', role: 'button', name: 'Save', centre: [400, 100] },
    { gid: '2', role: 'button', name: 'Save', centre: [600, 100] },
  ]));
  assert.ok(!far.ok && /ambiguous: 2 elements .* elsewhere/.test(far.reason));
  // A nameless element matches only in place.
  const icon = { role: 'button', name: '', centre: [10, 10] as [number, number] };
  assert.equal(scoreGhosts(icon, [{ gid: '3', role: 'button', name: '', centre: [300, 300] }]).length, 0);
  assert.equal(scoreGhosts(icon, [{ gid: '3', role: 'button', name: '', centre: [12, 10] }]).length, 1);
});

test('one element seen twice: a live counter is the same label, another word is not', () => {
  assert.ok(sameLabelIgnoringCounts('Cart (2)', 'cart  (13)'));
  assert.ok(sameLabelIgnoringCounts('Offer ends in 5:31', 'Offer ends in 5:30'));
  assert.ok(sameLabelIgnoringCounts('$1,299.00', '$1,299.00'));
  assert.ok(sameLabelIgnoringCounts('Cart', 'Cart (1)'));
  assert.ok(!sameLabelIgnoringCounts('1', '2'), 'labels without words must match exactly');
  assert.ok(!sameLabelIgnoringCounts('Play', 'Pause'));
  assert.ok(!sameLabelIgnoringCounts('Follow', 'Following'));
  assert.ok(!sameLabelIgnoringCounts('Email', 'Back'));
});

test('delta hash: ignores timings and sub-pixel jitter, changes with content', () => {
  const base = {
    mode: 'semantic_v3', url: 'http://x/', title: 'T', viewport: { width: 1280, height: 800 }, scroll_position: '0%',
    interactive_tree: [{ i: '1', r: 'btn', n: 'Save', xy: [100, 201] }], scrollable_containers: [],
    meta: { totalElements: 1, viewportElements: 1, prunedElements: 0, occludedElements: 0, extractionTimeMs: 3.2, estimatedTokens: 50 },
  };
  const again = structuredClone(base);
  again.meta.extractionTimeMs = 9.9;
  again.meta.estimatedTokens = 51;
  again.interactive_tree[0].xy = [100.4, 200.6];
  assert.equal(computeTreeHash(base), computeTreeHash(again));
  const changed = structuredClone(base);
  changed.interactive_tree[0].n = 'Saved';
  assert.notEqual(computeTreeHash(base), computeTreeHash(changed));
  assert.equal(shouldSendTree(base, computeTreeHash(again)), false);
  const t = new DeltaTracker();
  assert.deepEqual([t.check(base).send, t.check(again).send, t.check(changed).send], [true, false, true]);
});
