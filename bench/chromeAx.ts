// Chrome's own accessibility tree as the reference: its outline (a baseline representation),
// the elements it considers interactive, and, through backend node IDs, whether pagelens listed
// them and under which name.
import type { CDPSession } from 'playwright-core';
import type { FormField, Missed, NameDiff } from './schema.js';

interface AXValue { type: string; value?: unknown }
export interface AXNode {
  nodeId: string;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  properties?: Array<{ name: string; value: AXValue }>;
  childIds?: string[];
  parentId?: string;
  backendDOMNodeId?: number;
}

/** Roles an agent operates. Chrome reports ARIA role names for these. */
const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem',
  'PopUpButton', 'ToggleButton',
]);
/** Roles that are focusable by nature but are not something to operate. */
const NOT_TARGETS = new Set(['RootWebArea', 'WebArea', 'MenuListOption', 'MenuListPopup']);

export async function fullAxTree(cdp: CDPSession): Promise<AXNode[]> {
  const { nodes } = await cdp.send('Accessibility.getFullAXTree', {}) as unknown as { nodes: AXNode[] };
  return nodes;
}

export const roleOf = (n: AXNode): string => String(n.role?.value ?? '');
export const nameOf = (n: AXNode): string => String(n.name?.value ?? '');
export const norm = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** One line per non-ignored node, indented by depth: `role "name"`. Inline text boxes repeat their StaticText and are left out. */
export function axOutline(nodes: AXNode[]): string {
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const lines: string[] = [];
  const visit = (n: AXNode, depth: number) => {
    const role = roleOf(n);
    let next = depth;
    if (!n.ignored && role !== 'InlineTextBox') {
      const name = norm(nameOf(n));
      lines.push('  '.repeat(depth) + role + (name ? ` "${name}"` : ''));
      next = depth + 1;
    }
    for (const c of n.childIds ?? []) { const child = byId.get(c); if (child) visit(child, next); }
  };
  for (const n of nodes) if (!n.parentId || !byId.has(n.parentId)) visit(n, 0);
  return lines.join('\n');
}

function focusable(n: AXNode): boolean {
  return n.properties?.some((p) => p.name === 'focusable' && p.value.value === true) ?? false;
}

export interface Candidate { ax: AXNode; via: 'role' | 'focusable' }

export function interactiveCandidates(nodes: AXNode[]): Candidate[] {
  const out: Candidate[] = [];
  for (const n of nodes) {
    if (n.ignored || n.backendDOMNodeId === undefined) continue;
    const role = roleOf(n);
    if (NOT_TARGETS.has(role)) continue;
    if (INTERACTIVE_ROLES.has(role)) out.push({ ax: n, via: 'role' });
    else if (focusable(n)) out.push({ ax: n, via: 'focusable' });
  }
  return out;
}

export interface ListedNode { i: string; r: string; n: string }

interface Described { tag: string; attrs: Map<string, string>; box: number[] | null }

async function describe(cdp: CDPSession, backendNodeId: number): Promise<Described | null> {
  try {
    const [{ node }, box] = await Promise.all([
      cdp.send('DOM.describeNode', { backendNodeId }) as Promise<{ node: { nodeName: string; attributes?: string[] } }>,
      (cdp.send('DOM.getBoxModel', { backendNodeId }) as Promise<{ model: { border: number[] } }>).catch(() => null),
    ]);
    const attrs = new Map<string, string>();
    const a = node.attributes ?? [];
    for (let i = 0; i + 1 < a.length; i += 2) attrs.set(a[i], a[i + 1]);
    let rect: number[] | null = null;
    if (box) {
      const q = box.model.border;
      const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
      const x = Math.min(...xs), y = Math.min(...ys);
      rect = [Math.round(x), Math.round(y), Math.round(Math.max(...xs) - x), Math.round(Math.max(...ys) - y)];
    }
    return { tag: node.nodeName.toLowerCase(), attrs, box: rect };
  } catch {
    return null; // the node went away
  }
}

// Runs on the missed element in the page's main world: the cheapest explanation first.
const DIAGNOSE = `function () {
  const el = this;
  if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return { hint: 'hidden or transparent' };
  const r = el.getBoundingClientRect();
  if (r.width <= 2 || r.height <= 2) return { hint: 'tiny (<=2px)' };
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const q = p.getBoundingClientRect();
    if (r.right <= q.left || r.left >= q.right || r.bottom <= q.top || r.top >= q.bottom) return { hint: 'clipped by an overflow ancestor' };
  }
  const up = el.parentElement && el.parentElement.closest('[data-llm-id]');
  const down = el.querySelector('[data-llm-id]');
  return {
    hint: el.hasAttribute('data-llm-id') ? 'tagged, not listed' : 'not tagged',
    up: up ? [up.getAttribute('data-llm-id'), up.tagName.toLowerCase()] : null,
    down: down ? [down.getAttribute('data-llm-id'), down.tagName.toLowerCase()] : null,
  };
}`;

