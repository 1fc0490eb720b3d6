// Small statistics over per-page figures. Percentiles use the nearest-rank method so that a
// reported p90 is always a value some page actually had.
export function quantile(values: number[], q: number): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil(q * v.length) - 1))];
}

export const median = (values: number[]): number => {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

export const p90 = (values: number[]): number => quantile(values, 0.9);

export function share(part: number, whole: number): number | null {
  return whole > 0 ? part / whole : null;
}

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** Compact human number: 950, 12.3k, 1.2M. */
export function human(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  const a = Math.abs(x);
  if (a >= 1e6) return (x / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
  if (a >= 1e4) return (x / 1e3).toFixed(0) + 'k';
  if (a >= 1e3) return (x / 1e3).toFixed(1) + 'k';
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

export function pct(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '–' : (x * 100).toFixed(digits) + '%';
}

/** Median wall time of `runs` calls, after one warm-up call unless the caller already warmed it. */
export async function timeWarm<T>(runs: number, fn: () => Promise<T>, warmUp = true): Promise<{ ms: number; value: T }> {
  let value = warmUp ? await fn() : (undefined as T);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = await fn();
    times.push(performance.now() - t0);
  }
  return { ms: round(median(times), 2), value };
}
