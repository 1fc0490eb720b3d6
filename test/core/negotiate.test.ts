// src/core/negotiate.ts on its own (issue 44): the client loop of the negotiation over a fake face
// and a scripted backend. The semantic tree first; exactly the artifacts a needs-context answer
// names; the action's outcome reported in the next request; done ends it (successful only if the
// last verification passed); a value typed into a secret field never comes back in the transcript;
// a backend off contract or asking for context without end is an error, or `failed` with failSoft.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { negotiate, type NegotiatingFace } from '../../src/core/negotiate.js';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import type { ActionResult } from '../../src/model/contracts/outcome.js';
import type { SemanticV3Result } from '../../src/model/contracts/schema.js';
import type { InteractRequestInput } from '../../src/model/negotiation/interact.js';

function face(opts: { secret?: boolean; verified?: boolean } = {}): NegotiatingFace & { calls: string[] } {
  const calls: string[] = [];
  const snap = { mode: 'semantic_v3', url: 'http://a/login', title: 'Login', viewport: { width: 800, height: 600 }, scroll_position: '0%', scrollable_containers: [], interactive_tree: [{ i: '3', r: 'textbox', n: 'Password', xy: [10, 10] }], meta: {} } as unknown as SemanticV3Result;
  return {
    calls,
    snapshot: async () => { calls.push('snapshot'); return snap; },
    hybrid: async () => { calls.push('hybrid'); return { skeletonDom: '<skel/>', screenshot: 'AAAA', screenshotHash: 'h1' }; },
    skeleton: async () => { calls.push('skeleton'); return '<skel/>'; },
    fullDom: async () => { calls.push('full'); return '<html/>'; },
    act: async (action): Promise<ActionResult> => {
      calls.push(`act ${action}`);
      const shown = opts.secret ? action.replace(/"[^"]*"/, '"***"') : action;
      return { action: shown, ok: true, method: 'keyboard', ...(opts.verified !== undefined && { verification: { success: opts.verified, verifiedOutcome: null, actualOutcome: 'x', errorsDetected: [], successMessages: [], pageState: { url: 'http://a/login', urlChanged: false, domChanged: false, recentMutations: [] }, confidence: 0.7, feedback: 'x' } }) };
    },
    url: async () => 'http://a/login',
  };
}

function backend(answers: unknown[]): { interact: (r: InteractRequestInput) => Promise<unknown>; requests: InteractRequestInput[] } {
  const requests: InteractRequestInput[] = [];
  return { requests, interact: async (r) => { requests.push(r); return answers.shift(); } };
}

test('exactly the artifacts asked for, semantic_v3 still primary; the outcome reported next; done ends it', async () => {
  const f = face({ verified: true });
  const b = backend([
    { status: 'needs_context', requestedDomMode: 'hybrid', reason: 'which icon?' },
    { thought: 'type it', action: 'type(3, "hunter2")', expected_outcome: { type: 'value_changes' } },
    { thought: 'ok', action: 'done("logged in")' },
  ]);
  const r = await negotiate(f, { task: 'log in', interact: b.interact, sessionId: 's1' });
  assert.deepEqual([r.status, r.success, r.message], ['done', true, 'logged in']);
  assert.deepEqual(f.calls, ['snapshot', 'hybrid', 'act type(3, "hunter2")', 'snapshot']);
  assert.equal(b.requests[0].domMode, 'semantic_v3');
  assert.deepEqual([b.requests[1].domMode, b.requests[1].screenshot, b.requests[1].skeletonDom, b.requests[1].dom], ['hybrid', 'AAAA', '<skel/>', undefined]);
  assert.equal(b.requests[2].lastActionStatus, 'success', 'the next request says how the action went');
  assert.equal(r.steps[0].negotiated.length, 1);
  assert.ok(r.steps[0].imageBytes > 0 && r.steps[0].tokensSent > 0);
});

test('a value typed into a secret field never comes back in the transcript; done after a failed verification is no success', async () => {
  const b = backend([
    { thought: 'typing hunter2 now', action: 'type(3, "hunter2")' },
    { thought: 'done', action: 'done("used hunter2")' },
  ]);
  const r = await negotiate(face({ secret: true, verified: false }), { task: 'log in', interact: b.interact, sessionId: 's1' });
  assert.equal(r.status, 'done');
  assert.equal(r.success, false, 'the last action\'s verification failed');
  assert.ok(!JSON.stringify(r).includes('hunter2'), JSON.stringify(r));
});

test('off contract, endless context, or the step limit: said; failSoft ends as failed instead of throwing; stopped is honoured', async () => {
  await assert.rejects(negotiate(face(), { task: 't', interact: backend([{ nonsense: true }]).interact, sessionId: 's' }), (e) => isPagelensError(e, 'BACKEND_ERROR'));
  const ask = { status: 'needs_full_dom', needsFullDomReason: 'more' };
  const soft = await negotiate(face(), { task: 't', interact: backend([ask, ask, ask, ask, ask]).interact, sessionId: 's', failSoft: true });
  assert.deepEqual([soft.status, soft.message], ['failed', 'the backend asked for context 4 times in one step']);
  const limited = await negotiate(face(), { task: 't', interact: backend([{ thought: '', action: 'scroll()' }, { thought: '', action: 'scroll()' }]).interact, sessionId: 's', maxSteps: 2 });
  assert.deepEqual([limited.status, limited.steps.length], ['max_steps', 2]);
  const stopped = await negotiate(face(), { task: 't', interact: backend([]).interact, sessionId: 's', stopped: () => true });
  assert.deepEqual([stopped.status, stopped.steps.length], ['stopped', 0]);
});
