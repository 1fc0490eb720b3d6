// How big a page is for the DOM RAG, and whether it is worth filtering at all.
import { toFilteredNode } from './filteredPayload.js';
import { regionOf } from './chunks.js';
import type { RagKind, RagNode } from './ragNodes.js';

export interface DomStats {
  total: number;
  controls: number;
  items: number;
  headings: number;
  content: number;
  regions: number;
  /** Roughly the tokens of the whole tree as a filtered payload would write it (4 characters a token). */
  estimatedTokens: number;
  needsFiltering: boolean;
}

/** Past this many nodes or tokens a page is worth filtering (the seed's "massive pages"). */
export const FILTER_THRESHOLD = { nodes: 150, tokens: 3000 };

export function getDomStats(nodes: RagNode[]): DomStats {
  const count = (k: RagKind) => nodes.filter((n) => n.kind === k).length;
  const chars = nodes.reduce((s, n) => s + JSON.stringify(toFilteredNode(n)).length + 1, 0);
  const stats: DomStats = {
    total: nodes.length,
    controls: count('control'),
    items: count('item'),
    headings: count('heading'),
    content: count('content'),
    regions: new Set(nodes.map((n) => regionOf(n)?.gid ?? '')).size,
    estimatedTokens: Math.ceil(chars / 4),
    needsFiltering: false,
  };
  stats.needsFiltering = stats.total > FILTER_THRESHOLD.nodes || stats.estimatedTokens > FILTER_THRESHOLD.tokens;
  return stats;
}

/** Whether the nodes exceed what the caller can take (`maxTokens`, `maxNodes`), or the default thresholds. */
export function needsFiltering(nodes: RagNode[], opts: { maxTokens?: number; maxNodes?: number } = {}): boolean {
  const stats = getDomStats(nodes);
  if (opts.maxNodes !== undefined && stats.total > opts.maxNodes) return true;
  if (opts.maxTokens !== undefined) return stats.estimatedTokens > opts.maxTokens;
  return stats.needsFiltering;
}
