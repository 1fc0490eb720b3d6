// The text form of an action's answer (src/tools/answers/answerText.ts), on hand-made parts: what
// the console and the network said is told as a model can use it (errors and the requests an
// action made, by line, each said once; the rest counted), page text lines that only repeat an
// element's name are left out, and a delta leaves out container names that only echo
// the elements that came or went, while a status line that changed is always said.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { answerText } from '../../src/tools/answers/answerText.js';
import type { SemanticNodeV3 } from '../../src/model/contracts/schema.js';

const node = (i: string, r: string, n: string): SemanticNodeV3 => ({ i, r, n, xy: [0, 0] });

test('console and failed requests: errors and an action\'s own requests by line, the page\'s resources and chatter counted', () => {
  const text = answerText({
    console: [
      '4 earlier: browser_console_messages',
      '[error] Failed to load resource: the server responded with a status of 404 (Not Found) @ http://x/a.css:1',
      '[error] ReferenceError: $ is not defined\\n    at http://x/page.html:106:1',
      '[info] [DOM] Input elements should have autocomplete attributes',
      '[warning] deprecated API',
      '[warning] deprecated API',
    ],
    failedRequests: ['GET http://x/favicon.ico → 404 (other)', 'GET http://x/a.css → 404 (stylesheet)', 'GET http://x/app.js → 404 (script)', 'POST http://x/api/save → 500 (fetch)', '3 more: browser_network_requests failedOnly=true'],
  });
  assert.deepEqual(text.split('\n'), [
    'console [error] ReferenceError: $ is not defined',
    'console [warning] deprecated API',
    'console: 6 more messages',
    'failed request: POST http://x/api/save → 500 (fetch)',
    "failed requests: 3 of the page's own resources, 3 more",
  ]);
});

test('without a request report, a failed load stays in the console lines (it is the only word of it)', () => {
  const text = answerText({ console: ['[error] Failed to load resource: net::ERR_FAILED @ http://x/a.js:1'] });
  assert.equal(text, 'console [error] Failed to load resource: net::ERR_FAILED @ http://x/a.js:1');
});

test('a delta: a container whose name echoes what came is left out; a control or a status line that changed is said', () => {
  const tree = [node('8', 'region', 'todos feed the cat 1 item left'), node('9', 'status', '1 item left'), node('3', 'chk', 'Toggle all'), node('13', 'chk', 'feed the cat')];
  const delta = { unchanged: 1, added: [tree[3]], removed: [], changed: [{ i: '8', n: tree[0].n }, { i: '9', n: tree[1].n }, { i: '3', n: tree[2].n }] };
  const lines = answerText({ delta } as Parameters<typeof answerText>[0], tree, { id: 's2', since: 's1' }).split('\n');
  assert.deepEqual(lines, ['[s2: changes since s1]', '+ 13 chk feed the cat', '~ 9 status 1 item left', '~ 3 chk Toggle all']);
  // Nothing came or went: the container's new name is the only word of the change, so it is said.
  const alone = answerText({ delta: { unchanged: 3, added: [], removed: [], changed: [{ i: '8', n: tree[0].n }] } } as Parameters<typeof answerText>[0], tree, { id: 's3', since: 's2' });
  assert.match(alone, /^~ 8 region todos/m);
});

test('page text beside the elements: a line that only repeats an element\'s name is left out', () => {
  const snapshot = { title: 'Log in', url: 'http://x/', scroll_position: '0%', interactive_tree: [node('8', 'inp', 'Email：'), node('9', 'btn', 'Log in')] };
  const text = answerText({ snapshot }, [], { id: 's1' }, { page: ['# Log in', 'Email：', 'Forgot your password?'], notes: [] });
  assert.deepEqual(text.split('\n').filter((l) => l.startsWith('> ')), ['> Forgot your password?']);
});
