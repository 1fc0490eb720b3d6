// What an instruction asks for, read without a model: the verb (click, type "x" into, select,
// check, scroll, navigate, extract, done), the quoted value, the words naming the target, and the
// ordinal, position, colour and role words that narrow it down. Pure and general: the filtered
// snapshot, observe/actOn/extract and the backend's heuristic planner all read instructions with it.

import { foldPhrases, terms } from './lexical.js';

export const VERBS = ['click', 'type', 'select', 'check', 'uncheck', 'hover', 'scroll', 'navigate', 'extract', 'done'] as const;
export type Verb = (typeof VERBS)[number];

export type Vertical = 'top' | 'middle' | 'bottom';
export type Horizontal = 'left' | 'center' | 'right';

export interface Intent {
  verb: Verb;
  /** false when no verb word was found and the verb is a guess from the rest (a bare "Sign in"). */
  explicitVerb: boolean;
  /** The text to type, the option to select, the URL to open, or the text searched for. */
  value?: string;
  /**
   * Content words naming the target, lower-case, in order (verbs, articles, ordinals and role words
   * removed), with UI phrases folded into one word ("Sign in" → "login", "e-mail address" → "email"):
   * compare them with a name through `coversTarget`, not by substring.
   */
  target: string[];
  /**
   * The target's name as the instruction quoted it ("Click "tortor."": not "tortor"), when a quote
   * names the target rather than giving a value or saying where the target is: exact names first.
   */
  exactName?: string;
  /** Words naming where the target is: its row, card or section ("the delete button of 'Buy milk'", "add the Dell to the cart"). */
  within: string[];
  /** 1 for "first", 2 for "second", …; -1 for "last". */
  ordinal?: number;
  position?: { vertical?: Vertical; horizontal?: Horizontal };
  colors: string[];
  /** Roles the instruction names ("button", "link", "field"), as ARIA roles. */
  roles: string[];
  /** For scroll: where to. */
  direction?: 'up' | 'down' | 'left' | 'right' | 'top' | 'bottom';
  /** A click asked for twice at once ("double-click the item"): a dblclick, not two clicks. */
  double?: true;
}

const ORDINALS: Record<string, number> = {
  first: 1, '1st': 1, second: 2, '2nd': 2, third: 3, '3rd': 3, fourth: 4, '4th': 4, fifth: 5, '5th': 5,
  sixth: 6, '6th': 6, seventh: 7, '7th': 7, eighth: 8, '8th': 8, ninth: 9, '9th': 9, tenth: 10, '10th': 10,
  last: -1, final: -1,
};

export const COLOR_WORDS = ['red', 'green', 'blue', 'yellow', 'orange', 'purple', 'pink', 'black', 'white', 'grey', 'gray', 'brown', 'teal'] as const;

// Words naming a kind of element → the ARIA roles they mean.
const ROLE_WORDS: Record<string, string[]> = {
  button: ['button'], btn: ['button'], link: ['link'], hyperlink: ['link'],
  field: ['textbox', 'searchbox', 'combobox'], input: ['textbox', 'searchbox'], textbox: ['textbox'], textarea: ['textbox'],
  box: ['textbox', 'searchbox', 'checkbox'], searchbox: ['searchbox'],
  checkbox: ['checkbox'], tickbox: ['checkbox'], radio: ['radio'], toggle: ['switch', 'checkbox'], switch: ['switch'],
  dropdown: ['combobox', 'listbox'], select: ['combobox', 'listbox'], combobox: ['combobox'], menu: ['menu', 'menuitem', 'combobox'],
  tab: ['tab'], option: ['option'], slider: ['slider'], image: ['img'], icon: ['img', 'button'],
  heading: ['heading'], title: ['heading'], row: ['row'], item: ['item'], card: ['item'],
};

