// Which elements can have a ::before/::after (or ::first-letter) at all, read from the style
// sheets. Asking Chrome for a pseudo-element's computed style costs a style computation per
// element and pseudo-element, and almost every element has none: the rules that create them are
// few, so one `matches()` against their subjects ("a.icon" for "a.icon::before") answers first.
// Whatever cannot be read or reduced (a cross-origin sheet, a selector that crosses shadow
// boundaries) answers "may have", and the computed style decides as before.

import { shadowRootOf } from '../identity/shadow.js';

export type PseudoKind = 'content' | 'first-letter';

const PATTERNS: Record<PseudoKind, RegExp> = {
  content: /::?(before|after)\b/i,
  'first-letter': /::?first-letter\b/i,
};
/** The pseudo-element and what may follow it in its compound (user-action pseudo-classes). */
const STRIP: Record<PseudoKind, RegExp> = {
  content: /::?(before|after)\b(:[\w-]+(\([^)]*\))?)*/gi,
  'first-letter': /::?first-letter\b(:[\w-]+(\([^)]*\))?)*/gi,
};
// Selectors that reach across tree scopes: their subject cannot be matched from one scope.
const CROSS_SCOPE = /::part\(|::slotted\(|:host\b|:host-context\(/i;
// The UA style sheet gives <q> its quotes.
const UA_CONTENT = new Set(['Q']);

/** Subjects of the rules that create each kind in one sheet; null when the sheet cannot be reduced. */
type Subjects = Record<PseudoKind, string[]> | null;
const bySheet = new WeakMap<CSSStyleSheet, { rules: number; subjects: Subjects }>();

function sheetSubjects(sheet: CSSStyleSheet): Subjects {
  let rules: CSSRuleList;
  try { rules = sheet.cssRules; } catch { return null; }
  const known = bySheet.get(sheet);
  if (known && known.rules === rules.length) return known.subjects;
  const out: Record<PseudoKind, string[]> = { content: [], 'first-letter': [] };
  const ok = collect(rules, out);
  const subjects = ok ? out : null;
  bySheet.set(sheet, { rules: rules.length, subjects });
  return subjects;
}

/** Walks grouping rules (@media, @supports, @layer, @container) and imports; false when a rule defeats reduction. */
function collect(rules: CSSRuleList, out: Record<PseudoKind, string[]>, depth = 0): boolean {
  if (depth > 10) return false;
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) {
      const text = rule.selectorText;
      // Nested rules ("&::before") depend on their parent's selector: not reduced here.
      if (rule.cssRules?.length && Array.from(rule.cssRules).some((r) => Object.values(PATTERNS).some((p) => p.test(r.cssText)))) return false;
      for (const kind of Object.keys(PATTERNS) as PseudoKind[]) {
        if (!PATTERNS[kind].test(text)) continue;
        for (const part of splitList(text)) {
          if (!PATTERNS[kind].test(part)) continue;
          if (CROSS_SCOPE.test(part)) return false;
          const subject = reduce(part, kind);
          if (subject === null) return false;
          out[kind].push(subject);
        }
      }
    } else if (rule instanceof CSSImportRule) {
      const inner = rule.styleSheet;
      if (!inner) continue;
      let innerRules: CSSRuleList;
      try { innerRules = inner.cssRules; } catch { return false; }
      if (!collect(innerRules, out, depth + 1)) return false;
    } else if ('cssRules' in rule) {
      if (!collect((rule as CSSGroupingRule).cssRules, out, depth + 1)) return false;
    }
  }
  return true;
}

/** "a.icon::before:hover" → "a.icon"; ".x > ::before" → ".x > *"; null when the rest is not a valid selector. */
function reduce(part: string, kind: PseudoKind): string | null {
  let s = part.replace(STRIP[kind], '').trim();
  if (s === '') s = '*';
  else if (/[>+~]$/.test(s)) s += ' *';
  try { PROBE.matches(s); } catch { return null; }
  return s;
}

const PROBE = document.createElement('div');

/** Splits a selector list at its top-level commas. */
function splitList(text: string): string[] {
  const parts: string[] = [];
  let depth = 0, start = 0, quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) { if (c === '\\') i++; else if (c === quote) quote = ''; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) { parts.push(text.slice(start, i)); start = i + 1; }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** One matcher per tree scope and kind, valid for the current task (style sheets cannot change during one engine call). */
type Matcher = ((el: Element) => boolean) | 'any';
let memo = new Map<Node, Record<PseudoKind, Matcher>>();
let clearing = false;

function matchersFor(scope: Document | ShadowRoot): Record<PseudoKind, Matcher> {
  let m = memo.get(scope);
  if (m) return m;
  if (!clearing) { clearing = true; setTimeout(() => { memo = new Map(); clearing = false; }, 0); }
  const sheets = [...Array.from(scope.styleSheets), ...(scope.adoptedStyleSheets ?? [])];
  const lists: Record<PseudoKind, string[]> = { content: [], 'first-letter': [] };
  let reducible = true;
  for (const sheet of sheets) {
    const subjects = sheetSubjects(sheet);
    if (!subjects) { reducible = false; break; }
    for (const kind of Object.keys(lists) as PseudoKind[]) lists[kind].push(...subjects[kind]);
  }
  const make = (subjects: string[]): Matcher => {
    if (!reducible) return 'any';
    if (!subjects.length) return () => false;
    const list = [...new Set(subjects)].join(',');
    return (el) => { try { return el.matches(list); } catch { return true; } };
  };
  m = { content: make(lists.content), 'first-letter': make(lists['first-letter']) };
  memo.set(scope, m);
  return m;
}

/**
 * False only when no style rule (nor the UA sheet) can give `el` that pseudo-element: the
 * computed style of the pseudo-element need not be asked for.
 */
export function mayHavePseudoRule(el: Element, kind: PseudoKind): boolean {
  if (kind === 'content' && UA_CONTENT.has(el.tagName)) return true;
  const root = el.getRootNode();
  if (!(root instanceof Document) && !(root instanceof ShadowRoot)) return true;
  const own = matchersFor(root)[kind];
  if (own === 'any' || own(el)) return true;
  // Rules of other scopes that can reach it: ::part() from any enclosing scope, ::slotted() from
  // its slot's, :host from its own shadow root. Those scopes answer "any" when they hold such a rule.
  for (let r: Node = root; r instanceof ShadowRoot; r = r.host.getRootNode()) {
    const outer = r.host.getRootNode();
    if ((outer instanceof Document || outer instanceof ShadowRoot) && matchersFor(outer)[kind] === 'any') return true;
  }
  const slot = (el as HTMLElement).assignedSlot;
  const slotScope = slot?.getRootNode();
  if (slotScope instanceof ShadowRoot && matchersFor(slotScope)[kind] === 'any') return true;
  const shadow = shadowRootOf(el);
  return !!shadow && matchersFor(shadow)[kind] === 'any';
}
