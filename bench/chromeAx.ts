// Chrome's own accessibility tree as the reference: its outline (a baseline representation),
// the elements it considers interactive, and, through backend node IDs, whether pagelens listed
// them and under which name.
import type { CDPSession } from 'playwright-core';
import { CHROME_CONTROL_PARTS, isInteractiveAxRole } from '../src/model/pagemodel/roles.js';
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

/** Roles that are focusable by nature but are not something to operate. */
const NOT_TARGETS = new Set(['RootWebArea', 'WebArea', ...CHROME_CONTROL_PARTS]);

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
    if (isInteractiveAxRole(role)) out.push({ ax: n, via: 'role' });
    else if (focusable(n)) out.push({ ax: n, via: 'focusable' });
  }
  return out;
}

export interface ListedNode { i: string; r: string; n: string; hid?: { n: number; why: string } }

interface Described { tag: string; attrs: Map<string, string>; box: number[] | null }

interface DomSnapshot {
  strings: string[];
  documents: Array<{
    nodes: { backendNodeId?: number[]; nodeName?: number[]; attributes?: number[][] };
    layout: { nodeIndex: number[]; bounds: number[][] };
  }>;
}

/**
 * Tag, attributes and layout box (document coordinates) of every node, in one round trip: per-node
 * DOM.describeNode and DOM.getBoxModel calls cost more than the rest of the page's checks together.
 */
async function describeAll(cdp: CDPSession): Promise<Map<number, Described>> {
  const snap = await cdp.send('DOMSnapshot.captureSnapshot', { computedStyles: [] }) as unknown as DomSnapshot;
  const out = new Map<number, Described>();
  const str = (i: number) => (i >= 0 ? snap.strings[i] : '');
  for (const doc of snap.documents) {
    const ids = doc.nodes.backendNodeId ?? [];
    const names = doc.nodes.nodeName ?? [];
    const attributes = doc.nodes.attributes ?? [];
    const boxes = new Map<number, number[]>();
    doc.layout.nodeIndex.forEach((node, k) => { if (!boxes.has(node)) boxes.set(node, doc.layout.bounds[k]); });
    ids.forEach((backendNodeId, i) => {
      const attrs = new Map<string, string>();
      const a = attributes[i] ?? [];
      for (let j = 0; j + 1 < a.length; j += 2) attrs.set(str(a[j]), str(a[j + 1]));
      const b = boxes.get(i);
      out.set(backendNodeId, { tag: str(names[i]).toLowerCase(), attrs, box: b ? b.map((x) => Math.round(x)) : null });
    });
  }
  return out;
}

/** A clipped target whose container is listed saying how many it hides: not listed, but not lost either. */
export const ACCOUNTED = 'clipped, its container reports it';
/** Focusable by script only (tabindex=-1, no role, no action): not a target, so not a miss either. */
export const SCRIPT_FOCUS = 'not a target: focusable by script only (tabindex=-1)';
export const UNSEEN_HINTS = new Set(['hidden or transparent', 'tiny (<=2px)', 'clipped by an overflow ancestor', ACCOUNTED, SCRIPT_FOCUS]);

// Runs on the missed element in the page's main world: the cheapest explanation first.
const DIAGNOSE = `function () {
  const el = this;
  // Focusable only from a script (tabindex=-1 on an element with no role and no action of its own):
  // Chrome counts it focusable, but nothing happens when a person clicks or tabs to it.
  const tab = el.getAttribute('tabindex');
  if (tab !== null && Number(tab) < 0 && !el.getAttribute('role') && !el.matches('a[href],button,input,select,textarea,summary,[contenteditable],[onclick]')) return { hint: '${SCRIPT_FOCUS}' };
  if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) return { hint: 'hidden or transparent' };
  const r = el.getBoundingClientRect();
  if (r.width <= 2 || r.height <= 2) return { hint: 'tiny (<=2px)' };
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const q = p.getBoundingClientRect();
    if (r.right <= q.left || r.left >= q.right || r.bottom <= q.top || r.top >= q.bottom) {
      // The clipping container, or the nearest tagged element around it: does it say what it hides?
      const holder = p.hasAttribute('data-llm-id') ? p : p.closest('[data-llm-id]');
      return { hint: 'clipped by an overflow ancestor', clipper: holder ? holder.getAttribute('data-llm-id') : null };
    }
  }
  const up = el.parentElement && el.parentElement.closest('[data-llm-id]');
  const down = el.querySelector('[data-llm-id]');
  return {
    hint: el.hasAttribute('data-llm-id') ? 'tagged, not listed' : 'not tagged',
    up: up ? [up.getAttribute('data-llm-id'), up.tagName.toLowerCase()] : null,
    down: down ? [down.getAttribute('data-llm-id'), down.tagName.toLowerCase()] : null,
  };
}`;

