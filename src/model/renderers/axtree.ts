// The accessibility-tree path: Chrome's own AX tree (names and roles computed by the browser,
// closed shadow roots and cross-origin frames included), filtered to what carries meaning and
// rendered as the semantic node schema or as a compact outline.
import { z } from 'zod';
import { CHROME_CONTROL_PARTS, isInteractiveAxRole } from '../pagemodel/roles.js';
import { pageText, quotedPageText } from './pageText.js';
import { APPROXIMATE_TOKENS, FrameInfo, SemanticNode } from '../contracts/schema.js';
import { REDACTED, redactSecrets } from '../safety/secrets.js';

/** The slice of CDP's Accessibility.AXNode that we read. */
export interface CdpAxNode {
  nodeId: string;
  ignored?: boolean;
  role?: { value?: unknown };
  name?: { value?: unknown };
  value?: { value?: unknown };
  properties?: Array<{ name: string; value: { value?: unknown } }>;
  childIds?: string[];
  backendDOMNodeId?: number;
}

export interface AxTreeNode {
  /** EncodedId: `${frameOrdinal}-${backendNodeId}`. */
  axId: string;
  role: string;
  name: string;
  value?: string;
  states: string[];
  /** Global data-llm-id when the tagger stamped this element: act on it by that ID. */
  llmId?: string;
  frame: number;
  backendNodeId?: number;
  interactive: boolean;
  children: AxTreeNode[];
}


// Wrappers that only structure the page; without a name they are replaced by their children.
const WRAPPER_ROLES: ReadonlySet<string> = new Set(['generic', 'none', 'presentation', 'LineBreak', 'Section', 'group', 'paragraph', 'Div', 'LabelText', 'LayoutTable', 'LayoutTableRow', 'LayoutTableCell']);
// Pure rendering detail: bullets, text fragments.
const DROPPED_ROLES: ReadonlySet<string> = new Set(['InlineTextBox', 'ListMarker']);

const MAX_TEXT = 120;

function text(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v).replace(/\s+/g, ' ').trim() : '';
}

function prop(n: CdpAxNode, name: string): unknown {
  return n.properties?.find((p) => p.name === name)?.value.value;
}

/** States in the same vocabulary and order as the DOM engine's. */
export function axStates(n: CdpAxNode): string[] {
  const s: string[] = [];
  if (prop(n, 'disabled') === true) s.push('disabled');
  const checked = prop(n, 'checked') ?? prop(n, 'pressed');
  if (checked === 'mixed') s.push('mixed');
  else if (prop(n, 'checked') === 'true' || prop(n, 'checked') === true) s.push('checked');
  const expanded = prop(n, 'expanded');
  if (expanded === true) s.push('expanded');
  else if (expanded === false) s.push('collapsed');
  if (prop(n, 'selected') === true) s.push('selected');
  if (prop(n, 'pressed') === 'true' || prop(n, 'pressed') === true) s.push('pressed');
  if (prop(n, 'required') === true) s.push('required');
  if (prop(n, 'readonly') === true) s.push('readonly');
  if (prop(n, 'focused') === true) s.push('focused');
  return s;
}

export interface AxBuildContext {
  frame: number;
  /** The stamped global ID of a DOM node, if any. */
  llmIdOf(backendNodeId: number): string | undefined;
  /** Trees of child frames, keyed by the backend node ID of their iframe element. */
  frameRoots(iframeBackendNodeId: number): AxTreeNode[] | undefined;
  /** Whether the DOM node is a secret field (src/model/safety/secrets.ts): Chrome shows its value in clear. */
  isSecret(backendNodeId: number): boolean;
}

/**
 * Keeps a node when it has a name, kept children, or an interactive role; replaces nameless
 * wrappers by their children; drops inline text boxes and text that only repeats its parent's name.
 */
