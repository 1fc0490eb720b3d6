// Real o200k token counts (the GPT-4o / GPT-5 vocabulary). The tokenizer's tables take about a
// second to load, so they are loaded once, on first use.
type Counter = (text: string) => number;
let counter: Promise<Counter> | undefined;

export function loadTokenizer(): Promise<Counter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => (text: string) => m.countTokens(text));
  return counter;
}

export async function countTokens(text: string): Promise<number> {
  return (await loadTokenizer())(text);
}
