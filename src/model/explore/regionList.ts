// L1 of the hierarchical index (seed 002): the page's regions, one block each (name, purposes,
// summary, counts of controls), within a token budget.
import type { RegionsResult } from './explore.js';
import type { PageModel } from '../pagemodel/page.js';
import { quotedPageText } from '../renderers/pageText.js';
import { clipText, countKind, countsOf, countsText, regionData, type RegionNode, type RegionTree } from './regions.js';

export const quoteName = (s: string) => (s ? ` ${quotedPageText(clipText(s, 60))}` : '');

/** o200k tokens, roughly: Latin text runs about four characters a token, other scripts about one. */
function roughTokens(text: string): number {
  let ascii = 0, other = 0;
  for (const ch of text) { if (ch.charCodeAt(0) < 128) ascii++; else other++; }
  // On the generous side: paths, IDs and punctuation tokenise worse than prose.
  return ascii / 3.2 + other * 1.2;
}

/** L1 aims at this many tokens: past it, one line per region, then the smallest regions by ID only. */
const L1_BUDGET = 480;

function regionBlock(r: RegionNode): string {
  const pad = '       ';
  const lines = [`  [${r.id}] ${r.label} ${r.path}${quoteName(r.name)}`];
  if (r.summary) lines.push(`${pad}Summary: ${JSON.stringify(clipText(r.summary, 160))}`);
  lines.push(`${pad}Interactive: ${countsText(countsOf(r.nodes))}`);
  if (r.children.length) lines.push(`${pad}Subsections: ${r.children.slice(0, 8).map((c) => c.short).join(', ')}${r.children.length > 8 ? `, … (${r.children.length - 8} more)` : ''}`);
  return lines.join('\n');
}

function regionLine(r: RegionNode): string {
  const subs = r.children.length ? ` {${r.children.slice(0, 4).map((c) => c.short).join(', ')}${r.children.length > 4 ? ', …' : ''}}` : '';
  return `  [${r.id}] ${r.label} ${r.path}${quoteName(clipText(r.name, 40))}: ${countsText(countsOf(r.nodes))}${r.summary ? ` — ${quotedPageText(clipText(r.summary, 60))}` : ''}${subs}`;
}

export function regionsResult(model: PageModel, tree: RegionTree, snapshotId: string): RegionsResult {
  let text = `REGIONS:\n\n${tree.regions.map(regionBlock).join('\n\n')}`;
  if (tree.regions.length > 8 || roughTokens(text) > L1_BUDGET) {
    const folded = new Set<RegionNode>();
    const render = () => {
      const shown = tree.regions.filter((r) => !folded.has(r)).map(regionLine);
      const small = tree.regions.filter((r) => folded.has(r));
      if (small.length) shown.push(`  + ${small.length} small region${small.length === 1 ? '' : 's'} (≤ ${Math.max(...small.map((r) => r.nodes.filter((n) => countKind(n) !== null).length))} controls each): ${small.map((r) => r.id).join(', ')}`);
      return `REGIONS:\n${shown.join('\n')}`;
    };
    text = render();
    // Blocks go first, the fewest controls first; forms, searches, dialogs and main never.
    const keep = new Set(['main', 'form', 'search', 'dialog']);
    const controls = (r: RegionNode) => r.nodes.filter((n) => countKind(n) !== null).length;
    const rank = (r: RegionNode) => (r.landmark === 'block' || r.landmark === 'page' ? 0 : 1);
    const bySize = [...tree.regions].filter((r) => !keep.has(r.landmark) && !r.purposes.some((p) => p === 'search' || p === 'login' || p === 'sign-up'))
      .sort((a, b) => rank(a) - rank(b) || controls(a) - controls(b) || a.children.length - b.children.length);
    for (const r of bySize) {
      if (roughTokens(text) <= L1_BUDGET) break;
      folded.add(r);
      text = render();
    }
  }
  return { snapshotId, url: model.url, title: model.title, regions: tree.regions.map(regionData), text };
}
