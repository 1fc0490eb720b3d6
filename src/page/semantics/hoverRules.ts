// Elements whose look a :hover rule changes: a swatch that lights up, a card that lifts. Such an
// element reacts to the pointer as one with a mouseenter listener does, so it is listed (as a
// hover target, gestures.ts) even without a role, a cursor or a listener. Read from the style
// sheets when the host searches for gesture listeners (a document that changed since), one
// querySelectorAll per rule: no per-element cost in the walk.
//
// Only rules written for particular elements count: the selector up to :hover must name a class,
// an ID or an attribute (`.swatch:hover`, `#menu:hover > ul`, `.todo-list li:hover`), never only
// tags or `*` (`li:hover`, `tr:hover` style whole lists), and a rule matching more than
// MAX_MATCHES elements styles a list, not a target. (An element that holds controls is no target
// of its own either way: its controls are, see interactive.ts listensAsTarget.) Sheets that cannot be read (cross-origin) and shadow trees' own
// sheets are not looked at: a known gap.

const MAX_MATCHES = 50;
/** The user-action pseudo-classes a static match() cannot satisfy: left out of the target selector. */
const USER_ACTION = /:(hover|focus-within|focus-visible|focus|active)\b/gi;
const HOVER = /:hover\b/i;

const bySheet = new WeakMap<CSSStyleSheet, { rules: number; targets: string[] }>();
const probe = document.createElement('div');

/** The selectors of the elements that the sheet's :hover rules are about, in that sheet. */
function sheetTargets(sheet: CSSStyleSheet): string[] {
  let rules: CSSRuleList;
  try { rules = sheet.cssRules; } catch { return []; }
  const known = bySheet.get(sheet);
  if (known && known.rules === rules.length) return known.targets;
  const targets: string[] = [];
  collect(rules, targets, 0);
  bySheet.set(sheet, { rules: rules.length, targets });
  return targets;
}

function collect(rules: CSSRuleList, out: string[], depth: number): void {
  if (depth > 10) return;
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) {
      if (!HOVER.test(rule.selectorText)) continue;
      for (const part of splitList(rule.selectorText)) {
        const target = hoverTarget(part);
        if (target && !out.includes(target)) out.push(target);
      }
    } else if (rule instanceof CSSImportRule) {
      try { if (rule.styleSheet) collect(rule.styleSheet.cssRules, out, depth + 1); } catch { /* cross-origin import */ }
    } else if ('cssRules' in rule) {
      collect((rule as CSSGroupingRule).cssRules, out, depth + 1);
    }
  }
}

/**
 * `.menu:hover > .sub` → `.menu`: the selector up to the compound that carries :hover (the element
 * the pointer is over), user-action pseudo-classes left out; null when it names no class, ID or
 * attribute, when :hover sits inside a function (`:not(:hover)`), or when the rest is
 * no valid selector.
 */
export function hoverTarget(part: string): string | null {
  let depth = 0;
  let at = -1;
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ':' && depth === 0 && /^:hover\b/i.test(part.slice(i))) { at = i; break; }
  }
  if (at < 0) return null;
  // The compound ends at the next combinator outside brackets.
  let end = at;
  for (depth = 0; end < part.length; end++) {
    const c = part[end];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (depth === 0 && /[\s>+~]/.test(c)) break;
  }
  const prefix = part.slice(0, end).replace(USER_ACTION, '').trim();
  if (!/[.#[]/.test(prefix)) return null;
  if (/::/.test(prefix)) return null;
  try { probe.matches(prefix); } catch { return null; }
  return prefix;
}

/** A selector list split at its top-level commas. */
function splitList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) { out.push(text.slice(start, i)); start = i + 1; }
  }
  out.push(text.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

/** The elements of this document that a :hover rule restyles (see the module comment). */
export function hoverRuleTargets(doc: Document): Element[] {
  const out = new Set<Element>();
  const sheets = [...Array.from(doc.styleSheets), ...(doc.adoptedStyleSheets ?? [])];
  for (const sheet of sheets) {
    for (const selector of sheetTargets(sheet)) {
      let found: NodeListOf<Element>;
      try { found = doc.querySelectorAll(selector); } catch { continue; }
      if (found.length > MAX_MATCHES) continue;
      for (const el of Array.from(found)) out.add(el);
    }
  }
  return [...out];
}