async function diagnose(cdp: CDPSession, backendNodeId: number, listed: Map<string, ListedNode>): Promise<string> {
  try {
    const { object } = await cdp.send('DOM.resolveNode', { backendNodeId, objectGroup: 'bench' }) as { object: { objectId: string } };
    const { result } = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: DIAGNOSE, returnByValue: true }) as
      { result: { value?: { hint: string; up?: [string, string] | null; down?: [string, string] | null } } };
    const v = result.value;
    if (!v) return 'unknown';
    if (v.up && listed.has(v.up[0])) return `inside listed <${v.up[1]}>`;
    if (v.down && listed.has(v.down[0])) return `contains listed <${v.down[1]}>`;
    return v.hint;
  } catch {
    return 'unknown';
  }
}

export interface Agreement {
  coverage: { candidates: number; covered: number; byHint: Record<string, number>; missed: Missed[] };
  /** oursOnly: Chrome has no name where pagelens found one (a label Chrome does not associate). */
  names: { compared: number; agree: number; oursOnly: number; disagreements: NameDiff[] };
  forms?: { fields: FormField[] };
}

const MAX_DIAGNOSED = 80;
const MAX_LISTED_DIFFS = 40;

/** Same-length comparison: the v3 renderer cuts names to 80 characters ending in '…'. */
export function sameName(ours: string, chrome: string): boolean {
  const a = norm(ours), b = norm(chrome);
  if (a === b) return true;
  if (a.length === 80 && a.endsWith('…')) return a.slice(0, 79) === b.slice(0, 79);
  return false;
}

/**
 * Coverage, name agreement and (with form labels) field naming, for the main frame: each
 * candidate from Chrome's tree is matched to pagelens output through its data-llm-id attribute.
 */
export async function compareWithChrome(
  cdp: CDPSession, nodes: AXNode[], listed: ListedNode[], doc: { width: number; height: number }, formFields?: Set<string>,
): Promise<Agreement> {
  const byId = new Map(listed.map((n) => [n.i, n]));
  const candidates = interactiveCandidates(nodes);
  const described = await Promise.all(candidates.map((c) => describe(cdp, c.ax.backendDOMNodeId!)));
  const coverage: Agreement['coverage'] = { candidates: 0, covered: 0, byHint: {}, missed: [] };
  const names: Agreement['names'] = { compared: 0, agree: 0, oursOnly: 0, disagreements: [] };
  const fields: FormField[] = [];
  const toDiagnose: Array<{ c: Candidate; d: Described }> = [];
  candidates.forEach((c, k) => {
    const d = described[k];
    const b = d?.box;
    // Visible: a non-empty box that lies (at least partly) inside the document.
    if (!d || !b || b[2] <= 0 || b[3] <= 0 || b[0] + b[2] <= 0 || b[1] + b[3] <= 0 || b[0] >= doc.width || b[1] >= doc.height) return;
    coverage.candidates++;
    const id = d.attrs.get('data-llm-id');
    const ours = id !== undefined ? byId.get(id) : undefined;
    const chrome = nameOf(c.ax);
    const fieldName = d.attrs.get('name');
    if (formFields && fieldName !== undefined && formFields.has(fieldName) && d.tag !== 'option') {
      fields.push({ name: fieldName, tag: d.tag, type: d.attrs.get('type') ?? '', listed: !!ours, ours: ours?.n ?? '', chrome: norm(chrome) });
    }
    if (!ours) { toDiagnose.push({ c, d }); return; }
    coverage.covered++;
    names.compared++;
    if (sameName(ours.n, chrome)) { names.agree++; return; }
    if (!norm(chrome) && norm(ours.n)) names.oursOnly++;
    if (names.disagreements.length < MAX_LISTED_DIFFS) names.disagreements.push({ id: ours.i, role: ours.r, tag: d.tag, ours: ours.n, chrome: norm(chrome).slice(0, 120) });
  });
  const hints = await Promise.all(toDiagnose.map(({ c }, k) => k < MAX_DIAGNOSED ? diagnose(cdp, c.ax.backendDOMNodeId!, byId) : Promise.resolve('not diagnosed')));
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'bench' }).catch(() => {});
  toDiagnose.forEach(({ c, d }, k) => {
    const hint = hints[k];
    coverage.byHint[hint] = (coverage.byHint[hint] ?? 0) + 1;
    coverage.missed.push({ role: roleOf(c.ax), name: norm(nameOf(c.ax)).slice(0, 80), tag: d.tag, via: c.via, box: d.box ?? [], hint });
  });
  return { coverage, names, ...(formFields && { forms: { fields } }) };
}
