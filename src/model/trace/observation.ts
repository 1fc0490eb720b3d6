// What the viewer needs of an observation: the IDs it lists (to tie its lines to the boxes on the
// screenshot), an indented form of a JSON observation for reading, and a line diff against the
// previous step's. Pure: the viewer's data is made with these in Node, the page only displays it.

/**
 * IDs an observation lists, in order: `"i":"5"` in JSON (semantic_v3 nodes), and in the text form
 * an element line's leading ID (`5 btn Save`, `+ 5 …`, `~ 5 …`).
 */
export function listedIds(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/"i":"([^"\\]{1,40})"/g)) out.add(m[1]);
  for (const m of text.matchAll(/^(?:[+~] )?(f\d+_\d+|\d+) [a-z]{2,}\b/gm)) out.add(m[1]);
  return [...out];
}

/** IDs an observation shows with a secret value ("***"): their pixels are painted over. */
export function secretIds(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\{[^{}]*"i":"([^"\\]{1,40})"[^{}]*"v":"\*\*\*"[^{}]*\}|\{[^{}]*"v":"\*\*\*"[^{}]*"i":"([^"\\]{1,40})"[^{}]*\}/g)) out.add(m[1] ?? m[2]);
  for (const m of text.matchAll(/^(?:[+~] )?(f\d+_\d+|\d+) [a-z]{2,}\b.*= "\*\*\*"/gm)) out.add(m[1]);
  return [...out];
}

/**
 * A JSON observation for reading: one key a line at the top, and each element of an array of
 * objects on its own line (a semantic_v3 tree reads as one node a line). Text stays as it is.
 */
export function readableObservation(text: string, format: 'text' | 'json'): string {
  if (format !== 'json') return text;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return text;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return JSON.stringify(v, null, 1);
  const lines: string[] = ['{'];
  const entries = Object.entries(v);
  entries.forEach(([k, x], i) => {
    const comma = i < entries.length - 1 ? ',' : '';
    if (Array.isArray(x) && x.length && x.every((e) => e && typeof e === 'object')) {
      lines.push(`  ${JSON.stringify(k)}: [`);
      x.forEach((e, j) => lines.push(`    ${JSON.stringify(e)}${j < x.length - 1 ? ',' : ''}`));
      lines.push(`  ]${comma}`);
    } else lines.push(`  ${JSON.stringify(k)}: ${JSON.stringify(x)}${comma}`);
  });
  lines.push('}');
  return lines.join('\n');
}

export interface DiffLine {
  /** ' ' kept, '+' only in the new, '-' only in the old. */
  op: ' ' | '+' | '-';
  text: string;
}

/** Most lines a diff compares in full (an LCS table is their product); past it, old and new are shown whole. */
const DIFF_MAX_LINES = 2000;

/** A line diff of `before` and `after` (longest common subsequence), in the order of `after`. */
export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > DIFF_MAX_LINES * DIFF_MAX_LINES / 4) return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
  // Common head and tail first: most steps change a few lines in the middle.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1] + 1 : Math.max(lcs[(i + 1) * w + j], lcs[i * w + j + 1]);
  }
  const mid: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) { mid.push({ op: ' ', text: x[i] }); i++; j++; }
    else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) mid.push({ op: '-', text: x[i++] });
    else mid.push({ op: '+', text: y[j++] });
  }
  while (i < x.length) mid.push({ op: '-', text: x[i++] });
  while (j < y.length) mid.push({ op: '+', text: y[j++] });
  return [...a.slice(0, head).map((text) => ({ op: ' ' as const, text })), ...mid, ...b.slice(b.length - tail).map((text) => ({ op: ' ' as const, text }))];
}