export function buildAxTree(nodes: CdpAxNode[], ctx: AxBuildContext): AxTreeNode[] {
  if (!nodes.length) return [];
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  // Chrome shows a secret field's value in clear (all but type=password) and embeds it in any name
  // built from the field (aria-labelledby, a label around it): every such value is found first,
  // then masked wherever it appears, before names are cut (a cut could keep half of it).
  const secrets = nodes.filter((n) => n.backendDOMNodeId !== undefined && ctx.isSecret(n.backendDOMNodeId))
    .map((n) => text(n.value?.value)).filter(Boolean);
  const masked = (v: unknown): string => redactSecrets(text(v), secrets);
  const convert = (id: string, parentName: string): AxTreeNode[] => {
    const raw = byId.get(id);
    if (!raw) return [];
    const role = text(raw.role?.value);
    if (DROPPED_ROLES.has(role)) return [];
    const name = masked(raw.name?.value);
    // Text children that only repeat what this node already says (its name, its value) are dropped.
    const transparent = raw.ignored || (WRAPPER_ROLES.has(role) && !name);
    const secret = raw.backendDOMNodeId !== undefined && ctx.isSecret(raw.backendDOMNodeId);
    const value = secret && text(raw.value?.value) ? REDACTED : masked(raw.value?.value);
    const childParentName = transparent ? parentName : `${name} ${value}`;
    let children = (raw.childIds ?? []).flatMap((c) => convert(c, childParentName));
    if (role === 'Iframe' && raw.backendDOMNodeId !== undefined) children = ctx.frameRoots(raw.backendDOMNodeId) ?? children;
    if (raw.ignored) return children;
    if (role === 'StaticText' && (!name || parentName.toLowerCase().includes(name.toLowerCase()))) return [];
    const llmId = raw.backendDOMNodeId !== undefined ? ctx.llmIdOf(raw.backendDOMNodeId) : undefined;
    const interactive = role !== 'RootWebArea' && role !== 'Iframe'
      && (isInteractiveAxRole(role) || CHROME_CONTROL_PARTS.has(role) || prop(raw, 'focusable') === true || llmId !== undefined);
    if (WRAPPER_ROLES.has(role) && !name && !interactive) return children;
    if (!name && !children.length && !interactive) return [];
    const node: AxTreeNode = {
      axId: `${ctx.frame}-${raw.backendDOMNodeId ?? raw.nodeId}`,
      role,
      name: name.length > MAX_TEXT ? name.slice(0, MAX_TEXT - 1) + '…' : name,
      states: axStates(raw),
      frame: ctx.frame,
      interactive,
      children,
    };
    if (value && value !== name) node.value = value.slice(0, 100);
    if (llmId !== undefined) node.llmId = llmId;
    if (raw.backendDOMNodeId !== undefined) node.backendNodeId = raw.backendDOMNodeId;
    return [node];
  };
  return convert(nodes[0].nodeId, '');
}

export function* walkAx(roots: AxTreeNode[]): Generator<AxTreeNode> {
  const stack = [...roots].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
}

/**
 * `[12] button: Save` — the stamped ID when there is one (act on it), else the EncodedId. Names,
 * text and values are page text (src/model/renderers/pageText.ts): plain words bare, anything else quoted.
 */
export function renderAxOutline(roots: AxTreeNode[]): string {
  const lines: string[] = [];
  const visit = (n: AxTreeNode, depth: number) => {
    const pad = '  '.repeat(depth);
    if (n.role === 'StaticText') {
      lines.push(`${pad}${pageText(n.name)}`);
    } else {
      let line = `${pad}[${n.llmId ?? n.axId}] ${n.role}`;
      if (n.name) line += `: ${pageText(n.name)}`;
      if (n.value !== undefined) line += ` = ${quotedPageText(n.value)}`;
      if (n.states.length) line += ` {${n.states.join(',')}}`;
      lines.push(line);
    }
    for (const c of n.children) visit(c, depth + 1);
  };
  for (const r of roots) visit(r, 0);
  return lines.join('\n');
}

/** Interactive AX nodes in the `semantic` node schema, so consumers can take either path. */
export function axToSemanticNodes(roots: AxTreeNode[]): SemanticNode[] {
  const out: SemanticNode[] = [];
  for (const n of walkAx(roots)) {
    if (!n.interactive) continue;
    const node: SemanticNode = { id: n.llmId ?? n.axId, role: n.role, name: n.name };
    if (n.value !== undefined) node.value = n.value;
    if (n.states.length) node.state = n.states.join(',');
    node.frameId = n.frame;
    node.axId = n.axId;
    out.push(node);
  }
  return out;
}

export const AxTreeResult = z.object({
  mode: z.literal('axtree'),
  url: z.string(),
  title: z.string(),
  nodes: z.array(SemanticNode),
  outline: z.string(),
  /** EncodedId → path: XPath-like steps per document, with `#shadow-root` and `#document` hops. */
  xpathMap: z.record(z.string(), z.string()),
  frames: z.array(FrameInfo),
  /** What the tree may be missing (a frame's DOM not indexed: no data-llm-id, no paths), and why. */
  warnings: z.array(z.string()).optional(),
  meta: z.object({
    axNodes: z.number(),
    keptNodes: z.number(),
    interactiveNodes: z.number(),
    taggedInteractive: z.number(),
    extractionTimeMs: z.number(),
    estimatedTokens: z.number(),
    ...APPROXIMATE_TOKENS,
  }),
});
export type AxTreeResult = z.infer<typeof AxTreeResult>;