const STOP = new Set([
  'the', 'a', 'an', 'on', 'in', 'into', 'inside', 'onto', 'to', 'of', 'for', 'from', 'with', 'at', 'by', 'and', 'or', 'that', 'this',
  'please', 'then', 'now', 'my', 'your', 'our', 'its', 'it', 'me', 'us', 'i', 'we', 'you', 'is', 'are', 'be', 'there', 'here',
  'one', 'page', 'which', 'what', 'whats', 'how', 'much', 'many', 'do', 'does', 'some', 'any', 'corner', 'side', 'element',
  'called', 'named', 'labelled', 'labeled', 'says', 'saying', 'text', 'value',
]);

const POSITION_WORDS: Record<string, Partial<{ vertical: Vertical; horizontal: Horizontal }>> = {
  top: { vertical: 'top' }, upper: { vertical: 'top' }, bottom: { vertical: 'bottom' }, lower: { vertical: 'bottom' },
  middle: { vertical: 'middle' }, left: { horizontal: 'left' }, right: { horizontal: 'right' }, center: { horizontal: 'center' }, centre: { horizontal: 'center' },
};

interface VerbRule { re: RegExp; verb: Verb; /** Words of the match that also name the target ("sign in" is both). */ keep?: boolean }

// Tried in order at the start of the instruction (after "please"). The longest forms first.
const VERB_RULES: VerbRule[] = [
  { re: /^(?:(?:the\s+)?task\s+(?:is\s+)?)?(?:done|finished|complete|completed|stop|finish)\s*[.!]?$/, verb: 'done' },
  { re: /^(?:navigate|go|browse)\s+(?:back\s+)?to\b|^(?:visit|goto|load)\b|^open\s+(?=(?:https?:\/\/|www\.|\S+\.\w{2,}\/?\S*$))/, verb: 'navigate' },
  { re: /^scroll\b/, verb: 'scroll' },
  { re: /^(?:uncheck|untick|unselect|deselect|unmark|disable|turn\s+off|switch\s+off)\b/, verb: 'uncheck' },
  { re: /^(?:check|tick|mark|enable|turn\s+on|switch\s+on)\b/, verb: 'check' },
  { re: /^(?:type|enter|fill(?:\s+in|\s+out)?|input|write|put|insert|set)\b/, verb: 'type' },
  { re: /^search(?:\s+for)?\b/, verb: 'type', keep: true },
  { re: /^(?:select|choose|pick)\b/, verb: 'select' },
  { re: /^(?:hover(?:\s+over)?|mouse\s+over)\b/, verb: 'hover' },
  // "get started" and "show more" are buttons: get/find/list/show only extract when they take an object.
  { re: /^(?:extract|read|fetch|look\s+up|tell\s+me|give\s+me|(?:get|find|list|show)\s+(?:me\s+)?(?:the|all|every|each|a|an|any)\b|what(?:'s|\s+is|\s+are|\s+does)?|how\s+(?:much|many)|which|who|when|where)\b/, verb: 'extract' },
  { re: /^(?:click|press|tap|hit|push|activate|follow|open|double[-\s]?click|dbl[-\s]?click|go)\b(?:\s+on)?/, verb: 'click' },
];

// Phrases that are an action and its target at once: the verb is click, the words stay.
const ACTION_PHRASES = /^(?:log\s*in|log\s*on|sign\s*in|sign\s*up|sign\s*out|log\s*out|register|subscribe|add\s+to|buy|purchase|checkout|check\s+out|submit|save|send|continue|next|cancel|close|dismiss|accept|apply|download|upload|share|reply|delete|remove|edit|login|signin|signup)\b/;

/** Quotes written by word processors become plain ones (one character for one: offsets still hold). */
function normaliseQuotes(s: string): string {
  return s.replace(/[“”„‟″]/g, '"').replace(/[‘’‚‛′]/g, "'");
}

/**
 * Quoted strings ("x", 'x' where the quote is not an apostrophe, and their curly forms), in order,
 * with their offsets in `s`. The one reading of quotes: task splitting and intents both use it.
 */
export function quotedSpans(s: string): Array<{ text: string; start: number; end: number }> {
  const out: Array<{ text: string; start: number; end: number }> = [];
  const re = /"([^"]*)"|(?<![\p{L}\p{N}])'([^']*)'(?![\p{L}\p{N}])/gu;
  for (const m of normaliseQuotes(s).matchAll(re)) out.push({ text: s.slice(m.index! + 1, m.index! + m[0].length - 1), start: m.index!, end: m.index! + m[0].length });
  return out;
}

export function words(s: string): string[] {
  return s.toLowerCase().replace(/[-–—_/]+/g, ' ').match(/[\p{L}\p{N}][\p{L}\p{N}'.@]*/gu)?.map((w) => w.replace(/['.]+$/, '')) ?? [];
}

