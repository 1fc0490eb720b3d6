// One error vocabulary: every public entry point answers bad input with PagelensError BAD_INPUT and
// what was expected (never a raw ZodError), and results carry codes from the one list.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { openPage } from '../../src/session/open.js';
import { ERROR_CODES, PagelensError } from '../../src/model/contracts/errors.js';
import { ActionResult } from '../../src/model/contracts/outcome.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

function badInput(pattern: RegExp) {
  return (e: unknown) => {
    assert.ok(e instanceof PagelensError, `not a PagelensError: ${(e as Error)?.constructor?.name}: ${String(e)}`);
    assert.equal(e.code, 'BAD_INPUT', e.message);
    assert.match(e.message, pattern);
    assert.doesNotMatch(e.message, /ZodError|^\s*\[/, 'a sentence, not a serialized ZodError');
    return true;
  };
}

test('the library refuses malformed options with BAD_INPUT saying what was expected', async () => {
  const { lens } = await h.open('trust-a.html');
  await assert.rejects(lens.snapshot({ fullpage: true } as never), badInput(/Invalid snapshot options: .*fullpage/));
  await assert.rejects(lens.snapshot({ mode: 'everything' } as never), badInput(/Invalid snapshot options: mode: .*semantic_v3/));
  await assert.rejects(lens.text({ fullPage: 'yes' } as never), badInput(/Invalid text options: fullPage/));
  await assert.rejects(lens.act('click(1)', { expect: { type: 'element_appears' } }), badInput(/element_appears needs text or selector/));
  await assert.rejects(lens.act('click(1)', { expect: 'teleport' }), badInput(/"teleport" is not an expected outcome/));
  await assert.rejects(lens.act('click(1)', { expext: 'navigation' } as never), badInput(/Invalid act options: .*expext/));
  await assert.rejects(lens.act('click(1)', { settle: { timeout: -5 } }), badInput(/Invalid stability options: timeout/));
  await assert.rejects(lens.act({ type: 'click' } as never), badInput(/Not a valid action object: id/));
  await assert.rejects(lens.act('clik(1)'), badInput(/unknown action "clik"/));
  await assert.rejects(lens.waitForDomStability({ timeout: -1 }), badInput(/Invalid stability options: timeout/));
  await assert.rejects(lens.recentEvents(0), badInput(/limit must be a positive integer/));
  await assert.rejects(lens.locator('0-12'), badInput(/not the EncodedId/));
  await assert.rejects(lens.quickVerify('teleport' as never), badInput(/expected "click", "setValue" or "navigate"/));
});

test('refusals from the page come back as results whose code is in the one list', async () => {
  const { lens } = await h.open('trust-a.html');
  await lens.snapshot();
  for (const action of ['click(999)', 'click(f7_1)', 'select(1, "x")', 'navigate("javascript:alert(1)")']) {
    const r = ActionResult.parse(await lens.act(action));
    assert.equal(r.ok, false, action);
    assert.ok(ERROR_CODES.includes(r.error!.code), `${action}: ${r.error!.code}`);
  }
});

test('a page that cannot be loaded is LOAD_FAILED, not NAVIGATED', async () => {
  // A port that was just free: nothing listens there.
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  const url = `http://127.0.0.1:${port}/nothing-listens-here`;
  await assert.rejects(openPage(url, { timeoutMs: 10_000 }), (e: unknown) => {
    assert.ok(e instanceof PagelensError);
    assert.equal(e.code, 'LOAD_FAILED');
    assert.match(e.message, /Could not open http:\/\/127\.0\.0\.1:\d+\/nothing-listens-here: .*ERR_CONNECTION_REFUSED/);
    return true;
  });
});
