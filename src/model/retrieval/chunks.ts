// Chunks: the page's nodes grouped the way a reader sees them — by region (landmark, form, dialog),
// by container (a card or a form stays whole), then by spatial proximity and headings.
import { isAmount } from './money.js';
import { truncate } from '../renderers/render.js';
import type { StructKind } from '../contracts/schema.js';
import type { RagNode, StructRef } from './ragNodes.js';

export interface Chunk {
  /** "C7" */
  id: string;
  /** "R2" */
  region: string;
  /** "MAIN \"Projects\"" */
  regionLabel: string;
  /** The container that makes the chunk (a card, a form, a section); absent for loose nodes grouped by proximity. */
  container?: StructRef;
  /** "R2 MAIN \"Projects\" › form \"Sign in\"" */
  label: string;
  nodes: RagNode[];
  /** Words around the chunk: its containers' names and the heading above it. */
  context: string;
}

const REGION_KINDS = new Set<StructKind>(['landmark', 'form', 'dialog']);
const REGION_NAMES: Record<string, string> = {
  banner: 'HEADER', navigation: 'NAV', main: 'MAIN', complementary: 'ASIDE', contentinfo: 'FOOTER', search: 'SEARCH',
  region: 'REGION', form: 'FORM', dialog: 'DIALOG', alertdialog: 'DIALOG',
};
/** A form or dialog up to this size is one chunk, whatever is inside it. */
const MAX_WHOLE = 80;
/** Loose nodes (and oversized containers) are cut into runs of at most this many… */
const MAX_RUN = 25;
/** …and wherever the page leaves a vertical gap this large (CSS px). */
const GAP = 160;

export function regionOf(n: RagNode): StructRef | undefined {
  return n.path.find((s) => REGION_KINDS.has(s.kind));
}

function describeStruct(s: StructRef): string {
  const word = s.kind === 'row' ? (s.role === 'row' ? 'row' : 'card') : s.kind === 'landmark' ? (REGION_NAMES[s.role] ?? s.role).toLowerCase() : s.kind;
  return s.name ? `${word} "${truncate(s.name, 40)}"` : word;
}

function regionLabel(s: StructRef | undefined): string {
  if (!s) return 'PAGE (outside landmarks)';
  const word = REGION_NAMES[s.role] ?? s.kind.toUpperCase();
  return s.name ? `${word} "${truncate(s.name, 40)}"` : word;
}

/** The container a node is chunked with: a whole form or dialog, else its card or row, else its innermost section. */
function containerOf(n: RagNode, sizes: Map<string, number>): StructRef | undefined {
  const whole = n.path.find((s) => (s.kind === 'form' || s.kind === 'dialog') && (sizes.get(s.gid) ?? 0) <= MAX_WHOLE);
  if (whole) return whole;
  for (let i = n.path.length - 1; i >= 0; i--) if (n.path[i].kind === 'row' && (sizes.get(n.path[i].gid) ?? 0) <= MAX_WHOLE) return n.path[i];
  return n.path[n.path.length - 1];
}

/**
 * Chunks in reading order: by region (top-level landmark, form or dialog; numbered as `regionIdOf`
 * says when given, else in reading order), then container (a form
 * or dialog whole, a card or table row whole, else the innermost section, fieldset or table),
 * then spatial proximity: loose nodes and oversized containers are cut at vertical gaps, at
 * headings and every MAX_RUN nodes.
 */
export function chunkDomNodes(nodes: RagNode[], regionIdOf?: (n: RagNode) => string | undefined): Chunk[] {
  const sizes = new Map<string, number>();
  for (const n of nodes) for (const s of n.path) sizes.set(s.gid, (sizes.get(s.gid) ?? 0) + 1);
  const regionIds = new Map<string, string>();
  const groups = new Map<string, { region: StructRef | undefined; container: StructRef | undefined; nodes: RagNode[] }>();
  const sorted = [...nodes].sort((a, b) => a.order - b.order);
  for (const n of sorted) {
    const region = regionOf(n);
    const rkey = region?.gid ?? '';
    if (!regionIds.has(rkey)) regionIds.set(rkey, `R${regionIds.size}`);
    const container = containerOf(n, sizes);
    const key = `${rkey}|${container?.gid ?? ''}`;
    let g = groups.get(key);
    if (!g) { g = { region, container, nodes: [] }; groups.set(key, g); }
    g.nodes.push(n);
  }
  const chunks: Chunk[] = [];
  const lastHeading = new Map<string, string>();
  const ordered = [...groups.values()].sort((a, b) => a.nodes[0].order - b.nodes[0].order);
  for (const g of ordered) {
    // The page's region numbering (lens.regions) when the caller has it, so that "R2" means one region everywhere.
    const rid = (regionIdOf && g.nodes.map(regionIdOf).find((id) => id !== undefined)) || regionIds.get(g.region?.gid ?? '')!;
    const rlabel = regionLabel(g.region);
    const keepWhole = g.container && (g.container.kind === 'form' || g.container.kind === 'dialog' || g.container.kind === 'row') && g.nodes.length <= MAX_WHOLE;
    const runs = keepWhole ? [g.nodes] : splitByProximity(g.nodes);
    runs.forEach((run, part) => {
      const containerWords = g.container ? g.container === g.region ? '' : ` › ${describeStruct(g.container)}` : '';
      // The region's name is said once, in the account of what was left out; groups name its kind.
      const label = `${rid} ${g.region ? REGION_NAMES[g.region.role] ?? g.region.kind.toUpperCase() : 'PAGE'}${containerWords}${runs.length > 1 ? ` (part ${part + 1})` : ''}`;
      const names = run[0].path.map((s) => s.name).filter(Boolean);
      const heading = run.find((n) => n.kind === 'heading')?.name ?? lastHeading.get(rid) ?? '';
      for (const n of run) if (n.kind === 'heading') lastHeading.set(rid, n.name);
      chunks.push({
        id: `C${chunks.length + 1}`,
        region: rid,
        regionLabel: rlabel,
        ...(g.container && { container: g.container }),
        label,
        nodes: run,
        context: [...new Set([...names, heading])].join(' · '),
      });
    });
  }
  return chunks;
}

function splitByProximity(nodes: RagNode[]): RagNode[][] {
  const runs: RagNode[][] = [];
  let run: RagNode[] = [];
  let bottom = -Infinity;
  for (const n of nodes) {
    const gap = n.box[1] - bottom;
    // A heading starts a new part, unless it is no title at all (a price set in an <h3>).
    const headingBreak = n.kind === 'heading' && !isAmount(n.name) && run.some((m) => m.kind !== 'heading');
    if (run.length && (run.length >= MAX_RUN || gap > GAP || headingBreak)) { runs.push(run); run = []; bottom = -Infinity; }
    run.push(n);
    bottom = Math.max(bottom, n.box[1] + n.box[3]);
  }
  if (run.length) runs.push(run);
  return runs;
}
