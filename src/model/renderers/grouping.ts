// "N similar" grouping: siblings with the same parent, the same selector shape and the same role
// collapse to one line (`[19,21,…,33] 8 similar: button.row-action "Edit"`). Controls in the
// rows of one table or list count as siblings (the Edit button of every row); elsewhere only
// near neighbours do. Names are kept where they differ. Pure: no page, no browser.
import type { PageModel, PageNode } from '../pagemodel/page.js';
import { quotedPageText } from './pageText.js';

export interface GroupKey {
  key: string;
  /** Members may stand anywhere in the list (the same slot of sibling rows), not only next to each other. */
  loose: boolean;
}

/** Fewest members worth a group, unless a caller asks otherwise. */
export const GROUP_MIN = 3;

export interface GroupOptions {
  /** Fewest members worth a group. */
  min?: number;
  /** Other entries allowed between two near members. */
  gap?: number;
}

/**
 * The entries in order, each alone or in a group of similar ones (at its first member's place).
 * `keyOf` returns null for entries that never group.
 */
export function groupSimilar<T>(entries: T[], keyOf: (t: T) => GroupKey | null, opts: GroupOptions = {}): Array<T | T[]> {
  const min = opts.min ?? GROUP_MIN;
  const gap = opts.gap ?? 1;
  const runs: number[][] = [];
  const open = new Map<string, { members: number[]; loose: boolean }>();
  entries.forEach((e, i) => {
    const k = keyOf(e);
    if (!k) return;
    const run = open.get(k.key);
    if (run && (run.loose || i - run.members[run.members.length - 1] - 1 <= gap)) {
      run.members.push(i);
      return;
    }
    if (run) runs.push(run.members);
    open.set(k.key, { members: [i], loose: k.loose });
  });
  for (const run of open.values()) runs.push(run.members);
  const groupAt = new Map<number, number[]>();
  const member = new Set<number>();
  for (const run of runs) {
    if (run.length < min) continue;
    groupAt.set(run[0], run);
    for (const i of run) member.add(i);
  }
  const out: Array<T | T[]> = [];
  entries.forEach((e, i) => {
    const g = groupAt.get(i);
    if (g) out.push(g.map((j) => entries[j]));
    else if (!member.has(i)) out.push(e);
  });
  return out;
}

// Classes that say how an element looks now, not what it is.
const STATE_CLASS = /^(is-|has-)|^(active|selected|current|open|closed|disabled|hidden|visible|focus|hover|checked|first|last|odd|even)$/i;
const IDENT = /^[A-Za-z_-][\w-]*$/;

/** Stable classes of an element, in the page's order. */
export function shapeClasses(cls: string | undefined): string[] {
  return (cls ?? '').split(/\s+/).filter((c) => c && IDENT.test(c) && !STATE_CLASS.test(c));
}

/**
 * The selector shape an element shares with its look-alikes: `button.row-action`,
 * `input[type=checkbox]`. Only the first class: later ones tend to name the item (`nav-link section-science`).
 */
export function selectorShape(n: Pick<PageNode, 'tag' | 'attrs' | 'type'>): string {
  const classes = shapeClasses(n.attrs?.class).slice(0, 1).map((c) => `.${c}`).join('');
  const type = n.tag === 'input' && n.type && n.type !== 'text' ? `[type=${n.type}]` : '';
  return `${n.tag}${classes}${type}`;
}

/**
 * The grouping key of a node: its parent (the container of its row, for a control in a repeated
 * row; else its structure), its shape and its role. Items (row texts) group like controls.
 */
export function nodeGroupKey(model: PageModel, n: PageNode): GroupKey {
  const ctx = n.ctx ?? -1;
  const s = ctx >= 0 ? model.structure[ctx] : undefined;
  const inRow = s?.kind === 'row';
  const parent = inRow ? `row-of:${s.parent}` : `ctx:${ctx}`;
  return { key: `${n.frame}|${parent}|${selectorShape(n)}|${n.role}`, loose: inRow };
}

// ---- rendering a group ----

/**
 * IDs in as few tokens as possible: `[367-372]`, `[19,21,…,33]` (a constant step), else runs and
 * single IDs: `[15-19,21-49,81,84]`.
 */
export function idRange(refs: string[]): string {
  const parsed = refs.map((r) => /^(f\d+_)?(\d+)$/.exec(r));
  const prefix = parsed[0]?.[1] ?? '';
  if (!parsed.every((m) => m && (m[1] ?? '') === prefix)) return `[${refs.join(',')}]`;
  const nums = parsed.map((m) => Number(m![2]));
  const step = nums[1] - nums[0];
  if (refs.length >= 3 && step > 1 && nums.every((v, i) => i === 0 || v - nums[i - 1] === step)) return `[${refs[0]},${refs[1]},…,${refs[refs.length - 1]}]`;
  const runs: string[] = [];
  for (let i = 0; i < nums.length;) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    runs.push(j - i >= 1 ? `${prefix}${nums[i]}-${prefix}${nums[j]}` : `${prefix}${nums[i]}`);
    i = j + 1;
  }
  return `[${runs.join(',')}]`;
}

const quote = quotedPageText;
const withoutNumbers = (s: string) => s.replace(/\d+([.,]\d+)*/g, '#');

/**
 * The names of a group's members: `"Edit"` once when equal (the line says how many there are),
 * `"Item 1" … "Item 6"` when they differ only in their numbers, else up to `max` of them (the first
 * ones and the last). Members without a name are counted, not listed as `""`: `"Help" +2 unnamed`.
 * `show` writes one name (quoted by default; a text form with its own rule passes that rule).
 */
export function groupNames(names: string[], max = 6, show: (name: string) => string = quote): string {
  if (!names.length) return '';
  if (names.every((n) => n === names[0])) return names[0] ? show(names[0]) : '';
  const named = names.filter((n) => n !== '');
  const unnamed = names.length - named.length;
  const rest = unnamed ? ` +${unnamed} unnamed` : '';
  if (named.length === 1) return show(named[0]) + rest;
  const pattern = withoutNumbers(named[0]);
  if (pattern.includes('#') && named.every((n) => withoutNumbers(n) === pattern)) return `${show(named[0])} … ${show(named[named.length - 1])}${rest}`;
  if (named.length <= max) return named.map(show).join(', ') + rest;
  const head = named.slice(0, Math.max(1, max - 1)).map(show).join(', ');
  return `${head} … ${show(named[named.length - 1])}${rest}`;
}

/** Whether the members' names say no more together than the group line does (equal, or numbered alike). */
export function namesCollapse(names: string[]): boolean {
  if (names.every((n) => n === names[0])) return true;
  const pattern = withoutNumbers(names[0]);
  return pattern.includes('#') && names.every((n) => withoutNumbers(n) === pattern);
}
