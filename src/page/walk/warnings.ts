// Things the engine could not do for some elements during one read, counted by kind, so that a
// failure is reported with the snapshot instead of quietly producing a worse answer.
const counts = new Map<string, { n: number; example: string }>();

export function noteWarning(kind: string, example: unknown): void {
  const entry = counts.get(kind);
  if (entry) entry.n++;
  else counts.set(kind, { n: 1, example: String(example instanceof Error ? example.message : example).split('\n')[0].slice(0, 160) });
}

/** The warnings noted since the last call, as sentences; clears them. */
export function takeWarnings(): string[] {
  const out = [...counts].map(([kind, { n, example }]) => `${kind} for ${n} element${n > 1 ? 's' : ''} (${example})`);
  counts.clear();
  return out;
}