const URL_LIKE = /^(?:https?:\/\/\S+|www\.\S+|[\w-]+(?:\.[\w-]+)+(?:\/\S*)?)$/i;

/** Reads an instruction. Never throws: an instruction it cannot place is a click on what it names. */
export function parseIntent(instruction: string): Intent {
  const text = normaliseQuotes(instruction).trim();
  const quotes = quotedSpans(text);
  // The words outside quotes carry the verb and the target; quoted text is the value (or, for a
  // click, words of the target's name). Each quote is held by a marker until it is placed.
  let bare = text;
  for (let i = quotes.length - 1; i >= 0; i--) bare = bare.slice(0, quotes[i].start) + ` \u0000${i}\u0001 ` + bare.slice(quotes[i].end);
  let lower = bare.toLowerCase().replace(/^\s*(?:please|now|then|and)\s+/, '').trim();

  let verb: Verb = 'click';
  let explicitVerb = false;
  let keepVerbWords = false;
  let verbWords = '';
  for (const rule of VERB_RULES) {
    const m = rule.re.exec(lower);
    if (!m) continue;
    verb = rule.verb;
    explicitVerb = true;
    keepVerbWords = !!rule.keep;
    verbWords = m[0];
    if (!rule.keep) lower = lower.slice(m[0].length).trim();
    break;
  }
  if (!explicitVerb && ACTION_PHRASES.test(lower)) explicitVerb = true;
  // "check out" is a click on a checkout button, not ticking a box called "out".
  if (verb === 'check' && /^check\s+out\b/.test(verbWords + ' ' + lower)) { verb = 'click'; lower = 'checkout ' + lower.replace(/^out\b/, '').trim(); }
  // "select" / "choose" without an option to pick from is a choice of an element: a click.
  if (verb === 'select' && !quotes.length && !/\b(?:from|in|as|for)\b/.test(lower)) verb = 'click';

  const firstQuoteIsValue = (verb === 'type' || verb === 'select' || verb === 'navigate') && quotes.length > 0;
  let value: string | undefined = firstQuoteIsValue ? quotes[0].text : undefined;
  let rest = lower;
  let within = '';
  let direction: Intent['direction'];
  const LEADING_VALUE = /^\u00000\u0001\s*(?:into|in|to|on|as|from|for)?(?=\s|$)/;

  if (verb === 'type') {
    if (keepVerbWords) {
      // "search for shoes" / "search 'shoes' in the catalogue": the searched text is the value.
      const m = /^search(?:\s+for)?\s+(.*?)(?:\s+(?:in|on|using|with)\s+(.*))?$/.exec(rest);
      if (value === undefined && m?.[1] && !m[1].includes('\u0000')) value = m[1].trim();
      rest = 'search ' + (m?.[2] ?? '');
    } else if (value === undefined) {
      // type hello into the message box
      const m = /^(.*?)\s+(?:into|in|to|on)\s+(.*)$/.exec(rest);
      if (m && m[1] && !/^(?:your|the|my|a|an)\b/.test(m[1])) { value = m[1]; rest = m[2]; }
    } else {
      rest = rest.replace(LEADING_VALUE, '');
    }
  } else if (verb === 'select') {
    if (value === undefined) {
      const m = /^(.*?)\s+(?:from|in|as|for)\s+(.*)$/.exec(rest);
      if (m) { value = m[1].trim(); rest = m[2]; }
    } else {
      rest = rest.replace(LEADING_VALUE, '');
    }
  } else if (verb === 'navigate') {
    if (value === undefined) {
      const token = rest.split(/\s+/).find((w) => URL_LIKE.test(w));
      if (token) { value = bare.split(/\s+/).find((w) => w.toLowerCase() === token) ?? token; rest = rest.replace(token, ''); }
    }
  } else if (verb === 'scroll') {
    const m = /\b(up|down|left|right|top|bottom)\b/.exec(rest);
    direction = m ? m[1] as Intent['direction'] : 'down';
    rest = rest.replace(/\b(?:up|down|left|right|to\s+the\s+(?:top|bottom)|top|bottom|the\s+page|page)\b/g, ' ');
  }

  // "Type "KENDA" in all lower case letters into Code": how the value is to be written, not where.
  const letterCase = /\s*\b(?:in\s+)?(?:all\s+)?(lower|upper)[\s-]?case(?:\s+(?:letters|characters))?\b/;
  const caseWords = verb === 'type' && value !== undefined ? letterCase.exec(rest) : null;
  if (caseWords) {
    value = caseWords[1] === 'lower' ? value!.toLowerCase() : value!.toUpperCase();
    rest = rest.replace(letterCase, ' ');
  }

  // "add the Dell monitor to the cart": the control is "add to cart"; the product names its card.
  const toList = /^(add|put|move|save)\s+(.+?)\s+to\s+(?:the\s+|my\s+|your\s+)?(cart|basket|bag|trolley|wish\s*list|favou?rites|order)\b(.*)$/.exec(rest);
  if (toList && verb === 'click') {
    explicitVerb = true;
    rest = `${toList[1]} to ${toList[3]} ${toList[4]}`;
    within = toList[2];
  } else if (verb !== 'navigate') {
    // "the delete button of 'Buy milk'", "Add to cart for the Samsung", "Save in the dialog":
    // the words after the preposition say where the target is, not what it is called.
    const m = /^(.*?\S)\s+(?:of|for|inside|within|next\s+to|beside|under|below|above|near|in\s+(?:the|a|this|that|my|your))\s+(.+)$/.exec(rest);
    if (m && words(unmark(m[1], quotes, firstQuoteIsValue)).some((w) => !STOP.has(w) && !ROLE_WORDS[w] && ORDINALS[w] === undefined)) { rest = m[1]; within = m[2]; }
  }
  // The words were read lowercased; a value without quotes is typed as the instruction wrote it
  // ("type Bob into Name" types "Bob").
  if (value !== undefined && !firstQuoteIsValue && verb !== 'navigate') value = asWritten(value, bare);
  // A quote left among the target's words is its name, meant verbatim (a glyph is named by what it does).
  const named = [...rest.matchAll(/\u0000(\d+)\u0001/g)].map((m) => Number(m[1])).find((i) => !(firstQuoteIsValue && i === 0));
  const exactName = named === undefined || glyphWord(quotes[named].text) !== quotes[named].text ? undefined : quotes[named].text.trim();
  const double = verb === 'click' && /^(?:double|dbl)/.test(verbWords);
  return finish({ verb, explicitVerb, value, exactName, rest: unmark(rest, quotes, firstQuoteIsValue), within: unmark(within, quotes, firstQuoteIsValue), direction, double });
}

