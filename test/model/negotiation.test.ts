// The negotiation rules (seed 001 §4.2) as a pure function: what to ask for, and when not to; and the heuristic planner applying them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InteractRequest, type InteractRequestInput } from '../../src/model/negotiation/interact.js';
import { negotiate, type Candidate } from '../../src/model/negotiation/negotiation.js';
import { HeuristicPlanner } from '../../src/agent/heuristic.js';

const req = (over: Partial<InteractRequestInput> = {}) => InteractRequest.parse({ url: 'https://a.test', query: 'Click Delete', interactiveTree: [], ...over });
const c = (id: string, role: string, name: string, score = 1): Candidate => ({ id, role, name, score });

test('duplicated labels ask for the skeleton; many look-alikes and visual words for hybrid; raw HTML for full', () => {
  const dup = [c('4', 'button', 'Delete'), c('9', 'button', 'Delete', 0.98), c('2', 'link', 'Help', 0.2)];
  assert.deepEqual(negotiate({ request: req(), candidates: dup })?.requestedDomMode, 'skeleton');
  const many = [c('1', 'button', 'Edit'), c('2', 'button', 'Edit'), c('3', 'button', 'Edit'), c('4', 'button', 'Edit')];
  const hybrid = negotiate({ request: req({ query: 'Click Edit' }), candidates: many });
  assert.equal(hybrid?.requestedDomMode, 'hybrid');
  assert.equal(hybrid?.needsScreenshot, true);
  assert.match(hybrid!.reason, /4 candidates look alike/);
  for (const query of ['Click the blue button', 'Open the gear icon', 'Click the button in the top right corner', 'Open the second card']) {
    assert.equal(negotiate({ request: req({ query }), candidates: [c('1', 'button', 'Go')] })?.requestedDomMode, 'hybrid', query);
  }
  assert.equal(negotiate({ request: req({ query: 'What is the price of the Odyssey?' }), candidates: [c('1', 'item', 'Odyssey')] }), null, 'a question the tree answers');
  assert.equal(negotiate({ request: req(), candidates: [c('1', 'button', 'Save')], needsRawHtml: 'the data-sku attribute is not in the tree' })?.requestedDomMode, 'full');
  assert.equal(negotiate({ request: req(), candidates: [c('1', 'button', 'Save'), c('2', 'button', 'Cancel', 0.3)] }), null, 'a clear best candidate needs nothing more');
});

test('never asks for what the request carries, never twice in a row for the same artifact', () => {
  const dup = [c('4', 'button', 'Delete'), c('9', 'button', 'Delete')];
  assert.equal(negotiate({ request: req({ domMode: 'skeleton', skeletonDom: '<button data-llm-id="4">Delete</button>' }), candidates: dup }), null);
  assert.equal(negotiate({ request: req(), candidates: dup, lastRequested: 'skeleton' }), null);
  const blue = req({ query: 'Click the blue button', domMode: 'hybrid', skeletonDom: '<b/>', screenshot: 'abc' });
  assert.equal(negotiate({ request: blue, candidates: [c('1', 'button', 'Go')] }), null);
  assert.equal(negotiate({ request: req({ query: 'Click the blue button' }), candidates: [c('1', 'button', 'Go')], lastRequested: 'hybrid' }), null);
  assert.equal(negotiate({ request: req({ dom: '<html></html>', domMode: 'full' }), candidates: [], needsRawHtml: 'x' }), null);
});

test('the heuristic planner on a two-button page: a word no element carries does not sink the match; it asks for the skeleton, then uses it', async () => {
  const planner = new HeuristicPlanner();
  const session = { id: null, steps: [], failures: new Map<string, number>() };
  const tree = [{ i: '4', r: 'btn', n: 'Delete', xy: [700, 210] as [number, number] }, { i: '9', r: 'btn', n: 'Delete', xy: [700, 420] as [number, number] }];
  const base = { url: 'https://shop.example/account', query: 'Click Delete in Shipping', interactiveTree: tree };
  const first = await planner.plan(InteractRequest.parse(base), session);
  assert.equal('status' in first && first.status === 'needs_context' && first.requestedDomMode, 'skeleton', JSON.stringify(first));
  const skeletonDom = '<h1>Account</h1><section aria-label="Billing"><button data-llm-id="4">Delete</button></section><section aria-label="Shipping"><button data-llm-id="9">Delete</button></section>';
  const second = await planner.plan(InteractRequest.parse({ ...base, domMode: 'skeleton', skeletonDom }), session);
  assert.equal('action' in second && second.action, 'click(9)', JSON.stringify(second));
  assert.match('thought' in second ? second.thought : '', /section "Shipping"/);
});