/** Visible: a non-empty box that lies (at least partly) inside the document. */
function visibleIn(b: number[], doc: { width: number; height: number }): boolean {
  return b[2] > 0 && b[3] > 0 && b[0] + b[2] > 0 && b[1] + b[3] > 0 && b[0] < doc.width && b[1] < doc.height;
}

async function boxModel(cdp: CDPSession, backendNodeId: number): Promise<number[] | null> {
  try {
    const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId }) as { model: { border: number[] } };
    const q = model.border;
    const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
    const x = Math.min(...xs), y = Math.min(...ys);
    return [Math.round(x), Math.round(y), Math.round(Math.max(...xs) - x), Math.round(Math.max(...ys) - y)];
  } catch {
    return null;
  }
}

type Diagnosis = { hint: string; up?: [string, string] | null; down?: [string, string] | null; clipper?: string | null };

/** Diagnoses the missed elements in one call (one resolveNode per element, then one function over all). */
async function diagnoseAll(cdp: CDPSession, backendNodeIds: number[], listed: Map<string, ListedNode>): Promise<string[]> {
  const handles = await Promise.all(backendNodeIds.map((backendNodeId) =>
    (cdp.send('DOM.resolveNode', { backendNodeId, objectGroup: 'bench' }) as Promise<{ object: { objectId: string } }>).then((r) => r.object.objectId, () => null)));
  const present = handles.filter((h): h is string => h !== null);
  let found: Diagnosis[] = [];
  if (present.length) {
    try {
      const { result } = await cdp.send('Runtime.callFunctionOn', {
        objectId: present[0], functionDeclaration: `function (...els) { const one = ${DIAGNOSE}; return els.map((el) => one.call(el)); }`,
        arguments: present.map((objectId) => ({ objectId })), returnByValue: true,
      }) as { result: { value?: Diagnosis[] } };
      found = result.value ?? [];
    } catch {
      found = [];
    }
  }
  await cdp.send('Runtime.releaseObjectGroup', { objectGroup: 'bench' }).catch(() => {});
  let k = 0;
  return handles.map((h) => {
    const v = h === null ? undefined : found[k++];
    if (!v) return 'unknown';
    if (v.clipper && listed.get(v.clipper)?.hid) return ACCOUNTED;
    if (v.up && listed.has(v.up[0])) return `inside listed <${v.up[1]}>`;
    if (v.down && listed.has(v.down[0])) return `contains listed <${v.down[1]}>`;
    return v.hint;
  });
}

export interface Agreement {
  /** unseen: misses a person could not see either (clipped away, transparent, 2px or less). */
  /** accounted: misses whose clipping container is listed with the count of what it hides, or that are no target (focusable by script only). */
  coverage: { candidates: number; covered: number; unseen: number; accounted: number; byHint: Record<string, number>; missed: Missed[] };
  /**
   * oursOnly: Chrome has no name where pagelens found one (a label Chrome does not associate).
   * accname*: the same comparison without the elements pagelens's label hunt named (those Chrome leaves unnamed).
   */
  names: { compared: number; agree: number; oursOnly: number; accnameCompared: number; accnameAgree: number; disagreements: NameDiff[] };
  forms?: { fields: FormField[] };
}

/** Enough for the worst corpus pages (hundreds of clipped carousel links); one call does them all. */
const MAX_DIAGNOSED = 1000;
const MAX_LISTED_DIFFS = 40;
const MAX_LISTED_MISSES = 150;

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
 * `hunted`: IDs whose name pagelens's label hunt gave (RawNode.nameFrom), left out of the accname-only figure.
 */