/** `lowered` as it stands in `original` (same text, any case); itself when it is not found there. */
function asWritten(lowered: string, original: string): string {
  const at = original.toLowerCase().indexOf(lowered);
  // Lowercasing can change a string's length (a dotted İ): then the offsets do not map back.
  if (at < 0 || original.toLowerCase().length !== original.length) return lowered;
  return original.slice(at, at + lowered.length);
}

/** Puts quoted text back in place of its marker (the value's quote is not part of the target). */
function unmark(s: string, quotes: Array<{ text: string }>, firstIsValue: boolean): string {
  return s.replace(/\u0000(\d+)\u0001/g, (_, i) => (firstIsValue && i === '0' ? ' ' : ` ${glyphWord(quotes[Number(i)].text)} `));
}

/**
 * A button written as a glyph is named by what it does: the "x" (×, ✕) of a dialog or a banner is
 * its Close button (named "Close" by its label, its title or its hidden text), whatever the glyph.
 */
function glyphWord(quote: string): string {
  return /^\s*[x×✕✖]\s*$/i.test(quote) ? 'close' : quote;
}

function finish(p: { verb: Verb; explicitVerb: boolean; value?: string; exactName?: string; rest: string; within: string; direction?: Intent['direction']; double?: boolean }): Intent {
  const roles = new Set<string>();
  const colors: string[] = [];
  const position: Intent['position'] = {};
  let ordinal: number | undefined;
  const read = (raw: string[]): string[] => {
    const out: string[] = [];
    for (let i = 0; i < raw.length; i++) {
      const w = raw[i];
      if (ORDINALS[w] !== undefined && ordinal === undefined) {
        // "second to last"
        if (raw[i + 1] === 'to' && raw[i + 2] === 'last') { ordinal = -ORDINALS[w]; i += 2; } else ordinal = ORDINALS[w];
        continue;
      }
      // A position qualifies the target ("the top-right button", "at the bottom"); after a content word
      // it is part of a name ("help center"), after "to" a destination ("back to top").
      const prev = raw[i - 1];
      if (POSITION_WORDS[w] && p.verb !== 'scroll' && (prev === undefined || (prev !== 'to' && (STOP.has(prev) || POSITION_WORDS[prev] || ORDINALS[prev] !== undefined || (COLOR_WORDS as readonly string[]).includes(prev))))) {
        Object.assign(position, POSITION_WORDS[w]);
        continue;
      }
      if ((COLOR_WORDS as readonly string[]).includes(w)) { colors.push(w === 'gray' ? 'grey' : w); continue; }
      // "search box", "email field": the role word says what kind of element, not its name; an
      // option is chosen "from the list" (the list's kind, not a name), while a button may be "Add to list".
      const kind = ROLE_WORDS[w] ?? (p.verb === 'select' && (w === 'list' || w === 'lists') ? ['listbox', 'combobox'] : undefined);
      if (kind) { for (const r of kind) roles.add(r); continue; }
      if (STOP.has(w)) continue;
      out.push(w);
    }
    return out;
  };
  const restWords = words(foldPhrases(p.rest));
  let target = read(restWords);
  // "one" stands for a target named otherwise ("the blue one", "the one on the left"); when nothing
  // else names it and it ends the words ("Click button ONE"), it is the name.
  if (!target.length && ordinal === undefined && !colors.length && !position.vertical && !position.horizontal && restWords.at(-1) === 'one') target = ['one'];
  const within = read(words(foldPhrases(p.within)));
  const intent: Intent = { verb: p.verb, explicitVerb: p.explicitVerb, target, within, colors, roles: [...roles] };
  if (p.value !== undefined && p.value !== '') intent.value = p.value;
  if (p.exactName) intent.exactName = p.exactName;
  if (ordinal !== undefined) intent.ordinal = ordinal;
  if (position.vertical || position.horizontal) intent.position = position;
  if (p.direction) intent.direction = p.direction;
  if (p.double) intent.double = true;
  return intent;
}

/** The share (0–1) of the target's words a text says, read the same way (stems, synonyms, phrases): 1 when "Sign in" meets "log in". */
export function coversTarget(text: string, intent: Pick<Intent, 'target'>): number {
  const want = new Set(terms(intent.target.join(' ')));
  if (!want.size) return 0;
  const have = new Set(terms(text));
  let n = 0;
  for (const t of want) if (have.has(t)) n++;
  return n / want.size;
}

/** The roles that can carry out a verb, best first (empty: any). */
export function rolesForVerb(verb: Verb): string[] {
  switch (verb) {
    case 'type': return ['textbox', 'searchbox', 'combobox', 'spinbutton'];
    case 'select': return ['combobox', 'listbox', 'radio', 'option'];
    case 'check': case 'uncheck': return ['checkbox', 'switch', 'radio', 'menuitemcheckbox'];
    case 'navigate': return ['link'];
    default: return [];
  }
}
