// Suffix arrays and longest common prefixes: the index that finds every substring a text repeats
// (templatize's dictionary of attribute-value substrings uses it) in O(n log n) time.

/**
 * The suffix array of a sequence of integers: the start positions of its suffixes in sorted order.
 * Prefix doubling with two counting sorts per round; rounds stop as soon as every suffix has its
 * own rank, so repetitive text costs log₂ of its longest repeat in rounds, not log₂ n.
 */
export function suffixArray(text: Int32Array): Int32Array {
  const n = text.length;
  const sa = new Int32Array(n);
  if (n === 0) return sa;
  let rank = new Int32Array(n);
  let next = new Int32Array(n);
  const second = new Int32Array(n);
  // Round 0: by the first symbol (ranks are the distinct symbols' order).
  const order = Array.from(text.keys()).sort((a, b) => text[a] - text[b]);
  let classes = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && text[order[i]] !== text[order[i - 1]]) classes++;
    rank[order[i]] = classes;
    sa[i] = order[i];
  }
  classes++;
  const count = new Int32Array(n + 1);
  for (let k = 1; classes < n; k <<= 1) {
    // By the rank k further on (suffixes shorter than k first), then stably by their own rank.
    let j = 0;
    for (let i = n - k; i < n; i++) second[j++] = i;
    for (let i = 0; i < n; i++) if (sa[i] >= k) second[j++] = sa[i] - k;
    count.fill(0, 0, classes + 1);
    for (let i = 0; i < n; i++) count[rank[i] + 1]++;
    for (let c = 1; c <= classes; c++) count[c] += count[c - 1];
    for (let i = 0; i < n; i++) sa[count[rank[second[i]]]++] = second[i];
    next[sa[0]] = 0;
    classes = 1;
    for (let i = 1; i < n; i++) {
      const a = sa[i - 1], b = sa[i];
      const same = rank[a] === rank[b] && (a + k < n ? rank[a + k] : -1) === (b + k < n ? rank[b + k] : -1);
      if (!same) classes++;
      next[b] = classes - 1;
    }
    [rank, next] = [next, rank];
  }
  return sa;
}

/** lcp[i]: how long a prefix the suffixes sa[i-1] and sa[i] share (lcp[0] = 0); Kasai's algorithm, O(n). */
export function longestCommonPrefixes(text: Int32Array, sa: Int32Array): Int32Array {
  const n = text.length;
  const rank = new Int32Array(n);
  for (let i = 0; i < n; i++) rank[sa[i]] = i;
  const lcp = new Int32Array(n);
  let h = 0;
  for (let i = 0; i < n; i++) {
    if (rank[i] === 0) { h = 0; continue; }
    const j = sa[rank[i] - 1];
    while (i + h < n && j + h < n && text[i + h] === text[j + h]) h++;
    lcp[rank[i]] = h;
    if (h > 0) h--;
  }
  return lcp;
}
