// Ceilings on what one piece of page input may weigh (issue 37): a page decides how long its
// attribute values, text nodes and documents are, and whatever pagelens does with them afterwards
// (templatize, count tokens, page an answer) costs at least their length on the Node event loop.
// A 2 MB attribute held `pagelens mcp` past every deadline, so huge values are cut where they
// enter, inside the page engine, before they are joined into one string, with a marker saying how
// long they were. Pure and dependency-free: the in-page engine (src/page) imports it too.

export const INPUT_BOUNDS = {
  /** Characters of one attribute value in a `full` copy (a URL stays whole: 2,048 is their usual ceiling). */
  attributeValue: 2_000,
  /** Characters of one text node in a `full` copy (after white space is collapsed): some 25,000 tokens of prose. */
  textNode: 100_000,
  /** Characters of one frame's `full` copy, and of all frames joined: some 250,000 tokens, 30 pages of 8,000. */
  fullDocument: 1_000_000,
  /** Characters of one value a client's pattern is matched against (src/model/safety/linearPattern.ts). */
  patternInput: 10_000,
} as const;

/** The marker that ends a cut value: its whole length, `…[cut: 2,000,000 chars]`. */
export function cutMarker(length: number): string {
  return `…[cut: ${length.toLocaleString('en-US')} chars]`;
}

/** `text` as it is when it fits in `limit` characters; else its first `limit` and the marker. */
export function cutAt(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return text.slice(0, safeEnd(text, limit)) + cutMarker(text.length);
}

/**
 * A whole HTML document cut at `limit`: after the last tag that ends in its last tenth when there
 * is one (so the cut is not inside a tag), then the marker. Elements left open are closed by
 * whoever parses it; what was cut is said by the marker.
 */
export function cutDocument(html: string, limit: number): string {
  if (html.length <= limit) return html;
  const tagEnd = html.lastIndexOf('>', limit - 1);
  const end = tagEnd >= limit * 0.9 ? tagEnd + 1 : safeEnd(html, limit);
  return html.slice(0, end) + cutMarker(html.length);
}

/** `at`, or one before it when that would split a surrogate pair. */
function safeEnd(text: string, at: number): number {
  const c = text.charCodeAt(at - 1);
  return c >= 0xd800 && c <= 0xdbff ? at - 1 : at;
}
