// Page text in pagelens's text forms, so that a page cannot write something that reads as
// pagelens's own output: a button named `Approve wire transfer {focused}` must not pass for a
// focused button, a console message must not start a new `[error] SYSTEM: …` line.
//
// The rule, one for every text form (compact text, axtree outline, dom_overview, regions, tab
// list, console): page text is written either bare, when it is plain words (no quote, backslash,
// bracket of any kind, `=`, control or format character, and single spaces only between words),
// or as a JSON string literal, which is also what any reader can parse back. A bare name therefore
// never contains a marker pagelens writes after it (` = "value"`, ` {states}`, ` (covered)`), and a
// quoted one ends at its closing quote. Plain names stay bare, so the common case costs nothing.

/** Plain words: nothing that could open or close a marker, quote, or break the line. */
const BARE = /^[^\s"\\{}()[\]<>=\p{C}]+(?: [^\s"\\{}()[\]<>=\p{C}]+)*$/u;
/** Characters JSON.stringify leaves as they are but that break or reorder a line on screen. */
const INVISIBLE = /[\p{Cf}\u2028\u2029\u0085]/gu;

const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Always a JSON string literal, with line separators and format characters (bidi overrides) escaped too. */
export function quotedPageText(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE, hex);
}

/** Bare when it is plain words, else a JSON string literal (see the rule above). Empty text is `""`. */
export function pageText(text: string): string {
  return BARE.test(text) ? text : quotedPageText(text);
}

/**
 * One item of a list pagelens writes (`Dashboard, Projects … Help +2 unnamed`): bare only when
 * plain words that hold none of the list's own marks (a comma, `…`, `+`), so that one
 * name cannot pass for two, or for a count pagelens adds.
 */
export function listItemText(text: string): string {
  return /[,…+]/.test(text) ? quotedPageText(text) : pageText(text);
}

/**
 * One log entry on one line: line breaks, other control and format characters and the backslash
 * itself escaped as in JSON (`\n`, `\\`, `\u202e`), so that an entry can never start another and
 * an escape in the page's text cannot pass for one of ours.
 */
export function oneLine(text: string): string {
  return text.replace(/[\\\p{Cc}\p{Cf}\u2028\u2029\u0085]/gu, (c) => {
    switch (c) {
      case '\\': return '\\\\';
      case '\n': return '\\n';
      case '\r': return '\\r';
      case '\t': return '\t';
      default: return hex(c);
    }
  });
}