export async function compareWithChrome(
  cdp: CDPSession, nodes: AXNode[], listed: ListedNode[], doc: { width: number; height: number }, formFields?: Set<string>, hunted?: Set<string>,
): Promise<Agreement> {
  const byId = new Map(listed.map((n) => [n.i, n]));
  const all = await describeAll(cdp);
  type Seen = { c: Candidate; d: Described; ours?: ListedNode };
  const seen: Seen[] = [];
  for (const c of interactiveCandidates(nodes)) {
    const d = all.get(c.ax.backendDOMNodeId!);
    if (!d?.box || !visibleIn(d.box, doc)) continue;
    const id = d.attrs.get('data-llm-id');
    seen.push({ c, d, ours: id !== undefined ? byId.get(id) : undefined });
  }
  // A miss must also have a CSS box in DOM.getBoxModel's sense: the layout tree keeps bounds for
  // a few things that have none (inside collapsed or transformed-away containers).
  const misses = seen.filter((x) => !x.ours);
  const confirmed = await Promise.all(misses.map((x) => boxModel(cdp, x.c.ax.backendDOMNodeId!)));
  const gone = new Set<Seen>();
  misses.forEach((x, k) => { const b = confirmed[k]; if (b && visibleIn(b, doc)) x.d.box = b; else gone.add(x); });
  const visible = seen.filter((x) => !gone.has(x));

  const coverage: Agreement['coverage'] = { candidates: visible.length, covered: 0, unseen: 0, accounted: 0, byHint: {}, missed: [] };
  const names: Agreement['names'] = { compared: 0, agree: 0, oursOnly: 0, accnameCompared: 0, accnameAgree: 0, disagreements: [] };
  const fields: FormField[] = [];
  for (const { c, d, ours } of visible) {
    const chrome = nameOf(c.ax);
    const fieldName = d.attrs.get('name');
    if (formFields && fieldName !== undefined && formFields.has(fieldName) && d.tag !== 'option') {
      fields.push({ name: fieldName, tag: d.tag, type: d.attrs.get('type') ?? '', listed: !!ours, ours: ours?.n ?? '', chrome: norm(chrome) });
    }
    if (!ours) continue;
    coverage.covered++;
    names.compared++;
    const hunt = hunted?.has(ours.i) ?? false;
    if (!hunt) names.accnameCompared++;
    if (sameName(ours.n, chrome)) { names.agree++; if (!hunt) names.accnameAgree++; continue; }
    if (!norm(chrome) && norm(ours.n)) names.oursOnly++;
    if (names.disagreements.length < MAX_LISTED_DIFFS) names.disagreements.push({ id: ours.i, role: ours.r, tag: d.tag, ours: ours.n, chrome: norm(chrome).slice(0, 120), ...(hunt && { from: 'hunt' as const }) });
  }
  const missed = visible.filter((x) => !x.ours);
  const hints = await diagnoseAll(cdp, missed.slice(0, MAX_DIAGNOSED).map((x) => x.c.ax.backendDOMNodeId!), byId);
  const listedMisses: Missed[] = [];
  missed.forEach(({ c, d }, k) => {
    const hint = hints[k] ?? 'not diagnosed';
    coverage.byHint[hint] = (coverage.byHint[hint] ?? 0) + 1;
    if (UNSEEN_HINTS.has(hint)) coverage.unseen++;
    if (hint === ACCOUNTED || hint === SCRIPT_FOCUS) coverage.accounted++;
    listedMisses.push({ role: roleOf(c.ax), name: norm(nameOf(c.ax)).slice(0, 80), tag: d.tag, via: c.via, box: d.box ?? [], hint });
  });
  // What a person could see comes first: hundreds of clipped carousel links must not crowd out the real misses.
  coverage.missed = [...listedMisses.filter((m) => !UNSEEN_HINTS.has(m.hint)), ...listedMisses.filter((m) => UNSEEN_HINTS.has(m.hint))].slice(0, MAX_LISTED_MISSES);
  return { coverage, names, ...(formFields && { forms: { fields } }) };
}
