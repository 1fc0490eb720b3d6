// The agent run's recorder shared by the CDP host's `agent --trace` and the extension's export:
// each step's observation is the last request exactly as sent (screenshot aside) with the loop's
// own count, the planner's raw value becomes a secret when the host reported the action with
// "***", and past what it keeps a step keeps neither text nor screenshot.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AgentRecorder, listedOf } from '../../src/core/agentRecord.js';
import type { AgentStep } from '../../src/core/negotiate.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import type { InteractRequestInput } from '../../src/model/negotiation/interact.js';
import { countTokens } from '../../src/model/renderers/tokens.js';

const snap = {
  mode: 'semantic_v3', url: 'http://127.0.0.1/', title: 'Sign in', viewport: { width: 800, height: 600 }, scroll_position: '0%', scrollable_containers: [],
  meta: { totalElements: 2, viewportElements: 2, prunedElements: 0, occludedElements: 0, estimatedTokens: 10 },
  interactive_tree: [{ i: '1', r: 'inp', n: 'Password', v: '***', xy: [10, 10] }, { i: '2', r: 'btn', n: 'Log in', xy: [10, 40] }],
} as unknown as SemanticV3Result;

const request = (extra: Partial<InteractRequestInput> = {}) => ({ url: snap.url, query: 'log in with hunter22', domMode: 'semantic_v3', interactiveTree: snap.interactive_tree, viewport: snap.viewport, ...extra }) as InteractRequestInput;
const capture = { jpeg: new Uint8Array(5000), width: 800, height: 600, viewport: snap.viewport, boxes: [{ id: '1', box: [0, 0, 20, 20] as [number, number, number, number] }], frames: 1, ms: 5, warnings: [] };

test('the recorder: the request as sent, the loop\'s count, the secret learnt from the host\'s "***", the ceiling of what it keeps', async () => {
  assert.deepEqual(listedOf(snap).map((l) => [l.id, l.secret ?? false]), [['1', true], ['2', false]]);
  const recorder = new AgentRecorder({ keepBytes: 1000 });
  const interact = recorder.interact(async () => ({ thought: 'type hunter22', action: 'setValue(1, "hunter22")' }));
  recorder.read(snap, 12.4, capture);
  await interact(request({ screenshot: 'AAAA' }));
  const sent = JSON.stringify(request());
  const s1 = recorder.step({
    step: 1, url: snap.url, mode: 'semantic_v3', tokensSent: await countTokens(sent), imageBytes: 3, negotiated: [],
    response: { thought: 'type ***', action: 'setValue(1, "***")' },
    result: { ok: true, action: 'setValue(1, "***")', method: 'keyboard' },
  } as unknown as AgentStep);
  assert.equal(s1.observation?.text, sent, 'the request without its screenshot');
  assert.deepEqual(s1.observation?.rounds, [{ mode: 'semantic_v3', tokens: await countTokens(sent) }]);
  assert.equal(s1.timings.readMs, 12);
  assert.ok(s1.boxes[0].secret, 'the ID the observation shows as *** is a secret box');
  assert.deepEqual(s1.masked, ['the value typed into 1 (a secret field)']);
  assert.deepEqual(recorder.secrets.secretValues(), ['hunter22']);
  assert.equal(recorder.keeping, false, 'the first step already took more than the recorder keeps');
  recorder.read(snap, 3, capture);
  await interact(request());
  const s2 = recorder.step({ step: 2, url: snap.url, mode: 'semantic_v3', tokensSent: 1, imageBytes: 0, negotiated: [], response: { thought: '', action: 'done("ok")' } } as unknown as AgentStep);
  assert.equal(s2.observation?.text, '');
  assert.equal(recorder.steps[1].capture, undefined);
  assert.match(s2.observation?.omitted?.join(' ') ?? '', /reached the 1000 bytes it keeps/);
  assert.equal(s2.verdict.outcome, 'done');
});
