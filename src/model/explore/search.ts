// dom_search (the grep of seed 003's toolkit): elements and text blocks of one cached snapshot
// that match a query of words, roles, tags and attributes, with their IDs and regions.
import type { SearchHit, SearchResult } from './explore.js';
import type { PageModel } from '../pagemodel/page.js';
import { quotedPageText } from '../renderers/pageText.js';
import type { Box } from '../contracts/schema.js';
import { clip, type PlacedText } from './overview.js';
import { elementKind, type RegionNode, type RegionTree } from './regions.js';

/** Page text, always quoted here (src/model/renderers/pageText.ts). */
const q = quotedPageText;

export interface SearchQuery {
  words: string[];
  roles: string[];
  tags: string[];
  attrs: Array<{ name: string; value?: string }>;
}

const TOKEN = /(role|tag|text):("[^"]*"|\S+)|\[([^\]=\s]+)(?:=("[^"]*"|'[^']*'|[^\]]*))?\]|"([^"]+)"|(\S+)/gi;
const unquote = (s: string) => (/^(["']).*\1$/.test(s) ? s.slice(1, -1) : s);

/** `export role:button [name=q] "exact words"` → words, roles, tags and attributes, all of which must match. */
export function parseSearch(query: string): SearchQuery {
  const out: SearchQuery = { words: [], roles: [], tags: [], attrs: [] };
  for (const m of query.matchAll(TOKEN)) {
    if (m[1]) {
      const v = unquote(m[2]).toLowerCase();
      if (m[1].toLowerCase() === 'role') out.roles.push(v);
      else if (m[1].toLowerCase() === 'tag') out.tags.push(v);
      else out.words.push(v);
    } else if (m[3]) out.attrs.push({ name: m[3].toLowerCase(), ...(m[4] !== undefined && { value: unquote(m[4]) }) });
    else if (m[5]) out.words.push(m[5].toLowerCase());
    else if (m[6]) out.words.push(m[6].toLowerCase());
  }
  return out;
}

interface Candidate { gid: string; role: string; tag: string; name: string; value?: string; placeholder?: string; attrs: Record<string, string>; kind: string; order: number }

const ROLE_ALIASES: Record<string, string[]> = { input: ['textbox', 'searchbox', 'combobox'], select: ['combobox', 'listbox'], field: ['textbox', 'searchbox', 'combobox', 'checkbox', 'radio'] };

function score(c: Candidate, s: SearchQuery): { score: number; matched: string[] } | null {
  const matched: string[] = [];
  for (const r of s.roles) {
    if (c.role === r || c.kind.toLowerCase() === r || ROLE_ALIASES[r]?.includes(c.role)) matched.push('role');
    else return null;
  }
  for (const t of s.tags) if (c.tag !== t) return null;
  for (const a of s.attrs) {
    const v = c.attrs[a.name];
    if (v === undefined || (a.value !== undefined && v.toLowerCase() !== a.value.toLowerCase())) return null;
    matched.push(`[${a.name}]`);
  }
  let total = matched.length;
  const fields: Array<[string, string, number]> = [
    ['name', c.name, 3], ['value', c.value ?? '', 2], ['placeholder', c.placeholder ?? '', 2],
    ...Object.entries(c.attrs).filter(([k]) => k !== 'class' && k !== 'style').map(([k, v]): [string, string, number] => [`[${k}]`, v, 1]),
  ];
  for (const w of s.words) {
    let best = 0;
    let where = '';
    for (const [field, text, weight] of fields) {
      const t = text.toLowerCase();
      const at = t.indexOf(w);
      if (at < 0) continue;
      const exact = t === w ? 2 : at === 0 || /\W/.test(t[at - 1]) ? 1.5 : 1;
      if (weight * exact > best) { best = weight * exact; where = field; }
    }
    if (!best) return null;
    total += best;
    if (!matched.includes(where)) matched.push(where);
  }
  return { score: total, matched };
}

export interface SearchSource {
  model: PageModel;
  tree: RegionTree;
  /** Text blocks matching the query's words, placed in the page. */
  blocks: PlacedText[];
}

/** Elements (controls, row texts, headings) and text blocks matching a query, with their IDs and regions. */
export function searchPage(src: SearchSource, query: string, snapshotId: string, limit = 20): SearchResult {
  const s = parseSearch(query);
  const { model, tree } = src;
  const candidates: Candidate[] = [
    ...model.nodes.map((n, order): Candidate => ({ gid: n.gid, role: n.role, tag: n.tag, name: n.name, ...(n.value !== undefined && n.value !== '***' && { value: n.value }), ...(n.placeholder && { placeholder: n.placeholder }), attrs: n.attrs ?? {}, kind: elementKind(n), order })),
    ...model.headings.map((h, i): Candidate => ({ gid: h.gid, role: 'heading', tag: `h${h.level}`, name: h.text, attrs: {}, kind: `H${h.level}`, order: model.nodes.length + i })),
  ];
  const hits = candidates
    .map((c) => ({ c, r: score(c, s) }))
    .filter((x): x is { c: Candidate; r: { score: number; matched: string[] } } => x.r !== null)
    .sort((a, b) => b.r.score - a.r.score || a.c.order - b.c.order);
  const elements: SearchHit[] = hits.slice(0, limit).map(({ c, r }) => ({
    ref: c.gid, kind: c.kind, name: clip(c.name, 80), ...(c.value !== undefined && { value: clip(c.value, 60) }),
    ...(tree.regionOf.get(c.gid) && { region: tree.regionOf.get(c.gid)!.id }), matched: r.matched,
  }));
  const onlyText = !s.roles.length && !s.tags.length && !s.attrs.length;
  const named = new Set(candidates.map((c) => c.gid));
  const blocks = onlyText ? src.blocks.filter((b) => !named.has(b.gid)) : [];
  const textBlocks = blocks.slice(0, 10).map((b) => ({ ref: b.gid, tag: b.tag, text: b.text, ...(regionAt(tree, b.box) && { region: regionAt(tree, b.box)!.id }) }));
  const truncated = hits.length > limit || blocks.length > 10;
  const lines = [`SEARCH ${q(query)}: ${hits.length} element${hits.length === 1 ? '' : 's'}${onlyText ? `, ${blocks.length} text block${blocks.length === 1 ? '' : 's'}` : ''}`];
  for (const e of elements) lines.push(`  ${e.kind}${e.name ? ` ${q(clip(e.name, 60))}` : ''} @ref:${e.ref}${e.value ? ` = ${q(e.value)}` : ''}${e.region ? ` in ${e.region}` : ''}${e.matched.some((m) => m !== 'name') ? ` (${e.matched.join(', ')})` : ''}`);
  for (const t of textBlocks) lines.push(`  TEXT ${t.tag} ${q(t.text)} @ref:${t.ref}${t.region ? ` in ${t.region}` : ''}`);
  if (truncated) lines.push(`  … more matches: narrow the query (role:button, [name=q], "exact words")`);
  return { snapshotId, query, elements, textBlocks, truncated, text: lines.join('\n') };
}

/** The deepest region or subsection whose box holds the centre of a box. */
export function regionAt(tree: RegionTree, box: Box): RegionNode | undefined {
  const c: [number, number] = [box[0] + box[2] / 2, box[1] + box[3] / 2];
  const inside = (b: Box) => c[0] >= b[0] && c[0] <= b[0] + b[2] && c[1] >= b[1] && c[1] <= b[1] + b[3];
  let best: RegionNode | undefined;
  const visit = (rs: RegionNode[]) => {
    for (const r of rs) if (inside(r.box)) { best = r; visit(r.children); return; }
  };
  visit(tree.regions);
  return best;
}
