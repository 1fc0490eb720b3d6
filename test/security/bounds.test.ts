// Issue 20, "no input blocks the server": the token counter's work is bounded (a 100,000-letter
// word took 105 s, during which `pagelens mcp` ignored SIGTERM) and says when its count is an
// estimate; a user's JSON Schema for extract is checked before it is built (a pattern like
// ^(a+)+$ hung the server and every later call, {"$ref":"#"} overflowed the stack): refused with
// BAD_INPUT and what was expected, and the next call is answered.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isPagelensError } from '../../src/model/contracts/errors.js';
import { checkPattern, unsafeSchemaReason } from '../../src/model/safety/schemaSafety.js';
import { boundedCount, countTokens, countTokensDetailed, EXACT_RUN_LIMIT } from '../../src/model/renderers/tokens.js';
import { runTool } from '../../src/browser/tools/runTool.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => { h = await startHarness(); });
after(async () => { await h?.close(); });

test('the tokenizer never gets a run longer than the exact-count limit; below it, counts are exact', async () => {
  const pieces: number[] = [];
  const spy = (t: string) => { pieces.push(t.length); return t.length; };
  const long = boundedCount(spy, `start ${'a'.repeat(100_000)} middle ${'!'.repeat(30_000)}${' '.repeat(20_000)}end`);
  assert.equal(long.estimated, true);
  assert.ok(Math.max(...pieces) <= EXACT_RUN_LIMIT + 1, `largest piece: ${Math.max(...pieces)}`);
  assert.equal(long.tokens, 6 + 100_000 + 8 + 30_000 + 20_000 + 3, 'every character is counted once');

  const page = 'Hello world, this is a normal page with a https://example.com/link. '.repeat(2000);
  const exact = await countTokensDetailed(page);
  assert.equal(exact.estimated, false);
  assert.equal(exact.tokens, await countTokens(page));
  // The estimate of one long word stays close to the real count (12,500 for 100,000 a's, known).
  const word = await countTokensDetailed('a'.repeat(100_000));
  assert.equal(word.estimated, true);
  assert.ok(Math.abs(word.tokens - 12_500) <= 100, String(word.tokens));
});

test('a full snapshot of a page with one 100,000-letter word is answered, its token count marked as an estimate', { timeout: 60_000 }, async () => {
  const { lens } = await h.open('security-longword.html');
  const full = await lens.snapshot({ mode: 'full' });
  assert.equal(full.meta.approximateTokens, true);
  assert.ok(full.meta.estimatedTokens > 12_000, String(full.meta.estimatedTokens));
  // A page without such a run is counted exactly, and says nothing.
  const v3 = await lens.snapshot();
  assert.equal(v3.meta.approximateTokens, undefined);
});

test('extract refuses a pattern that backtracks exponentially, with BAD_INPUT and what was expected; the next call is answered', { timeout: 60_000 }, async () => {
  const { lens } = await h.open('security-redos.html');
  const evil = JSON.stringify({ type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } } });
  await assert.rejects(runTool(lens, 'extract', { instruction: 'the code', schema: evil }),
    (e) => isPagelensError(e, 'BAD_INPUT') && /nested quantifiers.*expected a pattern without nested repetition/.test(e.message));
  const fine = JSON.stringify({ type: 'object', properties: { total: { type: 'string', pattern: '^\\$\\d+\\.\\d{2}$' } } });
  const answer = await runTool(lens, 'extract', { instruction: 'the total', schema: fine });
  assert.match(answer.text, /\$12\.00/);
});

test('extract refuses recursive, external and oversized schemas without overflowing the stack', { timeout: 60_000 }, async () => {
  const { lens } = await h.open('security-redos.html');
  const cases: Array<[unknown, RegExp]> = [
    [{ $ref: '#' }, /refers to itself.*expected one written out to a fixed depth/],
    [{ type: 'object', properties: { a: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } } }, /refers to itself/],
    [{ $ref: 'https://example.com/schema.json' }, /only references inside the schema/],
    [JSON.parse('{"items":'.repeat(200) + '{}' + '}'.repeat(200)), /nests deeper than 32 levels/],
  ];
  for (const [schema, why] of cases) {
    await assert.rejects(runTool(lens, 'extract', { instruction: 'the code', schema: JSON.stringify(schema) }),
      (e) => isPagelensError(e, 'BAD_INPUT') && why.test(e.message), JSON.stringify(schema).slice(0, 80));
  }
  const answer = await runTool(lens, 'extract', { instruction: 'the total', schema: JSON.stringify({ type: 'object', properties: { total: { type: 'string' } } }) });
  assert.match(answer.text, /\$12\.00/);
});

test('the pattern rule: exponential shapes refused, ordinary validation patterns taken', () => {
  const refused = (p: string) => { try { checkPattern(p); return false; } catch { return true; } };
  for (const p of ['^(a+)+$', '(a*)*', '(\\w+\\s?)*$', '(a|aa)+', '(a|a)*', '(\\w|\\d)+', '(x+x+)+y', '((ab)+)+', '(a)\\1', 'a'.repeat(201)]) assert.ok(refused(p), p);
  for (const p of ['^(foo|bar)+$', '^(\\d{3}-)+\\d{4}$', '^[A-Z]{2}\\d+$', '^\\$?\\d+(\\.\\d{2})?$', '^\\p{L}+$', '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$', '(?:ab)+']) assert.ok(!refused(p), p);
  assert.equal(unsafeSchemaReason({ type: 'object', properties: { a: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } }), null, 'a reference that does not recurse is fine');
});
