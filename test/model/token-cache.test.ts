// Issue 21: a long session must not make token counts slower. gpt-tokenizer keeps the pieces it
// merged in a process-wide LRU Map (100,000 entries); once a long run of pages had filled it, every
// count evicted from a Map full of holes, and the flat 20k page's answer took 3.8 s of CPU to count
// instead of 0.12 s. The cache is now small and emptied before each count. No timing here: the
// test looks at the cache itself (a library field, read only) and at the counts, which must not change.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import o200k from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens, countTokensDetailed } from '../../src/model/renderers/tokens.js';

function mergeCacheSize(): number {
  const core = (o200k as unknown as { bytePairEncodingCoreProcessor: { mergeCache?: Map<string, unknown> } }).bytePairEncodingCoreProcessor;
  return core.mergeCache?.size ?? 0;
}

test('counting many distinct words leaves the tokenizer a small merge cache, and counts the same before and after', async () => {
  const answer = JSON.stringify(Array.from({ length: 2000 }, (_, r) => ({ i: String(r), r: 'btn', n: `Save ${r}`, xy: [40, 8 + r * 26] })));
  const before = await countTokens(answer);
  // Words the vocabulary does not hold, each merged and cached: what a long corpus run leaves behind.
  let words = '';
  for (let i = 0; i < 60_000; i++) words += ` qz${(i * 7919).toString(36)}xv${i.toString(36)}`;
  await countTokensDetailed(words);
  assert.ok(mergeCacheSize() <= 4096, `the merge cache holds ${mergeCacheSize()} pieces after the count`);
  assert.equal(await countTokens(answer), before);
  assert.equal((await countTokensDetailed(answer)).tokens, before);
});

// A warm read's answer repeats the last one's entries: its count is made of the pieces counted
// before (tokens.ts cuts the text where the tokenizer must cut too). The count must be the
// library's to the token, on any text, and after pieces were remembered.
test('counting an answer by remembered pieces gives the tokenizer\'s own count, on any text', async () => {
  const parts = ['{', '"', '}', ',', ':', '[', ']', 'a', 'B', 'é', 'e\u0301', '\u0301', '1', '23', ' ', '  ', '\n', '\r\n', '/', "'", "'s",
    '\u00a0', '日本', '😀', '\\"', '{"', '{"i', '"{', '_', '.', '\t'];
  let seed = 7;
  const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const wrong: string[] = [];
  for (let k = 0; k < 4000; k++) {
    let text = '';
    for (let i = 0, n = 1 + Math.floor(next() * 40); i < n; i++) text += parts[Math.floor(next() * parts.length)];
    // Twice: counted, then answered from what the first count remembered.
    for (let pass = 0; pass < 2; pass++) if (await countTokens(text) !== o200k.countTokens(text)) wrong.push(JSON.stringify(text));
  }
  assert.deepEqual(wrong.slice(0, 5), []);
  const answer = (moved: number) => JSON.stringify({ mode: 'semantic_v3', interactive_tree: Array.from({ length: 3000 }, (_, r) => (
    { i: String(r + 1), r: ['btn', 'link', 'tb'][r % 3], n: r === moved ? `Saved “${r}”’s` : `Save ${r}`, xy: [40, 8 + r * 26] })), meta: { extractionTimeMs: 12.5 } });
  for (const moved of [-1, 5, 2999]) assert.equal(await countTokens(answer(moved)), o200k.countTokens(answer(moved)));
  // A page's text may hold what the tokenizer calls a special token: it is counted as the text it is.
  const special = `${answer(-1)}{"n":"<|endoftext|>"}`;
  assert.equal(await countTokens(special), o200k.countTokens(special, { disallowedSpecial: new Set() }));
});
